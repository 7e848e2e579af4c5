"""The spellers: a rendered sentence as a teacher says it aloud, in en, nb, sv and it (issue 28)."""

from __future__ import annotations

import html
import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.signs import FORMS, MINUS, formula, operators, typed, write
from tutor.speech import SPELLERS, speakable
from tutor.speech.reading import SIGNS

LOCALES = ("en", "nb", "sv", "it")
#: What must not survive in a speakable form: a digit, a sign, a fraction bar, a suit or a joker.
UNSPOKEN = re.compile(rf"[\d{re.escape(SIGNS)}/♥♠♦♣🃏]")

NUMBERS = {
    "en": {
        0: "zero",
        1: "one",
        7: "seven",
        13: "thirteen",
        21: "twenty-one",
        27: "twenty-seven",
        40: "forty",
        56: "fifty-six",
        99: "ninety-nine",
        100: "one hundred",
        101: "one hundred and one",
        110: "one hundred and ten",
        115: "one hundred and fifteen",
        250: "two hundred and fifty",
        999: "nine hundred and ninety-nine",
        1000: "one thousand",
    },
    "nb": {
        0: "null",
        1: "en",
        7: "sju",
        13: "tretten",
        18: "atten",
        21: "tjueen",
        27: "tjuesju",
        40: "førti",
        56: "femtiseks",
        77: "syttisju",
        99: "nittini",
        100: "hundre",
        101: "hundre og en",
        110: "hundre og ti",
        250: "to hundre og femti",
        700: "sju hundre",
        999: "ni hundre og nittini",
        1000: "tusen",
        1100: "tusen ett hundre",
        2027: "to tusen og tjuesju",
    },
    "sv": {
        0: "noll",
        1: "ett",
        7: "sju",
        13: "tretton",
        18: "arton",
        21: "tjugoett",
        27: "tjugosju",
        40: "fyrtio",
        44: "fyrtiofyra",
        56: "femtiosex",
        99: "nittionio",
        100: "etthundra",
        101: "etthundraett",
        110: "etthundratio",
        250: "tvåhundrafemtio",
        999: "niohundranittionio",
        1000: "ettusen",
        21000: "tjugoettusen",
    },
    "it": {
        0: "zero",
        1: "uno",
        7: "sette",
        13: "tredici",
        21: "ventuno",
        23: "ventitré",
        27: "ventisette",
        28: "ventotto",
        40: "quaranta",
        56: "cinquantasei",
        99: "novantanove",
        100: "cento",
        101: "centouno",
        110: "centodieci",
        250: "duecentocinquanta",
        999: "novecentonovantanove",
        1000: "mille",
    },
}

FRACTIONS = {
    "en": {
        "1/2": "one half",
        "3/2": "three halves",
        "1/3": "one third",
        "2/3": "two thirds",
        "3/4": "three quarters",
        "1/5": "one fifth",
        "5/6": "five sixths",
        "2/7": "two sevenths",
        "3/8": "three eighths",
        "4/9": "four ninths",
        "7/10": "seven tenths",
        "1/11": "one eleventh",
        "11/12": "eleven twelfths",
        "5/13": "five thirteenths",
    },
    "nb": {
        "1/2": "en halv",
        "3/2": "tre halve",
        "1/3": "en tredjedel",
        "2/3": "to tredjedeler",
        "1/4": "en firedel",
        "3/4": "tre firedeler",
        "1/5": "en femtedel",
        "5/6": "fem sjettedeler",
        "2/7": "to sjuendedeler",
        "3/8": "tre åttendedeler",
        "4/9": "fire niendedeler",
        "7/10": "sju tiendedeler",
        "1/11": "en ellevtedel",
        "11/12": "elleve tolvtedeler",
        "5/13": "fem trettendedeler",
        "1/100": "en hundredel",
    },
    "sv": {
        "1/2": "en halv",
        "3/2": "tre halvor",
        "1/3": "en tredjedel",
        "2/3": "två tredjedelar",
        "3/4": "tre fjärdedelar",
        "1/5": "en femtedel",
        "5/6": "fem sjättedelar",
        "2/7": "två sjundedelar",
        "3/8": "tre åttondedelar",
        "4/9": "fyra niondedelar",
        "7/10": "sju tiondedelar",
        "1/11": "en elftedel",
        "11/12": "elva tolftedelar",
        "5/13": "fem trettondedelar",
        "3/20": "tre tjugondelar",
    },
    "it": {
        "1/2": "un mezzo",
        "3/2": "tre mezzi",
        "1/3": "un terzo",
        "2/3": "due terzi",
        "3/4": "tre quarti",
        "1/5": "un quinto",
        "5/6": "cinque sesti",
        "2/7": "due settimi",
        "3/8": "tre ottavi",
        "4/9": "quattro noni",
        "7/10": "sette decimi",
        "1/11": "un undicesimo",
        "11/12": "undici dodicesimi",
        "5/13": "cinque tredicesimi",
    },
}

