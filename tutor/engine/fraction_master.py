"""Fraction Master (Kids2, age 11+, 2-4 players; four play as two teams of two).

The whole deck is shuffled. Four number cards are taken out as the **interval cards**;
the rest is split evenly between the sides (a side is one player, or a team of two,
seats 0 and 2 against 1 and 3, that shares one draw pile; each player keeps their own
cards in hand).

**Laying the interval.** The four interval cards are laid as two fractions side by
side, using the big top numbers: first the numerator of the left fraction, then its
denominator, then the right fraction the same way (the move ``lay_interval``, cards
``(n1, d1, n2, d2)``). The two fractions bound an interval, whichever of them is the
smaller. Laying is a real choice of the player who lays (a pupil can lay an interval
for a computer player), so the order is up to them, but the two fractions must differ:
an interval must have room between its ends (see the decisions).

**A turn.** The mover tops up their hand from their side's draw pile to four cards
(a player who laid nothing last time keeps those cards and only tops up) and then makes
fractions from two of their cards, numerator and denominator (top numbers), that lie
inside the interval (``play_fraction``, cards ``(numerator, denominator)``). Each is
checked exactly (:class:`fractions.Fraction`). The mover may lay several fractions, one
at a time, and then says ``end_turn``, which is also the move when no fraction fits or
none is wanted. Laid fraction cards leave the game (the removed pile).

**Kocha.** A Kocha card drawn while topping up leaves the game (to the removed pile)
and is not replaced; the player draws three extra cards instead, so the hand holds six
cards (the three other cards of the four, plus three extra) and three fractions may be
laid that turn.

**The next interval.** After each turn, the player who just moved shuffles the four
interval cards (the chance move ``shuffle_interval``) and lays the next interval for
the next player. The same four cards are used the whole game.

**The end.** The goal is to get rid of one's cards. The first side with no cards left
(draw pile and hands) wins. With the *options* ``round_limit`` or
``time_limit_minutes`` (the chance move ``time_up``, legal between turns), the side with
the fewest cards (draw pile plus hands) wins when the limit is reached; equal sides
share the win. A game that cannot go on ends the same way (see the decisions).

Options: ``strict`` (off by default): the end points do not count, so a fraction equal
to an end point (an equivalent fraction, such as 2/4 against 1/2) is refused; by
default the end points count and the lesson points such fractions out.
``same_interval`` (off by default): everyone faces the same interval; each player in
turn makes fractions for it from their own cards before a new interval is laid.

Decisions:

- **Banana cards** have no top number. The source uses the whole deck and only speaks
  of Kocha cards, so banana cards act as Kocha cards (as in MultiWar): drawn, they leave
  the game and give three extra cards. They are never interval cards.
- **The interval cards** are the first four number cards from the top of the shuffled
  deck; any special card met on the way stays where it lies, and so does a fourth number
  card with the same top number as the first three (four equal top numbers can only be
  laid as two equal fractions, an empty interval; it happens in about one deal in 1,600).
  The other 78 cards are split evenly (39 each for two sides, 26 each for three).
- **Who lays, who moves.** Seat 0 starts; the last seat lays the first interval (the
  source: "the one who does not start"). Play goes round in seat order, and every
  interval is laid by the player who just moved, for the next player: with three
  players each player lays for the next; with four, teammates never lay for each other.
  With ``same_interval`` the laying passes round the table one seat per round: the
  players move in seat order starting with the seat after the layer, the layer last,
  and the next round is laid by the seat after the layer (so nobody always lays or
  always moves first).
- **Topping up.** Cards are drawn at the start of the player's own turn, after the
  interval is laid (as in the source: the interval lies before the cards are drawn).
  A special card drawn is not replaced and raises the top-up from four to six cards
  (:data:`HAND_SIZE`, :data:`KOCHA_HAND_SIZE`; the source: "tre brøker (seks kort)",
  three fractions, six cards). A second special card in the same turn also leaves the
  game, and the hand still tops up to six. A hand that holds four cards or more draws
  nothing. An empty draw pile simply stops the drawing.
- **No empty interval.** The source: "De to brøkene danner nå et intervall" (the two
  fractions now form an interval) and the mover makes fractions "som faller innenfor
  intervallet" (that fall inside the interval). games.md does not say what an empty
  interval is, so here: an interval is **empty** when its two fractions are equal (4/1 and
  4/1, or 1/1 and 9/9, both 1): it has no width and there is no number between its ends,
  only one point. Such a layout is not a legal move, with or without ``strict``, so no
  player can lay it: the computer players choose among the legal layouts, and the lesson
  refuses a pupil's with the two fractions' values. Any two different fractions are an
  interval, even one no fraction of the mover's cards fits (1/2 and 5/9 hold no fraction
  of two top numbers strictly between them): the source expects a mover who cannot make
  a fraction ("Dersom han ikke klarer å lage brøker med riktig størrelse, går turen over
  til neste spiller"), so what the cards can make is not asked of the interval.
- **The end.** Without ``same_interval`` the game ends the moment the mover's side has
  no cards (the mover need not say ``end_turn``). With ``same_interval`` everyone
  finishes the round first, and every side with no cards at its end wins. The limits
  are checked after a turn (with ``same_interval``, after a round); ``rounds`` counts
  completed turns (with ``same_interval``, completed rounds), and so does the
  ``round_limit`` option. Special cards still in a draw pile count as cards.
- **A stalled game.** Fractions take two cards, so a side with an odd number of number
  cards (39 cards each for two sides, less the special cards among them) always keeps
  one it can never lay, and a leftover card may fit no interval. When no player can draw
  (every hand holds four cards or more, or the side's pile is empty) and no player can
  make a single fraction for any interval the four cards can give, the game cannot go
  on: it ends (``stalled``) and the fewest cards wins. About three games in five between
  two beginners end this way, mostly with one or two cards left per side.
- **No progress.** A player who lays the narrowest interval can keep the next player
  from ever laying a fraction (the strong computer player does), and then nothing on
  the table changes. So :data:`NO_PROGRESS_ROUNDS` (20) rounds in a row (20 turns per
  player) without a single fraction laid end the game (``no_progress``): the fewest
  cards wins. Over 50 seeded games per player count, beginners never went more than 15
  rounds without a fraction; two strong players block each other and their games end
  this way.
- **Safety cap.** A game that reaches :data:`TURN_CAP` turns ends (``turn_cap``) as if
  the time were up, so that every game ends whatever happens. A turn is at most seven
  moves (a shuffle, a layout, three fractions, the end), so even random play stays far
  below 20,000 moves (1,200 random games, all options and player counts: 130 moves on
  average, 492 at most).
- **The story of a round.** The state keeps the finished turns of the last round
  (:attr:`FractionMasterState.recent_turns`, one per player at most), so that every
  player can be told what each of the others laid, drew and kept.

Moves: ``lay_interval`` (cards ``(n1, d1, n2, d2)``), ``play_fraction`` (cards
``(numerator, denominator)``), ``end_turn``; chance moves ``shuffle`` (the deal),
``shuffle_interval`` and ``time_up``. :meth:`FractionMasterState.legal_moves` lists
layouts in the order of their card ids, fractions by (numerator, denominator) card
id, then ``end_turn``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from fractions import Fraction
from functools import cache, lru_cache
from itertools import permutations
from typing import ClassVar

from tutor.deck import kids2
from tutor.engine.core import CHANCE, TERMINAL, Bot, Game, InvalidState, Move, Option, State, stored_int
from tutor.engine.war_family import sides_for
from tutor.text import N_

#: The number of cards a hand is topped up to at the start of a turn.
HAND_SIZE = 4
#: The top-up once a Kocha (or banana) card has been drawn this turn: the special card is
#: not replaced and three extra cards come, so three fractions (six cards) can be laid.
KOCHA_HAND_SIZE = 6
#: Rounds (every player one turn) in a row without a fraction laid that end the game.
NO_PROGRESS_ROUNDS = 20
#: The safety cap on turns (see the module docstring).
TURN_CAP = 1000
INTERVAL_CARDS = 4
PHASES = ("deal", "shuffle", "lay", "move", "over")
END_REASONS = ("", "empty", "round_limit", "time_limit", "stalled", "no_progress", "turn_cap")


def top(card_id: int) -> int:
    """The top number of a number card; special cards have none (ValueError)."""
    value = kids2()[card_id].top
    if value is None:
        raise ValueError(f"card {card_id} is a special card: it has no top number")
    return value


def is_special(card_id: int) -> bool:
    return kids2()[card_id].is_special


# --- the maths, pure functions a lesson can show and test --------------------------------
def fraction_of(num_card: int, den_card: int) -> Fraction:
    """The fraction two cards make: the numerator card's top number over the denominator card's."""
    return Fraction(top(num_card), top(den_card))


def interval_of(cards: Iterable[int]) -> tuple[Fraction, Fraction]:
    """The interval four cards laid as ``(n1, d1, n2, d2)`` bound: (low, high), in either order."""
    n1, d1, n2, d2 = cards
    first, second = fraction_of(n1, d1), fraction_of(n2, d2)
    return min(first, second), max(first, second)


def _bounds(interval) -> tuple[Fraction, Fraction]:
    """Accept (low, high) or four laid cards."""
    interval = tuple(interval)
    if len(interval) == INTERVAL_CARDS:
        return interval_of(interval)
    low, high = interval
    return min(low, high), max(low, high)


def fits(fraction: Fraction, interval, strict: bool = False) -> bool:
    """Whether ``fraction`` lies in ``interval`` ((low, high), or four laid cards).

    End points count unless ``strict``: so 2/4 fits between 1/2 and 3/4, but not strictly.
    """
    low, high = _bounds(interval)
    if strict:
        return low < fraction < high
    return low <= fraction <= high


def possible_fractions(holding: Iterable[int], interval, strict: bool = False) -> list[tuple[int, int]]:
    """Every (numerator card, denominator card) from ``holding`` whose fraction fits, by card ids."""
    fitting = _fitting_tops(*_bounds(interval), strict)
    cards = sorted(c for c in holding if not is_special(c))
    return [(num, den) for num in cards for den in cards if num != den and (top(num), top(den)) in fitting]


@lru_cache(maxsize=4096)
def _fitting_tops(low: Fraction, high: Fraction, strict: bool) -> frozenset[tuple[int, int]]:
    """The (numerator, denominator) top numbers 1-9 whose fraction fits between low and high."""
    return frozenset((a, b) for a in range(1, 10) for b in range(1, 10) if fits(Fraction(a, b), (low, high), strict))


def most_fractions(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The most fractions that can be laid at once from ``pairs`` (no card used twice).

    Among equally many, the first in the order of ``pairs`` is preferred, so the answer
    is stable. A hand holds at most six cards, so a plain search is quick.
    """
    best: list[tuple[int, int]] = []

    def search(start: int, used: frozenset, chosen: list[tuple[int, int]]) -> None:
        nonlocal best
        if len(chosen) > len(best):
            best = list(chosen)
        for index in range(start, len(pairs)):
            num, den = pairs[index]
            if num not in used and den not in used:
                chosen.append(pairs[index])
                search(index + 1, used | {num, den}, chosen)
                chosen.pop()

    search(0, frozenset(), [])
    return best


