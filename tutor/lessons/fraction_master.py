"""The Fraction Master lesson: lay an interval, make fractions inside it, and talk about fractions.

The pupil builds every move from cards, as at a real table: a fraction by picking two
cards of the hand (the numerator first, then the denominator) and laying it; the
interval, when it is the pupil's turn to lay it, by picking the four interval cards in
the order they are laid. Ending the turn is a button (and so is laying the interval
cards as they lie). Every fraction is judged with its numbers: one that does not fit
is refused ("4/9 is not between 1/2 and 3/4: 4/9 is less than 1/2 ...") and stored as
an answer for ``fractions``, like a drill answer; so is ending the turn, right when no
fraction of the hand fits and wrong when one does (the fractions that would have fitted
are then shown). The interval's ends are always named in the order they lie on the
table. An interval of two equal fractions is no interval (the engine's rule): the pupil who
lays one is told so with the fractions' value ("1/1 and 9/9 are equal: both are 1"), and
when the two are written differently, seeing that they are equal is fractions work, so it
is stored as a wrong answer for ``fractions``. The computers' turns are told fraction by
fraction with the reason it fits.

At the start of every turn of the pupil the lesson offers a fraction question about the
interval on the table and the pupil's own cards (the runner's pace asks about three in
four): which of your fractions fits, is this one inside, which is larger, put three in
order, are two equivalent.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from tutor.deck import kids2
from tutor.drills import Offer, Question, choose_question
from tutor.drills.fractions import (
    fraction_equivalent,
    fraction_from_hand,
    fraction_in_interval,
    fraction_larger,
    fraction_order,
)
from tutor.engine import Move
from tutor.engine.fraction_master import fits, possible_fractions
from tutor.lessons.base import TURN, TURN_OF, Choice, Judged, Lesson, Row, Zone, and_list, move_token, progress_line
from tutor.text import N_, NP_, Text


def top(card_id: int) -> int:
    return kids2()[card_id].top


def fraction_text(numerator_card: int, denominator_card: int) -> str:
    """A fraction as laid from two cards, never reduced: "6/8"."""
    return f"{top(numerator_card)}/{top(denominator_card)}"


def ends_of(interval: list[int]) -> tuple[tuple[int, int], tuple[int, int]]:
    """The interval's two fractions as (numerator, denominator) top numbers, in the order they lie."""
    n1, d1, n2, d2 = (top(c) for c in interval)
    return (n1, d1), (n2, d2)


def _written(pair: tuple[int, int]) -> str:
    return f"{pair[0]}/{pair[1]}"


def _over(pair: tuple[int, int], denominator: int) -> str:
    return f"{pair[0] * (denominator // pair[1])}/{denominator}"


def comparison(left: tuple[int, int], right: tuple[int, int], sign: str = "<") -> str:
    """Two fractions compared over their own common denominator: "4/9 = 8/18 < 9/18 = 1/2".

    Each comparison uses the smallest common denominator of its two fractions, so the
    numbers stay small ("5/8 < 6/8 = 3/4"); a step that repeats a fraction is left out.
    """
    denominator = math.lcm(left[1], right[1])
    before = dict.fromkeys([_written(left), _over(left, denominator)])
    after = dict.fromkeys([_over(right, denominator), _written(right)])
    return f"{' = '.join(before)} {sign} {' = '.join(after)}"


def one_denominator(pairs: list[tuple[int, int]]) -> dict:
    """Fractions in order over one common denominator: ``denominator``, ``common`` ("1/2 = 18/36, 5/9 = 20/36")
    and ``chain`` ("18/36 < 20/36")."""
    denominator = math.lcm(*(pair[1] for pair in pairs))
    over = [_over(pair, denominator) for pair in pairs]
    written = [_written(pair) for pair in pairs]
    common = ", ".join(text if text == scaled else f"{text} = {scaled}" for text, scaled in zip(written, over))
    return {"denominator": denominator, "common": common, "chain": " < ".join(over)}


