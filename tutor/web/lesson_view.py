"""What the lesson page shows, built from a lesson run: no rules here, only presentation.

The lesson describes the table and the pupil's moves in plain data; this module only
turns card ids into cards and gathers what the template needs.
"""

from __future__ import annotations

import functools
import hashlib
import re
from typing import NamedTuple

from markupsafe import Markup, escape

from tutor import ROOT
from tutor.answers import ALLOW_ADD_SUB, ALLOW_FOUR_OPS, ALLOW_NUMBER
from tutor.code_version import code_version
from tutor.drills import Question
from tutor.lessons import LESSONS
from tutor.lessons.base import HAND
from tutor.lessons.runner import FINISHED, INTRO, PLAY, PUPIL, LessonRun
from tutor.signs import FRACTION, MIXED, decimal_sign, signs
from tutor.text import NC_, Text
from tutor.web.i18n import say

#: A fraction written a/b, not part of a longer run of digits and slashes (such as a date).
WRITTEN_FRACTION = re.compile(r"(?<![\d/])(\d+)/(\d+)(?![\d/])")


def say_stacked(text) -> Markup:
    """``say(text)`` with every fraction a/b drawn stacked, numerator over denominator.

    The slash stays in the page, hidden from the eye (class ``frac-bar``), so a screen
    reader reads "4/9" and copying gives "4/9". The markup has no quotes, so even inside
    an attribute it cannot break the page.
    """
    written = str(escape(say(text)))
    return Markup(
        WRITTEN_FRACTION.sub(
            r"<span class=frac><span class=frac-num>\1</span><span class=frac-bar>/</span><span "
            r"class=frac-den>\2</span></span>",
            written,
        )
    )


class PadKey(NamedTuple):
    """A key of the on-screen number pad: the sign it types (and shows), and its name for a screen reader."""

    types: str
    name: Text | None = None  # None: the sign names itself (a digit)


class NumberPad(NamedTuple):
    """The number pad of a typed question, and the ``inputmode`` that brings up the phone's own keyboard."""

    keys: list[PadKey]
    inputmode: str


#: The pad's digits row by row as a calculator lays them out; 0 comes in the middle of the last row.
PAD_DIGITS = "789456123"
#: A key's name as a screen reader says it (the context tells translators where it is heard).
MINUS_SIGN = NC_("name of a number pad key", "minus sign")
PLUS_SIGN = NC_("name of a number pad key", "plus")
TIMES_SIGN = NC_("name of a number pad key", "times")
DIVIDED_BY = NC_("name of a number pad key", "divided by")
FRACTION_BAR = NC_("name of a number pad key", "fraction bar")
SPACE = NC_("name of a number pad key", "space")
DECIMAL_COMMA = NC_("name of a number pad key", "decimal comma")
DECIMAL_POINT = NC_("name of a number pad key", "decimal point")
OPENING_BRACKET = NC_("name of a number pad key", "opening bracket")
CLOSING_BRACKET = NC_("name of a number pad key", "closing bracket")


def number_pad(question: Question, locale: str) -> NumberPad:
    """The keys a pupil needs for the answer, in the locale's signs, as what the question may contain says.

    A number (``allow`` "number") has a minus and the locale's decimal sign; a question that writes
    fractions (its ``number_form``) has the fraction bar, and a mixed number the space before its
    fraction. A calculation (TripleSmart) has brackets and its operators. The pad types the signs the
    school writes ("−", "·" or "×", ":" or "÷"); the answer grammar reads them all.
    """
    written = signs(locale)
    keys = [PadKey(digit) for digit in PAD_DIGITS]
    if question.allow == ALLOW_NUMBER:
        comma = decimal_sign(locale) == ","
        keys += [PadKey(written["minus"], Text.in_context(MINUS_SIGN)), PadKey("0")]
        if question.number_form != FRACTION:
            keys.append(PadKey(decimal_sign(locale), Text.in_context(DECIMAL_COMMA if comma else DECIMAL_POINT)))
        if question.number_form in (FRACTION, MIXED):
            keys.append(PadKey("/", Text.in_context(FRACTION_BAR)))
        if question.number_form == MIXED:
            keys.append(PadKey(" ", Text.in_context(SPACE)))
        return NumberPad(keys, "decimal")
    keys += [PadKey("(", Text.in_context(OPENING_BRACKET)), PadKey("0"), PadKey(")", Text.in_context(CLOSING_BRACKET))]
    keys += [PadKey(written["plus"], Text.in_context(PLUS_SIGN)), PadKey(written["minus"], Text.in_context(MINUS_SIGN))]
    if question.allow == ALLOW_FOUR_OPS:
        keys += [
            PadKey(written["times"], Text.in_context(TIMES_SIGN)),
            PadKey(written["divide"], Text.in_context(DIVIDED_BY)),
        ]
    elif question.allow != ALLOW_ADD_SUB:
        raise ValueError(f"no number pad for answers of the kind {question.allow!r}")
    return NumberPad(keys, "text")


