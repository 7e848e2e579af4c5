"""Every game in a real Chromium: a refused choice with its reason, a round result with its numbers,
and a special card's effect, in all four languages (issue 8, "Done when").

Each game is played once, the language rotating so that every language covers
at least two games. The pupil signs in as a guest, starts a game, skips the intro and plays
with the keyboard (a focused button and Enter, a typed expression and Enter).

What the pupil does is worked out from the run the server stored (as a teacher's answer key
would be): a card the rules refuse, found with the lesson's own ``judge``, then the moves of a
simple player. The game's seed is random per start, so right after a start the test replays
the same run in Python (the runner is deterministic given the seed and the pupil's moves) and,
when that game would not show all three things within the step bound, starts a new game as a
pupil would: the bound keeps the test fast, the replay keeps it reliable.

The checks read the page's text, never its layout: the ``.told-refused`` and ``.told-right``
lines of the coach box and the text of ``section#lesson``. What the page must say is rendered
in the page's language from the lesson's Text (``tutor.text.spell_in``); the numbers it must
contain are computed from the stored state independently of the lesson's wording.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from fractions import Fraction

import pytest
from sqlalchemy import create_engine, text

from tests.browser_support import Visit
from tutor import gnav_deck
from tutor.deck import kids2
from tutor.engine import Move
from tutor.engine.calculation_war import card_sum, war_sum
from tutor.engine.shedding import DRAW_TWO, extreme_witness
from tutor.lessons import LESSONS, rank_phrases
from tutor.lessons.base import HAND, move_from_token, move_token
from tutor.lessons.calculation_war import CalculationWarLesson
from tutor.lessons.casino_war import CasinoWarLesson
from tutor.lessons.classic_war import ChanceWarLesson, TodUndLebenLesson
from tutor.lessons.fraction_master import FractionMasterLesson
from tutor.lessons.gnav import GnavLesson
from tutor.lessons.multiwar import MultiWarLesson
from tutor.lessons.runner import FINISHED, PLAY, PUPIL, LessonRun
from tutor.lessons.shedding import DRAWS_TWO_OTHER, DRAWS_TWO_YOU, YOU_DRAW_TWO, MultiMatchLesson, SheddingLesson
from tutor.lessons.steal_war import MULTI_STEAL_LINES, STEAL_LINES, SWAP_LINES, StealWarLesson
from tutor.lessons.strategy_war import StrategyWarLesson
from tutor.lessons.three_traits import ThreeTraitsLesson
from tutor.lessons.triplesmart import CloseTeller, TripleSmartLesson
from tutor.lessons.twenty_nine import ACE_USED as TWENTY_NINE_ACE
from tutor.lessons.twenty_nine import PLAYED as TWENTY_NINE_PLAYED
from tutor.lessons.twenty_nine import TwentyNineLesson
from tutor.lessons.war_family import BEATS, WAR
from tutor.standard_deck import rank
from tutor.text import Text, say
from tutor.web.lesson_view import lesson_context

pytestmark = pytest.mark.browser

DECK = kids2()
LANGUAGES = [("en", "English"), ("nb", "Norsk bokmål"), ("sv", "Svenska"), ("it", "Italiano")]
CASES = [(game_id, *LANGUAGES[index % len(LANGUAGES)]) for index, game_id in enumerate(LESSONS)]
#: Requests (clicks and key presses) one journey may make after the intro, and new games it may start.
STEP_BOUND = 45
STARTS = 40


# --- reading the server's run and the page ------------------------------------------------------
def shown(value, locale: str) -> str:
    """A Text as the page shows it in ``locale`` (fields that are Texts filled in too)."""
    return say(value, locale)


def squeeze(words: str) -> str:
    return " ".join(words.split())


def has_number(line: str, number) -> bool:
    """Whether ``number`` stands in ``line`` as a number of its own (266 is not in 1266)."""
    return re.search(rf"(?<![\d/]){re.escape(str(number))}(?![\d/])", line) is not None


def card_words(rank: int, locale: str) -> set[str]:
    """The words a sentence names a number card by in ``locale`` (sv "tvåan", "tvåa"; nb "toeren"; en, it "2"):
    the words of its rank phrases that no other rank's phrases have."""

    def words(of: int) -> set[str]:
        tables = (rank_phrases.THE, rank_phrases.YOUR, rank_phrases.HOUSES, rank_phrases.PLAYERS)
        shown_phrases = (say(Text.in_context(table[of], name="X"), locale) for table in tables)
        return {word.lower() for phrase in shown_phrases for word in re.findall(r"[\w']+", phrase)}

    others = set().union(*(words(other) for other in rank_phrases.THE if other != rank))
    return words(rank) - others - {"x"}


def names_number(line: str, number, locale: str) -> bool:
    """Whether ``line`` names ``number``: as digits, or for a number card as the card's own word."""
    if has_number(line, number):
        return True
    if not isinstance(number, int) or not 2 <= number <= 10:
        return False
    return any(re.search(rf"(?<!\w){re.escape(word)}(?!\w)", line.lower()) for word in card_words(number, locale))


def with_numbers(lines: list, numbers: list, locale: str):
    """The first of the Texts ``lines`` that, shown in ``locale``, has all of ``numbers`` in it."""
    return next(
        (line for line in lines if line is not None and all(has_number(shown(line, locale), n) for n in numbers)), None
    )