@dataclass(frozen=True)
class Placement:
    """Where a fraction lies against an interval, and the numbers that show it.

    ``case`` is ``inside``, ``below``, ``above``, ``end`` (equal to an end written
    differently, such as 2/4 and 1/2) or ``same_end`` (written like an end); ``fits``
    follows the rules (an end counts unless ``strict``). ``params`` name the fraction,
    the ends in table order (``first``, ``second``), the end it is compared with
    (``end``, and ``end_c``: both over their common denominator), and the comparisons
    that show it: ``compare`` with that end; inside, all three over one common
    ``denominator`` (``common``: "1/2 = 18/36, 5/9 = 20/36, 3/4 = 27/36", and ``chain``:
    "18/36 < 20/36 < 27/36").
    """

    case: str
    fits: bool
    params: dict


def placement(fraction: tuple[int, int], interval: list[int], strict: bool) -> Placement:
    """Where ``fraction`` ((numerator, denominator) top numbers) lies against the laid interval."""
    first, second = ends_of(interval)
    value = Fraction(*fraction)
    low, high = sorted((first, second), key=lambda pair: Fraction(*pair))
    equal = [end for end in (first, second) if Fraction(*end) == value]
    if equal:
        end = next((e for e in equal if e == fraction), equal[0])
        case = "same_end" if end == fraction else "end"
    elif value < Fraction(*low):
        end, case = low, "below"
    elif value > Fraction(*high):
        end, case = high, "above"
    else:
        end, case = low, "inside"
    params = {
        "fraction": _written(fraction),
        "first": _written(first),
        "second": _written(second),
        "end": _written(end),
        "end_c": _over(end, math.lcm(fraction[1], end[1])),
        "compare": comparison(fraction, end, {"below": "<", "above": ">"}.get(case, "=")),
        **one_denominator([low, fraction, high]),
    }

    fitting = fits(value, (Fraction(*first), Fraction(*second)), strict)
    return Placement(case, fitting, params)


def listing(pairs: list[tuple[int, int]]) -> str:
    """Card pairs as the fractions they make, each once: "5/8, 2/4"."""
    texts = [fraction_text(*pair) for pair in pairs]
    return ", ".join(dict.fromkeys(texts))


#: At most this many fitting fractions are named when the pupil ends the turn too early.
EXAMPLES_TOLD = 3


