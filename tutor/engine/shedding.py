"""Shedding games with the Kids2 deck: MultiMatch and the Crazy Banana family.

One set of rules with four variants, each a registered game (shared/games.md):

* **MultiMatch** (``multimatch``, age 8+): six cards each. Play a card of the colour
  in force, **or** two number cards at once whose top numbers multiply to one of the
  circled values of the top discard; you choose which of the two lies on top (the move
  ``play_pair`` lists its cards bottom first, top last). Draw at most 3 cards a turn.
* **Crazy Banana: Overslag** (``crazy-banana-overslag``, 10+): five cards each. Besides
  the colour, you may "vri" with a card whose circled sum is higher than the top
  discard's. At most 3 draws.
* **Crazy Banana: Tiervenner** (``crazy-banana-tiervenner``, 6+): five cards; vri with a
  card whose top number and the top discard's top number make 10 (5 and 5 too). At most
  2 draws, as the source says for this game.
* **Crazy Banana: Extreme** (``crazy-banana-extreme``, 12+): five cards; vri if two of
  your card's circled values add up to more than all four of the top discard's, or
  if two of them add up to a prime larger than the exact mean of the top discard's four
  values (:func:`tutor.primes.primes_up_to` is the list of primes to 200 the source promises; a sum
  of two two-digit values is below 200).

Common rules:

* The whole deck is used. The dealer is the last seat; the cards are dealt one at a
  time, clockwise from seat 0, who starts. Play goes clockwise (seat numbers rising)
  until a Kocha reverse card turns it round.
* **The starting card.** The top card of the pile is turned face up to start the discard
  pile. **Decision**: it must be a number card; special cards turned up go under the
  draw pile, in the order turned, and the next card is turned. So a colour is always in
  force from the start and no instruction acts before the first turn.
* **The colour in force** is the colour of the top discard, or, when that is a special
  card, the colour named when it was played.
* **On your turn** play one card of the colour in force, or vri by the game's maths rule
  (MultiMatch: the pair play). **Decision**: maths needs numbers, so against a special
  top card only the named colour and special cards can be played.
* **Cannot or will not play**: draw one card at a time (``draw``), at most the game's
  limit, playing any card as soon as you can and will. After the limit, or when there is
  nothing left to draw, say ``pass``; ``pass`` is legal only then.
* **Banana cards** are always playable and name the colour the next player must follow
  (the colour is the move's ``detail``). *Option* ``banana_has_no_power`` (harder, off by
  default): banana cards are not wild. **Decision**: such a banana may be played only on
  another special card (banana or Kocha), as a card matches its own kind, and names no
  colour: the colour named before stays in force.
* **Kocha cards** name a colour like a banana and carry out their instruction (a symbol
  on the card): ``skip`` the next player misses a turn; ``reverse`` the direction of
  play turns round (**Decision**: with only two players in the game it works like skip,
  so the player who played it moves again, as in Uno); ``draw_two`` the next player
  draws two cards at once and then takes their turn as usual (the card says only "draw
  two"; skipping is the other card's job). Those two cards do not count towards the
  player's own draw limit.
* **A special card may not be your last card**: a banana or Kocha card cannot be played
  when it is the only card in your hand. A player left holding only a special card must
  draw until another card comes, play the special, and then go out.
* **"One card left"**: a player about to go down to one card must say so *before*
  playing: the move ``call_one_card`` (the pupil's button), legal when some play in hand
  would leave one card; it does not end the turn. Whoever goes down to one card without
  having called is *exposed*: a knock window opens at once, in which every other player
  in turn order (starting with the next player to move) may ``knock`` ("bank i bordet")
  or ``no_knock``. The first knock makes the exposed player draw two cards and closes
  the window; when everyone has declined, the chance has gone. Computer players
  sometimes forget to call (the beginner often) and they do knock (the strong one always).
* **Empty draw pile**: when a card must be drawn and the pile is empty, the discard pile
  except its top card is shuffled into a new draw pile (a chance move ``reshuffle``). When
  not even that leaves a card, draws are skipped (penalty draws are dropped).
* **The end**: the first player to empty the hand wins. *Option* ``play_until_one_left``:
  play on until one player has cards; the ranking is the order of going out, the last
  player last. The game also ends, with the fewest cards winning (ties share the win;
  anyone already out wins before everyone else), when
  a full cycle of players passes with nothing left to draw ("stalled"), when the
  *option* ``turn_limit`` is reached, when a teacher's clock runs out (the chance move
  ``time_up``, legal at the start of a turn, *option* ``time_limit_minutes``), or at the
  safety cap of :data:`TURN_CAP` turns, which guarantees that even random play ends.
* No teams: the source has none for these games.

Moves: ``play`` (one card; ``detail`` is the named colour for a special card),
``play_pair`` (MultiMatch; cards are bottom then top), ``draw``, ``pass``,
``call_one_card``, ``knock``, ``no_knock``; chance moves ``shuffle``, ``reshuffle`` and
``time_up``. :meth:`SheddingState.legal_moves` lists them in this stable order:
``call_one_card``, single plays by card id (a special card once per colour, in the
deck's colour order), pair plays by (bottom, top), then ``draw`` or ``pass``.
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache
from itertools import combinations
from typing import ClassVar

from tutor.deck import BANANA, KOCHA, Card, kids2
from tutor.engine.core import CHANCE, TERMINAL, Bot, Game, InvalidState, Move, Option, State, stored_int
from tutor.primes import is_prime
from tutor.text import N_

PHASES = ("deal", "play", "knock", "reshuffle", "over")
END_REASONS = ("", "empty_hand", "one_left", "stalled", "turn_limit", "time_limit", "turn_cap")
#: Safety cap on turns: no real game comes near it (see bench/deck_check.py), random play may.
TURN_CAP = 1000
#: Cards drawn by a player who is knocked, and by the victim of a Kocha draw-two card.
KNOCK_PENALTY = 2
DRAW_TWO = 2
PLAY_KINDS = ("play", "play_pair")
#: How many plays a state remembers in :attr:`SheddingState.play_log`.
PLAY_LOG = 24


def card(card_id: int) -> Card:
    return kids2()[card_id]


@cache
def colour_ids() -> tuple[str, ...]:
    return tuple(colour.id for colour in kids2().colours)


# --- the maths rules, pure functions a lesson can show and test ----------------------


def overslag_vri(values: tuple[int, ...], top_values: tuple[int, ...]) -> bool:
    """Overslag: the card's circled sum is higher than the top discard's."""
    return sum(values) > sum(top_values)


def tens_friends(top: int, top_of_discard: int) -> bool:
    """Tiervenner: the two top numbers make 10."""
    return top + top_of_discard == 10


def extreme_witness(values: tuple[int, ...], top_values: tuple[int, ...]) -> tuple[str, tuple[int, int]] | None:
    """Why Extreme allows a vri: ``("beats_total", pair)`` or ``("prime_above_mean", pair)``, else None.

    ``beats_total``: two of the card's values add up to more than all the top discard's
    values. ``prime_above_mean``: two of them add up to a prime larger than the exact
    mean of the top discard's values. Both comparisons are strict.
    """
    total = sum(top_values)
    mean = Fraction(total, len(top_values))
    pairs = list(combinations(values, 2))
    for a, b in pairs:
        if a + b > total:
            return "beats_total", (a, b)
    for a, b in pairs:
        if is_prime(a + b) and a + b > mean:
            return "prime_above_mean", (a, b)
    return None


def product_targets(top_values: tuple[int, ...]) -> list[tuple[int, int, int]]:
    """Every (a, b, a*b) with top numbers a <= b (1-9) whose product is a circled value."""
    targets = set(top_values)
    return [(a, b, a * b) for a in range(1, 10) for b in range(a, 10) if a * b in targets]


# --- the state ---------------------------------------------------------------------------
class SheddingState(State):
    """A shedding position: draw pile, discard pile, hands, whose turn and what is pending."""

    game: SheddingGame

    def __init__(self, game: SheddingGame) -> None:
        super().__init__(game)
        self.draw_pile: list[int] = []  # the last card is the top
        self.discard_pile: list[int] = []  # the last card is the top (face up)
        self.hands: list[list[int]] = [[] for _ in range(game.players)]
        self.phase = "deal"
        self.turn = 0  # whose turn it is (during a knock window or a reshuffle: who moves next)
        self.direction = 1  # +1 clockwise (seat numbers rising), -1 after a reverse
        self.colour = ""  # the colour in force
        self.drawn = 0  # cards drawn by choice this turn
        self.called = False  # the player whose turn it is has said "one card left"
        self.pending_draws: list[list[int]] = []  # [player, cards] still to draw (penalties, a draw)
        self.knock_queue: list[int] = []  # who may still knock in the open window
        self.exposed: int | None = None  # who went down to one card without calling
        self.finished: list[int] = []  # who went out, in order
        self.turns = 0
        self.dry_passes = 0  # passes in a row with nothing left to draw
        self.ended_by = ""
        self.last_event: dict | None = None
        # The last PLAY_LOG plays, oldest first: who played which cards on which top card
        # (``on``), whom a Kocha card's instruction hit (``target``: skipped, or drawing
        # two) and whose turn came next (``next``, None when the play ended the game). A
        # reshuffle forgets the order of the discard pile; a lesson still tells each play.
        self.play_log: list[dict] = []

    # --- the engine API -------------------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if self.phase == "play":
            return self.turn
        if self.phase == "knock":
            return self.knock_queue[0]
        return CHANCE

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def top(self) -> Card | None:
        return card(self.discard_pile[-1]) if self.discard_pile else None

    def active_players(self) -> list[int]:
        return [p for p in range(self.game.players) if p not in self.finished]

    def next_active(self, player: int, direction: int | None = None) -> int:
        """The next player still in the game after ``player`` in the direction of play."""
        step = self.direction if direction is None else direction
        seat = player
        for _ in range(self.game.players):
            seat = (seat + step) % self.game.players
            if seat not in self.finished:
                return seat
        return player

    def can_draw(self) -> bool:
        """Whether a card can be drawn now (from the pile, or after a reshuffle)."""
        return bool(self.draw_pile) or len(self.discard_pile) > 1

    def winners(self) -> list[int]:
        if not self.is_over:
            return []
        if self.finished:
            return [self.finished[0]]
        counts = {p: len(self.hands[p]) for p in self.active_players()}
        fewest = min(counts.values())
        return [p for p, count in counts.items() if count == fewest]

    def ranking(self) -> list[int]:
        """Players in finishing order: out first, then the rest by fewest cards (then seat)."""
        rest = sorted(self.active_players(), key=lambda p: (len(self.hands[p]), p))
        return list(self.finished) + rest

    def play_moves(self, player: int) -> list[Move]:
        """Every card play the rules allow ``player`` now (ignores whose turn it is)."""
        hand = sorted(self.hands[player])
        top = self.top
        game = self.game
        no_power = game.options["banana_has_no_power"]
        moves = []
        for card_id in hand:
            this = card(card_id)
            if this.is_special:
                if len(hand) == 1:
                    continue  # a special card may not be the last card
                if this.kind == BANANA and no_power:
                    if top.is_special:
                        moves.append(Move("play", player, (card_id,)))
                    continue
                moves.extend(Move("play", player, (card_id,), colour) for colour in colour_ids())
            elif this.colour == self.colour or (not top.is_special and game.allows_vri(card_id, top.id)):
                moves.append(Move("play", player, (card_id,)))
        if game.pair_plays and not top.is_special:
            moves.extend(self._pair_moves(player, hand, top))
        return moves

    def _pair_moves(self, player: int, hand: list[int], top: Card) -> list[Move]:
        by_top: dict[int, list[int]] = {}
        for card_id in hand:
            this = card(card_id)
            if not this.is_special:
                by_top.setdefault(this.top, []).append(card_id)
        pairs = set()
        for a, b, _ in product_targets(top.circled):
            for first in by_top.get(a, ()):
                for second in by_top.get(b, ()):
                    if first != second:
                        pairs.add((first, second))
                        pairs.add((second, first))
        return [Move("play_pair", player, pair) for pair in sorted(pairs)]

    def legal_moves(self) -> list[Move]:
        if self.phase == "knock":
            player = self.knock_queue[0]
            return [Move("knock", player), Move("no_knock", player)]
        if self.phase != "play":
            return []
        player = self.turn
        plays = self.play_moves(player)
        size = len(self.hands[player])
        moves = []
        if not self.called and any(size - len(move.cards) == 1 for move in plays):
            moves.append(Move("call_one_card", player))
        moves.extend(plays)
        if self.drawn < self.game.draw_limit and self.can_draw():
            moves.append(Move("draw", player))
        else:
            moves.append(Move("pass", player))
        return moves

    def chance_move(self, rng: random.Random) -> Move:
        if self.phase == "deal":
            order = list(self.game.card_ids())
            rng.shuffle(order)
            return Move("shuffle", CHANCE, tuple(order))
        if self.phase == "reshuffle":
            order = list(self.discard_pile[:-1])
            rng.shuffle(order)
            return Move("reshuffle", CHANCE, tuple(order))
        raise InvalidState("no chance event is pending")

    def is_legal_chance(self, move: Move) -> bool:
        if move.detail:
            return False
        if move.kind == "shuffle":
            return self.phase == "deal" and sorted(move.cards) == sorted(self.game.card_ids())
        if move.kind == "reshuffle":
            return self.phase == "reshuffle" and sorted(move.cards) == sorted(self.discard_pile[:-1])
        if move.kind == "time_up":
            return self.game.options["time_limit_minutes"] > 0 and self.at_turn_start and not move.cards
        return False

    @property
    def at_turn_start(self) -> bool:
        return self.phase == "play" and self.drawn == 0 and not self.called

    def _apply(self, move: Move) -> None:
        kind = move.kind
        if kind == "shuffle":
            self._deal(list(move.cards))
        elif kind == "reshuffle":
            self.draw_pile = list(move.cards)
            del self.discard_pile[:-1]
            self._settle()
        elif kind == "time_up":
            self._end("time_limit")
        elif kind == "call_one_card":
            self.called = True
            self._event(move)
        elif kind == "draw":
            self.drawn += 1
            self.dry_passes = 0
            self.pending_draws.append([move.player, 1])
            self._event(move)
            self._settle()
        elif kind == "pass":
            self._pass(move)
        elif kind in PLAY_KINDS:
            self._play(move)
        elif kind == "knock":
            self._event(move, target=self.exposed)
            self.pending_draws.insert(0, [self.exposed, KNOCK_PENALTY])
            self._close_window()
        elif kind == "no_knock":
            self.knock_queue.pop(0)
            if not self.knock_queue:
                self._close_window()

    # --- the rules ----------------------------------------------------------------------
    def _deal(self, order: list[int]) -> None:
        self.draw_pile = order
        for _ in range(self.game.hand_size):
            for player in range(self.game.players):
                self.hands[player].append(self.draw_pile.pop())
        turned_specials = []
        while card(self.draw_pile[-1]).is_special:
            turned_specials.append(self.draw_pile.pop())
        self.draw_pile[:0] = reversed(turned_specials)  # the first one turned ends at the very bottom
        starter = self.draw_pile.pop()
        self.discard_pile = [starter]
        self.colour = card(starter).colour
        self.phase = "play"
        self._begin_turn(0)

    def _event(self, move: Move, **extra) -> None:
        self.last_event = {
            "player": move.player,
            "kind": move.kind,
            "cards": list(move.cards),
            "detail": move.detail,
            **extra,
        }

    def _begin_turn(self, player: int) -> bool:
        """Hand the turn to ``player``; False when a turn limit ends the game instead."""
        limit = self.game.options["turn_limit"]
        if limit and self.turns >= limit:
            self._end("turn_limit")
            return False
        if self.turns >= TURN_CAP:
            self._end("turn_cap")
            return False
        self.turn, self.drawn, self.called = player, 0, False
        self.turns += 1
        return True

    def _play(self, move: Move) -> None:
        player, hand = move.player, self.hands[move.player]
        covered = self.discard_pile[-1]
        for card_id in move.cards:
            hand.remove(card_id)
            self.discard_pile.append(card_id)
        top = card(move.cards[-1])
        if not top.is_special:
            self.colour = top.colour
        elif move.detail:
            self.colour = move.detail
        self.dry_passes = 0
        exposed = len(hand) == 1 and not self.called
        self._event(move, instruction=top.instruction or "", forgot_call=exposed)
        if not hand:
            self.finished.append(player)
            if not self.game.options["play_until_one_left"] or len(self.active_players()) <= 1:
                self._log_play(move, covered, None, None)
                self._end("empty_hand" if not self.game.options["play_until_one_left"] else "one_left")
                return
        following = self.next_active(player)
        target = None
        if top.kind == KOCHA:
            if top.instruction == "reverse":
                self.direction = -self.direction
                following = self.next_active(player)
                if len(self.active_players()) == 2:
                    target, following = following, player
            elif top.instruction == "skip":
                target, following = following, self.next_active(following)
            elif top.instruction == "draw_two":
                target = following
                self.pending_draws.append([following, DRAW_TWO])
        self._log_play(move, covered, target, following)
        if not self._begin_turn(following):
            return
        if exposed:
            self.exposed = player
            self.knock_queue = self._knock_order(following, player)
            self.phase = "knock"
            return
        self._settle()

    def _log_play(self, move: Move, covered: int, target: int | None, following: int | None) -> None:
        self.play_log.append(
            {"player": move.player, "cards": list(move.cards), "on": covered, "target": target, "next": following}
        )
        del self.play_log[:-PLAY_LOG]

    def _knock_order(self, first: int, exposed: int) -> list[int]:
        order, seat = [], first
        for _ in range(self.game.players):
            if seat not in self.finished and seat != exposed and seat not in order:
                order.append(seat)
            seat = (seat + self.direction) % self.game.players
        return order

    def _close_window(self) -> None:
        self.knock_queue, self.exposed = [], None
        self._settle()

    def _pass(self, move: Move) -> None:
        self._event(move)
        if self.can_draw():
            self.dry_passes = 0
        else:
            self.dry_passes += 1
            if self.dry_passes >= len(self.active_players()):
                self._end("stalled")
                return
        if self._begin_turn(self.next_active(move.player)):
            self._settle()

    def _settle(self) -> None:
        """Carry out pending draws, pausing for a reshuffle; then the turn player moves."""
        while self.pending_draws:
            player, count = self.pending_draws[0]
            if not self.draw_pile:
                if len(self.discard_pile) > 1:
                    self.phase = "reshuffle"
                    return
                self.pending_draws = []  # nothing left anywhere to draw
                break
            self.hands[player].append(self.draw_pile.pop())
            if count > 1:
                self.pending_draws[0][1] = count - 1
            else:
                self.pending_draws.pop(0)
        self.phase = "play"

    def _end(self, reason: str) -> None:
        self.phase, self.ended_by = "over", reason
        self.pending_draws, self.knock_queue, self.exposed = [], [], None

    # --- views and storage ---------------------------------------------------------------
    def player_view(self, player: int) -> dict:
        top = self.discard_pile[-1] if self.discard_pile else None
        return {
            "game": self.game.id,
            "you": player,
            "players": self.game.players,
            "phase": self.phase,
            "turn": self.turn,
            "next_player": self.next_active(self.turn) if self.discard_pile else None,
            "direction": self.direction,
            "hand": sorted(self.hands[player]),
            "hand_counts": [len(hand) for hand in self.hands],
            "draw_count": len(self.draw_pile),
            "discard_count": len(self.discard_pile),
            "top": top,
            "colour": self.colour,
            "drawn": self.drawn,
            "draw_limit": self.game.draw_limit,
            "called": self.called,
            "exposed": self.exposed,
            "knock_queue": list(self.knock_queue),
            "finished": list(self.finished),
            "turns": self.turns,
            "last_event": self.last_event,
            "ended_by": self.ended_by,
            "winners": self.winners(),
        }

    def card_ids(self) -> list[int]:
        return [card_id for zone in [self.draw_pile, self.discard_pile, *self.hands] for card_id in zone]

    def summary(self) -> dict:
        return {
            "turns": self.turns,
            "ended_by": self.ended_by,
            "card_counts": {str(p): len(hand) for p, hand in enumerate(self.hands)},
            "ranking": self.ranking(),
            "draw_count": len(self.draw_pile),
            "discard_count": len(self.discard_pile),
        }

    def to_dict(self) -> dict:
        return {
            "draw_pile": list(self.draw_pile),
            "discard_pile": list(self.discard_pile),
            "hands": [list(hand) for hand in self.hands],
            "phase": self.phase,
            "turn": self.turn,
            "direction": self.direction,
            "colour": self.colour,
            "drawn": self.drawn,
            "called": self.called,
            "pending_draws": [list(entry) for entry in self.pending_draws],
            "knock_queue": list(self.knock_queue),
            "exposed": self.exposed,
            "finished": list(self.finished),
            "turns": self.turns,
            "dry_passes": self.dry_passes,
            "ended_by": self.ended_by,
            "last_event": None
            if self.last_event is None
            else {**self.last_event, "cards": list(self.last_event["cards"])},
            "play_log": [{**entry, "cards": list(entry["cards"])} for entry in self.play_log],
        }

    @classmethod
    def from_dict(cls, game: SheddingGame, data: dict) -> SheddingState:
        state = cls(game)
        try:
            state.draw_pile = [stored_int(c) for c in data["draw_pile"]]
            state.discard_pile = [stored_int(c) for c in data["discard_pile"]]
            state.hands = [[stored_int(c) for c in hand] for hand in data["hands"]]
            state.phase = str(data["phase"])
            state.turn = stored_int(data["turn"])
            state.direction = stored_int(data["direction"])
            state.colour = str(data["colour"])
            state.drawn = stored_int(data["drawn"])
            state.called = data["called"]
            state.pending_draws = [[stored_int(x) for x in entry] for entry in data["pending_draws"]]
            state.knock_queue = [stored_int(p) for p in data["knock_queue"]]
            state.exposed = None if data["exposed"] is None else stored_int(data["exposed"])
            state.finished = [stored_int(p) for p in data["finished"]]
            state.turns = stored_int(data["turns"])
            state.dry_passes = stored_int(data["dry_passes"])
            state.ended_by = str(data["ended_by"])
            event = data["last_event"]
            state.last_event = None if event is None else {**event, "cards": [stored_int(c) for c in event["cards"]]}
            state.play_log = [
                _log_entry(entry) for entry in data.get("play_log", [])
            ]  # runs stored before the log had none
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise InvalidState(f"{game.id}: malformed state ({error!r})") from error
        state.validate()
        return state

    def validate(self) -> None:
        """Raise :class:`InvalidState` unless this position can occur in a real game."""
        problems = []
        players, game = self.game.players, self.game
        seats = range(players)
        if self.phase not in PHASES or self.ended_by not in END_REASONS:
            problems.append("unknown phase or end reason")
        if (self.phase == "over") != bool(self.ended_by):
            problems.append("end reason does not match the phase")
        if len(self.hands) != players:
            raise InvalidState(f"{game.id}: wrong number of hands")
        if self.phase == "deal":
            if self.card_ids() or self.turns or self.finished or self.last_event or self.play_log:
                problems.append("play before the deal")
        else:
            if sorted(self.card_ids()) != sorted(game.card_ids()):
                raise InvalidState(f"{game.id}: cards lost or duplicated")
            if not self.discard_pile:
                problems.append("no discard pile")
            elif self.colour not in colour_ids():
                problems.append("no colour in force")
            elif not self.top.is_special and self.colour != self.top.colour:
                problems.append("the colour in force is not the top card's")
            if len(set(self.finished)) != len(self.finished) or not set(self.finished) <= set(seats):
                problems.append("bad finishing order")
            if any(bool(self.hands[p]) == (p in self.finished) for p in seats):
                problems.append("a player out of the game holds cards, or one in it holds none")
            if not game.options["play_until_one_left"] and len(self.finished) > 1:
                problems.append("more than one player out")
            if self.finished and self.phase != "over" and not game.options["play_until_one_left"]:
                problems.append("a player is out but the game goes on")
            if self.phase != "over" and len(self.active_players()) < 2:
                problems.append("fewer than two players left in play")
        if self.direction not in (1, -1) or self.turn not in seats:
            problems.append("bad turn or direction")
        if self.phase in ("play", "knock", "reshuffle") and self.turn in self.finished:
            problems.append("the turn is with a player who is out")
        if not 0 <= self.drawn <= game.draw_limit or not isinstance(self.called, bool):
            problems.append("bad draw count or call flag")
        if self.turns < 0 or self.dry_passes < 0 or self.turns > TURN_CAP:
            problems.append("bad counters")
        for entry in self.pending_draws:
            if (
                len(entry) != 2
                or entry[0] not in seats
                or entry[0] in self.finished
                or not 1 <= entry[1] <= max(KNOCK_PENALTY, DRAW_TWO)
            ):
                problems.append("bad pending draw")
        if self.pending_draws and self.phase not in ("knock", "reshuffle"):
            problems.append("draws pending outside a knock window or reshuffle")
        if self.phase == "reshuffle" and (not self.pending_draws or self.draw_pile or len(self.discard_pile) < 2):
            problems.append("a reshuffle that is not needed")
        if self.phase == "knock":
            queue = self.knock_queue
            if self.exposed not in seats or self.exposed in self.finished or len(self.hands[self.exposed]) != 1:
                problems.append("the exposed player does not hold one card")
            if (
                not queue
                or len(set(queue)) != len(queue)
                or self.exposed in queue
                or not set(queue) <= set(self.active_players())
            ):
                problems.append("bad knock window")
        elif self.knock_queue or self.exposed is not None:
            problems.append("a knock window outside the knock phase")
        if self.last_event is not None:
            cards = self.last_event.get("cards")
            if not isinstance(cards, list) or len(set(cards)) != len(cards) or len(cards) > 2:
                problems.append("bad last event")
        if len(self.play_log) > PLAY_LOG:
            problems.append("too long a play log")
        ids = set(game.card_ids())
        for entry in self.play_log:
            people = [entry["player"]] + [entry[key] for key in ("target", "next") if entry[key] is not None]
            if (
                not 1 <= len(entry["cards"]) <= 2
                or not {*entry["cards"], entry["on"]} <= ids
                or not set(people) <= set(seats)
            ):
                problems.append("bad play log")
        if problems:
            raise InvalidState(f"{game.id}: " + "; ".join(problems))


def _log_entry(entry: dict) -> dict:
    optional = {key: None if entry[key] is None else stored_int(entry[key]) for key in ("target", "next")}
    return {
        "player": stored_int(entry["player"]),
        "cards": [stored_int(c) for c in entry["cards"]],
        "on": stored_int(entry["on"]),
        **optional,
    }


# --- computer players ----------------------------------------------------------------------
def _cards_left(view: dict, move: Move) -> int:
    return len(view["hand"]) - len(move.cards)


def _remaining(view: dict, move: Move) -> list[int]:
    return [c for c in view["hand"] if c not in move.cards]


def _favourite_colour(cards: list[int]) -> str:
    """The colour held most often among number cards (ties: the deck's colour order)."""
    counts = {colour: 0 for colour in colour_ids()}
    for card_id in cards:
        this = card(card_id)
        if not this.is_special:
            counts[this.colour] += 1
    return max(colour_ids(), key=lambda colour: counts[colour])


class StrongBot(Bot):
    """Goes out when it can, sheds pairs and maths plays, keeps specials, always calls and knocks."""

    name = "strong"
    label = N_("strong")

    def choose(self, view: dict, legal: list[Move], rng: random.Random) -> Move:
        kinds = {move.kind: move for move in legal}
        if "knock" in kinds:
            return kinds["knock"]
        play = self.best_play(view, legal)
        if play is not None:
            if "call_one_card" in kinds and _cards_left(view, play) == 1:
                return kinds["call_one_card"]
            return play
        return kinds.get("draw") or kinds["pass"]

    def best_play(self, view: dict, legal: list[Move]) -> Move | None:
        plays = [move for move in legal if move.kind in PLAY_KINDS]
        if not plays:
            return None
        for move in plays:
            if _cards_left(view, move) == 0:
                return move
        numbers = [move for move in plays if not card(move.cards[0]).is_special]
        specials = [move for move in plays if card(move.cards[0]).is_special]
        held_specials = sum(1 for c in view["hand"] if card(c).is_special)
        must_shed_special = specials and held_specials >= len(view["hand"]) - 1
        if numbers and not must_shed_special:
            return max(numbers, key=lambda move: self._number_score(view, move))
        can_draw = any(move.kind == "draw" for move in legal)
        if specials and (must_shed_special or view["drawn"] >= 1 or not can_draw):
            return max(specials, key=lambda move: self._special_score(view, move))
        return None

    @staticmethod
    def _number_score(view: dict, move: Move) -> tuple:
        rest = _remaining(view, move)
        top = card(move.cards[-1])
        follow = sum(1 for c in rest if not card(c).is_special and card(c).colour == top.colour)
        hardness = top.circled_sum if view["game"] in ("crazy-banana-overslag", "crazy-banana-extreme") else 0
        return (len(move.cards), follow, hardness, -move.cards[-1], -move.cards[0])

    @staticmethod
    def _special_score(view: dict, move: Move) -> tuple:
        rest = _remaining(view, move)
        wanted = _favourite_colour(rest)
        instruction = card(move.cards[0]).instruction
        threat = view["hand_counts"][view["next_player"]] <= 2
        order = ("draw_two", "skip", "reverse", None) if threat else (None, "reverse", "skip", "draw_two")
        return (move.detail == wanted or not move.detail, -order.index(instruction), -move.cards[0])


class BeginnerBot(Bot):
    """Plays the first card of the colour in force, seldom tries the maths, often forgets to call."""

    name = "beginner"
    label = N_("beginner")
    call_chance = 0.5
    knock_chance = 0.6
    maths_chance = 0.2
    special_chance = 0.6

    def choose(self, view: dict, legal: list[Move], rng: random.Random) -> Move:
        kinds = {move.kind: move for move in legal}
        if "knock" in kinds:
            return kinds["knock"] if rng.random() < self.knock_chance else kinds["no_knock"]
        if "call_one_card" in kinds and rng.random() < self.call_chance:
            return kinds["call_one_card"]
        plays = [move for move in legal if move.kind in PLAY_KINDS]
        numbers = [move for move in plays if not card(move.cards[0]).is_special]
        matches = [move for move in numbers if move.kind == "play" and card(move.cards[0]).colour == view["colour"]]
        if matches:
            return matches[0]
        maths = [move for move in numbers if move not in matches]
        if maths and rng.random() < self.maths_chance:
            return rng.choice(maths)
        specials = [move for move in plays if card(move.cards[0]).is_special]
        if specials and rng.random() < self.special_chance:
            return rng.choice(specials)
        if "draw" in kinds:
            return kinds["draw"]
        if plays and rng.random() < 0.5:
            return rng.choice(plays)
        return kinds["pass"]


# --- the games -------------------------------------------------------------------------------
SHARED_OPTIONS = (
    Option(
        "banana_has_no_power",
        N_("Harder: banana cards have no special power"),
        False,
        help=N_(
            "A banana card is then not wild: it may only be played on a banana or Kocha card, and it names no colour."
        ),
    ),
    Option(
        "play_until_one_left",
        N_("Play on until only one player has cards"),
        False,
        help=N_(
            "Off: the first player to empty the hand wins and the game ends. On: the others play on for the places."
        ),
    ),
    Option(
        "turn_limit", N_("Number of turns (0 = no limit; then the fewest cards wins)"), 0, minimum=0, maximum=TURN_CAP
    ),
    Option("time_limit_minutes", N_("Playing time in minutes (0 = no time limit)"), 0, minimum=0, maximum=180),
)


class SheddingGame(Game):
    """The rules shared by MultiMatch and the Crazy Banana family; subclasses set the variant."""

    hand_size: ClassVar[int] = 5
    draw_limit: ClassVar[int] = 3
    pair_plays: ClassVar[bool] = False
    state_class = SheddingState
    bots = {"beginner": BeginnerBot, "strong": StrongBot}
    option_specs = SHARED_OPTIONS

    def card_ids(self) -> tuple[int, ...]:
        """The cards in play: the whole deck."""
        return tuple(c.id for c in kids2().cards)

    @classmethod
    def vri_witness(cls, card_id: int, top_id: int) -> tuple | None:
        """Why the maths rule lets ``card_id`` go on ``top_id`` (both number cards), or None."""
        return None

    def allows_vri(self, card_id: int, top_id: int) -> bool:
        return (card_id, top_id) in _vri_table(type(self))


@cache
def _vri_table(game_class: type[SheddingGame]) -> frozenset[tuple[int, int]]:
    numbers = kids2().number_card_ids
    return frozenset((a, b) for a in numbers for b in numbers if a != b and game_class.vri_witness(a, b) is not None)


class MultiMatch(SheddingGame):
    """MultiMatch: colour, or a pair of cards whose top numbers multiply to a circled value."""

    id: ClassVar[str] = "multimatch"
    title: ClassVar[str] = N_("MultiMatch")
    order: ClassVar[int] = 20
    hand_size = 6
    draw_limit = 3
    pair_plays = True


class CrazyBananaOverslag(SheddingGame):
    """Crazy Banana: Overslag: vri with a higher circled sum."""

    id: ClassVar[str] = "crazy-banana-overslag"
    title: ClassVar[str] = N_("Crazy Banana: Overslag")
    order: ClassVar[int] = 30
    draw_limit = 3

    @classmethod
    def vri_witness(cls, card_id: int, top_id: int) -> tuple | None:
        mine, top = card(card_id), card(top_id)
        if overslag_vri(mine.circled, top.circled):
            return "sum_higher", (mine.circled_sum, top.circled_sum)
        return None


class CrazyBananaTiervenner(SheddingGame):
    """Crazy Banana: Tiervenner: vri with the tens-friend of the top number."""

    id: ClassVar[str] = "crazy-banana-tiervenner"
    title: ClassVar[str] = N_("Crazy Banana: Tiervenner")
    order: ClassVar[int] = 40
    draw_limit = 2

    @classmethod
    def vri_witness(cls, card_id: int, top_id: int) -> tuple | None:
        mine, top = card(card_id), card(top_id)
        if tens_friends(mine.top, top.top):
            return "tens_friend", (mine.top, top.top)
        return None


class CrazyBananaExtreme(SheddingGame):
    """Crazy Banana: Extreme: vri with two values beating the whole top card, or a prime above its mean."""

    id: ClassVar[str] = "crazy-banana-extreme"
    title: ClassVar[str] = N_("Crazy Banana: Extreme")
    order: ClassVar[int] = 50
    draw_limit = 3

    @classmethod
    def vri_witness(cls, card_id: int, top_id: int) -> tuple | None:
        return extreme_witness(card(card_id).circled, card(top_id).circled)