def is_empty(layout: Iterable[int]) -> bool:
    """Whether four cards laid as ``(n1, d1, n2, d2)`` make two equal fractions: no room between the ends."""
    low, high = interval_of(layout)
    return low == high


def layouts(cards: Iterable[int]) -> list[tuple[int, int, int, int]]:
    """Every way to lay the four interval cards as an interval, by card ids: never two equal fractions."""
    return list(_layouts(tuple(sorted(cards))))


@lru_cache(maxsize=4096)
def _layouts(cards: tuple[int, ...]) -> tuple[tuple[int, int, int, int], ...]:
    return tuple(layout for layout in sorted(permutations(cards)) if not is_empty(layout))


@cache
def _reachable(tops: tuple[int, ...], strict: bool) -> frozenset[tuple[int, int]]:
    """The (numerator, denominator) top numbers that fit some interval laid from ``tops``."""
    bounds = set()
    for n1, d1, n2, d2 in permutations(tops):
        first, second = Fraction(n1, d1), Fraction(n2, d2)
        if first != second:
            bounds.add((min(first, second), max(first, second)))
    return frozenset(
        (a, b)
        for a in range(1, 10)
        for b in range(1, 10)
        if any(fits(Fraction(a, b), bound, strict) for bound in bounds)
    )


def reachable_fractions(interval_cards: Iterable[int], strict: bool = False) -> frozenset[tuple[int, int]]:
    """The (numerator, denominator) top numbers that fit some interval the four cards can give."""
    return _reachable(tuple(sorted(top(c) for c in interval_cards)), strict)