class FractionMasterLesson(Lesson):
    game_id = "fraction-master"
    lesson_options = {"round_limit": 16}
    teams_of_four = True
    picks_cards = True
    stacks_fractions = True

    def round_number(self, game_state) -> int:
        return game_state.turns

    def intro_params(self, game_state, pupil: int) -> dict:
        numbers = [top(c) for c in game_state.interval]
        return {"numbers": ", ".join(map(str, numbers)), "turns": game_state.game.options["round_limit"]}

    # --- the table ------------------------------------------------------------------------
    def scoreboard(self, game_state, pupil: int) -> list[Text]:
        view = game_state.player_view(pupil)
        limit = game_state.game.options["round_limit"]
        lines = [progress_line(limit, view["rounds"], TURN_OF, TURN)]
        for index, side in enumerate(view["sides"]):
            names = [self.seat_name(p, pupil, game_state.game.players) for p in side]
            side_name = (
                names[0]
                if len(names) == 1
                else Text(N_("%(first)s and %(second)s"), {"first": names[0], "second": names[1]})
            )
            lines.append(
                Text.count(
                    # Translators: a scoreboard line. %(side)s is a label for a player or a team: "You", "Computer 1",
                    # or "You and Computer 2 (your partner)"; %(draw)s counts the cards in its draw pile.
                    NP_(
                        "%(side)s: %(num)s card left (draw pile %(draw)s)",
                        "%(side)s: %(num)s cards left (draw pile %(draw)s)",
                    ),
                    view["side_counts"][index],
                    side=side_name,
                    draw=view["draw_counts"][index],
                )
            )
        return lines

    def table(self, game_state, pupil: int) -> list[Zone]:
        """The interval (its two fractions drawn stacked, in the order laid), the fractions laid, the others."""
        view = game_state.player_view(pupil)
        players = game_state.game.players
        if view["interval_laid"]:
            first, second = ends_of(view["interval"])
            key = (
                N_("from %(first)s to %(second)s, the ends do not count")
                if view["strict"]
                else N_("from %(first)s to %(second)s, the ends count too")
            )
            zones = [
                Zone(
                    Text(N_("On the table")),
                    [
                        Row(
                            Text(N_("The interval")),
                            list(view["interval"]),
                            note=Text(key, {"first": _written(first), "second": _written(second)}),
                        )
                    ],
                    key="interval",
                )
            ]
        else:
            zones = [
                Zone(
                    Text(N_("On the table")),
                    [Row(Text(N_("The four interval cards")), list(view["interval"]), note=Text(N_("not laid yet")))],
                    key="interval-cards",
                )
            ]
        record = view["this_turn"] if view["this_turn"] and view["this_turn"]["fractions"] else view["last_turn"]
        if record and record["fractions"]:
            cards = [c for pair in record["fractions"] for c in pair]
            zones.append(
                Zone(
                    Text(N_("Fractions laid")),
                    [
                        Row(
                            self.seat_name(record["player"], pupil, players),
                            cards,
                            note=Text(listing(record["fractions"])),
                        )
                    ],
                    key="laid",
                )
            )
        others = [
            Row(
                self.seat_name(p, pupil, players),
                [None] * min(view["hand_counts"][p], 1),
                note=Text.count(NP_("%(num)s card in hand", "%(num)s cards in hand"), view["hand_counts"][p]),
            )
            for p in range(players)
            if p != pupil
        ]
        return zones + [Zone(Text(N_("The other players")), others, key="others")]

    # --- the pupil's choices -----------------------------------------------------------------
    def choices(self, game_state, pupil: int) -> list[Choice]:
        """Ending the turn, or laying the interval cards as they lie; fractions and other layouts are picked."""
        if game_state.current_player != pupil:
            return []
        if game_state.phase == "lay":
            as_they_lie = Move("lay_interval", pupil, tuple(game_state.interval))
            if not game_state.is_legal(as_they_lie):
                return []
            first, second = ends_of(game_state.interval)
            return [
                Choice(
                    move_token(as_they_lie),
                    Text(
                        N_("Lay them as they lie: %(first)s and %(second)s"),
                        {"first": _written(first), "second": _written(second)},
                    ),
                    list(as_they_lie.cards),
                )
            ]
        if game_state.phase != "move":
            return []
        end = Move("end_turn", pupil)
        label = (
            Text(N_("End my turn"))
            if game_state.turn_record and game_state.turn_record["fractions"]
            else Text(N_("End my turn and keep my cards"))
        )
        return [Choice(move_token(end), label)]

    def pickable(self, game_state, pupil: int) -> list[int]:
        """The layer picks the four interval cards as they lie; the mover picks from the hand."""
        if game_state.phase == "lay" and game_state.current_player == pupil:
            return list(game_state.interval)
        return super().pickable(game_state, pupil)

    def move_from_picks(self, game_state, pupil: int, picked: list[int]) -> Move | None:
        """Two picked cards are a fraction (the first is the numerator); four, laid in order, the interval."""
        if game_state.phase == "lay" and len(picked) == 4:
            return Move("lay_interval", pupil, tuple(picked))
        if game_state.phase == "move" and len(picked) == 2:
            return Move("play_fraction", pupil, tuple(picked))
        return None

    def picked_note(self, game_state, pupil: int, picked: list[int]) -> Text | None:
        """What the picked cards make so far: "Your fraction: 4/9", "First fraction: 3/5 ..."."""
        tops = [top(c) for c in picked]
        if game_state.phase == "lay":
            notes = [
                N_("First fraction: numerator %(a)s. Now pick its denominator."),
                N_("First fraction: %(a)s/%(b)s. Now pick the numerator of the second fraction."),
                N_("First fraction: %(a)s/%(b)s. Second fraction: numerator %(c)s. Now pick its denominator."),
                N_("Your interval: %(a)s/%(b)s and %(c)s/%(d)s."),
            ]
        else:
            notes = [N_("Numerator: %(a)s. Now pick the denominator."), N_("Your fraction: %(a)s/%(b)s.")]
        if not tops:
            return None
        if len(tops) > len(notes):
            return self.narration("pick_more")
        return Text(notes[len(tops) - 1], dict(zip("abcd", tops)))

    def playable(self, game_state, pupil: int) -> set[int]:
        """The cards that take part in some legal fraction (or layout): a hint, on request."""
        return {
            card
            for move in game_state.legal_moves()
            if move.kind in ("play_fraction", "lay_interval")
            for card in move.cards
        }

    def decision_prompt(self, game_state, pupil: int) -> Text:
        if game_state.phase != "move":
            return Text(N_("How do you lay the four interval cards as two fractions?"))
        first, second = ends_of(game_state.interval)
        key = (
            N_("Which fraction from your cards lies strictly between %(first)s and %(second)s?")
            if game_state.strict
            else N_("Which fraction from your cards lies between %(first)s and %(second)s?")
        )
        return Text(key, {"first": _written(first), "second": _written(second)})

    def judge(self, game_state, pupil: int, move: Move) -> Judged | None:
        """A fraction is told where it lies (with a common denominator); ending the turn, whether one would fit."""
        if game_state.current_player != pupil or move.player != pupil:
            return super().judge(game_state, pupil, move)
        legal = game_state.is_legal(move)
        if move.kind == "play_fraction" and game_state.phase == "move":
            hand = game_state.hands[pupil]
            if len(move.cards) != 2 or len(set(move.cards)) != 2 or not set(move.cards) <= set(hand) or move.detail:
                return None  # not two of the pupil's cards: a stale or forged form, refused without a word
            judged = self.judge_fraction(game_state, move.cards)
            return judged if judged.correct == legal else super().judge(game_state, pupil, move)
        if move.kind == "end_turn" and game_state.phase == "move" and legal:
            return self.judge_end_of_turn(game_state, pupil)
        if (
            move.kind == "lay_interval"
            and game_state.phase == "lay"
            and not legal
            and len(move.cards) == 4
            and sorted(move.cards) == sorted(game_state.interval)
        ):
            return self.judge_empty_layout(move.cards) or super().judge(game_state, pupil, move)
        return super().judge(game_state, pupil, move)

    def judge_empty_layout(self, cards: tuple[int, ...]) -> Judged | None:
        """Two equal fractions are no interval: told with their value; seeing that they are equal is fractions work."""
        first, second = ends_of(cards)
        value = Fraction(*first)
        if value != Fraction(*second):
            return None
        params = {"first": _written(first), "second": _written(second)}
        if first == second:  # written alike: a rule to learn, not a fraction to compare
            return Judged(False, self.narration("layout_same", **params), kind="empty_interval")
        shown = str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
        return Judged(False, self.narration("layout_equal", value=shown, **params), "fractions", "empty_interval")

    def judge_fraction(self, game_state, cards: tuple[int, int]) -> Judged:
        """The pupil's fraction against the interval: right or refused, with the numbers either way."""
        place = placement((top(cards[0]), top(cards[1])), game_state.interval, game_state.strict)
        if place.fits:
            key = {"inside": "fits_inside", "end": "fits_end", "same_end": "fits_same_end"}[place.case]
        else:
            key = {
                "below": "not_below",
                "above": "not_above",
                "end": "not_end_strict",
                "same_end": "not_same_end_strict",
            }[place.case]
        return Judged(place.fits, self.narration(key, **place.params), "fractions", "fraction_fits")

    def judge_end_of_turn(self, game_state, pupil: int) -> Judged | None:
        """Ending the turn answers "does any fraction of my cards fit?": right when none does."""
        hand = game_state.hands[pupil]
        if len(hand) < 2:
            return None  # no fraction can be made: nothing to decide
        first, second = (_written(end) for end in ends_of(game_state.interval))
        fitting = possible_fractions(hand, game_state.interval, game_state.strict)
        laid = bool(game_state.turn_record and game_state.turn_record["fractions"])
        if fitting:
            texts = list(dict.fromkeys(fraction_text(*pair) for pair in fitting))
            if len(texts) > EXAMPLES_TOLD:  # a long list would hide the hand on a small screen
                told = Text.count(
                    NP_(
                        "Your turn ends, but %(num)s fraction from your cards would have fitted between %(first)s and "
                        "%(second)s, for example %(fractions)s.",
                        "Your turn ends, but %(num)s fractions from your cards would have fitted between %(first)s "
                        "and %(second)s, for example %(fractions)s.",
                    ),
                    len(texts),
                    first=first,
                    second=second,
                    fractions=", ".join(texts[:EXAMPLES_TOLD]),
                )
                return Judged(False, told, "fractions", "none_fits")
            told = Text.count(
                NP_(
                    "Your turn ends, but this fraction from your cards would have fitted between %(first)s and "
                    "%(second)s: %(fractions)s.",
                    "Your turn ends, but these fractions from your cards would have fitted between %(first)s and "
                    "%(second)s: %(fractions)s.",
                ),
                len(texts),
                first=first,
                second=second,
                fractions=", ".join(texts),
            )
            return Judged(False, told, "fractions", "none_fits")
        key = (
            NP_(
                "No other fraction from your cards fits between %(first)s and %(second)s: your turn ends with %(num)s "
                "card.",
                "No other fraction from your cards fits between %(first)s and %(second)s: your turn ends with %(num)s "
                "cards.",
            )
            if laid
            else NP_(
                "Right: no fraction from your cards fits between %(first)s and %(second)s, so you keep your %(num)s "
                "card.",
                "Right: no fraction from your cards fits between %(first)s and %(second)s, so you keep your %(num)s "
                "cards.",
            )
        )
        return Judged(True, Text.count(key, len(hand), first=first, second=second), "fractions", "none_fits")

    def turn_narration(self, game_state, pupil: int) -> Text:
        if game_state.phase == "lay":
            name = self.seat_name(
                game_state.waiting[0] if game_state.waiting else (pupil + 1) % game_state.game.players,
                pupil,
                game_state.game.players,
            )
            return self.narration("your_layout", name=name)
        first, second = (_written(end) for end in ends_of(game_state.interval))
        if game_state.turn_record and game_state.turn_record["fractions"]:
            return self.narration("your_turn_more", first=first, second=second)
        return self.narration("your_turn_strict" if game_state.strict else "your_turn", first=first, second=second)

    # --- what happened ---------------------------------------------------------------------------
    def round_story(self, game_state, pupil: int, recent: list[Move]) -> list[Text]:
        """The others' turns since the pupil last moved, fraction by fraction with the reason it fits,
        and a special card drawn (by them, or by the pupil at the start of this turn)."""
        story: list[Text] = []
        players = game_state.game.players
        if any(m.player != pupil and m.player >= 0 for m in recent):
            records = game_state.recent_turns
            mine = max((i for i, r in enumerate(records) if r["player"] == pupil), default=-1)
            for record in records[mine + 1 :]:
                story.extend(self.turn_story(game_state, record, self.seat_name(record["player"], pupil, players)))
        record = game_state.turn_record
        if record and record["player"] == pupil and not record["fractions"]:
            for special in record["specials"]:
                if kids2()[special].kind == "banana":
                    key = NP_(
                        "You drew a banana card: like a Kocha card, it leaves the game and is not replaced. You take "
                        "three extra cards instead, so you hold %(num)s card now.",
                        "You drew a banana card: like a Kocha card, it leaves the game and is not replaced. You take "
                        "three extra cards instead, so you hold %(num)s cards now.",
                    )
                else:
                    key = NP_(
                        "You drew a Kocha card: it leaves the game and is not replaced. You take three extra cards "
                        "instead, so you hold %(num)s card now.",
                        "You drew a Kocha card: it leaves the game and is not replaced. You take three extra cards "
                        "instead, so you hold %(num)s cards now.",
                    )
                story.append(Text.count(key, len(game_state.hands[pupil])))
        return story

    def turn_story(self, game_state, record: dict, name: Text) -> list[Text]:
        """One finished turn of another player: special cards, each fraction and why it fits, the end."""
        story = [
            self.narration("banana_drawn" if kids2()[special].kind == "banana" else "kocha_drawn", name=name)
            for special in record["specials"]
        ]
        first, second = (_written(end) for end in ends_of(record["interval"]))
        fractions = [(top(num), top(den)) for num, den in record["fractions"]]
        if len(fractions) == 1:  # one fraction: why it fits, as a worked example
            place = placement(fractions[0], record["interval"], game_state.strict)
            story.append(
                self.narration(
                    {"inside": "laid_inside", "end": "laid_end", "same_end": "laid_same_end"}.get(
                        place.case, "laid_inside"
                    ),
                    name=name,
                    **place.params,
                )
            )
        elif fractions:  # several: one line with every fraction, so the pupil's hand stays in view
            laid = and_list([_written(fraction) for fraction in fractions])
            story.append(
                Text.count(
                    # Translators: %(name)s is a computer player's name ("Computer 2"), never "you"; %(fractions)s lists
                    # the fractions laid ("2/3, 3/5 and 4/7").
                    NP_(
                        "%(name)s laid %(num)s fraction from %(first)s to %(second)s: %(fractions)s.",
                        "%(name)s laid %(num)s fractions from %(first)s to %(second)s: %(fractions)s.",
                    ),
                    len(fractions),
                    name=name,
                    first=first,
                    second=second,
                    fractions=laid,
                )
            )
        held = len(game_state.hands[record["player"]])
        if record["kept"]:
            story.append(
                Text.count(
                    # Translators: %(name)s is a computer player's name ("Computer 2"), never "you"; %(num)s counts the
                    # cards it holds.
                    NP_(
                        "%(name)s laid no fraction between %(first)s and %(second)s and keeps %(num)s card.",
                        "%(name)s laid no fraction between %(first)s and %(second)s and keeps %(num)s cards.",
                    ),
                    held,
                    name=name,
                    first=first,
                    second=second,
                )
            )
        elif not game_state.is_over or held:
            story.append(
                Text.count(
                    # Translators: %(name)s is a computer player's name ("Computer 2"), never "you".
                    NP_(
                        "%(name)s ended the turn with %(num)s card in hand.",
                        "%(name)s ended the turn with %(num)s cards in hand.",
                    ),
                    held,
                    name=name,
                )
            )
        return story

    # --- drill points ------------------------------------------------------------------------------
    def before_move(self, game_state, pupil: int, rng: random.Random, levels: dict) -> list[Question]:
        """At the start of every turn of the pupil (interval laid, nothing played yet); the pace picks."""
        if game_state.phase != "move" or (game_state.turn_record and game_state.turn_record["fractions"]):
            return []
        interval, hand = (
            list(game_state.interval),
            [c for c in sorted(game_state.hands[pupil]) if not kids2()[c].is_special],
        )
        if len(hand) < 2:
            return []
        strict = game_state.strict
        makers = {
            "fraction_from_hand": lambda level: fraction_from_hand(interval, hand, level, strict),
            "fraction_in_interval": lambda level: fraction_in_interval(interval, hand, level, strict),
            "fraction_larger": lambda level: fraction_larger(interval, hand, level),
            "fraction_order": lambda level: fraction_order(interval, hand, level),
            "fraction_equivalent": lambda level: fraction_equivalent(interval, hand, level),
        }
        offers = [Offer("fractions", kind, unless_too_few(make)) for kind, make in makers.items()]
        rng.shuffle(offers)  # the lesson's order among kinds forecast alike
        question = choose_question(levels, offers)
        return [question] if question is not None else []


def unless_too_few(make: Callable[[int], Question]) -> Callable[[int], Question | None]:
    """``make``, giving no question where the table has too few different fractions for its kind."""

    def build(level: int) -> Question | None:
        try:
            return make(level)
        except ValueError:
            return None

    return build