def lesson_context(run: LessonRun, pupil_name: str, now_ms: int, typed: str = "", unread: str = "") -> dict:
    """Everything the lesson template needs, in the order a pupil reads it.

    ``typed`` (a typed move the rules refused) and ``unread`` (an answer that could not be read) go back into their
    boxes in this one response only: they may be any free text, so they are never stored.
    """
    lesson = LESSONS[run.game_id]
    state = run.game_state()
    deck = lesson.cards()
    question = run.current_question()
    marked = run.current_marked()
    pupil_to_move = run.stage == PLAY and question is None and not state.is_over and state.current_player == PUPIL
    choices = lesson.choices(state, PUPIL) if pupil_to_move else []
    hide_result = bool(question and question.hides_result)
    view = state.player_view(PUPIL)
    hand = [deck[c] for c in view.get("hand", [])]
    picking = lesson.picks_cards and pupil_to_move
    pick_from = [deck[c] for c in lesson.pickable(state, PUPIL)] if picking else []
    # every card can be chosen; the rules judge the choice
    hand_choices = (
        {card.id: lesson.hand_choice(state, PUPIL, card.id) for card in (pick_from if picking else hand)}
        if pupil_to_move
        else {}
    )
    narration = []
    if run.stage == INTRO:
        narration.append(lesson.intro_text(run.intro_step, state, PUPIL))
    elif run.stage == FINISHED:
        narration.extend(lesson.finish_story(state, PUPIL))
    elif pupil_to_move:
        narration.append(lesson.turn_narration(state, PUPIL))
    seconds = run.options.get("turn_seconds", 0) if pupil_to_move else 0
    shown = lesson.shown_while_asking(state, PUPIL, question)
    zones = shown.zones
    if hide_result:
        for zone in zones:
            for row in zone.rows:
                row.mark = None
    return {
        "run": run,
        "lesson": lesson,
        "lesson_content": lesson.content(),
        "state": state,
        "deck": deck,
        "colours": {c.id: c for c in deck.colours},
        # while a question hides the round's result, so do the card counts (they would tell who won): the round line
        # stays
        "scoreboard": shown.scoreboard[:1] if hide_result else shown.scoreboard,
        "zones": zones,
        "hand": hand,
        "has_hand": "hand" in view,  # MultiWar and TripleSmart turn cards straight from the pile
        "hand_choices": hand_choices,
        "first_playable": next((card.id for card in hand if card.id in hand_choices), None),
        "action_choices": [choice for choice in choices if choice.place != HAND],
        "picks_cards": lesson.picks_cards and pupil_to_move,
        "picked": run.turn.picked,
        "pick_from": pick_from,
        "picked_note": lesson.picked_note(state, PUPIL, run.turn.picked) if picking and run.turn.picked else None,
        "pick_where": {card.id: lesson.pick_where(state, PUPIL, card.id) for card in pick_from},
        "places": lesson.places(state, PUPIL, run.turn.picked)
        if picking and lesson.places_cards and run.turn.picked
        else [],
        "say": say_stacked if lesson.stacks_fractions else say,  # shadows the global in this page only
        "playable": lesson.playable(state, PUPIL) if pupil_to_move and run.turn.show_playable else set(),
        "can_ask_playable": pupil_to_move and bool(hand_choices) and not run.turn.show_playable,
        "told": run.current_told(),
        "typed_move": lesson.typed_move and pupil_to_move,
        "typed": typed,
        "unread_answer": unread,
        "story": [] if hide_result or run.stage == INTRO else lesson.round_story(state, PUPIL, run.recent_moves()),
        "narration": narration,
        "intro_focus": lesson.intro_steps()[run.intro_step].get("focus", "") if run.stage == INTRO else "",
        "intro_total": len(lesson.intro_steps()),
        "question": question,
        "marked": marked,
        "hints": question.hints[: run.drill.hints_shown] if question else [],
        "more_hints": bool(question and run.drill.open and run.drill.hints_shown < len(question.hints)),
        "hourglass": seconds,
        "hourglass_left": max(0, seconds - (now_ms - run.turn.started_ms) // 1000) if seconds else 0,
        "pupil_name": pupil_name,
        "number_pad": number_pad,  # the template calls it with the reader's locale
    }


#: The parts of the lesson page a step may send on their own (each a block ``lesson_<name>`` of lesson.html with the
#: element ``#lesson-<name>``, swapped by htmx out of band); the flash messages and the shown input go every time.
PARTS = ("scoreboard", "coach", "drill", "table", "hand", "moves")
#: What the ``#lesson`` element itself carries: when it changes, the step sends the whole lesson.
SECTION = "section"


@functools.cache
def page_version() -> str:
    """A fingerprint of the code and the templates: a page drawn by other code never has a part kept."""
    digest = hashlib.sha256(code_version().encode())
    for path in sorted((ROOT / "templates").rglob("*.html")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:8]


def part_inputs(context: dict) -> dict[str, tuple]:
    """Everything each part of the lesson is drawn from (the block reads nothing else that can change in a run).

    A part with a step's form holds the run's step, which moves on with every saved step, so such a part is
    drawn again after every step; the others (the score, the table, a hand to look at, the coach's words) are
    sent only when they changed.
    """
    run, c = context["run"], context
    question_open = c["question"] is not None

    def step_if(has_forms) -> int | None:
        return run.step if has_forms else None

    return {
        SECTION: (run.stage, c["intro_focus"], c["read_aloud"]),
        "scoreboard": (c["scoreboard"],),
        "coach": (
            *(run.stage, step_if(run.stage == INTRO or c["hourglass"]), run.intro_step, c["intro_total"]),
            *(c["told"], c["story"], c["narration"], c["homework"], c["hourglass"], c["hourglass_left"]),
        ),
        "drill": (step_if(question_open), c["question"], c["marked"], run.drill.open, run.drill.solution_shown)
        + (c["hints"], c["more_hints"], c["unread_answer"]),
        "table": (run.stage, c["zones"]),
        "hand": (
            *(step_if(c["hand_choices"]), question_open, c["has_hand"], c["hand"], c["hand_choices"]),
            *(c["first_playable"], c["picks_cards"], c["picked"], c["pick_from"], c["picked_note"], c["pick_where"]),
            *(c["places"], c["playable"], c["can_ask_playable"], run.turn.show_playable, c["intro_focus"]),
        ),
        "moves": (step_if(c["action_choices"] or c["typed_move"] or c["places"]), question_open)
        + (bool(c["hand_choices"]), c["action_choices"], c["typed_move"], c["typed"], c["places"]),
    }


def shown_parts(context: dict, locale: str) -> str:
    """What the page shows, part by part, as a short digest each ("section.scoreboard.coach…" in :data:`PARTS` order).

    The page sends it back with its next step, so the step can leave out every part that would be drawn the same.
    """
    prefix = f"{page_version()}\0{locale}\0{context['run'].game_id}\0".encode()
    return ".".join(
        hashlib.blake2b(prefix + repr(inputs).encode(), digest_size=5).hexdigest()
        for inputs in part_inputs(context).values()
    )


def changed_parts(before: str, after: str) -> list[str] | None:
    """The parts to send when the page showed ``before`` and now shows ``after``; None: send the whole lesson."""
    old, new = before.split("."), after.split(".")
    if len(old) != len(new) or old[0] != new[0]:
        return None
    return [part for part, was, now in zip(PARTS, old[1:], new[1:], strict=True) if was != now]
