"""29 ("Bygg tre högar", source 001, Swedish; 2 players, 52 cards and two jokers).

Each player builds three piles of their own and tries to bring each one to exactly 29.
The 54 cards are shuffled; each player gets five cards in the **hand**, and the rest lie
face down between the players as the shared **draw pile**. Seat 0 begins. Suits do not
matter.

A turn: the player draws one card, then plays **one card** from the hand. An **ace**
lets a player play one more card: the ace and that card go down together, in their own
turn or, "the ace up the sleeve", in the other player's. Face cards waiting on the
player's own **bench** may be played in any number during their own turn and do not count
as the played card. A player who plays nothing at all draws one more card instead, and
the turn ends. Otherwise the turn ends when the player says so (``end``), or by itself
when they have played their card and have nothing more they could play.

- A **number card** (2 to 10) counts its value. It goes only on one's own piles, beside
  the number cards already there.
- A **King** or a **Queen** goes on any number card on the table (one's own or the other
  player's), or onto one's own bench to wait. A King adds the value of the card it lies
  on (that card counts twice), a Queen takes it away; face cards stack (two Kings on an 8
  add 16).
- A **Jack** goes on one of one's own piles (an empty one too), or onto the bench. It
  protects the pile: the other player may put no King or Queen on its number cards.
- A **Joker** takes one card off any pile not yet won (a number card with the face cards
  on it, a face card, a Jack): both go face down out of play.

A pile's value is the sum of its number cards, plus each King's card, minus each Queen's.
A pile that reaches **exactly 29** is won at once by the player who built it, whoever's
card brought it there: it is turned face down and no card may touch it. At the end of
every turn each pile **over 29** is thrown away face down with all its cards, and its
place starts again empty. A player with three won piles wins at once. When a player must
draw and the draw pile is empty, the game ends: most won piles wins, then the larger sum
of the piles not yet won; still equal is a draw.

Examples (the source): 1a, a pile of 10, 8 and 2 is worth 20. 1b, the player lays a 7:
27; the other player answers with an ace and a King on the 10: 37, which would be thrown
away at the end of the turn. 1c, the player puts a Queen from the bench on the 8: 29,
and the pile is won.

Decisions (shared/games.md, and where the source is silent):

- The ace up the sleeve is a **reaction window** (phase ``react``): after every play of
  the player whose turn it is, the other player may answer with an ace and one card, or
  let it go (``let_go``). A reaction is a play like any other: the reactor may play ace
  after ace, and the window closes when they let it go or have no reaction left; then the
  player whose turn it is goes on, and their own turn is their answer. A window opens only
  for a player who holds an ace and a card it can carry to a place the rules allow, so a
  player without an ace is never stopped.
- A used ace goes face down out of play; the card it carried is played as usual. An ace
  never counts as a value, is never played alone and never carries another ace.
- A play that would take a pile below 0 is refused.
- The bench lies face up: it is the source's zone 1 of the table, where face cards lie
  face up. The Joker is not a face card and cannot wait on the bench.
- The draw at the start of a turn is part of the turn, not a move: the shuffle fixed the
  order of the draw pile. Playing nothing draws the extra card only if there is one.
- No turn cap is needed: every turn takes a card from the draw pile, so a game lasts at
  most 44 turns.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

from tutor.engine.core import CHANCE, TERMINAL, Bot, Game, InvalidState, Move, State, stored_int
from tutor.standard_deck import ACE, JACK, KING, QUEEN, card, deck, rank
from tutor.text import N_

#: The exact value every pile is built up to.
GOAL = 29
#: Piles per player.
PILES = 3
#: Cards dealt to each player.
HAND_SIZE = 5
DECK = "jokers"
#: Move kinds: the turn's one card, an ace with the card it carries, a face card from the
#: bench, playing nothing (one more card is drawn), ending the turn, and a window let go.
PLAY, ACE_PLAY, FROM_BENCH, PASS, END, LET_GO = "play", "ace", "from_bench", "pass", "end", "let_go"
PHASES = ("deal", "play", "react", "over")
END_REASONS = ("", "three_piles", "draw_pile")
#: A place as a move's detail: one's bench, a pile ("pile:owner:index"), a number card a King
#: or Queen goes on ("on:card"), the card a Joker takes off a pile ("take:card").
BENCH = "bench"


def pile_place(owner: int, index: int) -> str:
    return f"pile:{owner}:{index}"


def on_place(card_id: int) -> str:
    return f"on:{card_id}"


def take_place(card_id: int) -> str:
    return f"take:{card_id}"


def parse_place(detail: str) -> tuple | None:
    """A move's place as ("bench",), ("pile", owner, index), ("on", card) or ("take", card); None if not one
    (nor a place written another way, "pile:00:1": a move has one spelling)."""
    if detail == BENCH:
        return (BENCH,)
    kind, _, rest = detail.partition(":")
    try:
        numbers = tuple(int(part) for part in rest.split(":"))
    except ValueError:
        return None
    if kind == "pile" and len(numbers) == 2 and 0 <= numbers[1] < PILES:
        place = ("pile", *numbers)
    elif kind in ("on", "take") and len(numbers) == 1:
        place = (kind, numbers[0])
    else:
        return None
    return place if ":".join(map(str, place)) == detail else None


def is_number(card_id: int) -> bool:
    return 2 <= rank(card_id) <= 10


def is_ace(card_id: int) -> bool:
    return rank(card_id) == ACE


def is_joker(card_id: int) -> bool:
    return card(card_id).is_joker


def is_face(card_id: int) -> bool:
    return rank(card_id) in (JACK, QUEEN, KING)


def empty_pile() -> dict:
    """A pile as stored: its number cards, each with the face cards on it and who played them; its Jacks; and,
    once won, how many cards were turned face down (0 while it is built)."""
    return {"cards": [], "jacks": [], "won": 0}


def entry_value(entry: dict) -> int:
    """What one number card counts with the face cards on it: a King adds its value once more, a Queen takes it away."""
    faces = [rank(face["card"]) for face in entry["faces"]]
    return rank(entry["card"]) * (1 + faces.count(KING) - faces.count(QUEEN))


def pile_value(pile: dict) -> int:
    return sum(entry_value(entry) for entry in pile["cards"])


def pile_cards(pile: dict) -> list[int]:
    """Every card lying in a pile: number cards, the face cards on them, Jacks."""
    return [c for entry in pile["cards"] for c in [entry["card"], *(face["card"] for face in entry["faces"])]] + list(
        pile["jacks"]
    )


@dataclass(frozen=True)
class Spot:
    """Where a card lies on a pile: whose pile, which one, the number card's place in it, and what the card is."""

    owner: int
    pile: int
    entry: int  # the number card's index in the pile (-1 for a Jack)
    kind: str  # "number", "face" (a King or Queen on a number card) or "jack"