SIGN_SENTENCES = {
    "en": {
        "7 + 1": "seven plus one",
        f"7 {MINUS} 1": "seven minus one",
        "7 × 8": "seven times eight",
        "12 ÷ 3": "twelve divided by three",
        "8 / 2": "eight divided by two",
        "7 = 7": "seven equals seven",
        "3 < 5": "three is less than five",
        "5 > 3": "five is greater than three",
        "3 ≤ 5": "three is less than or equal to five",
        "5 ≥ 3": "five is greater than or equal to three",
        "3 ≠ 5": "three is not equal to five",
        "19 ≈ 20": "nineteen is about twenty",
        "(7 - 3) x 2": "(seven minus three) times two",
        "60%": "sixty percent",
    },
    "nb": {
        "7 + 1": "sju pluss en",
        f"7 {MINUS} 1": "sju minus en",
        "7 · 8": "sju ganger åtte",
        "12 : 3": "tolv delt på tre",
        "12 ÷ 3": "tolv delt på tre",
        "(7 - 3) * 2": "(sju minus tre) ganger to",
        "7 = 7": "sju er lik sju",
        "3 < 5": "tre er mindre enn fem",
        "5 > 3": "fem er større enn tre",
        "3 ≤ 5": "tre er mindre enn eller lik fem",
        "5 ≥ 3": "fem er større enn eller lik tre",
        "3 ≠ 5": "tre er ikke lik fem",
        "19 ≈ 20": "nitten er omtrent tjue",
        "60 %": "seksti prosent",
    },
    "sv": {
        "7 + 1": "sju plus ett",
        f"7 {MINUS} 1": "sju minus ett",
        "7 × 8": "sju gånger åtta",
        "12 ÷ 3": "tolv delat med tre",
        "12 / 3": "tolv delat med tre",
        "7 = 7": "sju är lika med sju",
        "3 < 5": "tre är mindre än fem",
        "5 > 3": "fem är större än tre",
        "3 ≤ 5": "tre är mindre än eller lika med fem",
        "5 ≥ 3": "fem är större än eller lika med tre",
        "3 ≠ 5": "tre är inte lika med fem",
        "19 ≈ 20": "nitton är ungefär tjugo",
        "60 %": "sextio procent",
        "Öva på 3:ans tabell.": "Öva på treans tabell.",
    },
    "it": {
        "7 + 1": "sette più uno",
        f"7 {MINUS} 1": "sette meno uno",
        "7 × 8": "sette per otto",
        "12 : 3": "dodici diviso tre",
        "7 = 7": "sette è uguale a sette",
        "3 < 5": "tre è minore di cinque",
        "5 > 3": "cinque è maggiore di tre",
        "3 ≤ 5": "tre è minore o uguale a cinque",
        "5 ≥ 3": "cinque è maggiore o uguale a tre",
        "3 ≠ 5": "tre è diverso da cinque",
        "19 ≈ 20": "diciannove è circa venti",
        "60%": "sessanta per cento",
    },
}