def narration_ids(game_id: str, *keys: str) -> set[str]:
    texts = LESSONS[game_id].content()["narration"]
    return {texts[key] for key in keys if key in texts}


class Stored:
    """The pupil's newest run, read from the live server's database."""

    def __init__(self, database_url: str, name: str) -> None:
        self.engine, self.name = create_engine(database_url), name

    def run(self) -> LessonRun:
        with self.engine.connect() as connection:
            row = connection.execute(
                text(
                    "SELECT r.data FROM lesson_run r JOIN pupil p ON p.id = r.pupil_id WHERE p.name = :name ORDER BY "
                    "r.id DESC LIMIT 1"
                ),
                {"name": self.name},
            ).one()
        return LessonRun.from_dict(row[0] if isinstance(row[0], dict) else json.loads(row[0]))

    def close(self) -> None:
        self.engine.dispose()


# --- what the pupil does ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Step:
    """One thing the pupil does: a move button or hand card (``token``), cards picked then played (or, with a
    ``token``, then placed with that place's button: 29), a typed move, or go on."""

    kind: str
    token: str = ""
    cards: tuple = ()
    typed: str = ""


GO_ON = Step("go_on")


def clone(run: LessonRun) -> LessonRun:
    return LessonRun.from_dict(copy.deepcopy(run.to_dict()))


def simulate(lesson, run: LessonRun, step: Step, locale: str) -> None:
    """Make ``step`` on a run in Python, as the server does for the page's request."""
    if step.kind == "go_on":
        run.close_question(lesson, {}, 0)
    elif step.kind == "move":
        run.move(step.token, lesson, {}, 0)
    elif step.kind == "picks":
        run.turn.picked = []
        for card in step.cards:
            run.pick(card, lesson)
        if step.token:
            run.move(step.token, lesson, {}, 0)
        else:
            run.play_picked(lesson, {}, 0)
    else:
        run.typed_move(step.typed, locale, lesson, {}, 0)


def requests_for(step: Step, run: LessonRun) -> int:
    """How many requests the page makes for ``step`` (putting back cards picked earlier too)."""
    return len(run.turn.picked) + len(step.cards) + 1 if step.kind == "picks" else 1


def offered(lesson, state, move: Move) -> bool:
    """Whether the page has a button for this move (a hand card or an action)."""
    token = move_token(move)
    if token in {choice.token for choice in lesson.choices(state, PUPIL) if choice.place != HAND}:
        return True
    return (
        not lesson.picks_cards
        and len(move.cards) == 1
        and lesson.hand_choice(state, PUPIL, move.cards[0]).token == token
    )


def as_step(lesson, state, move: Move) -> Step:
    """The page's way to make a legal move: its button, or picking its cards."""
    if offered(lesson, state, move):
        return Step("move", move_token(move))
    if lesson.places_cards:
        return Step("picks", move_token(move), tuple(move.cards))
    return Step("picks", cards=tuple(move.cards))


@dataclass
class Found:
    """What the page must show now: a Text (in the page's language) with numbers in it, or a refused choice."""

    line: object
    numbers: tuple = ()
    told: bool = False  # the line is the judgement of the pupil's own choice (the coach box's told line)
    step: Step | None = None
    judged: object = None


class Plan:
    """A game's player and what to look for. Subclasses fill in the game's part."""

    players = "2"
    options: dict = {}
    #: Why the game has no choice the rules refuse (the journey asserts it and skips that part).
    no_refusal = ""
    #: Why the game has no special card (the journey skips that part).
    no_special = ""

    def __init__(self, game_id: str, locale: str) -> None:
        self.game_id, self.locale, self.lesson = game_id, locale, LESSONS[game_id]

    def policy(self, run: LessonRun, state) -> Step:
        raise NotImplementedError

    def refusal(self, run: LessonRun, state) -> Found | None:
        """A choice the rules refuse now, with the numbers its reason must name."""
        return None

    def outcome(self, run: LessonRun, state, context: dict) -> Found | None:
        """A line on the page now that tells a result with its numbers."""
        return None

    def effect(self, run: LessonRun, state, context: dict) -> Found | None:
        """A line on the page now that tells a special card's effect."""
        return None

    def refused(self, move: Move, state, numbers: tuple, step: Step) -> Found | None:
        judged = self.lesson.judge(state, PUPIL, move)
        if judged is None or judged.correct or state.is_legal(move):
            return None
        return Found(judged.told, numbers, step=step, judged=judged)