# --- the state -------------------------------------------------------------------------------
class FractionMasterState(State):
    """A Fraction Master position: piles per side, hands, the interval cards, the removed pile."""

    game: FractionMaster

    def __init__(self, game: FractionMaster) -> None:
        super().__init__(game)
        players = game.players
        self.sides = sides_for(players)
        self.draw_piles: list[list[int]] = [[] for _ in self.sides]  # the last card is the top
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.interval: list[int] = []  # the four interval cards; once laid, (n1, d1, n2, d2)
        self.removed: list[int] = []  # laid fractions and special cards drawn: out of the game
        self.phase = "deal"
        self.layer = players - 1  # who lays (or laid) the interval for the coming turns
        self.waiting: list[int] = []  # who still moves on this interval, the mover first
        self.rounds = 0
        self.turns = 0
        self.dry_turns = 0  # turns in a row without a fraction laid
        self.ended_by = ""
        self.turn_record: dict | None = None  # the turn in progress
        self.last_turn: dict | None = None
        self.recent_turns: list[dict] = []  # the finished turns of the last round, oldest first

    # --- the engine API ------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if self.phase == "lay":
            return self.layer
        if self.phase == "move":
            return self.waiting[0]
        return CHANCE

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def strict(self) -> bool:
        return self.game.options["strict"]

    @property
    def same_interval(self) -> bool:
        return self.game.options["same_interval"]

    def side_of(self, player: int) -> int:
        return next(index for index, side in enumerate(self.sides) if player in side)

    def side_card_count(self, side: int) -> int:
        """The side's cards: its draw pile and its players' hands."""
        return len(self.draw_piles[side]) + sum(len(self.hands[p]) for p in self.sides[side])

    def bounds(self) -> tuple[Fraction, Fraction] | None:
        """The laid interval as (low, high), or None while it is not laid."""
        return interval_of(self.interval) if self.phase == "move" else None

    def winners(self) -> list[int]:
        if not self.is_over:
            return []
        counts = [self.side_card_count(side) for side in range(len(self.sides))]
        fewest = min(counts)
        return sorted(p for side, count in enumerate(counts) if count == fewest for p in self.sides[side])

    def legal_moves(self) -> list[Move]:
        if self.phase == "lay":
            return [Move("lay_interval", self.layer, layout) for layout in layouts(self.interval)]
        if self.phase != "move":
            return []
        player = self.waiting[0]
        plays = [
            Move("play_fraction", player, pair)
            for pair in possible_fractions(self.hands[player], self.interval, self.strict)
        ]
        return plays + [Move("end_turn", player)]

    def chance_move(self, rng: random.Random) -> Move:
        if self.phase == "deal":
            order = list(self.game.card_ids())
            rng.shuffle(order)
            return Move("shuffle", CHANCE, tuple(order))
        if self.phase == "shuffle":
            order = list(self.interval)
            rng.shuffle(order)
            return Move("shuffle_interval", CHANCE, tuple(order))
        raise InvalidState("no chance event is pending")

    def is_legal_chance(self, move: Move) -> bool:
        if move.detail:
            return False
        if move.kind == "shuffle":
            return self.phase == "deal" and sorted(move.cards) == sorted(self.game.card_ids())
        if move.kind == "shuffle_interval":
            return self.phase == "shuffle" and sorted(move.cards) == sorted(self.interval)
        if move.kind == "time_up":
            return self.game.options["time_limit_minutes"] > 0 and not move.cards and self.phase in ("shuffle", "lay")
        return False

    def _apply(self, move: Move) -> None:
        kind = move.kind
        if kind == "shuffle":
            self._deal(list(move.cards))
        elif kind == "shuffle_interval":
            self.interval = list(move.cards)
            self.phase = "lay"
        elif kind == "time_up":
            self._end("time_limit")
        elif kind == "lay_interval":
            self.interval = list(move.cards)
            self.phase = "move"
            self._begin_turn()
        elif kind == "play_fraction":
            num, den = move.cards
            hand = self.hands[move.player]
            hand.remove(num)
            hand.remove(den)
            self.removed.extend((num, den))
            self.turn_record["fractions"].append([num, den])
            if not self.same_interval and not self.side_card_count(self.side_of(move.player)):
                self._finish_turn()
        elif kind == "end_turn":
            self._finish_turn()

    # --- the rules ---------------------------------------------------------------------------------
    def _deal(self, order: list[int]) -> None:
        """Take the first four number cards from the top as the interval (never four equal top numbers); split the rest
        evenly."""
        rest = list(order)
        for index in range(len(rest) - 1, -1, -1):
            if len(self.interval) == INTERVAL_CARDS:
                break
            if not is_special(rest[index]) and not self._fourth_of_a_kind(rest[index]):
                self.interval.append(rest.pop(index))
        share, spare = divmod(len(rest), len(self.sides))
        start = 0
        for side in range(len(self.sides)):
            size = share + (1 if side < spare else 0)  # 78 cards split evenly for 2 or 3 sides
            self.draw_piles[side] = rest[start : start + size]
            start += size
        self.layer = self.game.players - 1
        self.waiting = self._order_after(self.layer)
        self.phase = "lay"

    def _fourth_of_a_kind(self, card_id: int) -> bool:
        """Whether the card would be the fourth interval card with one top number (only an empty interval)."""
        return len(self.interval) == INTERVAL_CARDS - 1 and all(top(c) == top(card_id) for c in self.interval)

    def _order_after(self, layer: int) -> list[int]:
        """Who moves on an interval laid by ``layer``: the next seat, or everyone from there."""
        players = self.game.players
        if not self.same_interval:
            return [(layer + 1) % players]
        return [(layer + step) % players for step in range(1, players + 1)]

    def _begin_turn(self) -> None:
        """The mover tops up (Kocha cards leave and give three extra), then lays fractions."""
        player = self.waiting[0]
        side = self.side_of(player)
        hand, pile = self.hands[player], self.draw_piles[side]
        target, drew, specials = HAND_SIZE, 0, []
        while len(hand) < target and pile:
            card_id = pile.pop()
            if is_special(card_id):
                self.removed.append(card_id)
                specials.append(card_id)
                target = KOCHA_HAND_SIZE
            else:
                hand.append(card_id)
                drew += 1
        self.turn_record = {
            "player": player,
            "layer": self.layer,
            "interval": list(self.interval),
            "drew": drew,
            "specials": specials,
            "fractions": [],
        }
        if not self.same_interval and not self.side_card_count(side):
            self._finish_turn()

    def _finish_turn(self) -> None:
        record = self.turn_record
        record["kept"] = not record["fractions"]
        self.dry_turns = self.dry_turns + 1 if record["kept"] else 0
        self.turns += 1
        record["turn"] = self.turns
        self.last_turn, self.turn_record = record, None
        self.recent_turns = [*self.recent_turns, record][-self.game.players :]
        self.waiting.pop(0)
        if self.waiting:
            self._begin_turn()  # same interval: the next player makes fractions for it
            return
        self.rounds += 1
        reason = self._end_reason()
        if reason:
            self._end(reason)
            return
        self.layer = (self.layer + 1) % self.game.players
        self.waiting = self._order_after(self.layer)
        self.phase = "shuffle"

    def _end_reason(self) -> str:
        """Why the game ends after this turn (or round), or "" if it goes on."""
        limit = self.game.options["round_limit"]
        if any(not self.side_card_count(side) for side in range(len(self.sides))):
            return "empty"
        if limit and self.rounds >= limit:
            return "round_limit"
        if self.is_stalled():
            return "stalled"
        if self.dry_turns >= NO_PROGRESS_ROUNDS * self.game.players:
            return "no_progress"
        if self.turns >= TURN_CAP:
            return "turn_cap"
        return ""

    def is_stalled(self) -> bool:
        """Nobody can draw and nobody can make a fraction for any interval the four cards give."""
        reachable = reachable_fractions(self.interval, self.strict)
        for player, hand in enumerate(self.hands):
            if len(hand) < HAND_SIZE and self.draw_piles[self.side_of(player)]:
                return False
            tops = [top(c) for c in hand]
            if any((tops[i], tops[j]) in reachable for i in range(len(tops)) for j in range(len(tops)) if i != j):
                return False
        return True

    def _end(self, reason: str) -> None:
        self.phase, self.ended_by = "over", reason
        self.waiting, self.turn_record = [], None

    # --- views and storage ---------------------------------------------------------------------
    def player_view(self, player: int) -> dict:
        return {
            "game": self.game.id,
            "you": player,
            "players": self.game.players,
            "sides": self.sides,
            "phase": self.phase,
            "strict": self.strict,
            "same_interval": self.same_interval,
            "rounds": self.rounds,
            "turns": self.turns,
            "layer": self.layer,
            "waiting": list(self.waiting),
            "interval": list(self.interval),
            "interval_laid": self.phase == "move",
            "hand": sorted(self.hands[player]),
            "hand_counts": [len(hand) for hand in self.hands],
            "draw_counts": [len(pile) for pile in self.draw_piles],
            "removed_count": len(self.removed),
            "side_counts": [self.side_card_count(side) for side in range(len(self.sides))],
            "this_turn": _copy_record(self.turn_record),
            "last_turn": _copy_record(self.last_turn),
            "recent_turns": [_copy_record(record) for record in self.recent_turns],
            "ended_by": self.ended_by,
            "winners": self.winners(),
        }

    def card_ids(self) -> list[int]:
        zones = [*self.draw_piles, *self.hands, self.interval, self.removed]
        return [card_id for zone in zones for card_id in zone]

    def summary(self) -> dict:
        return {
            "rounds": self.rounds,
            "turns": self.turns,
            "ended_by": self.ended_by,
            "card_counts": {"+".join(map(str, side)): self.side_card_count(i) for i, side in enumerate(self.sides)},
            "removed_count": len(self.removed),
        }

    def to_dict(self) -> dict:
        return {
            "draw_piles": [list(pile) for pile in self.draw_piles],
            "hands": [list(hand) for hand in self.hands],
            "interval": list(self.interval),
            "removed": list(self.removed),
            "phase": self.phase,
            "layer": self.layer,
            "waiting": list(self.waiting),
            "rounds": self.rounds,
            "turns": self.turns,
            "dry_turns": self.dry_turns,
            "ended_by": self.ended_by,
            "turn_record": _copy_record(self.turn_record),
            "last_turn": _copy_record(self.last_turn),
            "recent_turns": [_copy_record(record) for record in self.recent_turns],
        }

    @classmethod
    def from_dict(cls, game: FractionMaster, data: dict) -> FractionMasterState:
        state = cls(game)
        try:
            state.draw_piles = [_ints(pile) for pile in _list(data["draw_piles"])]
            state.hands = [_ints(hand) for hand in _list(data["hands"])]
            state.interval = _ints(data["interval"])
            state.removed = _ints(data["removed"])
            state.phase = str(data["phase"])
            state.layer = stored_int(data["layer"])
            state.waiting = _ints(data["waiting"])
            state.rounds = stored_int(data["rounds"])
            state.turns = stored_int(data["turns"])
            state.dry_turns = stored_int(data["dry_turns"])
            state.ended_by = str(data["ended_by"])
            state.turn_record = _read_record(data["turn_record"], finished=False)
            state.last_turn = _read_record(data["last_turn"], finished=True)
            # Runs stored before the round's story was kept have only the last turn.
            recent = data.get("recent_turns", [data["last_turn"]] if data["last_turn"] else [])
            state.recent_turns = [_read_record(record, finished=True) for record in _list(recent)]
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise InvalidState(f"{game.id}: malformed state ({error!r})") from error
        state.validate()
        return state

    def validate(self) -> None:
        """Raise :class:`InvalidState` unless this position can occur in a real game."""
        game, players = self.game, self.game.players
        seats = range(players)
        problems = []
        if self.phase not in PHASES or self.ended_by not in END_REASONS:
            problems.append("unknown phase or end reason")
        if (self.phase == "over") != bool(self.ended_by):
            problems.append("end reason does not match the phase")
        if len(self.draw_piles) != len(self.sides) or len(self.hands) != players:
            raise InvalidState(f"{game.id}: wrong number of piles or hands")
        ids = self.card_ids()
        if self.phase == "deal":
            if ids or self.turns or self.rounds or self.last_turn or self.turn_record or self.waiting:
                problems.append("play before the deal")
        else:
            if len(ids) != len(set(ids)) or sorted(ids) != sorted(game.card_ids()):
                raise InvalidState(f"{game.id}: cards lost or duplicated")
            if len(self.interval) != INTERVAL_CARDS or any(is_special(c) for c in self.interval):
                problems.append("the interval is not four number cards")
            elif len({top(c) for c in self.interval}) == 1:
                problems.append("four interval cards with one top number: only an empty interval")
            if any(is_special(c) for hand in self.hands for c in hand):
                problems.append("a special card in a hand")
            if any(len(hand) > KOCHA_HAND_SIZE for hand in self.hands):
                problems.append("a hand holds more than six cards")
        if self.layer not in seats:
            problems.append("bad layer")
        if (
            self.rounds < 0
            or self.turns < self.rounds
            or self.turns > TURN_CAP + players
            or not 0 <= self.dry_turns <= self.turns
        ):
            problems.append("bad counters")
        if not self.same_interval and self.turns != self.rounds:
            problems.append("turns and rounds differ without the same-interval option")
        order = self._order_after(self.layer) if self.layer in seats else []
        if self.phase in ("shuffle", "lay") and self.waiting != order:
            problems.append("the wrong players wait for the interval")
        if self.phase == "move" and (not self.waiting or self.waiting != order[len(order) - len(self.waiting) :]):
            problems.append("the wrong players wait to move")
        if self.phase in ("deal", "over") and self.waiting:
            problems.append("players wait outside play")
        if self.phase == "move" and len(self.interval) == INTERVAL_CARDS and is_empty(self.interval):
            problems.append("an empty interval: two equal fractions")
        problems.extend(self._record_problems())
        if problems:
            raise InvalidState(f"{game.id}: " + "; ".join(problems))

    def _record_problems(self) -> list[str]:
        problems = []
        record = self.turn_record
        if (record is not None) != (self.phase == "move"):
            problems.append("a turn in progress outside the move phase")
        elif record is not None:
            laid = [c for pair in record["fractions"] for c in pair]
            if (
                record["player"] != self.waiting[0]
                or record["interval"] != self.interval
                or record["layer"] != self.layer
            ):
                problems.append("the turn in progress does not match the table")
            elif not set(laid + record["specials"]) <= set(self.removed) or len(set(laid)) != len(laid):
                problems.append("fractions laid this turn are not in the removed pile")
            elif any(not fits(fraction_of(num, den), self.interval, self.strict) for num, den in record["fractions"]):
                problems.append("a fraction laid outside the interval")
        last = self.last_turn
        if last is not None and (last["player"] not in range(self.game.players) or last["turn"] != self.turns):
            problems.append("bad last turn")
        recent = self.recent_turns
        if len(recent) > self.game.players or (recent[-1] if recent else None) != last:
            problems.append("the round's turns do not end with the last turn")
        elif any(record["player"] not in range(self.game.players) for record in recent):
            problems.append("a turn of the round by no player")
        elif [record["turn"] for record in recent] != list(range(self.turns - len(recent) + 1, self.turns + 1)):
            problems.append("the round's turns are not the last turns in order")
        return problems