OTHER_SENTENCES = {
    "en": {
        f"{MINUS}12": "minus twelve",
        f"{MINUS}3/4": "minus three quarters",
        "35 1/4": "thirty-five and one quarter",
        "2 1/2 + 1/2 = 3": "two and one half plus one half equals three",
        "3.25": "three point two five",
        "Q♥ beats 10♠.": "queen of hearts beats ten of spades.",
        "A♣, K♦ and 🃏": "ace of clubs, king of diamonds and joker",
        "A card: 7, Q, K, A": "a card: seven, queen, king, ace",
        "Use + - x / and brackets.": "use plus, minus, times, divided by and brackets.",
        "only odd/even": "only odd or even",
    },
    "nb": {
        f"{MINUS}12": "minus tolv",
        f"3 {MINUS} 5 = {MINUS}2": "tre minus fem er lik minus to",
        "27 + 3/4": "tjuesju pluss tre firedeler",
        "35 1/4": "trettifem og en firedel",
        "2 1/2": "to og en halv",
        "3,25": "tre komma to fem",
        "0,5": "null komma fem",
        "Q♥ slår 10♠.": "hjerter dame slår spar ti.",
        "A♣, K♦ og 🃏": "kløver ess, ruter konge og joker",
        "A og K slår 7.": "ess og konge slår sju.",
        "Regn med + − · :": "regn med pluss, minus, ganger, delt på",
        "bare oddetall/partall.": "bare oddetall eller partall.",
    },
    "sv": {
        f"{MINUS}12": "minus tolv",
        "27 + 3/4": "tjugosju plus tre fjärdedelar",
        "2 1/2": "två och en halv",
        "3,25": "tre komma två fem",
        "Q♥ slår 10♠.": "hjärter dam slår spader tio.",
        "bara udda/jämnt": "bara udda eller jämnt",
    },
    "it": {
        f"{MINUS}12": "meno dodici",
        "27 + 3/4": "ventisette più tre quarti",
        "2 1/2": "due e un mezzo",
        "3,25": "tre virgola due cinque",
        "Q♥ batte 10♠.": "donna di cuori batte dieci di picche.",
        "Usa + − × : e le parentesi.": "usa più, meno, per, diviso e le parentesi.",
        "solo dispari/pari": "solo dispari o pari",
        "A te tocca il 7.": "a te tocca il sette.",
    },
}


@pytest.mark.parametrize("locale", LOCALES)
def test_every_number_to_a_thousand_is_words_without_a_digit(locale):
    for value in range(1001):
        spoken = speakable(str(value), locale)
        assert spoken and not UNSPOKEN.search(spoken), (value, spoken)
        assert spoken == SPELLERS[locale].number(value)


@pytest.mark.parametrize(
    ("locale", "value", "words"), [(loc, v, w) for loc in LOCALES for v, w in NUMBERS[loc].items()]
)
def test_numbers_are_said_as_the_locales_schools_say_them(locale, value, words):
    assert speakable(str(value), locale) == words


@pytest.mark.parametrize("locale", LOCALES)
def test_every_fraction_up_to_twelfths_is_words(locale):
    for denominator in range(2, 13):
        for numerator in range(1, denominator):
            spoken = speakable(f"{numerator}/{denominator}", locale)
            assert spoken and not UNSPOKEN.search(spoken), (numerator, denominator, spoken)


@pytest.mark.parametrize(
    ("locale", "written", "words"), [(loc, f, w) for loc in LOCALES for f, w in FRACTIONS[loc].items()]
)
def test_fractions_are_said_as_in_school(locale, written, words):
    assert speakable(written, locale) == words


@pytest.mark.parametrize(
    ("locale", "written", "words"),
    [(loc, f, w) for loc in LOCALES for table in (SIGN_SENTENCES, OTHER_SENTENCES) for f, w in table[loc].items()],
)
def test_signs_negative_numbers_mixed_numbers_decimals_and_cards_are_words(locale, written, words):
    assert speakable(written, locale).lower() == words.lower()


@pytest.mark.parametrize("locale", LOCALES)
def test_every_sign_has_a_word(locale):
    for sign in SIGNS.replace("%", "").replace("*", ""):
        spoken = speakable(f"4 {sign} 2", locale)
        assert not UNSPOKEN.search(spoken), (sign, spoken)
    assert not UNSPOKEN.search(speakable("4 * 2 = 8", locale))


@pytest.mark.parametrize("locale", LOCALES)
def test_the_operator_signs_a_rule_lists_are_words(locale):
    for listed in (write(operators("+-*/"), locale), write(typed(operators("+-*/")), locale)):
        spoken = speakable(f"Use {listed} with your numbers.", locale)
        assert not UNSPOKEN.search(spoken) and " x " not in spoken, (listed, spoken)