# --- Calculation War --------------------------------------------------------------------------------
class CalculationWar(Plan):
    """Refused only in a war: the pupil lays a card that is not the best card left. No special cards.

    A war needs two equal sums: the player looks one move ahead for a card that ties, and the
    game has 30 rounds instead of the lesson's 10 (about half the deals then reach a war in the
    step bound, against a fifth with 10).
    """

    options = {"round_limit": "30"}
    no_special = "Calculation War is played without special cards (tutor/engine/calculation_war.py takes them out)."

    def policy(self, run, state):
        hand = sorted(state.hands[PUPIL])
        if state.wars:
            best = war_sum(hand)
            return Step("move", move_token(Move("play", PUPIL, (next(c for c in hand if card_sum(c) == best),))))
        for (
            card
        ) in hand:  # look ahead for a card that ties and starts a war (the computers' cards follow from the seed)
            trial = clone(run)
            trial.move(move_token(Move("play", PUPIL, (card,))), self.lesson, {}, 0)
            while trial.drill.question is not None:
                trial.close_question(self.lesson, {}, 0)
            if self.refusal(trial, trial.game_state()) is not None:
                return Step("move", move_token(Move("play", PUPIL, (card,))))
        return Step("move", move_token(Move("play", PUPIL, (hand[0],))))

    def refusal(self, run, state):
        if run.stage != PLAY or state.current_player != PUPIL or not state.wars or len(state.hands[PUPIL]) < 2:
            return None
        hand = sorted(state.hands[PUPIL])
        best = war_sum(hand)
        wrong = next((c for c in hand if card_sum(c) != best), None)
        if wrong is None:
            return None
        move = Move("play", PUPIL, (wrong,))
        return self.refused(move, state, (best, *{card_sum(c) for c in hand}), Step("move", move_token(move)))

    def outcome(self, run, state, context):
        last = state.last_round
        if not last or not last.get("battles") or not context["story"]:
            return None
        sums = sorted({card_sum(card) for card in last["battles"][-1]["cards"].values()})
        line = with_numbers(context["story"], sums, self.locale)
        return Found(line, tuple(sums)) if line is not None else None


# --- the shedding games -----------------------------------------------------------------------------
#: A Kocha skip or reverse card told with whom it hits (the narration keys); a draw-two card: DRAW_TWO_IDS.
KOCHA_EFFECTS = (
    "special_skip_you",
    "special_skip",
    "you_special_skip",
    "you_special_skip_again",
    "special_reverse_two_you",
    "special_reverse_two",
    "you_special_reverse_two",
    "you_special_reverse_two_again",
    "special_reverse_you",
    "special_reverse",
    "you_special_reverse",
)
DRAW_TWO_IDS = {DRAWS_TWO_YOU[0], DRAWS_TWO_OTHER[0], YOU_DRAW_TWO[0]}


class Shedding(Plan):
    """Refused: a number card of another colour that the game's maths rule does not allow.
    Result: the pupil's own maths play, told with its numbers. Effect: a Kocha skip, reverse or
    draw-two card played by anyone, told with whom it hits."""

    def maths_numbers(self, move: Move, top) -> tuple:
        """The numbers of the game's maths rule for ``move`` on the number card ``top``."""
        mine = DECK[move.cards[-1]]
        if self.game_id == "crazy-banana-tiervenner":
            return (top.top, mine.top, top.top + mine.top)
        if self.game_id == "crazy-banana-overslag":
            return (mine.circled_sum, top.circled_sum)
        if self.game_id == "crazy-banana-extreme":
            witness = extreme_witness(mine.circled, top.circled)
            if witness is None:  # refused: the two biggest values and the top card's total
                a, b = sorted(mine.circled)[-2:]
                return (a + b, top.circled_sum)
            return (witness[1][0], witness[1][1], sum(witness[1]))
        a, b = (DECK[c] for c in move.cards)  # MultiMatch: a pair
        return (a.top, b.top, a.top * b.top)

    def maths_plays(self, state) -> list[Move]:
        """Legal plays by the maths rule: number cards of another colour on a number card."""
        if state.phase != "play" or state.top.is_special:
            return []
        return [
            m
            for m in state.legal_moves()
            if (
                m.kind == "play_pair"
                or (m.kind == "play" and not DECK[m.cards[0]].is_special and DECK[m.cards[0]].colour != state.colour)
            )
        ]

    def policy(self, run, state):
        legal = state.legal_moves()
        kinds = {m.kind: m for m in legal}
        for kind in ("knock", "call_one_card"):
            if kind in kinds:
                return as_step(self.lesson, state, kinds[kind])
        if "no_knock" in kinds:
            return as_step(self.lesson, state, kinds["no_knock"])
        kochas = [
            m for m in legal if m.kind == "play" and DECK[m.cards[0]].kind == "kocha" and offered(self.lesson, state, m)
        ]
        plays = [m for m in legal if m.kind == "play" and not DECK[m.cards[0]].is_special]
        bananas = [
            m
            for m in legal
            if m.kind == "play" and DECK[m.cards[0]].kind == "banana" and offered(self.lesson, state, m)
        ]
        for moves in (kochas, self.maths_plays(state), plays, bananas):
            if moves:
                return as_step(self.lesson, state, moves[0])
        return as_step(self.lesson, state, next(m for m in legal if m.kind in ("draw", "pass")))

    def refusal(self, run, state):
        if (
            run.stage != PLAY
            or run.drill.question
            or state.current_player != PUPIL
            or state.phase != "play"
            or state.top.is_special
        ):
            return None
        hand = sorted(c for c in state.hands[PUPIL] if not DECK[c].is_special and DECK[c].colour != state.colour)
        for card in hand:
            move = Move("play", PUPIL, (card,))
            found = self.refused(move, state, self.maths_numbers(move, state.top), Step("move", move_token(move)))
            if found is not None and found.judged.skill:
                return found
        return None

    def outcome(self, run, state, context):
        """The pupil's last choice was a play by the maths rule, and its told line says so with the numbers."""
        told, moves = context["told"], [Move.from_dict(m) for m in run.moves]
        last = next((m for m in reversed(moves) if m.player == PUPIL), None)
        if told is None or not told.correct or last is None or last.kind not in ("play", "play_pair"):
            return None
        entry = next((e for e in reversed(state.play_log) if e["player"] == PUPIL), None)
        if entry is None or entry["cards"] != list(last.cards) or entry["on"] is None:
            return None
        on, mine = DECK[entry["on"]], DECK[last.cards[-1]]
        if on.is_special or mine.is_special or (last.kind == "play" and mine.colour == on.colour):
            return None
        numbers = self.maths_numbers(last, on)
        return Found(told.told, numbers, told=True) if with_numbers([told.told], numbers, self.locale) else None

    def effect(self, run, state, context):
        told = context["told"]
        lines = ([(told.told, True)] if told is not None and told.correct else []) + [
            (line, False) for line in context["story"]
        ]
        for line, own in lines:
            if line.msgid in DRAW_TWO_IDS and line.params.get("num") == DRAW_TWO:
                return Found(line, (DRAW_TWO,), told=own)
            if line.msgid in narration_ids(self.game_id, *KOCHA_EFFECTS):
                return Found(line, told=own)
        return None