def _copy_record(record: dict | None) -> dict | None:
    if record is None:
        return None
    copied = dict(record)
    copied["interval"] = list(record["interval"])
    copied["specials"] = list(record["specials"])
    copied["fractions"] = [list(pair) for pair in record["fractions"]]
    return copied


def _read_record(data, finished: bool) -> dict | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise TypeError("a turn record is not a dict")
    record = {
        "player": stored_int(data["player"]),
        "layer": stored_int(data["layer"]),
        "interval": _ints(data["interval"]),
        "drew": stored_int(data["drew"]),
        "specials": _ints(data["specials"]),
        "fractions": [_ints(pair) for pair in _list(data["fractions"])],
    }
    if len(record["interval"]) != INTERVAL_CARDS or any(len(pair) != 2 for pair in record["fractions"]):
        raise ValueError("a turn record with a bad interval or fraction")
    if any(is_special(c) for c in record["interval"]) or any(
        is_special(c) for pair in record["fractions"] for c in pair
    ):
        raise ValueError("a turn record with a special card in a fraction")
    if finished:
        record["kept"] = bool(_boolean(data["kept"]))
        record["turn"] = stored_int(data["turn"])
    return record


def _boolean(value) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"not a boolean: {value!r}")
    return value


def _list(value) -> list:
    if not isinstance(value, list):
        raise TypeError(f"not a list: {value!r}")
    return value


