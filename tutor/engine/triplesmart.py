"""TripleSmart (Kids2, age 7+) and TripleSmart: Extreme (age 10+), 2-4 players.

The whole deck is shuffled. Every player gets 17 cards (four players play as two teams
of two that share their piles, so a team has 34); the rest is a face-down target pile
on the table. In a round every player turns the top three cards of the side's draw
pile face up, then the top card of the target pile is turned: its big top number is
the target. Each player writes an expression with the top numbers of their own cards,
each card at most once, that comes as close to the target as they can: TripleSmart
allows + and - only; TripleSmart: Extreme allows + - x / and brackets. The player
closest to the target (exactly: |value - target|, fractions allowed in Extreme) wins
every card on the table, the target card too, into the side's collection pile. An
empty draw pile is refilled by shuffling the collection pile.

A player with a special card among the three turns one more card. A second special
card is a **double Kocha**, which wins the round at once. Equal best closeness on
different sides, or double Kochas on different sides, mean **war**: those players each
lay two cards in the pot and turn three new cards, a new target card is turned, and
the closest wins everything on the table. The game ends when only one side has cards,
when the target pile has no number card left for a new round, or when the agreed
number of rounds or minutes is up: then most cards wins.

Moves: turning the cards and the target is automatic (the pupil chooses nothing
there). A player's move is ``submit``: ``detail`` is the expression in plain ASCII
(``3+(7*2)``, with ``*`` and ``/``) and ``cards`` names the cards used. It is read by
:func:`tutor.answers.read_answer` (never ``eval``); every number written must be the top
number of a named card, written as a whole number (``4``, never ``8/2``, ``4.0`` or
``04``), each card at most once, and the named cards must be the player's own number
cards in the current battle. ``legal_moves`` lists one move per
reachable value (with the expression :func:`tutor.expressions.reachable` finds), so
that random play and the computer players work; any other valid expression is legal
too (``is_legal`` reads it).

Decisions:

- The source says "each card value at most once": any non-empty selection of the cards
  may be used (games.md). Brackets are allowed in Extreme; in TripleSmart a sign may
  start an operand ("-3+5"), which changes nothing a subtraction could not do.
- Every number written is a card's top number as it is (games.md): in TripleSmart,
  where the answer grammar would read "8/2" as the number 4, a fraction is refused
  (``fraction``), and so is a decimal such as "4.0" in both games (``not_whole``).
- Simultaneous play: players submit one after another in seat order, and a player's
  view shows only *that* others have submitted, never what, until everyone in the
  battle has submitted. Then the battle is decided and every submission, with the
  best reachable value for each player and one expression that reaches it, is shown
  in the battle record (``battles``, and ``last_round`` once the round is over).
- Banana cards behave as Kocha cards (games.md's MultiWar decision, applied here too:
  no special card has a top number). Two special cards among the first three are
  already a double Kocha. A double Kocha decides the battle before anyone submits.
- The turned target card lies on the table and goes to the winner with the rest. A
  special card turned as the target is laid beside it (it also goes to the winner) and
  the next card is turned. If a war needs a new target and the target pile holds no
  number card, the war is played against the last target.
- Two special cards decide a battle as soon as the cards are turned, so one player's
  move can decide several rounds: the round it completes and the next ones that double
  Kochas decide at once. ``recent_rounds`` keeps the records of every round decided
  since the last player's move (oldest first; ``last_round`` is the newest), so that a
  lesson can tell each of them and ask about the one the pupil played.
- The source does not say what happens when the target pile runs out: the game ends
  before a round that has no number card left to turn (end reason ``targets_used``),
  and most cards wins. The cards left in the target pile belong to no side.
- The clock (``time_limit_minutes``) can run out only when a round's cards are turned
  and nobody has submitted yet; that round is not played: every player takes the turned
  cards back into the side's collection pile, and the target card goes back under the
  target pile.
- A player who cannot turn the cards the battle needs (three, plus the extra card),
  even after shuffling the collection pile, is out of that battle and loses it; what
  the player laid stays on the table for the winner. If every player in a battle is
  out, each side takes back the cards its players laid this round and the target cards
  go back under the target pile. A side with no cards at the start of a round takes
  no part and is out of the game.
- Every round turns at least one target card, so the target pile ends the game; the
  War family's safety cap (1000 rounds, :mod:`tutor.engine.war_family`) is only a
  backstop for the rare battles in which every player runs out and the target cards go
  back. Simulated games last 3-15 rounds (TripleSmart games are short: 17 cards each).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from typing import ClassVar

from tutor.answers import ALLOW_ADD_SUB, ALLOW_FOUR_OPS, AnswerError, read_answer
from tutor.deck import kids2
from tutor.engine.core import CHANCE, Bot, Game, IllegalMove, InvalidState, Move, stored_int
from tutor.engine.war_family import (
    COMMON_END_REASONS,
    OUT,
    RESHUFFLE,
    BattleTableState,
    card_list,
    limit_options,
    split,
)
from tutor.expressions import ADD_SUB, FOUR_OPS, closest, reachable
from tutor.signs import operators, typed
from tutor.text import N_, NP_, Text, say

CARDS_EACH = 17
TURNED = 3  # cards turned per battle
POT = 2  # cards each war player lays in the pot
ASCII_OPERATORS = {
    "×": "*",
    "÷": "/",
    "−": "-",
    "–": "-",
    "‐": "-",
    "‑": "-",
    "‒": "-",
    "·": "*",
    "⋅": "*",
    "∙": "*",
    "⁄": "/",
    "∕": "/",
    " ": "",
}


def is_special(card_id: int) -> bool:
    return kids2()[card_id].is_special


def top(card_id: int) -> int:
    return kids2()[card_id].top


def number_literals(plain: str, allow: str) -> list[str]:
    """The numbers written in a plain-ASCII expression, as typed.

    In Extreme "/" divides, so "8/2" is the two numbers 8 and 2; in TripleSmart the answer
    grammar reads "8/2" as one number (a fraction), so it is one literal here too.
    """
    pattern = r"[0-9.,]+" if allow == ALLOW_FOUR_OPS else r"[0-9.,]+(?:/[0-9.,]*)?"
    return re.findall(pattern, plain)


def plain_expression(text: str) -> str:
    """The expression in plain ASCII, the form a ``submit`` move carries: "3 × (4 − 1)" -> "3*(4-1)"."""
    return "".join(ASCII_OPERATORS.get(ch, ch) for ch in text)


@lru_cache(maxsize=4096)
def reachable_plain(numbers: tuple[int, ...], search: str) -> tuple[tuple[Fraction, str], ...]:
    """Every reachable value with one plain-ASCII expression, smallest value first."""
    return tuple((value, plain_expression(text)) for value, text in sorted(reachable(list(numbers), search).items()))


@lru_cache(maxsize=8192)
def read_plain(plain: str, allow: str):
    """:func:`read_answer` of an engine's plain-ASCII expression, or the AnswerError it raised.

    Kept per process: the bots' candidate expressions, replays and stored states read the same
    few hundred expressions again and again (reading one costs about a millisecond).
    """
    try:
        return read_answer(plain, "en", allow=allow)
    except AnswerError as error:
        return error


def card_pool(cards: list[int]) -> dict[int, list[int]]:
    """The number cards by top number, lowest card id first (what :func:`cards_for` takes from)."""
    pool: dict[int, list[int]] = {}
    for card_id in sorted(c for c in cards if not is_special(c)):
        pool.setdefault(top(card_id), []).append(card_id)
    return pool


def cards_for(expression: str, cards: list[int], pool: dict[int, list[int]] | None = None) -> tuple[int, ...]:
    """The cards an expression of single-digit top numbers uses (lowest card id first for equal numbers).

    ``pool`` is :func:`card_pool` of ``cards``, made once when many expressions share the cards.
    """
    pool = pool if pool is not None else card_pool(cards)
    taken: dict[int, int] = {}
    used = []
    for number in digits_of(expression):
        nth = taken.get(number, 0)
        used.append(pool[number][nth])
        taken[number] = nth + 1
    return tuple(used)


@lru_cache(maxsize=8192)
def digits_of(expression: str) -> tuple[int, ...]:
    """The single-digit numbers an expression writes, in order (the same expressions come up again and again)."""
    return tuple(int(ch) for ch in expression if ch.isdigit())


SUBMIT_MESSAGES = {
    "game_over": N_("The game is over."),
    "not_submitting": N_("Nobody writes an expression now."),
    "not_your_turn": N_("It is player %(player)s's turn to write an expression."),
    "no_cards": N_("Choose the cards your expression uses."),
    "card_twice": N_("Each card can be used only once."),
    "not_your_card": N_("You can only use your own cards from this battle."),
    "special_card": N_("A Kocha or banana card has no number to use."),
    # Translators: %(signs)s are the signs the pupil types on a keyboard, filled in for each language ("+ - x /",
    # Norwegian "+ - * :").
    "not_ascii": N_("Type the expression with the signs %(signs)s and brackets, not other symbols."),
    "not_whole": N_("%(number)s is not a number on a card. Use the big numbers at the top of your cards."),
    "fraction": N_(
        "%(number)s is a fraction. In TripleSmart you use + and - only, with the numbers on your cards as they are."
    ),
    "not_on_cards": N_("%(number)s is not on the cards you chose."),
    "used_too_often": NP_(
        "Each card counts once: %(number)s is on %(available)s of your chosen cards, but you used it %(num)s time.",
        "Each card counts once: %(number)s is on %(available)s of your chosen cards, but you used it %(num)s times.",
    ),
}


class SubmitRefusal(ValueError):
    """Why an expression cannot be submitted: a code for programs and a translatable message.

    It offers the same ``code``, ``text`` and ``str()`` as :class:`tutor.answers.AnswerError`,
    which reports an expression that cannot be read.
    """

    def __init__(self, code: str, **params) -> None:
        message = SUBMIT_MESSAGES[code]
        self.code = code
        self.msgid, self.plural = (
            (message, "") if isinstance(message, str) else message
        )  # with a plural, ``num`` chooses
        self.params = {"code": code, **params}
        super().__init__(code)

    @property
    def text(self) -> Text:
        """The message, said in the reader's language (and signs) where it is shown."""
        return Text(self.msgid, self.params, self.plural)

    def __str__(self) -> str:
        return say(self.text)