class MultiMatch(Shedding):
    """Refused: two picked cards whose product is not a circled value of the top card."""

    def refusal(self, run, state):
        if (
            run.stage != PLAY
            or run.drill.question
            or state.current_player != PUPIL
            or state.phase != "play"
            or state.top.is_special
        ):
            return None
        hand = sorted(c for c in state.hands[PUPIL] if not DECK[c].is_special)
        for a in hand:
            for b in hand:
                move = Move("play_pair", PUPIL, (a, b))
                if a != b and not state.is_legal(move):
                    found = self.refused(move, state, self.maths_numbers(move, state.top), Step("picks", cards=(a, b)))
                    if found is not None and found.judged.skill:
                        return found
        return None


# --- MultiWar and TripleSmart --------------------------------------------------------------------------
class MultiWar(Plan):
    """The pupil only turns cards: nothing to refuse. Result: the products compared. Effect: two special cards."""

    options = {"round_limit": "30"}
    no_refusal = "MultiWar has no maths decision: the pupil's only move is turning the top cards of the draw pile."

    def policy(self, run, state):
        return as_step(self.lesson, state, state.legal_moves()[0])

    def outcome(self, run, state, context):
        last = state.last_round
        if not last or not last.get("battles") or not context["story"]:
            return None
        products = sorted({r for r in last["battles"][-1]["results"].values() if isinstance(r, int)})
        if len(products) < 2:
            return None
        line = with_numbers(context["story"], products, self.locale)
        return Found(line, tuple(products)) if line is not None else None

    def effect(self, run, state, context):
        last = state.last_round
        if not last or not any(
            r == "double_kocha" for battle in last.get("battles") or [] for r in battle["results"].values()
        ):
            return None
        wanted = {*BEATS["double_kocha"], *WAR["double_kocha"]}
        return next((Found(line) for line in context["story"] if line.msgid in wanted), None)


class TripleSmart(Plan):
    """Refused: an expression with a number not on the pupil's cards (Extreme: a card used twice).
    Result: the pupil's expression, value, distance and target. Effect: two special cards."""

    options = {"round_limit": "30"}

    def numbers(self, state) -> list[int]:
        return [DECK[c].top for c in state.turned[PUPIL] if not DECK[c].is_special]

    def policy(self, run, state):
        mine = self.numbers(state)
        return Step("typed", typed=" + ".join(map(str, mine[:2])))

    def refusal(self, run, state):
        if run.stage != PLAY or run.drill.question or state.current_player != PUPIL or state.phase != "submit":
            return None
        mine = self.numbers(state)
        if len(mine) < 2:
            return None
        if self.game_id == "triplesmart-extreme":
            once = next((n for n in mine if mine.count(n) == 1), None)
            if once is None:
                return None
            typed, numbers = f"{once} + {once}", (once, *mine)
        else:
            missing = next(n for n in range(1, 30) if n not in mine)
            typed, numbers = f"{mine[0]} + {missing}", (missing, *mine)
        move = self.lesson.move_from_text(state, PUPIL, typed, self.locale)
        return self.refused(move, state, numbers, Step("typed", typed=typed))

    def outcome(self, run, state, context):
        for last in reversed(state.recent_rounds if hasattr(state, "recent_rounds") else []):
            for battle in reversed(last.get("battles") or []):
                entry = battle.get("players", {}).get(str(PUPIL), {})
                if entry.get("result") == "submitted":
                    numbers = [entry["value"], battle["target"]] + (
                        [entry["distance"]] if Fraction(entry["distance"]) else []
                    )
                    line = with_numbers(context["story"], numbers, self.locale)
                    return Found(line, tuple(numbers)) if line is not None else None
        return None

    def effect(self, run, state, context):
        decided = [battle for last in state.recent_rounds for battle in last.get("battles") or []]
        if not any(
            entry.get("result") == "double_kocha" for battle in decided for entry in battle.get("players", {}).values()
        ):
            return None
        wanted = {*CloseTeller.SPECIALS_WIN, *WAR["double_kocha"]}  # they win the battle, or two players' start a war
        return next((Found(line) for line in context["story"] if line.msgid in wanted), None)