def locate(piles: list[list[dict]], card_id: int) -> Spot | None:
    """Where ``card_id`` lies on the piles, or None."""
    for owner, row in enumerate(piles):
        for index, pile in enumerate(row):
            for position, entry in enumerate(pile["cards"]):
                if entry["card"] == card_id:
                    return Spot(owner, index, position, "number")
                if any(face["card"] == card_id for face in entry["faces"]):
                    return Spot(owner, index, position, "face")
            if card_id in pile["jacks"]:
                return Spot(owner, index, -1, "jack")
    return None


@dataclass(frozen=True)
class Effect:
    """What a card does to a pile: whose pile, which one, its value before and after; ``target`` is the
    number card a King or Queen goes on, or the card a Joker takes away."""

    owner: int
    pile: int
    before: int
    after: int
    target: int | None = None


def effect_of(piles: list[list[dict]], player: int, card_id: int, place: tuple) -> Effect | None:
    """What ``card_id`` played by ``player`` to ``place`` does to a pile, or None for the bench or a place
    that is not there (whether the rules allow it is :meth:`TwentyNineState.place_refusal`'s question)."""
    if place[0] == "pile":
        owner, index = place[1], place[2]
        if owner not in range(len(piles)):
            return None
        before = pile_value(piles[owner][index])
        return Effect(owner, index, before, before + (rank(card_id) if is_number(card_id) else 0))
    if place[0] not in ("on", "take"):
        return None
    spot = locate(piles, place[1])
    if spot is None:
        return None
    pile = piles[spot.owner][spot.pile]
    before = pile_value(pile)
    if place[0] == "on":
        change = rank(place[1]) if spot.kind == "number" else 0
        return Effect(spot.owner, spot.pile, before, before + (change if rank(card_id) == KING else -change), place[1])
    if spot.kind == "number":
        lost = entry_value(pile["cards"][spot.entry])
    elif spot.kind == "face":
        number = pile["cards"][spot.entry]["card"]
        lost = rank(number) if rank(place[1]) == KING else -rank(number)
    else:
        lost = 0
    return Effect(spot.owner, spot.pile, before, before - lost, place[1])


def _cards(value, what: str) -> list[int]:
    if not isinstance(value, list):
        raise TypeError(f"{what} is not a list")
    return [stored_int(card_id) for card_id in value]