class TripleSmartState(BattleTableState):
    """A TripleSmart position: piles per side, the target pile, the pot and the turned cards per player."""

    game: TripleSmart
    PHASES = ("deal", "submit", "reshuffle", "over")
    END_REASONS = COMMON_END_REASONS + ("targets_used",)
    DRAWING_PHASE = "turning"  # never stored: turning runs until a submission, a reshuffle or the end
    turned_per_battle, pot_per_war = TURNED, POT

    def __init__(self, game: TripleSmart) -> None:
        super().__init__(game)
        self.target_pile: list[int] = []  # face down; the last card is the top
        self.targets: list[int] = []  # target cards turned this round (special ones laid beside them)
        self.queue: list[int] = []  # contenders still turning cards, in seat order (``waiting``: still to submit)
        self.target_due = False
        self.submissions: dict[str, dict] = {}  # player -> cards, expression, value
        self.recent_rounds: list[dict] = []  # the rounds decided since the last player's move, oldest first

    # --- what is on the table -------------------------------------------------------------
    def numbers(self, player: int) -> list[int]:
        """The top numbers the player may use in this battle."""
        return [top(c) for c in self.turned[player] if not is_special(c)]

    def specials(self, player: int) -> int:
        return sum(map(is_special, self.turned[player]))

    @property
    def target_card(self) -> int | None:
        """The number card whose top number is the target now."""
        return next((c for c in reversed(self.targets) if not is_special(c)), None)

    @property
    def target(self) -> int | None:
        card_id = self.target_card
        return None if card_id is None else top(card_id)

    # --- the engine API ---------------------------------------------------------------------
    def _player_to_move(self) -> int:
        return self.waiting[0]

    def legal_moves(self) -> list[Move]:
        if self.phase != "submit":
            return []
        player = self.waiting[0]
        pool = card_pool(self.turned[player])
        return [
            Move("submit", player, cards_for(text, self.turned[player], pool), text)
            for _, text in reachable_plain(tuple(sorted(self.numbers(player))), self.game.search)
        ]

    def submit_problem(self, move: Move) -> SubmitRefusal | AnswerError | None:
        """Why ``move`` cannot be submitted now (with a code and a translatable message), or None."""
        if self.phase != "submit":
            return SubmitRefusal("not_submitting")
        player = self.waiting[0]
        if move.player != player:
            return SubmitRefusal("not_your_turn", player=player)
        if not move.cards:
            return SubmitRefusal("no_cards")
        if len(set(move.cards)) != len(move.cards):
            return SubmitRefusal("card_twice")
        if any(c not in self.turned[player] for c in move.cards):
            return SubmitRefusal("not_your_card")
        if any(is_special(c) for c in move.cards):
            return SubmitRefusal("special_card")
        if not move.detail.isascii():
            return SubmitRefusal(
                "not_ascii", signs=typed(operators("+-*/" if self.game.allow == ALLOW_FOUR_OPS else "+-"))
            )
        literals = number_literals(move.detail, self.game.allow)
        for literal in literals:
            if "/" in literal:
                return SubmitRefusal("fraction", number=literal)
            if not re.fullmatch(r"[1-9][0-9]*|0", literal):
                return SubmitRefusal("not_whole", number=literal)
        reading = read_plain(move.detail, self.game.allow)
        if isinstance(reading, AnswerError):
            return reading
        written = [int(literal) for literal in literals]
        available = Counter(top(c) for c in move.cards)
        for number, count in Counter(written).items():
            if not available[number]:
                return SubmitRefusal("not_on_cards", number=number)
            if count > available[number]:
                return SubmitRefusal("used_too_often", number=number, num=count, available=available[number])
        return None

    def is_legal(self, move: Move) -> bool:
        if move.kind == "submit" and move.player != CHANCE:
            return not self.is_over and self.submit_problem(move) is None
        return super().is_legal(move)

    def apply(self, move: Move) -> None:
        """Apply ``move``; a refused expression raises :class:`IllegalMove` saying why."""
        if move.kind == "submit" and move.player != CHANCE:
            problem = SubmitRefusal("game_over") if self.is_over else self.submit_problem(move)
            if problem:
                error = IllegalMove(f"{self.game.id}: {problem}")
                error.refusal = problem  # code and translatable message, for the lesson to show
                raise error
            self._apply(move)
            return
        super().apply(move)

    @property
    def at_round_start(self) -> bool:
        return self.phase == "submit" and self.wars == 0 and not self.submissions

    def _apply_player_move(self, move: Move) -> None:
        self.recent_rounds = []
        reading = read_plain(move.detail, self.game.allow)
        value = Fraction(int(reading.value.p), int(reading.value.q))
        self.submissions[str(move.player)] = {"cards": list(move.cards), "expression": move.detail, "value": str(value)}
        self.waiting.pop(0)
        if not self.waiting:
            self._resolve_submissions()
            self._advance()

    # --- the rules --------------------------------------------------------------------------
    def _deal(self, order: list[int]) -> None:
        sizes = [CARDS_EACH * len(side) for side in self.sides]
        self.draw_piles = split(order, sizes)
        self.target_pile = list(order[sum(sizes) :])
        self._start_round()
        self._advance()

    def _start_round(self) -> None:
        reason = self._end_reason_at_round_start()
        if not reason and all(is_special(c) for c in self.target_pile):
            reason = "targets_used"
        if reason:
            self._end(reason)
            return
        self.phase, self.wars, self.battles = "turning", 0, []
        self.contenders = [p for p in range(self.game.players) if self.pile_count(self.side_of(p))]
        self._start_battle(self.contenders, pot=0)

    def _start_battle(self, players: list[int], pot: int) -> None:
        self.phase = "turning"
        self.contenders, self.queue, self.waiting, self.out = list(players), list(players), [], []
        self.submissions = {}
        for player in players:
            self.pot_due[player], self.turn_due[player] = pot, TURNED
        self.target_due = True

    def _advance(self) -> None:
        while self.phase == "turning":
            if self.queue:
                self._turn_for(self.queue[0])
                if self.phase == "reshuffle":
                    return
            elif self.target_due:
                self._turn_target()
            else:
                self._open_submissions()

    def _turn_for(self, player: int) -> None:
        """One step of turning for ``player``: a card, the extra card after one special, or done."""
        if self.pot_due[player] or self.turn_due[player]:
            card_id = self._draw(self.side_of(player))
            if card_id == RESHUFFLE:
                return
            if card_id == OUT:
                self.out.append(player)
                self.pot_due[player] = self.turn_due[player] = 0
                self.queue.pop(0)
            elif self.pot_due[player]:
                self.pot_due[player] -= 1
                self.pot[player].append(card_id)
            else:
                self.turn_due[player] -= 1
                self.turned[player].append(card_id)
        elif len(self.turned[player]) == TURNED and self.specials(player) == 1:
            self.turn_due[player] = 1  # a Kocha card: turn one more
        else:
            self.queue.pop(0)

    def _turn_target(self) -> None:
        while self.target_pile:
            card_id = self.target_pile.pop()
            self.targets.append(card_id)
            if not is_special(card_id):
                break
        self.target_due = False

    def _open_submissions(self) -> None:
        """Decide a battle of double Kochas at once; otherwise everyone in it submits."""
        live = [p for p in self.contenders if p not in self.out]
        doubles = [p for p in live if self.specials(p) >= 2]
        if not live:
            self._record_battle([])
            self._finish(None)
        elif doubles:
            self._decide(doubles)
        else:
            self.phase, self.waiting = "submit", live

    def _resolve_submissions(self) -> None:
        distances = {
            p: abs(Fraction(self.submissions[str(p)]["value"]) - self.target)
            for p in self.contenders
            if p not in self.out
        }
        best = min(distances.values())
        self._decide([p for p, d in distances.items() if d == best])

    def _decide(self, leaders: list[int]) -> None:
        """The leaders all on one side win the table; leaders on several sides go to war."""
        self._record_battle(leaders)
        if not self._one_side_wins(leaders):
            self._start_battle(leaders, pot=POT)

    def _record_battle(self, leaders: list[int]) -> None:
        """What each player had, wrote and could have reached: the lesson shows it after the round."""
        target = self.target
        players = {}
        for player in self.contenders:
            entry: dict = {"cards": list(self.turned[player])}
            if player in self.out:
                entry["result"] = "out"
            elif self.specials(player) >= 2:
                entry["result"] = "double_kocha"
            elif str(player) in self.submissions:
                submitted = self.submissions[str(player)]
                value = Fraction(submitted["value"])
                entry.update(
                    result="submitted",
                    expression=submitted["expression"],
                    used=submitted["cards"],
                    value=str(value),
                    distance=str(abs(value - target)),
                )
            else:
                entry["result"] = "no_submission"  # a double Kocha elsewhere decided the battle first
            if self.numbers(player) and target is not None:
                distance, value, text = closest(self.numbers(player), target, self.game.search)
                entry.update(best_value=str(value), best_expression=plain_expression(text), best_distance=str(distance))
            players[str(player)] = entry
        self.battles.append(
            {"target": target, "target_card": self.target_card, "players": players, "leaders": list(leaders)}
        )

    def _finish(self, winner: int | None) -> None:
        """Send the table to the winner (or back where it came from); start the next round."""
        table = self._clear_table(winner)
        targets = list(self.targets)
        if winner is None:
            self.target_pile[:0] = targets  # under the target pile
        else:
            self.collection_piles[winner].extend(targets)
        self.last_round = {
            "round": self.rounds + 1,
            "table": table,
            "targets": targets,
            "battles": self.battles,
            "winner_side": winner,
            "winners": [] if winner is None else list(self.sides[winner]),
            "leaders": [] if winner is None else list(self.battles[-1]["leaders"]),
            "wars": self.wars,
        }
        self.recent_rounds.append(self.last_round)
        self.rounds += 1
        self.targets, self.battles, self.submissions = [], [], {}
        self.contenders, self.queue, self.waiting, self.out = [], [], [], []
        self._start_round()

    def _end(self, reason: str) -> None:
        """End the game; a round cut short by the clock is not played: the cards go back."""
        for player in range(self.game.players):
            self.collection_piles[self.side_of(player)].extend(self.table_cards(player))
            self.pot[player], self.turned[player] = [], []
            self.pot_due[player] = self.turn_due[player] = 0
        self.target_pile[:0], self.targets = self.targets, []
        super()._end(reason)
        self.contenders, self.queue, self.waiting, self.out = [], [], [], []
        self.target_due, self.submissions = False, {}

    # --- views and storage -----------------------------------------------------------------
    def player_view(self, player: int) -> dict:
        own = self.submissions.get(str(player))
        return {
            **self.common_view(player),
            "operations": self.game.allow,
            "target": self.target,
            "target_cards": list(self.targets),
            "target_pile_count": len(self.target_pile),
            "turned": [list(cards) for cards in self.turned],
            "pot_counts": [len(cards) for cards in self.pot],
            "contenders": list(self.contenders),
            "waiting": list(self.waiting),
            "out": list(self.out),
            "to_move": self.waiting[0] if self.phase == "submit" else None,
            "submitted": sorted(int(p) for p in self.submissions),  # who, never what, until the battle is decided
            "my_submission": dict(own) if own else None,
            "battles": self.battles,
            "recent_rounds": self.recent_rounds,
        }

    def card_ids(self) -> list[int]:
        zones = self.draw_piles + self.collection_piles + [self.target_pile, self.targets] + self.pot + self.turned
        return [card_id for zone in zones for card_id in zone]

    def summary(self) -> dict:
        return {**super().summary(), "target_pile": len(self.target_pile)}

    def to_dict(self) -> dict:
        return {
            **self.piles_to_dict(),
            "target_pile": list(self.target_pile),
            "targets": list(self.targets),
            **self.common_to_dict(),
            **self.battle_to_dict(),
            "queue": list(self.queue),
            "target_due": self.target_due,
            "submissions": {
                p: {"cards": list(s["cards"]), "expression": s["expression"], "value": s["value"]}
                for p, s in self.submissions.items()
            },
            "recent_rounds": self.recent_rounds,
        }

    @classmethod
    def from_dict(cls, game: TripleSmart, data: dict) -> TripleSmartState:
        state = cls(game)
        try:
            state.read_common(data)
            state.target_pile = card_list(data["target_pile"], "the target pile")
            state.targets = card_list(data["targets"], "the targets")
            state.read_battle(data)
            state.queue = [stored_int(p) for p in data["queue"]]
            if not isinstance(data["target_due"], bool):
                raise TypeError("target_due is not true or false")
            state.target_due = data["target_due"]
            state.submissions = {
                str(int(p)): {
                    "cards": card_list(s["cards"], "submitted cards"),
                    "expression": str(s["expression"]),
                    "value": str(s["value"]),
                }
                for p, s in data["submissions"].items()
            }
            # Runs stored before recent rounds were kept know only the last round.
            state.recent_rounds = data.get("recent_rounds", [state.last_round] if state.last_round else [])
            if not isinstance(state.recent_rounds, list) or not all(isinstance(r, dict) for r in state.recent_rounds):
                raise TypeError("recent_rounds is not a list of round records")
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise InvalidState(f"{game.id}: malformed state ({error})") from error
        state.validate()
        return state

    def validate(self) -> None:
        """Raise :class:`InvalidState` unless this position can occur in a real game."""
        problems = self.battle_problems(set(self.queue) | set(self.waiting))
        if len(self.targets) and self.target_card is None:
            problems.append("target cards without a number card")
        problems += self._submission_problems()
        if self.phase == "submit":
            if (
                not self.waiting
                or self.queue
                or self.target_due
                or self.target is None
                or any(self.pot_due)
                or any(self.turn_due)
            ):
                problems.append("submissions open before the cards are turned")
            live = [p for p in self.contenders if p not in self.out]
            if sorted(set(self.waiting) | {int(p) for p in self.submissions}) != sorted(live):
                problems.append("submissions do not match the players in the battle")
            if any(len(self.numbers(p)) != TURNED or self.specials(p) > 1 for p in live):
                problems.append("a player submits without three number cards")
        elif self.phase == "reshuffle":
            busy = self.queue[0] if self.queue else None
            if (
                busy is None
                or not (self.pot_due[busy] or self.turn_due[busy])
                or self.reshuffle_side != self.side_of(busy)
            ):
                problems.append("a reshuffle that nobody is waiting for")
        elif (
            self.contenders
            or self.queue
            or self.waiting
            or self.out
            or self.submissions
            or self.targets
            or self.target_due
            or any(self.pot)
            or any(self.turned)
            or any(self.pot_due)
            or any(self.turn_due)
        ):
            problems.append("cards on the table outside a round")
        if self.phase == "deal" and self.target_pile:
            problems.append("a target pile before the deal")
        if self.recent_rounds and self.recent_rounds[-1] != self.last_round:
            problems.append("the recent rounds do not end with the last round")
        self.raise_problems(problems)

    def _submission_problems(self) -> list[str]:
        problems = []
        for key, submitted in self.submissions.items():
            player = int(key)
            if player not in self.contenders or player in self.waiting or player in self.out:
                problems.append(f"player {player} submitted out of turn")
                continue
            cards = submitted["cards"]
            if (
                not cards
                or len(set(cards)) != len(cards)
                or any(c not in self.turned[player] or is_special(c) for c in cards)
            ):
                problems.append(f"player {player} submitted cards they do not have")
                continue
            if not submitted["expression"].isascii():
                problems.append(f"player {player}'s expression is not plain ASCII")
                continue
            try:
                reading = read_plain(submitted["expression"], self.game.allow)
                if isinstance(reading, AnswerError):
                    raise reading
                value = Fraction(submitted["value"])
            except (AnswerError, ValueError, ZeroDivisionError):
                problems.append(f"player {player}'s expression cannot be read")
                continue
            written = Counter(int(n.p) if n.q == 1 else -1 for n in reading.numbers)
            if value != Fraction(int(reading.value.p), int(reading.value.q)) or written - Counter(
                top(c) for c in cards
            ):
                problems.append(f"player {player}'s expression does not match the cards or the value")
        return problems