# --- Fraction Master -----------------------------------------------------------------------------------
class FractionMaster(Plan):
    """Refused: a picked fraction outside the interval. Result: the pupil's fraction that fits.
    Effect: a Kocha (or banana) card drawn, which leaves the game."""

    def policy(self, run, state):
        if state.phase == "lay":
            choices = self.lesson.choices(state, PUPIL)
            if choices:
                return Step("move", choices[0].token)
            return as_step(self.lesson, state, next(m for m in state.legal_moves() if m.kind == "lay_interval"))
        fitting = [m for m in state.legal_moves() if m.kind == "play_fraction"]
        if fitting:
            return Step("picks", cards=tuple(fitting[0].cards))
        return Step("move", move_token(Move("end_turn", PUPIL)))

    def ends(self, state) -> tuple[str, str]:
        n1, d1, n2, d2 = (DECK[c].top for c in state.interval)
        return f"{n1}/{d1}", f"{n2}/{d2}"

    def refusal(self, run, state):
        if run.stage != PLAY or run.drill.question or state.current_player != PUPIL or state.phase != "move":
            return None
        hand = sorted(c for c in state.hands[PUPIL] if not DECK[c].is_special)
        for a in hand:
            for b in hand:
                move = Move("play_fraction", PUPIL, (a, b))
                if a != b and not state.is_legal(move):
                    found = self.refused(
                        move, state, (f"{DECK[a].top}/{DECK[b].top}", *self.ends(state)), Step("picks", cards=(a, b))
                    )
                    if found is not None and found.judged.skill:
                        return found
        return None

    def outcome(self, run, state, context):
        told = context["told"]
        record = state.turn_record or state.last_turn
        if told is None or not told.correct or not record or record["player"] != PUPIL or not record["fractions"]:
            return None
        num, den = record["fractions"][-1]
        n1, d1, n2, d2 = (DECK[c].top for c in record["interval"])
        numbers = (f"{DECK[num].top}/{DECK[den].top}", f"{n1}/{d1}", f"{n2}/{d2}")
        return Found(told.told, numbers, told=True) if with_numbers([told.told], numbers, self.locale) else None

    def effect(self, run, state, context):
        for line in context["story"]:
            if line.msgid in narration_ids(self.game_id, "kocha_drawn", "banana_drawn"):
                return Found(line)
            if line.msgid.startswith(("You drew a Kocha card", "You drew a banana card")):
                assert line.params["num"] == len(state.hands[PUPIL])
                return Found(line, (len(state.hands[PUPIL]),))
        return None


# --- War and its variants (the standard deck) -------------------------------------------------------------
def takes_line(plan: Plan, state, context: dict) -> Found | None:
    """The story's line on who takes the round's cards, with the round and the number of cards in it."""
    last = state.last_round
    if not last or last.get("winner") is None or not context["story"]:
        return None
    count = last.get("cards", last.get("cards_won"))
    line = with_numbers(context["story"], [last["round"], count], plan.locale)
    return Found(line, (last["round"], count)) if line is not None else None


class ChanceWar(Plan):
    """War, Joker War, Two-deck War, P'yanitsa, Războiul, Tod und Leben: the pupil turns cards. Result: who takes how
    many."""

    options = {"round_limit": "30"}
    no_refusal = (
        "In War and its pure-chance variants the pupil's only move is turning the next card; the drills are "
        "the decisions."
    )
    no_special = (
        "The standard deck has no special cards; the variants' own rules are told in the story "
        "(tests/test_standard_war_lessons.py)."
    )

    def policy(self, run, state):
        return as_step(self.lesson, state, state.legal_moves()[0])

    def outcome(self, run, state, context):
        return takes_line(self, state, context)


class TodUndLeben(ChanceWar):
    options = {"rounds": "1"}


class StrategyWar(ChanceWar):
    """Every card of the hand may be played (a choice, never refused). Result: who takes how many."""

    no_refusal = "In Strategy War every card of the hand may be played: which one is the pupil's strategy, not a rule."


class StealWar(Plan):
    """Refused: a steal with a card of another rank than the pile's top. Result: who takes how many. Effect: a steal."""

    players = "3"
    options = {"round_limit": "30"}

    def policy(self, run, state):
        legal = state.legal_moves()
        steal = next((m for m in legal if m.kind == "steal"), None)
        return Step(
            "move", move_token(steal or legal[0])
        )  # the looked-at card's button plays it; steals and tops are buttons

    def refusal(self, run, state):
        if (
            run.stage != PLAY
            or run.drill.question
            or state.current_player != PUPIL
            or state.phase != "turn"
            or not state.hands[PUPIL]
        ):
            return None
        mine = state.hands[PUPIL][0]
        for victim in range(1, state.game.players):
            pile = state.faceup[victim]
            if pile and rank(pile[-1]) != rank(mine):
                numbers = tuple(r for r in (rank(mine), rank(pile[-1])) if r <= 10)
                return self.refused(
                    Move("steal", PUPIL, (), str(victim)), state, numbers, Step("move", f"steal::{victim}")
                )
        return None

    def outcome(self, run, state, context):
        return takes_line(self, state, context)

    def effect(self, run, state, context):
        lines = (*STEAL_LINES.values(), *MULTI_STEAL_LINES.values(), *SWAP_LINES.values())
        wanted = {msgid for forms in lines for msgid in forms}
        return next((Found(line) for line in context["story"] if line.msgid in wanted), None)