def _ints(value) -> list[int]:
    card_ids = [stored_int(item) for item in _list(value)]
    if any(not 0 <= c < len(kids2()) for c in card_ids):
        raise ValueError("not a card of the deck")
    return card_ids


# --- computer players -----------------------------------------------------------------------------
@lru_cache(maxsize=65536)
def _width(cards: tuple[int, ...]) -> Fraction:
    low, high = interval_of(cards)
    return high - low


class StrongBot(Bot):
    """Lays as many fractions as its hand allows, and the narrowest interval for the others.

    With the same interval for everyone it also moves on the interval it lays (last), so
    it first keeps as many fractions for its own hand as it can, then lays the narrowest.
    """

    name = "strong"
    label = N_("strong")

    def choose(self, view: dict, legal: list[Move], rng: random.Random) -> Move:
        if legal[0].kind == "lay_interval":
            if view["same_interval"]:
                hand, strict = view["hand"], view["strict"]
                return min(
                    legal,
                    key=lambda move: (
                        -len(most_fractions(possible_fractions(hand, move.cards, strict))),
                        _width(move.cards),
                        move.cards,
                    ),
                )
            return min(legal, key=lambda move: (_width(move.cards), move.cards))
        pairs = [move.cards for move in legal if move.kind == "play_fraction"]
        best = most_fractions(pairs)
        if best:
            return Move("play_fraction", legal[0].player, best[0])
        return legal[-1]