def submit_move(player: int, cards: list[int], expression: str) -> Move:
    """A ``submit`` move for a plain-ASCII expression, naming the cards it uses."""
    text = plain_expression(expression)
    return Move("submit", player, cards_for(text, cards), text)


def my_cards(view: dict) -> list[int]:
    return [c for c in view["turned"][view["you"]] if not is_special(c)]


class StrongBot(Bot):
    """Searches every expression and submits one that comes closest to the target."""

    name = "strong"
    label = N_("strong")

    def choose(self, view: dict, legal: list[Move], rng: random.Random) -> Move:
        cards = my_cards(view)
        search = FOUR_OPS if view["operations"] == ALLOW_FOUR_OPS else ADD_SUB
        _, _, expression = closest([top(c) for c in cards], view["target"], search)
        return submit_move(view["you"], cards, expression)


class BeginnerBot(Bot):
    """Tries single cards and sums of two cards, and now and then settles for a value merely near the target."""

    name = "beginner"
    label = N_("beginner")
    wander_chance = 0.3

    def choose(self, view: dict, legal: list[Move], rng: random.Random) -> Move:
        cards, target = my_cards(view), view["target"]
        if rng.random() < self.wander_chance:
            search = FOUR_OPS if view["operations"] == ALLOW_FOUR_OPS else ADD_SUB
            options = reachable_plain(tuple(sorted(top(c) for c in cards)), search)
            near = [text for value, text in options if abs(value - target) <= 3]
            return submit_move(view["you"], cards, rng.choice(near or [text for _, text in options]))
        tries = [(top(c), (c,), str(top(c))) for c in cards]
        tries += [(top(a) + top(b), (a, b), f"{top(a)}+{top(b)}") for i, a in enumerate(cards) for b in cards[i + 1 :]]
        _, used, text = min(tries, key=lambda t: (abs(t[0] - target), t[2]))
        return Move("submit", view["you"], used, text)