class CasinoWar(Plan):
    """Refused: a tie bet the pupil's tokens cannot pay. Result: a hand told in tokens. No special cards."""

    players = "1"
    # 3 tokens: the stake of 2 leaves too few for the tie bet from the first hand on, and a first hand won
    # or lost is told at once (a game that ends at once would need new starts, and starts are rate-limited)
    options = {"tokens": "3"}
    no_special = "Casino War has no special cards: its lesson is the chance of a tie and the house's edge."

    def policy(self, run, state):
        return as_step(self.lesson, state, state.legal_moves()[0])

    def refusal(self, run, state):
        if run.stage != PLAY or run.drill.question or state.current_player != PUPIL or state.phase != "bet":
            return None
        tokens, stake = state.tokens[PUPIL], state.stake
        if tokens >= 2 * stake:
            return None
        return self.refused(Move("bet", PUPIL, (), "tie"), state, (tokens, 2 * stake), Step("move", "bet::tie"))

    def outcome(self, run, state, context):
        last = state.last_hand
        entry = last and last["players"].get(str(PUPIL))
        if not entry or entry["result"] not in ("won", "lost") or not context["story"]:
            return None
        line = with_numbers(context["story"], [entry["stake"]], self.locale)
        return Found(line, (entry["stake"],)) if line is not None else None


class TwentyNine(Plan):
    """Refused: a number card laid on the computer's pile. Result: a play of the computer's told with the pile's
    value before and after. Effect: a King, Queen, Jack or Joker the computer played on a pile, or its ace.

    The player lays the number card that brings one of its piles highest without going over 29, lets every
    window go, and ends the turn (or draws instead) when nothing fits.
    """

    def policy(self, run, state):
        legal = state.legal_moves()
        if state.phase == "react":
            return as_step(self.lesson, state, legal[-1])  # let it go
        fitting = [
            (state.values()[PUPIL][int(m.detail.split(":")[2])] + rank(m.cards[0]), m)
            for m in legal
            if m.kind == "play" and rank(m.cards[0]) <= 10 and m.detail.startswith(f"pile:{PUPIL}:")
        ]
        fitting = [(value, m) for value, m in fitting if value <= 29]
        if fitting:
            return as_step(self.lesson, state, max(fitting, key=lambda pair: pair[0])[1])
        return as_step(self.lesson, state, legal[-1])  # end the turn, or draw a card instead

    def refusal(self, run, state):
        if run.stage != PLAY or run.drill.question or state.current_player != PUPIL or state.phase != "play":
            return None
        numbers = [c for c in state.hands[PUPIL] if rank(c) <= 10]
        theirs = [i for i in range(3) if not state.piles[1][i]["won"]]
        if state.played or not numbers or not theirs:
            return None
        move = Move("play", PUPIL, (numbers[0],), f"pile:1:{theirs[0]}")
        return self.refused(move, state, (), Step("picks", move_token(move), move.cards))

    def outcome(self, run, state, context):
        recent = len(run.recent_moves())
        for event in state.events:
            if event["ply"] >= state.plies - recent and "before" in event and event["player"] != PUPIL:
                numbers = [event["before"], event["after"]]
                line = with_numbers(context["story"], numbers, self.locale)
                if line is not None:
                    return Found(line, tuple(numbers))
        return None

    def effect(self, run, state, context):
        wanted = {msgid for (who, what, _), msgid in TWENTY_NINE_PLAYED.items() if who == "they" and what != "number"}
        return next((Found(line) for line in context["story"] if line.msgid in wanted | {TWENTY_NINE_ACE}), None)


# --- Three Traits ----------------------------------------------------------------------------------------
class ThreeTraits(Plan):
    """Refused: a card of the hand that does not fit the row, told with the attributes it shares. Result: a round's
    end, who takes how many penalty cards. No special cards."""

    no_special = "Three Traits is played with the standard 52 cards: no card has a special effect."

    def policy(self, run, state):
        fitting = state.playable(PUPIL)
        if fitting:
            return Step("move", move_token(Move("play", PUPIL, (fitting[0],))))
        return Step("move", next(c.token for c in self.lesson.choices(state, PUPIL) if c.place != HAND))

    def refusal(self, run, state):
        if run.stage != PLAY or run.drill.question or state.current_player != PUPIL or state.phase != "play":
            return None
        for card in state.hands[PUPIL]:
            move = Move("play", PUPIL, (card,))
            found = self.refused(move, state, (), Step("move", move_token(move)))
            if found is not None and found.judged.skill:
                return found
        return None

    def outcome(self, run, state, context):
        if not state.results or not context["story"]:
            return None
        result = state.results[-1]
        taken = result["taken"][str(result["loser"])]
        took = {
            self.lesson.forms(f"took_{what}_{who}")[0]
            for what in ("row_and_hand", "everything")
            for who in ("you", "other")
        }
        line = next((line for line in context["story"] if line.msgid in took and line.params["num"] == taken), None)
        return Found(line, (taken,)) if line is not None else None