def _flag(value, what: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{what} is not true or false")
    return value


def _stored_pile(value) -> dict:
    if not isinstance(value, dict) or set(value) != {"cards", "jacks", "won"} or not isinstance(value["cards"], list):
        raise TypeError("a pile is not a record of cards, jacks and won")
    entries = []
    for entry in value["cards"]:
        if not isinstance(entry, dict) or set(entry) != {"card", "faces"} or not isinstance(entry["faces"], list):
            raise TypeError("a number card in a pile is not a record")
        faces = []
        for face in entry["faces"]:
            if not isinstance(face, dict) or set(face) != {"card", "by"}:
                raise TypeError("a face card in a pile is not a record")
            faces.append({"card": stored_int(face["card"]), "by": stored_int(face["by"])})
        entries.append({"card": stored_int(entry["card"]), "faces": faces})
    return {"cards": entries, "jacks": _cards(value["jacks"], "a pile's jacks"), "won": stored_int(value["won"])}


class TwentyNineState(State):
    """Hands, the draw pile, benches, three piles a player, won piles, the discard, and whose turn it is."""

    game: TwentyNine

    def __init__(self, game: TwentyNine) -> None:
        super().__init__(game)
        seats = range(game.players)
        self.hands: list[list[int]] = [[] for _ in seats]  # kept sorted
        self.draw_pile: list[int] = []  # face down; the top card is the last
        self.benches: list[list[int]] = [[] for _ in seats]  # face up, in the order laid
        self.piles: list[list[dict]] = [[empty_pile() for _ in range(PILES)] for _ in seats]
        self.won: list[list[int]] = [[] for _ in seats]  # the cards of each player's won piles, face down
        self.discard: list[int] = []  # face down: thrown-away piles, used aces, jokers and what they took
        self.phase = "deal"
        self.turn = 0  # whose turn it is (in a reaction window the other player moves)
        self.turns = 0  # turns ended
        self.played = False  # the turn's one card from the hand is played
        self.acted = False  # anything at all was played this turn
        self.drawn = 0  # cards drawn from the draw pile since the deal
        self.plies = 0  # moves applied, the shuffle too: an event's ``ply`` is the move that made it
        self.ended_by = ""
        #: What happened in the last turns, for the lesson's story: one record per play, draw, end and
        #: thrown-away pile, each with the move (``ply``) and turn that made it.
        self.events: list[dict] = []

    # --- the engine API --------------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if self.phase == "deal":
            return CHANCE
        return self.reactor if self.phase == "react" else self.turn

    @property
    def reactor(self) -> int:
        """The player who may answer out of turn: the one whose turn it is not."""
        return 1 - self.turn

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def won_piles(self, player: int) -> int:
        return sum(1 for pile in self.piles[player] if pile["won"])

    def open_sum(self, player: int) -> int:
        """The sum of the player's piles not yet won: the tie-break at the end."""
        return sum(pile_value(pile) for pile in self.piles[player] if not pile["won"])

    def winners(self) -> list[int]:
        if not self.is_over:
            return []
        seats = range(self.game.players)
        best = max((self.won_piles(p), self.open_sum(p)) for p in seats)
        return [p for p in seats if (self.won_piles(p), self.open_sum(p)) == best]

    def legal_moves(self) -> list[Move]:
        if self.phase not in ("play", "react"):
            return []
        player = self.current_player
        hand = self.hands[player]
        carried = [c for c in hand if not is_ace(c)]
        moves = []
        if self.phase == "play":
            if not self.played:
                moves += [Move(PLAY, player, (c,), place) for c in carried for place in self.places(player, c)]
            moves += [
                Move(FROM_BENCH, player, (c,), place)
                for c in self.benches[player]
                for place in self.places(player, c, from_bench=True)
            ]
        moves += [
            Move(ACE_PLAY, player, (ace, c), place)
            for ace in hand
            if is_ace(ace)
            for c in carried
            for place in self.places(player, c)
        ]
        if self.phase == "react":
            moves.append(Move(LET_GO, player))
        else:
            moves.append(Move(END if self.acted else PASS, player))
        return moves

    def is_legal(self, move: Move) -> bool:
        """The same answer as ``move in legal_moves()``, worked out from the move (:meth:`refusal`)."""
        if self.is_over:
            return False
        if move.player == CHANCE:
            return self.is_legal_chance(move)
        return not self.is_chance and self.refusal(move) is None

    def chance_move(self, rng: random.Random) -> Move:
        if self.phase != "deal":
            raise InvalidState("no chance event is pending")
        order = list(self.game.card_ids())
        rng.shuffle(order)
        return Move("shuffle", CHANCE, tuple(order))

    def is_legal_chance(self, move: Move) -> bool:
        return move.kind == "shuffle" and self.phase == "deal" and sorted(move.cards) == sorted(self.game.card_ids())

    # --- what the rules allow ------------------------------------------------------------------------------
    def places(self, player: int, card_id: int, from_bench: bool = False) -> list[str]:
        """Every place the rules let ``player`` play ``card_id`` to now, in a stable order."""
        if is_number(card_id) or rank(card_id) == JACK:
            candidates = [pile_place(player, index) for index in range(PILES)]
        elif is_joker(card_id):
            candidates = [take_place(c) for row in self.piles for pile in row for c in pile_cards(pile)]
        else:
            candidates = [on_place(entry["card"]) for row in self.piles for pile in row for entry in pile["cards"]]
        if is_face(card_id) and not from_bench:
            candidates.append(BENCH)
        return [place for place in candidates if self.place_refusal(player, card_id, place, from_bench) is None]

    def place_refusal(self, player: int, card_id: int, detail: str, from_bench: bool = False) -> str | None:
        """Why the rules refuse ``card_id`` from ``player`` at the place ``detail`` (a reason code), or None."""
        place = parse_place(detail)
        if place is None or place[0] == "pile" and place[1] not in range(self.game.players):
            return "no_such_place"
        if place[0] == BENCH:
            if is_joker(card_id):
                return "joker_to_bench"
            if not is_face(card_id):
                return "number_to_bench"
            return "already_on_bench" if from_bench else None
        if is_number(card_id) or rank(card_id) == JACK:
            if place[0] != "pile":
                return "needs_a_pile" if is_number(card_id) else "jack_needs_a_pile"
            if place[1] != player:
                return "not_your_pile" if is_number(card_id) else "jack_not_your_pile"
            return "pile_won" if self.piles[player][place[2]]["won"] else None
        if place[0] == "pile":
            return "joker_takes_a_card" if is_joker(card_id) else "face_needs_a_number_card"
        spot = locate(self.piles, place[1])
        if spot is None:
            return "no_such_place"
        if is_joker(card_id):
            if place[0] != "take":
                return "joker_takes_a_card"
        elif place[0] != "on" or spot.kind != "number":
            return "face_needs_a_number_card"
        elif spot.owner != player and self.piles[spot.owner][spot.pile]["jacks"]:
            return "protected"
        change = effect_of(self.piles, player, card_id, place)
        return "below_zero" if change.after < 0 else None

    def refusal(self, move: Move) -> str | None:
        """Why the rules refuse ``move`` now (a reason code the lesson explains), or None when it is legal."""
        if self.phase not in ("play", "react"):
            return "not_now"
        if move.player != self.current_player:
            return "not_your_turn"
        player, cards, react = move.player, move.cards, self.phase == "react"
        hand = self.hands[player]
        if move.kind == LET_GO:
            return None if react and not cards and not move.detail else "not_a_move"
        if move.kind in (PASS, END):
            if cards or move.detail:
                return "not_a_move"
            if react:
                return "answer_or_let_go"
            if move.kind == PASS:
                return "played_already" if self.acted else None
            return None if self.acted else "nothing_played"
        if move.kind == PLAY:
            if len(cards) != 1 or cards[0] not in hand:
                return "not_in_hand"
            if react:
                return "needs_an_ace"
            if is_ace(cards[0]):
                return "ace_alone"
            if self.played:
                return "played_already"
            return self.place_refusal(player, cards[0], move.detail)
        if move.kind == ACE_PLAY:
            if len(cards) != 2 or not set(cards) <= set(hand) or cards[0] == cards[1]:
                return "not_in_hand"
            if not is_ace(cards[0]):
                return "not_an_ace"
            if is_ace(cards[1]):
                return "ace_carries_ace"
            return self.place_refusal(player, cards[1], move.detail)
        if move.kind == FROM_BENCH:
            if len(cards) != 1 or cards[0] not in self.benches[player]:
                return "not_on_bench"
            if react:
                return "bench_in_window"
            return self.place_refusal(player, cards[0], move.detail, from_bench=True)
        return "not_a_move"

    def can_react(self, player: int) -> bool:
        """Whether ``player`` holds an ace and a card it can carry to a place the rules allow."""
        hand = self.hands[player]
        return any(is_ace(c) for c in hand) and any(not is_ace(c) and self.places(player, c) for c in hand)

    def can_play_more(self) -> bool:
        """Whether the player whose turn it is could still play something: their card, a bench card, an ace."""
        player = self.turn
        hand = self.hands[player]
        if not self.played and any(not is_ace(c) and self.places(player, c) for c in hand):
            return True
        return any(self.places(player, c, from_bench=True) for c in self.benches[player]) or self.can_react(player)

    # --- the rules -------------------------------------------------------------------------------------------
    def _apply(self, move: Move) -> None:
        ply = self.plies
        self.plies += 1
        if move.kind == "shuffle":
            self._deal(list(move.cards), ply)
        elif move.kind == LET_GO:
            self._event(ply, "let_go", player=move.player)
            self.phase = "play"
            self._maybe_end_by_itself(ply)
        elif move.kind == PASS:
            drawn = self._draw(move.player)
            self._event(ply, "pass", player=move.player, card=drawn)
            self._end_turn(ply)
        elif move.kind == END:
            self._event(ply, "end", player=move.player)
            self._end_turn(ply)
        else:
            self._play(move, ply)

    def _event(self, ply: int, kind: str, **fields) -> None:
        self.events.append({"ply": ply, "turn": self.turns, "kind": kind, **fields})

    def _deal(self, order: list[int], ply: int) -> None:
        players = self.game.players
        self.hands = [sorted(order[seat * HAND_SIZE : (seat + 1) * HAND_SIZE]) for seat in range(players)]
        self.draw_pile = order[players * HAND_SIZE :]
        self._start_turn(0, ply)

    def _draw(self, player: int) -> int | None:
        if not self.draw_pile:
            return None
        drawn = self.draw_pile.pop()
        self.hands[player] = sorted([*self.hands[player], drawn])
        self.drawn += 1
        return drawn

    def _start_turn(self, player: int, ply: int) -> None:
        self.events = [event for event in self.events if event["turn"] >= self.turns - 2]
        self.turn, self.played, self.acted = player, False, False
        if not self.draw_pile:
            self._end("draw_pile", ply)
            return
        self.phase = "play"
        self._event(ply, "draw", player=player, card=self._draw(player))

    def _end(self, reason: str, ply: int) -> None:
        self.phase, self.ended_by = "over", reason
        self._event(ply, "over", ended_by=reason)

    def _play(self, move: Move, ply: int) -> None:
        """A card from the hand (with its ace) or the bench goes to its place; then a window, or the turn goes on."""
        player = move.player
        ace = move.cards[0] if move.kind == ACE_PLAY else None
        card_id = move.cards[-1]
        if move.kind == FROM_BENCH:
            self.benches[player].remove(card_id)
        else:
            self.hands[player].remove(card_id)
        if ace is not None:
            self.hands[player].remove(ace)
            self.discard.append(ace)
        if player == self.turn:
            self.acted = True
            self.played = self.played or move.kind == PLAY
        played = {"player": player, "card": card_id, "ace": ace, "place": move.detail}
        place = parse_place(move.detail)
        if place[0] == BENCH:
            self.benches[player].append(card_id)
            self._event(ply, move.kind, **played)
        else:
            self._place(move.kind, played, place, ply)
        if self.is_over:
            return
        if player == self.turn and self.can_react(self.reactor):
            self.phase = "react"
        elif player != self.turn and self.can_react(player):
            self.phase = "react"
        else:
            self.phase = "play"
            self._maybe_end_by_itself(ply)

    def _place(self, kind: str, played: dict, place: tuple, ply: int) -> None:
        """The card goes on a pile, on a number card, or (a Joker) takes a card away; a pile at 29 is won."""
        player, card_id = played["player"], played["card"]
        change = effect_of(self.piles, player, card_id, place)
        pile = self.piles[change.owner][change.pile]
        taken: list[int] = []
        if place[0] == "pile" and is_number(card_id):
            pile["cards"].append({"card": card_id, "faces": []})
        elif place[0] == "pile":
            pile["jacks"].append(card_id)
        elif place[0] == "on":
            pile["cards"][locate(self.piles, change.target).entry]["faces"].append({"card": card_id, "by": player})
        else:
            taken = self._take(pile, change.target)
            self.discard += [card_id, *taken]
        won = pile_value(pile) == GOAL
        self._event(
            ply,
            kind,
            **played,
            owner=change.owner,
            pile=change.pile,
            before=change.before,
            after=change.after,
            target=change.target,
            taken=taken,
            won=won,
        )
        if won:
            self._win(change.owner, change.pile, ply)

    def _take(self, pile: dict, target: int) -> list[int]:
        """A Joker takes ``target`` off ``pile``: a number card takes the face cards on it along."""
        if target in pile["jacks"]:
            pile["jacks"].remove(target)
            return [target]
        for position, entry in enumerate(pile["cards"]):
            if entry["card"] == target:
                del pile["cards"][position]
                return [target, *(face["card"] for face in entry["faces"])]
            for face in entry["faces"]:
                if face["card"] == target:
                    entry["faces"].remove(face)
                    return [target]
        raise InvalidState(f"card {target} is not in the pile")

    def _win(self, owner: int, index: int, ply: int) -> None:
        """The pile is exactly 29: turned face down, won by its owner; three won piles win the game."""
        pile = self.piles[owner][index]
        cards = pile_cards(pile)
        self.won[owner] += cards
        self.piles[owner][index] = {"cards": [], "jacks": [], "won": len(cards)}
        if self.won_piles(owner) == PILES:
            self._end("three_piles", ply)

    def _maybe_end_by_itself(self, ply: int) -> None:
        """A turn ends by itself once the player has played and has nothing more they could play."""
        if self.acted and not self.can_play_more():
            self._event(ply, "end", player=self.turn, by_itself=True)
            self._end_turn(ply)

    def _end_turn(self, ply: int) -> None:
        """Every pile over 29 is thrown away with all its cards; then the other player's turn."""
        for owner, row in enumerate(self.piles):
            for index, pile in enumerate(row):
                value = pile_value(pile)
                if not pile["won"] and value > GOAL:
                    cards = pile_cards(pile)
                    self.discard += cards
                    row[index] = empty_pile()
                    self._event(ply, "bust", owner=owner, pile=index, value=value, cards=len(cards))
        self.turns += 1
        self._start_turn(1 - self.turn, ply)

    # --- views and storage -----------------------------------------------------------------------------------
    def values(self) -> list[list[int | None]]:
        """Each pile's value, None for a won pile."""
        return [[None if pile["won"] else pile_value(pile) for pile in row] for row in self.piles]

    def player_view(self, player: int) -> dict:
        seats = range(self.game.players)
        return {
            "game": self.game.id,
            "you": player,
            "players": self.game.players,
            "phase": self.phase,
            "turn": self.turn,
            "turns": self.turns,
            "to_move": self.current_player if self.phase in ("play", "react") else None,
            "played": self.played,
            "acted": self.acted,
            "hand": list(self.hands[player]),
            "hand_counts": [len(hand) for hand in self.hands],
            "draw_count": len(self.draw_pile),
            "discard_count": len(self.discard),
            "benches": [list(bench) for bench in self.benches],
            "piles": [[_copied_pile(pile) for pile in row] for row in self.piles],
            "values": self.values(),
            "won_piles": [self.won_piles(p) for p in seats],
            "events": [_seen_by(event, player) for event in self.events],
            "ended_by": self.ended_by,
            "winners": self.winners(),
        }

    def card_ids(self) -> list[int]:
        on_piles = [c for row in self.piles for pile in row for c in pile_cards(pile)]
        zones = [*self.hands, self.draw_pile, *self.benches, *self.won, self.discard, on_piles]
        return [card_id for zone in zones for card_id in zone]

    def summary(self) -> dict:
        return {
            "turns": self.turns,
            "ended_by": self.ended_by,
            "won_piles": {str(p): self.won_piles(p) for p in range(self.game.players)},
            "open_sums": {str(p): self.open_sum(p) for p in range(self.game.players)},
        }

    def to_dict(self) -> dict:
        return {
            "hands": [list(hand) for hand in self.hands],
            "draw_pile": list(self.draw_pile),
            "benches": [list(bench) for bench in self.benches],
            "piles": [[_copied_pile(pile) for pile in row] for row in self.piles],
            "won": [list(cards) for cards in self.won],
            "discard": list(self.discard),
            "phase": self.phase,
            "turn": self.turn,
            "turns": self.turns,
            "played": self.played,
            "acted": self.acted,
            "drawn": self.drawn,
            "plies": self.plies,
            "ended_by": self.ended_by,
            "events": [_copied_event(event) for event in self.events],
        }

    @classmethod
    def from_dict(cls, game: TwentyNine, data: dict) -> TwentyNineState:
        state = cls(game)
        try:
            state.hands = [_cards(hand, "a hand") for hand in data["hands"]]
            state.draw_pile = _cards(data["draw_pile"], "the draw pile")
            state.benches = [_cards(bench, "a bench") for bench in data["benches"]]
            state.piles = [[_stored_pile(pile) for pile in row] for row in data["piles"]]
            state.won = [_cards(cards, "the won piles") for cards in data["won"]]
            state.discard = _cards(data["discard"], "the discard")
            state.phase = str(data["phase"])
            state.turn = stored_int(data["turn"])
            state.turns = stored_int(data["turns"])
            state.played = _flag(data["played"], "played")
            state.acted = _flag(data["acted"], "acted")
            state.drawn = stored_int(data["drawn"])
            state.plies = stored_int(data["plies"])
            state.ended_by = str(data["ended_by"])
            state.events = data["events"]
            if not isinstance(state.events, list) or not all(
                isinstance(event, dict) and isinstance(event.get("ply"), int) and isinstance(event.get("turn"), int)
                for event in state.events
            ):
                raise TypeError("events are not records")
            state.events = [_copied_event(event) for event in state.events]
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise InvalidState(f"twenty-nine: malformed state ({error})") from error
        state.validate()
        return state

    def validate(self) -> None:
        """Raise :class:`InvalidState` unless this position can occur in a real game."""
        self.check_in_stages(self._shape_problems, self._card_problems, self._turn_problems)

    def _shape_problems(self) -> list[str]:
        players = self.game.players
        problems = []
        if not (len(self.hands) == len(self.benches) == len(self.won) == len(self.piles) == players):
            problems.append("wrong number of hands, benches or piles")
        if any(len(row) != PILES for row in self.piles):
            problems.append("a player without three piles")
        if (
            self.phase not in PHASES
            or self.ended_by not in END_REASONS
            or (self.phase == "over") != bool(self.ended_by)
        ):
            problems.append("unknown phase or end reason")
        if self.turn not in range(players):
            problems.append("the turn of a player who has no seat")
        if min(self.turns, self.drawn, self.plies) < 0:
            problems.append("a negative count")
        faces = [face for row in self.piles for pile in row for entry in pile["cards"] for face in entry["faces"]]
        if any(face["by"] not in range(players) for face in faces):
            problems.append("a face card played by a player who has no seat")
        return problems

    def _card_problems(self) -> list[str]:
        ids = self.card_ids()
        if self.phase == "deal":
            return ["cards dealt before the shuffle"] if ids or self.drawn or self.plies else []
        problems = []
        if len(ids) != len(set(ids)) or sorted(ids) != sorted(self.game.card_ids()):
            return ["cards lost or duplicated"]
        if len(self.draw_pile) != len(self.game.card_ids()) - HAND_SIZE * self.game.players - self.drawn:
            problems.append("the draw pile does not match the cards drawn")
        if any(hand != sorted(hand) for hand in self.hands):
            problems.append("a hand out of order")
        if any(not is_face(c) for bench in self.benches for c in bench):
            problems.append("a card on a bench that is not a face card")
        for row in self.piles:
            for pile in row:
                if pile["won"] and (pile["cards"] or pile["jacks"]):
                    problems.append("cards on a won pile")
                if any(not is_number(entry["card"]) for entry in pile["cards"]):
                    problems.append("a pile card that is not a number card")
                if any(rank(face["card"]) not in (KING, QUEEN) for entry in pile["cards"] for face in entry["faces"]):
                    problems.append("a card on a number card that is not a King or a Queen")
                if any(rank(jack) != JACK for jack in pile["jacks"]):
                    problems.append("a card on a pile that is not a Jack")
                value = pile_value(pile)
                if value < 0 or not pile["won"] and value == GOAL:
                    problems.append("a pile below 0, or at 29 and not won")
        if any(sum(pile["won"] for pile in row) != len(cards) for row, cards in zip(self.piles, self.won)):
            problems.append("won cards that no won pile holds")
        return problems

    def _turn_problems(self) -> list[str]:
        if self.phase == "deal":
            return []
        problems = []
        complete = [p for p in range(self.game.players) if self.won_piles(p) == PILES]
        if complete and self.ended_by != "three_piles" or self.ended_by == "three_piles" and len(complete) != 1:
            problems.append("three won piles and the game not over, or over without them")
        if self.played and not self.acted:
            problems.append("a card played with nothing played")
        if self.phase == "react" and not any(is_ace(c) for c in self.hands[self.reactor]):
            problems.append("a reaction window for a player without an ace")
        # every turn begins with a card drawn, and playing nothing draws one more
        drawn_at_least = self.turns + (self.phase != "over")
        if not drawn_at_least <= self.drawn <= 2 * self.turns + 1:
            problems.append("more or fewer cards drawn than the turns explain")
        return problems


def _copied_pile(pile: dict) -> dict:
    return {
        "cards": [{"card": e["card"], "faces": [dict(face) for face in e["faces"]]} for e in pile["cards"]],
        "jacks": list(pile["jacks"]),
        "won": pile["won"],
    }


def _seen_by(event: dict, player: int) -> dict:
    """An event as ``player`` may see it: a card drawn by the other player stays face down."""
    if event["kind"] in ("draw", "pass") and event["player"] != player:
        return {key: value for key, value in event.items() if key != "card"}
    return _copied_event(event)


def _copied_event(event: dict) -> dict:
    return dict(event, taken=list(event["taken"])) if "taken" in event else dict(event)


# --- computer players ------------------------------------------------------------------------------------------


def pile_state(view: dict, owner: int, index: int) -> dict:
    return view["piles"][owner][index]


def building_worth(value: int) -> float:
    """How far a pile of one's own below 29 has come: higher is better, but 28 waits for a card worth 1."""
    return value / 2 - (8.0 if GOAL - value == 1 else 0.0)


def score_effect(player: int, change: Effect) -> float:
    """How good a change to a pile is for ``player``: winning a pile of one's own best, giving one away worst."""
    mine = change.owner == player
    if change.after == GOAL:
        return 100.0 if mine else -100.0
    if change.before > GOAL:  # the pile is thrown away at the end of this turn unless brought back
        if change.after > GOAL:
            return -5.0
        return 80.0 + change.after / 10 if mine else -50.0
    if change.after > GOAL:
        return -100.0 if mine else 40.0 + change.before
    if mine:
        if change.after < change.before:
            return -10.0
        return 10.0 + building_worth(change.after) if change.after > change.before else -2.0
    return (change.before - change.after) / 2 if change.after < change.before else -10.0


#: What an ace costs the strong player: it carries a card only for a pile won, saved or pushed over 29.
ACE_COST = 60.0
#: What the strong player holds back a bench card for: a play worth less keeps it waiting.
BENCH_WORTH = 50.0
#: What a face card waiting on the bench is worth to the strong player: Queens rescue, Kings throw piles away.
BENCH_SCORES = {QUEEN: 15.0, KING: 12.0, JACK: 1.0}


def move_score(view: dict, move: Move) -> float:
    """The strong player's score of a play (see :class:`StrongBot`)."""
    player, card_id = move.player, move.cards[-1]
    place = parse_place(move.detail)
    if place[0] == BENCH:
        score = BENCH_SCORES[rank(card_id)]
        return score - ACE_COST if move.kind == ACE_PLAY else score
    change = effect_of(view["piles"], player, card_id, place)
    if rank(card_id) == JACK:
        score = 8.0 if change.before >= 15 and not view["piles"][player][change.pile]["jacks"] else -2.0
    else:
        score = score_effect(player, change)
    if rank(card_id) in (KING, QUEEN) and change.owner == player and score < BENCH_WORTH:
        score -= 10.0  # a King or Queen that neither wins nor saves a pile is worth more on the bench
    if is_joker(card_id) and change.owner != player and 0 < score < 40:
        score += 5.0 if change.before >= 18 else -10.0
    if move.kind == FROM_BENCH and score < BENCH_WORTH:
        score -= BENCH_WORTH
    if move.kind == ACE_PLAY:
        score -= ACE_COST
    return score


class BeginnerBot(Bot):
    """Plays one card a turn at random where it does not throw its own pile away nor give a pile to the other
    player; a face card as often goes to the bench. Never uses the bench or an ace, never answers out of turn."""

    name = "beginner"
    label = N_("beginner")

    def choose(self, view: dict, legal: list[Move], rng: random.Random) -> Move:
        plays = [move for move in legal if move.kind == PLAY]
        safe = []
        for move in plays:
            place = parse_place(move.detail)
            change = effect_of(view["piles"], move.player, move.cards[0], place)
            if (
                change is None
                or (change.owner == move.player and change.after <= GOAL)
                or (change.owner != move.player and change.after != GOAL)
            ):
                safe.append(move)
        if safe:
            return rng.choice(safe)
        return next(move for move in legal if move.kind in (PASS, END, LET_GO))


class StrongBot(Bot):
    """Scores every play by what it does to the piles and plays the best, then ends its turn.

    A pile of its own made exactly 29 scores highest, then a pile of its own brought back
    from over 29 (a Queen from the bench, or out of turn with an ace), then a pile of the
    other player's pushed over 29 (a King, which the other player may still answer), then
    building: the higher a pile below 29 the better, but not to 28 (no single card adds 1).
    Kings and Queens wait on the bench unless they win, save or throw away a pile; a bench
    card or an ace is spent only on such a play. With no play worth making it plays nothing
    and draws a card. Out of turn it answers only for a pile won or saved, or to push a pile
    of 20 or more over 29. Against the beginner it wins 94% of 200 seeded games in either
    seat (``bench/simulate_games.py`` prints the games' figures).
    """

    name = "strong"
    label = N_("strong")

    def choose(self, view: dict, legal: list[Move], rng: random.Random) -> Move:
        plays = [move for move in legal if move.kind in (PLAY, ACE_PLAY, FROM_BENCH)]
        finish = next(move for move in legal if move.kind in (PASS, END, LET_GO))
        if not plays:
            return finish
        best, index = max((move_score(view, move), -index) for index, move in enumerate(plays))
        chosen = plays[-index]
        return chosen if best > 0 or chosen.kind != PLAY and best >= 0 else finish


class TwentyNine(Game):
    """Rules of 29: build three piles to exactly 29."""

    id: ClassVar[str] = "twenty-nine"
    title: ClassVar[str] = N_("Twenty-nine")
    order: ClassVar[int] = 190
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    state_class = TwentyNineState
    bots = {"beginner": BeginnerBot, "strong": StrongBot}

    def card_ids(self) -> tuple[int, ...]:
        """The 52 cards and two jokers."""
        return deck(DECK)
