"""What the drill tests of every skill share: cards to ask about, marking helpers, and one well-formedness check."""

from __future__ import annotations

import json
import re

from babel.messages.extract import extract_from_file

from tutor import ROOT, content
from tutor.answers import describe
from tutor.checks import exact, run_check
from tutor.deck import kids2
from tutor.drills import CHOICE, NUMBER, Question, texts
from tutor.drills.marking import RIGHT, USED_OTHER_NUMBERS, WRONG, mark
from tutor.signs import write
from tutor.standard_deck import card as standard_card
from tutor.standard_deck import card_id, deck
from tutor.text import Text, plural_forms, say

DECK = kids2()
NUMBER_CARDS = list(DECK.number_card_ids)
ALL_CARDS = list(range(len(DECK)))
SPECIAL_CARDS = [c for c in ALL_CARDS if DECK[c].is_special]
#: The 52 standard cards (no jokers) as card ids of tutor.standard_deck, rank by rank: A, 2 .. K, each in
#: the suits spades, hearts, diamonds, clubs.
STANDARD_CARDS = [card_id(rank, suit) for rank in (14, *range(2, 14)) for suit in "SHDC"]
JOKER = deck("jokers")[-1]
PLACEHOLDER = re.compile(r"%\((\w+)\)s")
#: Kinds whose buttons may repeat a label: a button per card of the hand, which may hold two 7s.
REPEATED_LABELS = {"twentynine_which_card"}
#: Kinds whose buttons are standard cards (ids of tutor.standard_deck), not Kids2 cards.
STANDARD_CARD_BUTTONS = {"twentynine_which_card", "playable_card"}


def std(code: str) -> int:
    """A standard card id from its plain letters: "QH", "10S", "AC" (tests only; the drills take ids)."""
    ranks = {"A": 14, "K": 13, "Q": 12, "J": 11}
    return card_id(ranks.get(code[:-1]) or int(code[:-1]), code[-1])


