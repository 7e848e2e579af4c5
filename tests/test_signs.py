"""School signs per locale: one table knows them, every text a pupil reads uses them, the parser reads them all."""

from __future__ import annotations

import html
import re
import tomllib
from fractions import Fraction

import pytest

from tests.conftest import run_record
from tests.test_choices import pupil_turn
from tests.test_triplesmart import deal, n, submit
from tests.test_web import ask_now
from tutor import ROOT
from tutor.answers import ALLOW_FOUR_OPS, AnswerError, read_answer, read_back
from tutor.content import drill_texts, translatable_strings
from tutor.deck import kids2
from tutor.drills import CHOICE, Question
from tutor.drills.add_sub import razboiul_war_cards
from tutor.drills.factor_pairs import factor_pair_cards, factor_pair_for_value, missing_factor
from tutor.drills.four_ops import (
    triplesmart_extreme_better,
    triplesmart_extreme_distance,
    triplesmart_extreme_expression,
)
from tutor.drills.mean import mean_estimate, mean_exact
from tutor.drills.multiply import multiply_top_numbers
from tutor.drills.primes import prime_is_prime, prime_which_sum
from tutor.drills.probability import probability_tie, probability_tie_bet
from tutor.engine import Move
from tutor.lessons import LESSONS
from tutor.lessons.base import computer_name
from tutor.lessons.runner import PUPIL, LessonRun
from tutor.lessons.shedding import MultiMatchLesson
from tutor.lessons.triplesmart import CloseTeller, shown_expression
from tutor.signs import (
    DECIMAL,
    FRACTION,
    MIXED,
    format_formula,
    format_number,
    formula,
    listing,
    operators,
    signs,
    write,
)
from tutor.standard_deck import KING, card_id
from tutor.text import LOCALES, Text, say

DECK = kids2()
NUMBER_CARDS = list(DECK.number_card_ids)
#: The signs each locale's schools write for multiplying and dividing.
SCHOOL = {"en": ("×", "÷"), "sv": ("×", "÷"), "nb": ("·", ":"), "it": ("×", ":")}
#: Every sign the answer grammar reads for multiplying and dividing, whatever the locale.
TIMES_SIGNS = ["x", "X", "*", "×", "·", "⋅", "∙"]
DIVIDE_SIGNS = ["/", "÷", ":", "⁄", "∕"]


def card(top: int, skip: int = 0) -> int:
    return [c for c in NUMBER_CARDS if DECK[c].top == top][skip]


def card_with(predicate) -> int:
    return next(c for c in NUMBER_CARDS if predicate(DECK[c]))


# --- the one table ---------------------------------------------------------------------------


def test_each_locale_has_its_school_signs():
    for locale, (times, divide) in SCHOOL.items():
        assert signs(locale) == {"plus": "+", "minus": "−", "times": times, "divide": divide}
    assert signs("nb_NO") == signs("nb") and signs("fr") == signs(
        "en"
    )  # a region is its language; an unknown locale writes English


@pytest.mark.parametrize("locale", LOCALES)
def test_a_calculation_is_written_in_the_locales_signs(locale):
    times, divide = SCHOOL[locale]
    assert format_formula("3*(4-1)", locale) == f"3 {times} (4 − 1)"
    assert format_formula("8 / 2 = 4", locale) == f"8 {divide} 2 = 4"
    assert format_formula("2 x -3", locale) == f"2 {times} −3"  # a sign in front of a number stays with it
    assert write(formula(7, "*", 8, "=", 56, ";", 6, "*", 9, "=", 54), locale) == f"7 {times} 8 = 56; 6 {times} 9 = 54"
    assert (
        write(formula(10, "*", Fraction(3, 51), form=FRACTION), locale) == f"10 {times} 1/17"
    )  # a Fraction is one number, not a division
    assert (
        write(formula((12, 48), "=", Fraction(1, 4), form=FRACTION), locale) == "12/48 = 1/4"
    )  # a pair is written as it stands
    assert write(operators("+-*/"), locale) == f"+ − {times} {divide}"
    assert write(listing([formula(2, "*", 3), formula(4, "/", 2)], ","), locale) == f"2 {times} 3, 4 {divide} 2"
    with pytest.raises(ValueError):
        formula(3, "x", 4)  # operators are the plain ones; numbers go in as numbers