# --- Gnav (its own deck) ---------------------------------------------------------------------------------
class Gnav(Plan):
    """Refused: a refusal of a trade without a matador that refuses. Result: the round's highest card with the
    winner's new points. Effect: a matador's call with the card it shows.

    The pupil knocks with a dealt Fool, refuses with a matador, gives any other card when asked, and trades a
    card of 6 or lower (otherwise stands).
    """

    players = "3"

    def policy(self, run, state):
        kinds = {move.kind: move for move in state.legal_moves()}
        for kind in ("knock", "call", "accept"):
            if kind in kinds:
                return as_step(self.lesson, state, kinds[kind])
        low = gnav_deck.rank(state.hands[PUPIL][0], state.order) <= gnav_deck.face_rank("6", state.order)
        return as_step(self.lesson, state, kinds["trade"] if low and "trade" in kinds else kinds["stand"])

    def refusal(self, run, state):
        if run.stage != PLAY or run.drill.question or state.current_player != PUPIL or state.phase != "answer":
            return None
        if gnav_deck.refusal(state.hands[PUPIL][0]) is not None:
            return None
        move = Move("call", PUPIL)  # the reason names the card, which nb and sv say in words ("femmeren", "femman")
        return self.refused(move, state, (), Step("move", move_token(move)))

    def outcome(self, run, state, context):
        if not state.history or not context["story"]:
            return None
        end = state.history[-1]["events"][-1]
        if end["winner"] is None:
            return None
        points = end["points"][end["winner"]]
        texts = self.lesson.content()["narration"]
        won = {
            texts[key]["one"] for key in ("highest_you", "highest_other", "drawn_highest_you", "drawn_highest_other")
        }
        line = next((line for line in context["story"] if line.msgid in won and line.params["num"] == points), None)
        return Found(line, (points,)) if line is not None else None

    def effect(self, run, state, context):
        calls = narration_ids(self.game_id, "call_you", "call_other")
        return next((Found(line) for line in context["story"] if line.msgid in calls), None)


#: The plan for each kind of lesson: a game plays the plan of the nearest of its lesson's classes named here,
#: so a new War variant plays ChanceWar's, and a lesson of a new kind fails until it has a plan of its own.
PLANS = {
    ChanceWarLesson: ChanceWar,
    TodUndLebenLesson: TodUndLeben,
    StrategyWarLesson: StrategyWar,
    StealWarLesson: StealWar,
    CasinoWarLesson: CasinoWar,
    CalculationWarLesson: CalculationWar,
    MultiMatchLesson: MultiMatch,
    SheddingLesson: Shedding,
    MultiWarLesson: MultiWar,
    TripleSmartLesson: TripleSmart,
    FractionMasterLesson: FractionMaster,
    TwentyNineLesson: TwentyNine,
    ThreeTraitsLesson: ThreeTraits,
    GnavLesson: Gnav,
}


def plan_for(game_id: str, locale: str) -> Plan:
    lesson_class = type(LESSONS[game_id])
    kind = next((kind for kind in lesson_class.__mro__ if kind in PLANS), None)
    assert kind is not None, f"{game_id}: write a Plan for {lesson_class.__name__} and name it in PLANS"
    return PLANS[kind](game_id, locale)


def wanted(plan: Plan) -> set[str]:
    """What the journey must see. A game without a refusable choice shows instead that it offers none."""
    return {"refusal", "outcome"} | (set() if plan.no_special else {"effect"})


def next_step(plan: Plan, run: LessonRun, state) -> Step:
    return GO_ON if run.drill.question is not None else plan.policy(run, state)


def look(plan: Plan, run: LessonRun, state, seen: set[str]) -> dict[str, Found]:
    """What the page shows now that the journey still looks for."""
    context = lesson_context(run, "Pupil", 0)
    found = {}
    if "outcome" not in seen and (hit := plan.outcome(run, state, context)):
        found["outcome"] = hit
    if "effect" not in seen and (hit := plan.effect(run, state, context)):
        found["effect"] = hit
    if "refusal" not in seen and (hit := plan.refusal(run, state)):
        found["refusal"] = hit
    return found


def steps_needed(plan: Plan, run: LessonRun, missing: set[str] | None = None) -> int | None:
    """Play the stored run on in Python as the journey will: the requests it takes to see everything, or None
    (then what it did not see is added to ``missing``)."""
    run = clone(run)
    run.skip_intro(plan.lesson, {}, 0)
    seen, steps = {"refusal"} if plan.no_refusal else set(), 0
    while steps <= STEP_BOUND:
        state = run.game_state()
        found = look(plan, run, state, seen)
        seen |= found.keys()
        steps += "refusal" in found
        if wanted(plan) <= seen:
            return steps
        if run.stage == FINISHED:
            break
        step = next_step(plan, run, state)
        steps += requests_for(step, run)
        simulate(plan.lesson, run, step, plan.locale)
    if missing is not None:
        missing |= wanted(plan) - seen
    return None