@pytest.mark.parametrize("locale", LOCALES)
def test_a_hyphen_inside_a_word_a_labels_colon_and_prose_stay_as_they_are(locale):
    assert speakable("a tens-friend (or not): yes.", locale) == "a tens-friend (or not): yes."
    assert (
        speakable("Round 10: 3 cards", locale)
        == f"Round {SPELLERS[locale].number(10)}: {SPELLERS[locale].number(3)} cards"
    )


def test_a_locale_of_a_country_and_an_unknown_one_find_a_speller():
    assert speakable("27", "nb_NO") == "tjuesju"
    assert speakable("27", "de") == "twenty-seven"


OPERATORS = ("+", "-", "*", "/", "=", "<", ">", "≤", "≥", "≈")
numbers = st.one_of(
    st.integers(-(10**6), 10**6),
    st.fractions(min_value=-1000, max_value=1000, max_denominator=12),
    st.tuples(st.integers(0, 99), st.integers(1, 99)),
)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(numbers, min_size=1, max_size=5),
    st.lists(st.sampled_from(OPERATORS), min_size=4, max_size=4),
    st.sampled_from(FORMS),
    st.sampled_from(LOCALES),
    st.booleans(),
)
def test_no_digit_or_sign_survives_in_an_arithmetic_sentence(terms, operators, form, locale, bracketed):
    """Any calculation :mod:`tutor.signs` writes, in any form and locale, is said with words only."""
    pieces: list = [terms[0]]
    for operator, term in zip(operators, terms[1:]):
        pieces += [operator, term]
    if bracketed and len(pieces) > 1:
        pieces = ["(", *pieces[:3], ")", *pieces[3:]]
    maths = formula(*[Fraction(p) if isinstance(p, Fraction) else p for p in pieces], form=form)
    written = write(maths, locale)
    spoken = speakable(f"So: {written}.", locale)
    assert not UNSPOKEN.search(spoken), (written, spoken)


@pytest.mark.parametrize("locale", ["nb", "it"])
def test_a_lesson_page_gives_its_speaker_the_words_of_its_text(guest, client, locale):
    """The intro step's speaker carries the coach's text spelt in the page's language, hidden until a voice is found."""
    guest.sign_in("Ada", locale)
    run_id = guest.start("war")
    page = client.get(f"/runs/{run_id}").get_data(as_text=True)
    speakers = re.findall(
        r'<button type="button" class="speak" data-speak="([^"]+)"(?: data-speak-auto)? '
        r'aria-label="([^"]+)"[^>]*hidden>',
        page,
    )
    assert len(speakers) == 3, "the scoreboard, the coach and the table's one zone each have a speaker"
    for words, label in speakers:
        assert label == {"nb": "Les opp", "it": "Leggi ad alta voce"}[locale]
        assert words.strip() and not UNSPOKEN.search(html.unescape(words)), words


def test_the_scoreboard_and_every_seat_are_read(guest, client):
    """The scoreboard's lines and each zone's seats with their notes, each line a sentence (issue 28)."""
    guest.sign_in("Ada", "nb")
    run_id = guest.start("war")
    client.post(f"/runs/{run_id}/skip-intro")
    page = client.get(f"/runs/{run_id}").get_data(as_text=True)
    scoreboard = re.search(r'<div class="scoreboard".*?</div>', page, re.S).group(0)
    (words,) = speakers_of(scoreboard)
    assert re.fullmatch(r"Runde en av ti\. Du: tjueseks kort\. Datamaskin en: tjueseks kort\.", words), words
    zones = re.findall(r'<section class="zone zone-(?!last-round).*?</section>', page, re.S)
    assert zones
    for zone in zones:
        (words,) = speakers_of(zone)
        names = [html.unescape(name) for name in re.findall(r'<span class="seat-name">([^<]+)', zone)]
        assert names and all(f"{speakable(name, 'nb')}" in words for name in names), (names, words)
        assert not UNSPOKEN.search(words), words


def speakers_of(html_text: str) -> list[str]:
    """The words of every speaker button of a page, unescaped."""
    return [html.unescape(words) for words in re.findall(r'class="speak" data-speak="([^"]+)"', html_text)]