def move_value(move: Move, allow: str) -> Fraction:
    """The value of a ``submit`` move's expression."""
    reading = read_plain(move.detail, allow)
    if isinstance(reading, AnswerError):
        raise reading
    return Fraction(int(reading.value.p), int(reading.value.q))


class TripleSmart(Game):
    """Rules and options of TripleSmart: + and - only."""

    id: ClassVar[str] = "triplesmart"
    title: ClassVar[str] = N_("TripleSmart")
    order: ClassVar[int] = 70
    allow: ClassVar[str] = ALLOW_ADD_SUB  # the answer grammar for submissions
    search: ClassVar[str] = ADD_SUB  # the expression search for legal moves and the best value
    state_class = TripleSmartState
    bots = {"beginner": BeginnerBot, "strong": StrongBot}
    option_specs = limit_options()

    def card_ids(self) -> tuple[int, ...]:
        """The cards in play: the whole deck, special cards included."""
        return tuple(card.id for card in kids2().cards)


class TripleSmartExtreme(TripleSmart):
    """TripleSmart: Extreme: + - x / and brackets."""

    id: ClassVar[str] = "triplesmart-extreme"
    title: ClassVar[str] = N_("TripleSmart: Extreme")
    order: ClassVar[int] = 80
    allow: ClassVar[str] = ALLOW_FOUR_OPS
    search: ClassVar[str] = FOUR_OPS