@pytest.mark.parametrize("locale", LOCALES)
def test_one_number_formatter_with_one_rule_per_question(locale):
    comma = "," if locale != "en" else "."
    quarter = Fraction(141, 4)
    assert format_number(quarter, locale, MIXED) == "35 1/4"
    assert format_number(quarter, locale, FRACTION) == "141/4"
    assert format_number(quarter, locale, DECIMAL) == f"35{comma}25"
    assert format_number(-quarter, locale, MIXED) == "−35 1/4"
    assert format_number(Fraction(-58, 311), locale, DECIMAL) == "−58/311"  # no short decimal: a fraction
    assert format_number(Fraction(-1, 4), locale, DECIMAL) == f"−0{comma}25"  # one minus sign, "−", in every form
    assert format_number(Fraction(3, 4), locale, MIXED) == "3/4" and format_number(-7, locale, MIXED) == "−7"


# --- the parser reads every locale's signs ---------------------------------------------------


@pytest.mark.parametrize("locale", LOCALES)
def test_the_parser_reads_every_school_sign_in_every_locale(locale):
    for sign in TIMES_SIGNS:
        assert read_answer(f"12 {sign} 4", locale, allow=ALLOW_FOUR_OPS).value == 48, sign
    for sign in DIVIDE_SIGNS:
        assert read_answer(f"12 {sign} 4", locale, allow=ALLOW_FOUR_OPS).value == 3, sign
    for minus in ("-", "−", "–"):
        assert read_answer(f"12 {minus} 4", locale, allow=ALLOW_FOUR_OPS).value == 8


@pytest.mark.parametrize("locale", LOCALES)
def test_a_calculation_is_read_back_in_the_locales_signs_with_its_value(locale):
    times, divide = SCHOOL[locale]
    for typed in ("3x4-2", "3*4 - 2", "3 · 4 − 2", "3×4-2"):
        assert read_back(read_answer(typed, locale, allow=ALLOW_FOUR_OPS), locale) == f"3 {times} 4 − 2 = 10"
    for typed in ("7÷2", "7:2", "7 ÷ 2"):
        assert read_back(read_answer(typed, locale, allow=ALLOW_FOUR_OPS), locale, FRACTION) == f"7 {divide} 2 = 7/2"
    assert (
        read_back(read_answer("7 / 2", locale, allow=ALLOW_FOUR_OPS), locale, FRACTION) == "7/2"
    )  # typed alone, a fraction


def test_the_bad_character_message_lists_the_decimal_comma_and_the_locales_keys():
    listed = {}
    for locale in LOCALES:
        with pytest.raises(AnswerError) as caught:
            read_answer("3 # 4", locale, allow=ALLOW_FOUR_OPS)
        listed[locale] = caught.value.params["signs"].split()
        example = caught.value.params["example"]
        assert (
            read_answer(example, locale, allow=ALLOW_FOUR_OPS).value == 12
        )  # the example is typed as that pupil would
    assert "," in listed["nb"] and "," in listed["sv"] and "," in listed["it"] and "." not in listed["nb"]
    assert "." in listed["en"] and "," not in listed["en"]
    assert ":" in listed["nb"] and ":" in listed["it"] and "÷" not in listed["nb"] + listed["it"]
    assert "·" not in listed["nb"]  # not on a keyboard: the pupil is offered a key they have
    for locale in LOCALES:
        with pytest.raises(AnswerError) as caught:
            read_answer("€5", locale)
        assert ("," if locale != "en" else ".") in caught.value.params["signs"].split()


# --- every text a pupil reads ----------------------------------------------------------------