class TwentyNineCards:
    """29 piles, plays and hands written as numbers, turned into standard card ids, each card a suit of its own.

    A pile entry ``7`` is a number card 7, ``(7, "KQ")`` a 7 with a King and a Queen on it; a
    play is a number (a card laid) or ``("K", i)``, a King or Queen on the pile's card at
    position ``i``; a hand card is a number, "K" or "Q". One instance deals one position, so
    no card id comes twice (further copies of the deck when a rank runs out).
    """

    LETTERS = {"K": 13, "Q": 12, "J": 11}

    def __init__(self) -> None:
        self.used: dict[int, int] = {}

    def card(self, rank) -> int:
        rank = self.LETTERS.get(rank, rank)
        count = self.used.get(rank, 0)
        self.used[rank] = count + 1
        return card_id(rank, "CDHS"[count % 4], count // 4)

    def pile(self, entries) -> list:
        return [
            self.card(e) if isinstance(e, int) else (self.card(e[0]), [self.card(face) for face in e[1]])
            for e in entries
        ]

    def play(self, pile_ids: list, play):
        if isinstance(play, int):
            return self.card(play)
        face, position = play
        entry = pile_ids[position]
        return self.card(face), entry if isinstance(entry, int) else entry[0]

    def hand(self, values) -> list[int]:
        return [self.card(value) for value in values]


def twentynine(pile, play=None, hand=None) -> tuple:
    """A 29 position written as numbers (see :class:`TwentyNineCards`) as card ids: (pile, play) or (pile, hand)."""
    cards = TwentyNineCards()
    pile_ids = cards.pile(pile)
    if hand is not None:
        return pile_ids, cards.hand(hand)
    return (pile_ids, cards.play(pile_ids, play)) if play is not None else (pile_ids,)


def cards_with_top(top: int, colour: str | None = None) -> list[int]:
    return [c for c in NUMBER_CARDS if DECK[c].top == top and (colour is None or DECK[c].colour == colour)]


def card(top: int, colour: str | None = None, skip: int = 0) -> int:
    """A Kids2 number card with this top number (and colour); ``skip`` gives another copy."""
    return cards_with_top(top, colour)[skip]


def lay(*tops: int) -> list[int]:
    """Distinct number cards with these top numbers, in order (a repeated top gets another card)."""
    used: list[int] = []
    for top in tops:
        used.append(next(c for c in NUMBER_CARDS if DECK[c].top == top and c not in used))
    return used


def card_with(predicate) -> int:
    return next(c for c in NUMBER_CARDS if predicate(DECK[c]))


def kinds_of(skill: str) -> dict:
    """The question kinds of a skill: its content file ``content/drills/<skill>.toml``."""
    return content.load(f"drills/{skill}")


def assert_content_complete(
    skill: str, hints: dict[str, int] | None = None, fewest: dict[str, int] | None = None
) -> None:
    """Every kind of the skill has its texts, three hints (or as many as ``hints`` says for a kind) and at least
    three misconceptions (or ``fewest``), all extractable and fillable."""
    kinds = kinds_of(skill)
    extractable = set(content.translatable_strings(kinds)) | {
        form for forms_ in content.translatable_plurals(kinds) for form in forms_[:2]
    }
    for kind, entry in kinds.items():
        assert entry["skill"] == skill, kind
        texts_ = [
            form
            for text in [entry["prompt"], *entry["hints"], *entry["solution"], *entry["misconceptions"].values()]
            for form in forms(text)
        ]
        assert set(texts_) <= extractable
        assert len(entry["hints"]) == (hints or {}).get(kind, 3), kind
        assert len(entry["misconceptions"]) >= (fewest or {}).get(kind, 3), kind
        assert set(entry.get("labels", {}).values()) <= extractable
        assert {p["text"] for p in entry.get("phrases", {}).values()} <= extractable
        for text in texts_:
            assert "%" not in PLACEHOLDER.sub("", text), text  # a stray % would break filling


def said(text, locale: str) -> str:
    """A text as a pupil reads it: translated, its fields filled, fields that are texts translated too."""
    shown = say(text, locale)
    assert "%(" not in shown and "maths" not in shown, shown
    return shown


def right_answers(question: Question) -> list[str]:
    return list(question.check["expected"]) if question.answer == CHOICE else [question.check["expected"]]


def is_right(question: Question, value: str) -> bool:
    return run_check(question.check, value if question.answer == CHOICE else exact(value))


def right_answer(question: Question, locale: str) -> str:
    """What a pupil who knows the answer types: the worked expression, the exact number, or a right button."""
    if question.answer == CHOICE:
        return question.check["expected"][0]
    if question.check["rule"] == "closest_to_target":  # typed as the worked solution writes it, in the locale's signs
        return write(question.hints[0].params["best_expression"], locale)
    return describe(exact(question.check["expected"]), locale, question.number_form)


def misconception_of(question: Question, typed: str, locale: str = "en") -> str | None:
    """Mark a wrong answer; the misconception it names, whose feedback comes from the content file."""
    marked = mark(question, typed, locale)
    assert marked.status == WRONG, (typed, marked)
    if marked.misconception:
        assert marked.feedback[-1] == Text.from_content(
            texts(question.kind)["misconceptions"][marked.misconception], question.hints[0].params
        )
    return marked.misconception


def forms(text) -> list[str]:
    """A content text's source strings: itself, or both forms of a plural table."""
    plural = plural_forms(text)
    return list(plural[:2]) if plural else [text]


def _extracted() -> set[str]:
    """Every text the extractor finds for the drills: the content files, the N_() texts of tutor/drills, and the
    Gnav cards' names (the drills name the cards they ask about)."""
    found = set(content.translatable_strings(content.load("gnav_deck")))
    for path in sorted((content.CONTENT_DIR / "drills").glob("*.toml")):
        data = content.load(f"drills/{path.stem}")
        found |= set(content.translatable_strings(data)) | {one for one, _, _ in content.translatable_plurals(data)}
    for path in sorted((ROOT / "tutor" / "drills").glob("*.py")):
        found |= {message for _, message, _, _ in extract_from_file("python", path, keywords={"N_": None})}
    return found


EXTRACTED = _extracted()


def assert_well_formed(question: Question, locales=("en",), lists_every_mistake: bool = False) -> None:
    """Stored losslessly, every text extracted and filled in every locale, a right answer offered and marked
    right, and every misconception value wrong and named by its own misconception.

    With ``lists_every_mistake`` the question lists every misconception it checks for, also one that
    names no value here, may name a choice value that is not on a button, and a value may show more
    than one of them (the number-fact and card-sum questions); a wrong answer it names is then marked
    with one of them. Otherwise every listed misconception names its own values, each on a button or
    typed, and the marking names it.
    """
    entry = texts(question.kind)
    assert question.skill == entry["skill"] and question.kind in kinds_of(question.skill)
    assert Question.from_dict(json.loads(json.dumps(question.to_dict()))) == question
    assert question.difficulty in (1, 2, 3)
    cases = entry.get("cases", {})
    # Questions that give a tip at difficulty 1 ("easy") leave out the last hint at 3.
    dropped = 1 if question.difficulty == 3 and "easy" in cases else 0
    hint_counts = {
        len(hints) - dropped for hints in [entry["hints"], *(c["hints"] for c in cases.values() if "hints" in c)]
    }
    assert len(question.hints) in hint_counts and len(question.hints) >= 2, question.kind
    assert len(question.solution) >= 2
    params = question.hints[0].params
    fields = {key for key in params if key != "num"}  # a text with a plural form adds the count it chooses by
    assert all({key: h.params[key] for key in fields} == {key: params[key] for key in fields} for h in question.hints)
    values = [c["value"] for c in question.choices]
    assert len(values) == len(set(values))
    for choice in (c for c in question.choices if "card" in c):
        if question.kind in STANDARD_CARD_BUTTONS:
            card = standard_card(choice["card"])
            assert not (question.kind == "playable_card" and card.is_joker), question.kind
        else:
            assert DECK[choice["card"]].kind == "number", question.kind
    if question.answer == CHOICE:
        assert set(right_answers(question)) <= set(values)
    shown = [question.prompt, *question.hints, *question.solution, *(c["label"] for c in question.choices)]
    assert all(text.msgid in EXTRACTED for text in shown), [t.msgid for t in shown if t.msgid not in EXTRACTED]
    variants = [
        text
        for case in cases.values()
        for text in ([case["prompt"]] if "prompt" in case else []) + case.get("hints", []) + case.get("solution", [])
    ]
    also = [Text.from_content(text, params) for text in [*variants, *entry["misconceptions"].values()]]
    for locale in locales:
        for text in [*shown, *also]:
            said(text, locale)
        labels = [said(c["label"], locale) for c in question.choices]
        assert len(labels) == len(set(labels)) or question.kind in REPEATED_LABELS, labels
        assert mark(question, right_answer(question, locale), locale).status == RIGHT, (question.kind, locale)
        for value in right_answers(question) if "expected" in question.check else []:  # not an expression's
            assert mark(question, value, locale).status == RIGHT, (question.kind, value, locale)
    if "numbers" in question.check:
        assert USED_OTHER_NUMBERS in entry["misconceptions"]
    claimed = set()
    for named in question.misconceptions:
        assert named["id"] in entry["misconceptions"], (question.kind, named["id"])
        assert named["values"] or lists_every_mistake, (question.kind, named)
        for value in named["values"]:
            assert not is_right(question, value), (question.kind, named["id"], value)
            assert value not in claimed or lists_every_mistake, (question.kind, value)
            claimed.add(value)
            if question.answer == CHOICE:
                assert value in values or lists_every_mistake, (question.kind, named["id"], value)
                typed = value if value in values else None
            else:
                typed = describe(exact(value), locales[0], question.number_form) if question.allow == NUMBER else None
            if typed is not None:
                marked = mark(question, typed, locales[0])
                assert marked.status == WRONG, (question.kind, value)
                if lists_every_mistake:
                    assert marked.misconception is not None, (question.kind, value)
                else:
                    assert marked.misconception == named["id"], (question.kind, value)


def assert_every_kind_and_misconception_used(questions: list[Question], skill: str) -> None:
    """The questions ask every kind of the skill, and between them name every misconception of each kind."""
    kinds = kinds_of(skill)
    assert {q.kind for q in questions} == set(kinds) and {q.skill for q in questions} == {skill}
    for kind, entry in kinds.items():
        seen = {m["id"] for q in questions if q.kind == kind for m in q.misconceptions if m["values"]}
        assert seen == set(entry["misconceptions"]), (kind, set(entry["misconceptions"]) - seen)
    ids = {m["id"] for q in questions for m in q.misconceptions if m["values"]}
    assert len(ids) >= 3, skill


def assert_messages_use_only_fields_every_hint_has(questions: list[Question]) -> None:
    for question in questions:
        params = set(question.hints[0].params)
        for text in texts(question.kind)["misconceptions"].values():
            assert set(PLACEHOLDER.findall(" ".join(forms(text)))) <= params, (question.kind, text)


def assert_right_in_every_locale(questions: list[Question], locale: str) -> None:
    for question in questions:
        for value in right_answers(question):
            marked = mark(question, value, locale)
            assert marked.status == RIGHT and marked.misconception is None, (question.kind, value, locale)