# --- the page -----------------------------------------------------------------------------------------
class Journey:
    def __init__(self, visit: Visit, stored: Stored, plan: Plan) -> None:
        self.visit, self.page, self.stored, self.plan = visit, visit.page, stored, plan

    def activate(self, locator) -> None:
        """The keyboard way: focus the button, press Enter, wait for the new fragment."""
        assert locator.count() == 1, f"expected one button: {locator}"
        locator.focus()
        self.visit.press("Enter")

    def start(self) -> None:
        page = self.page
        page.goto(f"{self.visit.base_url}/lessons/{self.plan.game_id}")
        page.locator(f"input[name=players][value='{self.plan.players}']").check()
        for key, value in self.plan.options.items():
            page.locator(f"#opt-{key}").fill(value)
        page.locator("form[action$='/start'] button[type=submit]").click()
        page.wait_for_load_state("networkidle")
        assert "/runs/" in page.url

    def make(self, step: Step, run: LessonRun) -> None:
        lesson = self.page.locator("section#lesson")
        if step.kind == "go_on":
            self.activate(lesson.locator("form[action$='/go-on'] button"))
        elif step.kind == "move":
            self.activate(lesson.locator(f"button[name=move][value='{step.token}']"))
        elif step.kind == "picks":
            for card in list(run.turn.picked) + list(step.cards):  # put back the cards picked before, then pick these
                self.activate(
                    self.page.locator(f"section#lesson form[action$='/pick'] button[name=card][value='{card}']")
                )
            if step.token:
                self.activate(lesson.locator(f"section.moves button.place-button[value='{step.token}']"))
            else:
                self.activate(self.page.locator("section#lesson form[action$='/play-picked'] button"))
        else:
            box = lesson.locator("input#expression")
            box.fill("")
            box.focus()
            self.page.keyboard.type(step.typed)
            self.visit.press("Enter")
            assert not self.page.locator("section#lesson .flash-error").count(), self.page.locator(
                "section#lesson .flash-error"
            ).inner_text()

    def page_text(self) -> str:
        return squeeze(self.page.locator("section#lesson").text_content())

    def check_shown(self, what: str, found: Found) -> None:
        expected = squeeze(shown(found.line, self.plan.locale))
        for number in found.numbers:
            assert has_number(expected, number), f"{what}: {number} missing from {expected!r}"
        if found.told:
            right = self.page.locator("section#lesson .told-right")
            assert right.count() == 1 and squeeze(right.text_content()) == expected, (
                f"{what}: the told line should be {expected!r}"
            )
        assert expected in self.page_text(), f"{what} not on the page: {expected!r}\n{self.page_text()[:1500]}"

    def check_refusal(self, found: Found, run: LessonRun) -> None:
        page, locale = self.page, self.plan.locale
        self.make(found.step, run)
        after = self.stored.run()
        assert after.moves == run.moves and after.state == run.state, "a refused choice must play nothing"
        assert after.turn.told == found.judged.to_dict() and after.step > run.step
        refused = page.locator("section#lesson .told-refused")
        assert refused.count() == 1, "the refusal is told: " + self.page_text()[:800]
        line = squeeze(refused.text_content())
        assert line == squeeze(shown(found.judged.told, locale)), (line, shown(found.judged.told, locale))
        for number in found.numbers:
            assert names_number(line, number, locale), f"the reason names {number}: {line}"
        if locale != "en" and say(found.judged.told.msgid, locale) != found.judged.told.msgid:
            assert line != squeeze(shown(found.judged.told, "en")), "the reason is in the page's language"
        self.visit.axe(f"a refused choice in {self.plan.game_id}")

    def check_no_refusal(self, run: LessonRun, state) -> None:
        """A game without refusable choices: every button (a move, or a card of the hand) is a legal move nothing
        judges; nothing typed or picked."""
        lesson = self.page.locator("section#lesson")
        assert lesson.locator("form[action$='/pick'], form[action$='/typed-move']").count() == 0
        buttons = lesson.locator("button[name=move]")
        assert buttons.count() >= 1
        for token in buttons.evaluate_all("buttons => buttons.map(b => b.value)"):
            move = move_from_token(token, PUPIL)
            assert state.is_legal(move) and self.plan.lesson.judge(state, PUPIL, move) is None, token

    def play(self) -> set[str]:
        plan, seen = self.plan, set()
        self.activate(self.page.locator("section#lesson form[action$='/skip-intro'] button"))
        for _ in range(STEP_BOUND * 2):
            run = self.stored.run()
            state = run.game_state()
            for what, found in look(plan, run, state, seen).items():
                if what == "refusal":
                    self.check_refusal(found, run)
                    run = self.stored.run()
                else:
                    self.check_shown(what, found)
                seen.add(what)
            if (
                plan.no_refusal
                and "refusal" not in seen
                and run.drill.question is None
                and run.stage == PLAY
                and state.current_player == PUPIL
            ):
                self.check_no_refusal(run, state)
                seen.add("refusal")
            if wanted(plan) <= seen:
                return seen
            assert run.stage != FINISHED, f"the game ended before showing {wanted(plan) - seen}"
            self.make(next_step(plan, run, state), run)
        raise AssertionError(f"{plan.game_id}: not seen in {STEP_BOUND} steps: {wanted(plan) - seen}")


@pytest.mark.parametrize("game_id,locale,button", CASES)
def test_each_game_refuses_a_choice_tells_a_result_and_a_special_cards_effect(
    browser, live_server, game_id, locale, button
):
    plan = plan_for(game_id, locale)
    name = f"Decider {game_id}"
    visit = Visit(browser, live_server)
    stored = Stored(live_server.database_url, name)
    journey = Journey(visit, stored, plan)
    try:
        visit.sign_in(name, button)
        assert visit.page.locator("html").get_attribute("lang") == locale
        missing: set[str] = set()
        for _ in range(STARTS):  # a new game until one shows everything within the bound (see the module docstring)
            journey.start()
            if steps_needed(plan, stored.run(), missing) is not None:
                break
        else:
            raise AssertionError(
                f"{game_id}: no game in {STARTS} starts showed everything within {STEP_BOUND} steps; missing at times: "
                f"{missing}"
            )
        seen = journey.play()
        assert wanted(plan) <= seen
        assert not visit.problems, visit.problems
    finally:
        stored.close()
        visit.close()
