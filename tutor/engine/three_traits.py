"""Three Traits (source 002, Norwegian, unnamed there; 2-4 players, the standard 52 cards).

Every card has three **attributes**: its suit (spades, hearts, diamonds, clubs), odd or
even, and low or high. J counts 11, Q 12 and K 13, so A 3 5 7 9 J K are odd and 2 4 6 8 10
Q are even; A to 7 are low and 8 to K high. The **ace** is 1 (odd and low) or 14 (even and
high), never odd and high or even and low; it counts the way the player likes in every
comparison, wherever it lies in the row, and may count differently against each of the two
cards it is compared with (the source's A♠ example).

**A round.** Five cards are dealt to each player from the top of the face-down draw pile,
and two cards are turned face up beside it: they start the **row**. Players take turns
clockwise (seat numbers rising). On your turn you add a card to the end of the row
(``play``). It may go there if it shares at least two attributes with the **last card** of
the row and at least one with the **card before** (the main rule). Only when no card in your
hand meets the main rule you may play a card that shares no attribute with the last card and
fewer than two with the card before (the fallback; *option* ``fallback_rule``
``at_least_one``: the source's alternative, at least one with the card before). Having
played, you may go on playing, or end your turn (``end_turn``).

When you cannot play at the start of your turn, you draw one card (``draw``) and play it if
you can (then you may go on). If you still cannot play, or the draw pile is empty, you
cannot play (``cannot_play``): you lose the round and take the row and every hand as
penalty cards, face down. A player who empties the hand wins the round: with two players the
other takes the row and their hand; with three or four players every other player takes
their own hand, and the next player after the winner also the row.

**The game.** The penalty cards are counted at the end of every round. The loser of a round
(who took the row) starts the next one; seat 0 starts the first. A new round is dealt from
what is left of the draw pile: it needs five cards per hand and two for the row. With fewer
left, the loser of the last round takes the rest and the game ends. Otherwise the game lasts
``rounds`` rounds (default 5), or, with ``play_to_limit``, until a player has more than
``penalty_limit`` penalty cards (default 500: with one deck nobody gets there, so the game
then runs until the draw pile is too short for a new round). The fewest penalty cards wins;
equal totals share the win.

Every turn plays a card or takes one from the draw pile, and every round takes its cards out
of play, so every game ends: no safety cap is needed. One deck does not last five rounds: over
200 seeded games per player count (strong and beginner computer players) every game at the
default options ended when the draw pile ran short, after 4 rounds with two players (one game
in 200: 3), 3 with three (2 in 19 games) and 2 with four.

Decisions (games.md "Three Traits" and the points it leaves open):

- The fallback is judged the way the player likes an ace to count: an ace fits it when one of
  its readings shares nothing with the last card (and one fits the rule for the card before).
- A drawn card must be played if it fits; the player may end the turn only after playing.
- With three or four players, the player who takes the row (the next after the winner, or
  the one who could not play) is the loser of the round.
- The draw pile is not reshuffled: the cards of a round leave play as penalty cards.

Moves: ``play`` (one card), ``end_turn``, ``draw``, ``cannot_play``; the chance move
``shuffle`` deals the first round. :meth:`ThreeTraitsState.legal_moves` lists the plays by
card id, then ``end_turn``, ``draw`` or ``cannot_play``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from itertools import product
from typing import ClassVar

from tutor.engine.core import CHANCE, Bot, Game, InvalidState, Move, Option, PhasedState, stored_int
from tutor.engine.war_family import card_list
from tutor.standard_deck import ACE, ACE_LOW, card, deck
from tutor.text import N_

SUIT, PARITY, SIZE = "suit", "parity", "size"
#: The three attributes, in the order a sentence names them.
TRAITS = (SUIT, PARITY, SIZE)
HAND_SIZE = 5
ROW_START = 2
#: The highest low value (A-7 low, 8-A high).
LOW_MAX = 7
FEWER_THAN_TWO, AT_LEAST_ONE = "fewer_than_two", "at_least_one"
PHASES = ("deal", "play", "over")
END_REASONS = ("", "rounds", "limit", "deck")
#: The moves the log remembers.
LOGGED = ("play", "draw", "cannot_play")
#: How many plays a state remembers in :attr:`ThreeTraitsState.log` (the lesson tells them).
PLAY_LOG = 40
#: How many positions the strong computer player looks at before it plays (its search stops there).
SEARCH_LIMIT = 4000


# --- the attributes, pure functions a lesson and a drill can show and test -------------------------


@dataclass(frozen=True)
class Reading:
    """One way a card counts: its value (an ace 1 or 14) and suit, and so its three attributes."""

    value: int
    suit: str

    @property
    def parity(self) -> str:
        return "even" if self.value % 2 == 0 else "odd"

    @property
    def size(self) -> str:
        return "low" if self.value <= LOW_MAX else "high"

    def trait(self, name: str) -> str:
        return {SUIT: self.suit, PARITY: self.parity, SIZE: self.size}[name]


@cache
def readings(card_id: int) -> tuple[Reading, ...]:
    """The ways a card counts: one, or two for an ace (1: odd and low; 14: even and high)."""
    found = card(card_id)
    if found.is_joker:
        raise ValueError("Three Traits has no jokers")
    values = (ACE_LOW, ACE) if found.rank == ACE else (found.rank,)
    return tuple(Reading(value, found.suit) for value in values)


@dataclass(frozen=True)
class Comparison:
    """Two cards compared: the attributes they share, and how each counted (an ace as 1 or 14)."""

    shared: tuple[str, ...]
    mine: Reading
    theirs: Reading

    @property
    def count(self) -> int:
        return len(self.shared)


@cache
def compare(card_id: int, other: int, most: bool = True) -> Comparison:
    """The attributes ``card_id`` shares with ``other``, each ace counting as the player likes.

    ``most``: the readings that share the most (the main rule); otherwise the fewest (the
    fallback's "nothing with the last card"). Of equal readings, the ace as 1 comes first.
    """
    found = []
    for mine, theirs in product(readings(card_id), readings(other)):
        found.append(Comparison(tuple(t for t in TRAITS if mine.trait(t) == theirs.trait(t)), mine, theirs))
    pick = max if most else min
    return pick(found, key=lambda comparison: comparison.count)


def meets_main_rule(card_id: int, last: int, before: int) -> bool:
    """Two attributes or more shared with the last card, and one or more with the card before."""
    return compare(card_id, last).count >= 2 and compare(card_id, before).count >= 1


def meets_fallback(card_id: int, last: int, before: int, rule: str = FEWER_THAN_TWO) -> bool:
    """No attribute shared with the last card, and fewer than two (or, the alternative, one or more) with the one
    before."""
    if compare(card_id, last, most=False).count:
        return False
    if rule == AT_LEAST_ONE:
        return compare(card_id, before).count >= 1
    return compare(card_id, before, most=False).count < 2


def playable_cards(hand: list[int], last: int, before: int, rule: str = FEWER_THAN_TWO) -> list[int]:
    """The cards of ``hand`` that may go on the row: those the main rule allows, or else the fallback's."""
    main = [c for c in hand if meets_main_rule(c, last, before)]
    return main or [c for c in hand if meets_fallback(c, last, before, rule)]


# --- the state -------------------------------------------------------------------------------------


class ThreeTraitsState(PhasedState):
    """The draw pile, the row, the hands, the penalty piles, and whose turn it is."""

    game: ThreeTraits

    def __init__(self, game: ThreeTraits) -> None:
        super().__init__(game)
        players = game.players
        self.draw_pile: list[int] = []  # face down; the last card is the top
        self.row: list[int] = []  # face up; the last card is the end of the row
        self.hands: list[list[int]] = [[] for _ in range(players)]  # kept sorted
        self.penalties: list[list[int]] = [[] for _ in range(players)]  # face down
        self.phase = "deal"
        self.turn = 0
        self.played = 0  # cards played this turn
        self.drawn = False  # a card was drawn this turn
        self.rounds = 0  # rounds finished
        self.turns: list[int] = [0] * players  # turns begun, per player
        self.ended_by = ""
        #: Every round finished, in order: its number, who won it (None: the loser could not play), the
        #: loser, the final row, who took how many penalty cards, and the rest of the draw pile taken at the end.
        self.results: list[dict] = []
        #: The last PLAY_LOG plays, draws and "cannot play"s, oldest first: who, which card (None but for a
        #: play: a drawn card stays hidden), on which last card and card before, in which round, and whether
        #: it ended the round.
        self.log: list[dict] = []

    @property
    def waiting(self) -> list[int]:
        return [self.turn]

    # --- the engine API -------------------------------------------------------------------------
    def totals(self) -> list[int]:
        """Each player's penalty cards so far."""
        return [len(pile) for pile in self.penalties]

    def winners(self) -> list[int]:
        if not self.is_over:
            return []
        totals = self.totals()
        return [p for p, total in enumerate(totals) if total == min(totals)]

    @property
    def last(self) -> int:
        return self.row[-1]

    @property
    def before(self) -> int:
        return self.row[-2]

    def playable(self, player: int) -> list[int]:
        """The cards of ``player``'s hand that may go on the row now."""
        return playable_cards(self.hands[player], self.last, self.before, self.game.options["fallback_rule"])

    def legal_moves(self) -> list[Move]:
        if self.phase != "play":
            return []
        player = self.turn
        moves = [Move("play", player, (card_id,)) for card_id in self.playable(player)]
        if self.played:
            moves.append(Move("end_turn", player))
        elif not moves:
            moves.append(Move("draw", player) if self.draw_pile and not self.drawn else Move("cannot_play", player))
        return moves

    def chance_move(self, rng: random.Random) -> Move:
        if self.phase != "deal":
            raise InvalidState("no chance event is pending")
        order = list(self.game.card_ids())
        rng.shuffle(order)
        return Move("shuffle", CHANCE, tuple(order))

    def is_legal_chance(self, move: Move) -> bool:
        return (
            move.kind == "shuffle"
            and self.phase == "deal"
            and not move.detail
            and sorted(move.cards) == sorted(self.game.card_ids())
        )

    def _apply(self, move: Move) -> None:
        if move.kind == "shuffle":
            self.draw_pile = list(move.cards)
            self._deal(starter=0)
        elif move.kind == "play":
            self._play(move.player, move.cards[0])
        elif move.kind == "end_turn":
            self._begin_turn((move.player + 1) % self.game.players)
        elif move.kind == "draw":
            self._log(move.player, "draw", None, ended=False)
            self.drawn = True
            self.hands[move.player].append(self.draw_pile.pop())
            self.hands[move.player].sort()
        elif move.kind == "cannot_play":
            self._log(move.player, "cannot_play", None, ended=True)
            self._end_round(loser=move.player, winner=None)

    # --- the rules ------------------------------------------------------------------------------
    def _deal(self, starter: int) -> None:
        """Five cards each from the top of the draw pile, then two face up to start the row."""
        for _ in range(HAND_SIZE):
            for player in range(self.game.players):
                self.hands[player].append(self.draw_pile.pop())
        for hand in self.hands:
            hand.sort()
        self.row = [self.draw_pile.pop() for _ in range(ROW_START)]
        self.phase = "play"
        self._begin_turn(starter)

    def _begin_turn(self, player: int) -> None:
        self.turn, self.played, self.drawn = player, 0, False
        self.turns[player] += 1

    def _log(self, player: int, kind: str, card_id: int | None, ended: bool) -> None:
        entry = {"player": player, "kind": kind, "card": card_id, "last": self.last, "before": self.before}
        self.log.append({**entry, "round": self.rounds + 1, "ended": ended})
        del self.log[:-PLAY_LOG]

    def _play(self, player: int, card_id: int) -> None:
        self.hands[player].remove(card_id)
        self._log(player, "play", card_id, ended=not self.hands[player])
        self.row.append(card_id)
        self.played += 1
        if not self.hands[player]:
            self._end_round(loser=(player + 1) % self.game.players, winner=player)

    def _end_round(self, loser: int, winner: int | None) -> None:
        """The round's penalty cards taken (see the module docstring); then a new round, or the end."""
        players = range(self.game.players)
        taken = {p: 0 for p in players}
        final_row = list(self.row)
        if winner is None:  # the loser could not play: the row and every hand
            for player in players:
                taken[loser] += self._take(loser, self.hands[player])
        else:  # each other player takes their own hand, the loser (the next after the winner) the row too
            for player in players:
                taken[player] += self._take(player, self.hands[player])
        taken[loser] += self._take(loser, self.row)
        self.rounds += 1
        result = {
            "round": self.rounds,
            "winner": winner,
            "loser": loser,
            "row": final_row,
            "taken": {str(p): n for p, n in taken.items() if n},
            "rest": 0,
        }
        self.results.append(result)
        self.played, self.drawn = 0, False
        options = self.game.options
        if options["play_to_limit"] and max(self.totals()) > options["penalty_limit"]:
            self._end("limit")
        elif not options["play_to_limit"] and self.rounds >= options["rounds"]:
            self._end("rounds")
        elif len(self.draw_pile) < HAND_SIZE * self.game.players + ROW_START:
            result["rest"] = self._take(loser, self.draw_pile)
            self._end("deck")
        else:
            self._deal(starter=loser)

    def _take(self, player: int, cards: list[int]) -> int:
        """``player`` takes ``cards`` as penalty cards (the list is emptied); how many."""
        count = len(cards)
        self.penalties[player].extend(cards)
        cards.clear()
        return count

    def _end(self, reason: str) -> None:
        self.phase, self.ended_by = "over", reason

    # --- views and storage ----------------------------------------------------------------------
    def player_view(self, player: int) -> dict:
        return {
            "game": self.game.id,
            "you": player,
            "players": self.game.players,
            "fallback_rule": self.game.options["fallback_rule"],
            "phase": self.phase,
            "turn": self.turn,
            "played": self.played,
            "drawn": self.drawn,
            "rounds": self.rounds,
            "hand": list(self.hands[player]),
            "hand_counts": [len(hand) for hand in self.hands],
            "penalty_counts": self.totals(),
            "draw_count": len(self.draw_pile),
            "row": list(self.row),
            "results": [_copied_result(result) for result in self.results],
            "ended_by": self.ended_by,
            "winners": self.winners(),
        }

    def card_ids(self) -> list[int]:
        zones = [self.draw_pile, self.row, *self.hands, *self.penalties]
        return [card_id for zone in zones for card_id in zone]

    def summary(self) -> dict:
        return {
            "rounds": self.rounds,
            "turns": sum(self.turns),
            "ended_by": self.ended_by,
            "penalty_counts": {str(p): total for p, total in enumerate(self.totals())},
            "card_counts": {str(p): len(hand) for p, hand in enumerate(self.hands)},
            "draw_count": len(self.draw_pile),
        }

    def to_dict(self) -> dict:
        return {
            "draw_pile": list(self.draw_pile),
            "row": list(self.row),
            "hands": [list(hand) for hand in self.hands],
            "penalties": [list(pile) for pile in self.penalties],
            "phase": self.phase,
            "turn": self.turn,
            "played": self.played,
            "drawn": self.drawn,
            "rounds": self.rounds,
            "turns": list(self.turns),
            "ended_by": self.ended_by,
            "results": [_copied_result(result) for result in self.results],
            "log": [dict(entry) for entry in self.log],
        }

    @classmethod
    def from_dict(cls, game: ThreeTraits, data: dict) -> ThreeTraitsState:
        state = cls(game)
        try:
            state.draw_pile = card_list(data["draw_pile"], "the draw pile")
            state.row = card_list(data["row"], "the row")
            state.hands = [card_list(hand, "a hand") for hand in data["hands"]]
            state.penalties = [card_list(pile, "a penalty pile") for pile in data["penalties"]]
            state.phase = str(data["phase"])
            state.turn = stored_int(data["turn"])
            state.played = stored_int(data["played"])
            state.drawn = data["drawn"]
            state.rounds = stored_int(data["rounds"])
            state.turns = [stored_int(n) for n in data["turns"]]
            state.ended_by = str(data["ended_by"])
            state.results = [_stored_result(result) for result in data["results"]]
            state.log = [_stored_entry(entry) for entry in data["log"]]
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise InvalidState(f"{game.id}: malformed state ({error!r})") from error
        state.validate()
        return state

    def validate(self) -> None:
        """Raise :class:`InvalidState` unless this position can occur in a real game."""
        self.check_in_stages(self._shape_problems, self._card_problems, self._round_problems)

    def _shape_problems(self) -> list[str]:
        players = self.game.players
        problems = []
        if not len(self.hands) == len(self.penalties) == len(self.turns) == players:
            problems.append("wrong number of hands, penalty piles or turn counts")
        if (
            self.phase not in PHASES
            or self.ended_by not in END_REASONS
            or (self.phase == "over") != bool(self.ended_by)
        ):
            problems.append("unknown phase or end reason")
        if self.turn not in range(players) or not isinstance(self.drawn, bool):
            problems.append("a turn with no seat, or a draw flag that is not true or false")
        if self.rounds < 0 or self.played < 0 or any(n < 0 for n in self.turns):
            problems.append("a negative count")
        if len(self.log) > PLAY_LOG:
            problems.append("too long a play log")
        return problems

    def _card_problems(self) -> list[str]:
        ids = self.card_ids()
        if self.phase == "deal":
            dealt = ids or self.rounds or any(self.turns) or self.results or self.log or self.played or self.drawn
            return ["play before the deal"] if dealt else []
        problems = []
        if len(ids) != len(set(ids)) or sorted(ids) != sorted(self.game.card_ids()):
            problems.append("cards lost or duplicated")
        if any(hand != sorted(hand) for hand in self.hands):
            problems.append("a hand out of order")
        known = set(self.game.card_ids())
        for entry in self.log:
            cards = {entry["last"], entry["before"]} | ({entry["card"]} if entry["kind"] == "play" else set())
            if (
                not cards <= known
                or entry["player"] not in range(self.game.players)
                or entry["kind"] not in LOGGED
                or (entry["card"] is None) != (entry["kind"] != "play")
                or not 1 <= entry["round"] <= self.rounds + 1
                or not isinstance(entry["ended"], bool)
            ):
                problems.append("an impossible play log entry")
                break
        taken = sum(n for result in self.results for n in result["taken"].values())
        if taken + sum(result["rest"] for result in self.results) != sum(self.totals()):
            problems.append("the penalty cards do not match the rounds' results")
        return problems

    def _round_problems(self) -> list[str]:
        """The row, the hands and the counts must fit the phase and the rounds played."""
        problems = []
        options = self.game.options
        if self.phase == "play":
            if len(self.row) < ROW_START or any(not hand for hand in self.hands):
                problems.append("a round in play without a row, or with an empty hand")
            if self.played > len(self.row) - ROW_START or self.turns[self.turn] < 1:
                problems.append("more cards played this turn than the row holds, or a turn never begun")
            if not options["play_to_limit"] and self.rounds >= options["rounds"]:
                problems.append("a round in play after the last round")
        if self.phase == "over":
            if self.row or any(self.hands) or self.played or self.drawn:
                problems.append("cards in play after the end")
            if self.ended_by == "deck" and self.draw_pile:
                problems.append("the game ended for want of cards, but the draw pile has some")
            if self.ended_by == "rounds" and self.rounds != options["rounds"]:
                problems.append("the game ended before its rounds were played")
            if self.ended_by == "limit" and max(self.totals()) <= options["penalty_limit"]:
                problems.append("the game ended at the penalty limit, but nobody passed it")
        seats = range(self.game.players)
        if len(self.results) != self.rounds:
            problems.append("the results do not match the rounds played")
        for number, result in enumerate(self.results, start=1):
            if (
                result["round"] != number
                or result["loser"] not in seats
                or result["winner"] not in (None, *seats)
                or result["winner"] == result["loser"]
                or any(int(p) not in seats or n < 1 for p, n in result["taken"].items())
                or not set(result["row"]) <= set(self.game.card_ids())
                or len(result["row"]) < ROW_START
                or result["rest"] < 0
                or (result["rest"] and (number != self.rounds or self.ended_by != "deck"))
            ):
                problems.append("an impossible round result")
                break
        return problems


def _copied_result(result: dict) -> dict:
    return {**result, "row": list(result["row"]), "taken": dict(result["taken"])}


def _stored_result(data: dict) -> dict:
    winner = data["winner"]
    taken = data["taken"]
    if not isinstance(taken, dict):
        raise TypeError("a round's penalty cards are not a record")
    return {
        "round": stored_int(data["round"]),
        "winner": None if winner is None else stored_int(winner),
        "loser": stored_int(data["loser"]),
        "row": card_list(data["row"], "a round's row"),
        "taken": {str(stored_int(int(p))): stored_int(n) for p, n in taken.items()},
        "rest": stored_int(data["rest"]),
    }


def _stored_entry(data: dict) -> dict:
    card_id = data["card"]
    return {
        "player": stored_int(data["player"]),
        "kind": str(data["kind"]),
        "card": None if card_id is None else stored_int(card_id),
        "last": stored_int(data["last"]),
        "before": stored_int(data["before"]),
        "round": stored_int(data["round"]),
        "ended": data["ended"],
    }


# --- computer players --------------------------------------------------------------------------------


def _plays(legal: list[Move]) -> list[Move]:
    return [move for move in legal if move.kind == "play"]


def _no_play(legal: list[Move]) -> Move:
    """End the turn, draw, or say that you cannot play: whichever the rules offer now."""
    return next(move for move in legal if move.kind != "play")


def longest_chain(hand: list[int], last: int, before: int, rule: str, budget: list[int]) -> tuple[int, ...]:
    """The longest run of cards from ``hand`` that can be played one after another on the row (a search with a
    budget of positions: ``budget[0]`` counts down)."""
    best: tuple[int, ...] = ()
    for card_id in playable_cards(hand, last, before, rule):
        if budget[0] <= 0:
            break
        budget[0] -= 1
        rest = [c for c in hand if c != card_id]
        chain = (card_id, *longest_chain(rest, card_id, last, rule, budget))
        if len(chain) > len(best):
            best = chain
            if not rest or len(chain) == len(hand):
                break
    return best


class BeginnerBot(Bot):
    """Plays a card that fits at random, goes on half the time, draws when it must."""

    name = "beginner"
    label = N_("beginner")
    go_on_chance = 0.5

    def choose(self, view: dict, legal: list[Move], rng: random.Random) -> Move:
        plays = _plays(legal)
        if plays and (not view["played"] or rng.random() < self.go_on_chance):
            return rng.choice(plays)
        return _no_play(legal)


class StrongBot(Bot):
    """Plays the first card of the longest run of cards it can lay one after another, and never stops early.

    Of runs equally long it keeps its aces (they fit almost anywhere) for later.
    """

    name = "strong"
    label = N_("strong")

    def choose(self, view: dict, legal: list[Move], rng: random.Random) -> Move:
        plays = _plays(legal)
        if not plays:
            return _no_play(legal)
        row, hand, rule = view["row"], view["hand"], view["fallback_rule"]
        scored = []
        for move in plays:
            first = move.cards[0]
            rest = [c for c in hand if c != first]
            chain = longest_chain(rest, first, row[-1], rule, [SEARCH_LIMIT // len(plays)])
            scored.append((len(chain), card(first).rank != ACE, -first, move))
        return max(scored, key=lambda entry: entry[:3])[3]


# --- the game ------------------------------------------------------------------------------------------


class ThreeTraits(Game):
    """Rules and options of Three Traits."""

    id: ClassVar[str] = "three-traits"
    title: ClassVar[str] = N_("Three Traits")
    order: ClassVar[int] = 175
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    state_class = ThreeTraitsState
    bots = {"beginner": BeginnerBot, "strong": StrongBot}
    option_specs = (
        Option(
            "fallback_rule",
            N_("When no card fits the main rule"),
            FEWER_THAN_TWO,
            choices=(FEWER_THAN_TWO, AT_LEAST_ONE),
            help=N_(
                "Then a card that shares nothing with the last card may be played, if it shares fewer than two "
                "attributes with the card before (or, the other way, at least one)."
            ),
        ),
        Option("rounds", N_("Number of rounds"), 5, minimum=1, maximum=20),
        Option(
            "play_to_limit",
            N_("Play until a player passes the penalty limit (instead of a number of rounds)"),
            False,
        ),
        Option("penalty_limit", N_("Penalty limit (penalty cards)"), 500, minimum=1, maximum=999),
    )

    def card_ids(self) -> tuple[int, ...]:
        """The standard 52 cards."""
        return deck("full")