class BeginnerBot(Bot):
    """Lays the first fraction it finds, now and then misses one, and lays intervals at random."""

    name = "beginner"
    label = N_("beginner")
    miss_chance = 0.25

    def choose(self, view: dict, legal: list[Move], rng: random.Random) -> Move:
        if legal[0].kind == "lay_interval":
            return rng.choice(legal)
        plays = [move for move in legal if move.kind == "play_fraction"]
        if plays and rng.random() >= self.miss_chance:
            return plays[0]
        return legal[-1]


# --- the game -------------------------------------------------------------------------------------
class FractionMaster(Game):
    """Rules and options of Fraction Master."""

    id: ClassVar[str] = "fraction-master"
    title: ClassVar[str] = N_("Fraction Master")
    order: ClassVar[int] = 170
    state_class = FractionMasterState
    bots = {"beginner": BeginnerBot, "strong": StrongBot}
    option_specs = (
        Option(
            "strict",
            N_("Strict: a fraction equal to an end of the interval does not count"),
            False,
            help=N_("Off: the end points count, so an equivalent fraction such as 2/4 fits between 1/2 and 3/4."),
        ),
        Option(
            "same_interval",
            N_("Everyone faces the same interval"),
            False,
            help=N_(
                "Each player in turn makes fractions for the same interval from their own cards before a new interval "
                "is laid."
            ),
        ),
        Option(
            "round_limit",
            N_("Number of turns (0 = no limit; then the fewest cards wins)"),
            0,
            minimum=0,
            maximum=TURN_CAP,
            help=N_("With the same interval for everyone, a round of all players counts as one."),
        ),
        Option("time_limit_minutes", N_("Playing time in minutes (0 = no time limit)"), 0, minimum=0, maximum=180),
    )

    def card_ids(self) -> tuple[int, ...]:
        """The cards in play: the whole deck (special cards act as Kocha cards)."""
        return tuple(card.id for card in kids2().cards)