def test_the_last_round_is_read_seat_by_seat_with_its_cards_and_winner(app, guest, client, fixed_deal):
    fixed_deal(1)
    guest.sign_in("Ada", "nb")
    run_id = guest.start("war")
    client.post(f"/runs/{run_id}/skip-intro")
    guest.play_until(app, run_id, lambda state: state.last_round)
    page = client.get(f"/runs/{run_id}").get_data(as_text=True)
    zone = re.search(r'<section class="zone zone-last-round".*?</section>', page, re.S).group(0)
    (words,) = speakers_of(zone)
    assert re.fullmatch(r"Forrige runde\. Du: [^.]+\. Datamaskin en: [^.]+\.", words), words
    assert words.count(", vinner av runden.") == 1, words
    assert not UNSPOKEN.search(words), words


def test_a_question_is_read_with_the_answers_it_offers(app):
    from flask_babel import force_locale

    from tutor.web.i18n import speakable_choices, spoken

    choices = [{"value": "yes", "label": "Yes"}, {"value": "8", "label": "8 + 2"}, {"value": "no", "label": "No!"}]
    with app.test_request_context(), force_locale("nb"):
        assert speakable_choices(choices) == ["Ja.", "8 + 2.", "No!"]
        assert spoken([], speakable_choices(choices)) == ("Ja. åtte pluss to. No!", [])


def test_a_stacked_fraction_is_read_as_a_fraction_not_as_its_markup(app):
    """A seat's note in a fraction lesson is drawn with stacked fractions (lesson_view.say_stacked): its speaker
    reads the fraction, never the tags around it."""
    from flask_babel import force_locale
    from markupsafe import Markup

    from tutor.web.i18n import spoken
    from tutor.web.lesson_view import say_stacked

    with app.test_request_context(), force_locale("nb"):
        note = say_stacked("fra 2/8 til 1/9 < 1")
        assert isinstance(note, Markup) and "frac-num" in note
        assert spoken([], [Markup("Intervallet: ") + note + "."]).words == (
            "Intervallet: fra to åttendedeler til en niendedel er mindre enn en."
        )


def test_the_progress_page_reads_each_skill_with_its_stars(guest, client):
    guest.sign_in("Ada", "nb")
    page = client.get("/progress").get_data(as_text=True)
    cards = re.findall(r'<li class="skill-card.*?</li>', page, re.S)
    assert cards
    for card in cards:
        (words,) = speakers_of(card)
        name = html.unescape(re.search(r"<h2>([^<]+)</h2>", card).group(1))
        assert words.startswith(f"{name}. null stjerner av fire."), words
        assert not UNSPOKEN.search(words), words


@pytest.mark.parametrize(
    ("locale", "written", "words"),
    [
        ("nb", "Du tar 1 kort.", "Du tar ett kort."),
        ("nb", "Du vant 1 stikk og 1 runde.", "Du vant ett stikk og en runde."),
        ("nb", "21 kort, 101 poeng, 11 kort, 13 kort", "tjueett kort, hundre og ett poeng, elleve kort, tretten kort"),
        ("nb", "Runde 1 av 5: 1 sjetong", "Runde en av fem: en sjetong"),
        ("sv", "Du tar 1 kort och 1 spelmark.", "Du tar ett kort och en spelmark."),
        ("sv", "1 runda, 21 kort, 21 spelmark", "en runda, tjugoett kort, tjugoen spelmark"),
        ("sv", "Runda 1 av 5", "Runda ett av fem"),
        ("it", "1 carta e 1 gettone; 21 carte", "una carta e un gettone; ventun carte"),
        ("it", "31 gettoni, 91 punti, 121 carte", "trentun gettoni, novantun punti, centoventun carte"),
        (
            "it",
            "101 carte, 1001 carte, 11 carte, 21 più 3",
            "centouno carte, milleuno carte, undici carte, ventuno più tre",
        ),
        ("it", "Hai 21 carte", "Hai ventun carte"),
    ],
)
def test_one_agrees_with_the_noun_it_counts(locale, written, words):
    """A count ending in one takes the gender of its noun: nb "ett kort" (neuter), sv "en spelmark" (common), it
    "una carta" (feminine); Italian "ventuno" drops its "o" before the plural noun ("ventun carte")."""
    assert speakable(written, locale) == words