def sample_questions() -> list[Question]:
    """A question of every kind whose texts multiply or divide."""
    composite = card_with(lambda c: c.circled_sum % 4)  # a mean that is not whole
    return [
        multiply_top_numbers(card(7), card(8), 3),
        multiply_top_numbers(card(3), card(6), 1),
        factor_pair_cards(
            [card(3), card(6), card(4), card(7)], card_with(lambda c: 18 in c.circled or 28 in c.circled)
        ),
        factor_pair_for_value([card(3), card(6), card(4)], 18),
        missing_factor(card(6), card_with(lambda c: any(v % 6 == 0 and v // 6 <= 9 for v in c.circled)), 3),
        prime_is_prime(91),
        prime_is_prime(49),
        prime_which_sum(card_with(lambda c: any(a + b == 49 or a + b == 121 for a in c.circled for b in c.circled)), 2),
        mean_estimate(composite, 2),
        mean_exact(composite, 1),
        mean_exact(composite, 3),
        probability_tie(2, 3),
        probability_tie_bet(1, 3),
        probability_tie_bet(2, 1),
        triplesmart_extreme_expression([card(3), card(5), card(7)], card(6, 1), 1),
        triplesmart_extreme_expression([card(2), card(8), card(4)], card(1), 2),
        triplesmart_extreme_better([card(3), card(5), card(7)], card(6, 1), 5),
        triplesmart_extreme_distance([card(3), card(5), card(7)], card(6, 1), Fraction(7, 2)),
        razboiul_war_cards(card_id(7, "D"), 3),
        razboiul_war_cards(card_id(KING, "S"), 2, 1),
    ]


def every_text(question: Question) -> list[Text]:
    """Prompt, hints, solution, button labels and the message of every misconception it names."""
    said = [question.prompt, *question.hints, *question.solution, *(choice["label"] for choice in question.choices)]
    params = question.hints[0].params if question.hints else {}
    said += [
        Text.from_content(message, params)
        for message in drill_texts()[question.kind].get("misconceptions", {}).values()
    ]
    return said


@pytest.mark.parametrize("locale", ["nb", "it"])
def test_worked_solutions_hints_and_feedback_use_the_locales_signs(locale):
    times, divide = SCHOOL[locale]
    seen = {times: 0, divide: 0}
    for question in sample_questions():
        for text in every_text(question):
            shown = say(text, locale)
            assert "÷" not in shown, (question.kind, shown)
            if locale == "nb":
                assert "×" not in shown, (question.kind, shown)
            seen[times] += shown.count(f" {times} ")
            seen[divide] += shown.count(f" {divide} ")
    assert seen[times] > 20 and seen[divide] > 5, seen


def test_the_same_texts_keep_times_and_divided_by_in_english_and_swedish():
    for locale in ("en", "sv"):
        shown = " ".join(say(text, locale) for question in sample_questions() for text in every_text(question))
        assert shown.count(" × ") > 20 and shown.count(" ÷ ") > 5 and " · " not in shown


@pytest.mark.parametrize("locale", LOCALES)
def test_a_product_and_a_mean_are_written_in_the_locales_signs(locale):
    times, divide = SCHOOL[locale]
    product = multiply_top_numbers(card(7), card(8), 3)
    assert say(product.prompt, locale).endswith(f"7 {times} 8 = ?")
    assert f"7 {times} 8 = 56" in say(product.solution[-1], locale)
    mean = mean_exact(card_with(lambda c: c.circled_sum % 4 == 1), 2)
    total = int(Fraction(mean.check["expected"]) * 4)
    assert f"{total} {divide} 4 = {total // 4} 1/4" in say(mean.solution[-1], locale)


def test_no_drill_text_has_a_sign_a_translator_would_have_to_write():
    """× and ÷ (and ·, : as signs) come through fields written by tutor.signs, never in the English source."""
    for kind, entry in drill_texts().items():
        for text in translatable_strings(entry):
            assert not set(text) & {"×", "÷", "·"}, (kind, text)
            assert not re.search(r"\d\s*:\s*\d", text), (kind, text)


def test_the_lessons_write_typed_expressions_in_the_readers_signs():
    shown = Text("%(expression)s", {"expression": shown_expression("8/(3-1)*2")})
    assert say(shown, "nb") == "8 : (3 − 1) · 2" and say(shown, "en") == "8 ÷ (3 − 1) × 2"
    assert say(Text("%(e)s", {"e": shown_expression("3x4")}), "it") == "3 × 4"  # as a pupil may have typed it


# --- a lesson page in Norwegian and Italian ----------------------------------------------------


def play_until(client, app, run_id, wanted, limit=150):
    """Make the first move offered until a question of a ``wanted`` kind is open; None if none came."""
    for _ in range(limit):
        run = LessonRun.from_dict(run_record(app, run_id).data)
        question = run.current_question()
        if question is not None and question.kind in wanted:
            return run
        if run.stage == "finished":
            return None
        if question is not None:  # another question: answer it with its first button or a number, and go on
            answer = question.choices[0]["value"] if question.answer == CHOICE else "1"
            client.post(f"/runs/{run_id}/answer", data={"answer": answer})
            client.post(f"/runs/{run_id}/solution")
            client.post(f"/runs/{run_id}/go-on")
            continue
        page = client.get(f"/runs/{run_id}").get_data(as_text=True)
        token = re.search(r'name="move" value="([^"]+)"', page)
        client.post(f"/runs/{run_id}/move", data={"move": html.unescape(token.group(1))} if token else {})
    return None


@pytest.mark.parametrize("locale", ["nb", "it"])
def test_a_lesson_page_shows_the_locales_signs_and_no_division_sign_it_does_not_use(guest, client, app, locale):
    times, divide = SCHOOL[locale]
    guest.sign_in(locale=locale)
    run = None
    for _ in range(3):  # a MultiWar lesson asks for a product within a few rounds
        run_id = guest.start("multiwar")
        client.post(f"/runs/{run_id}/skip-intro")
        run = play_until(client, app, run_id, {"multiply_top_numbers"})
        if run:
            break
    assert run, "no product question came up"
    question = run.current_question()
    page = client.post(f"/runs/{run_id}/solution", follow_redirects=True).get_data(as_text=True)
    a, b = (DECK[c].top for c in question.cards)
    assert f"{a} {times} {b} = {a * b}" in page
    assert "÷" not in page and (locale != "nb" or "×" not in page)

    run_id = guest.start("crazy-banana-extreme")
    client.post(f"/runs/{run_id}/skip-intro")
    mean_card = card_with(lambda c: c.circled_sum % 4 == 2)
    mean = mean_exact(mean_card, 2)
    ask_now(app, run_id, mean)
    for _ in mean.hints:
        client.post(f"/runs/{run_id}/hint")
    total = DECK[mean_card].circled_sum
    page = client.post(f"/runs/{run_id}/answer", data={"answer": f"{total}/5"}, follow_redirects=True).get_data(
        as_text=True
    )
    assert "÷" not in page
    page = client.post(f"/runs/{run_id}/solution", follow_redirects=True).get_data(as_text=True)
    assert f"{total} {divide} 4 = {total // 4} 1/2" in page and f"{total} {divide} 2 = " in page
    assert "÷" not in page


# --- the games' texts ----------------------------------------------------------------------------
#: A sign a translator would have to write: a school sign, a run of keys ("+ - x /") or a typed product ("(7 - 3) x 2").
TYPED_SIGNS = re.compile(r"[×÷·]|(?<!\w)[-+x*/:]( [-+x*/:])+(?!\w)|\d\)? [x*:] \(?\d")
#: What a Norwegian or Italian pupil types for times and divide, and for minus.
TYPED = {"nb": ("*", ":"), "it": ("x", ":")}


def test_no_game_text_has_a_sign_a_translator_would_have_to_write():
    """The games' rules, intros and narration get their calculations and keys through fields (tutor.signs)."""
    for path in sorted((ROOT / "content" / "games").glob("*.toml")):
        for text in translatable_strings(tomllib.loads(path.read_text("utf-8"))):
            assert not TYPED_SIGNS.search(text), (path.name, text)


def the_games_products() -> list[Text]:
    """MultiMatch's judged pairs, a computer's pair, the pair button and MultiWar's intro: each with a product."""
    fits, misses = (card_with(lambda c, hit=hit: (56 in c.circled) == hit) for hit in (True, False))
    pair = Move("play_pair", PUPIL, (card(7), card(8, 1)))
    multimatch = LESSONS["multimatch"]
    said = [multimatch.judge_maths(None, pair, None, DECK[on]).told for on in (fits, misses)]
    said.append(multimatch.maths_story(computer_name(1), pair, DECK[fits]))
    with_buttons = type("MultiMatchWithButtons", (MultiMatchLesson,), {"picks_cards": False})()
    _, state = pupil_turn("multimatch", 5, lambda s: any(m.kind == "play_pair" for m in s.legal_moves()))
    said += [choice.label for choice in with_buttons.choices(state, PUPIL) if choice.token.startswith("play_pair")][:1]
    multiwar = LESSONS["multiwar"]
    for seed in range(20):  # a deal whose first two cards are number cards
        game_state = LessonRun.start(multiwar, 2, {}, ["beginner"], seed, 0).game_state()
        intro = [multiwar.intro_text(step, game_state, PUPIL) for step in range(len(multiwar.intro_steps()))]
        if any("fact" in text.params for text in intro):
            return said + intro
    raise AssertionError("no MultiWar deal began with two number cards")


@pytest.mark.parametrize("locale", LOCALES)
def test_the_games_write_their_products_in_the_locales_signs(locale):
    times, divide = SCHOOL[locale]
    shown = [say(text, locale) for text in the_games_products()]
    assert len(shown) == 4 + len(LESSONS["multiwar"].intro_steps())
    assert all("%" not in line and "{" not in line for line in shown), shown
    assert sum(f" {times} " in line for line in shown) == 5, (
        shown
    )  # two judged pairs, a computer's pair, the button, the intro
    assert all(f"7 {times} 8 = 56" in line for line in shown[:3]), shown
    if times != "×":
        assert not any("×" in line for line in shown), shown


def the_typing_hints(locale: str) -> list[str]:
    """TripleSmart: Extreme's intro, its typing box's label and the engine's "not other symbols" refusal, as shown in
    ``locale``."""
    lesson = LESSONS["triplesmart-extreme"]
    game_state = LessonRun.start(lesson, 2, {}, ["beginner"], 1, 0).game_state()
    said = [lesson.intro_text(step, game_state, PUPIL) for step in range(len(lesson.intro_steps()))]
    said.append(lesson.narration("typed_move_label"))
    state = deal(2, [[n(3), n(4), n(5)]], [n(9)], game_id="triplesmart-extreme")
    refusal = state.submit_problem(Move("submit", 0, (n(3), n(4)), "3×4"))
    assert refusal.code == "not_ascii"
    said.append(Text(refusal.msgid, dict(refusal.params)))
    return [say(text, locale) for text in said]


@pytest.mark.parametrize("locale", ["nb", "it"])
def test_the_typing_hints_show_the_keys_a_pupil_of_the_locale_types(locale):
    times, divide = TYPED[locale]
    shown = " ".join(the_typing_hints(locale))
    assert shown.count(f"+ - {times} {divide}") == 3, shown  # the intro, the label and the refusal
    assert f"(7 - 3) {times} 2" in shown
    assert not set(shown) & {"×", "÷", "·"} and "/" not in shown and (times == "x" or " x " not in shown), shown
    english = " ".join(the_typing_hints("en"))
    assert english.count("+ - x /") == 3 and "(7 - 3) x 2" in english


@pytest.mark.parametrize("locale", LOCALES)
def test_a_negative_value_in_a_triplesmart_battle_line_has_the_minus_sign(locale):
    state = deal(2, [[n(3), n(7), n(1)], [n(2), n(5), n(4)]], [n(2, 1)], game_id="triplesmart-extreme")
    submit(state, 0, [n(3), n(7)], "3-7")
    submit(state, 1, [n(2), n(5)], "2+5")
    battle = state.last_round["battles"][0]
    assert battle["players"]["0"]["value"] == "-4"
    shown = [
        say(line, locale) for line in CloseTeller(LESSONS["triplesmart-extreme"], state, PUPIL).battle_lines(battle)
    ]
    assert "3 − 7 = −4" in shown[0], shown
    assert not any(re.search(r"-\d", line) for line in shown), shown


# --- the read-back -------------------------------------------------------------------------------


def test_the_read_back_is_shown_only_when_it_differs_from_what_was_typed(guest, client, app):
    """ "You wrote 42: I read 42." repeats the answer; "You wrote 042: I read 42." tells the pupil something."""
    from tutor.drills.exact_sum import exact_card_sum

    guest.sign_in(locale="nb")
    run_id = guest.start()
    client.post(f"/runs/{run_id}/skip-intro")
    card_id = card(7)
    total = DECK[card_id].circled_sum

    def feedback_after(typed: str) -> str:
        ask_now(app, run_id, exact_card_sum(card_id))
        page = client.post(f"/runs/{run_id}/answer", data={"answer": typed}, follow_redirects=True).get_data(
            as_text=True
        )
        return html.unescape(re.search(r'<div class="feedback feedback-\w+">(.*?)</div>', page, re.S).group(1))

    for typed in (
        str(total + 1),
        f"-{total}",
        f" {total + 1} ",
    ):  # read as typed, a hyphen as a minus sign, spaces around
        assert "read-as" not in feedback_after(typed), typed
    said = feedback_after(f"0{total + 1}")
    assert 'class="read-as"' in said and f"0{total + 1}" in said and f"{total + 1}." in said
