"""Calculation War (Kids2, age 10+, 2-4 players; four play as two teams of two).

The number cards are shuffled and split evenly between the sides (a side is one
player, or a team of two that shares its piles). Everyone draws five cards. The big
top numbers do not count: each player lays one card face down, and the card whose
four circled values have the highest sum wins every card on the table (the pot) into
its side's collection pile. The four cards left in each hand go to the owner's
collection pile and everyone draws five new cards; an empty draw pile is refilled by
shuffling the collection pile.

Equal highest sums on different sides mean **war**: the tied players lay another
card (the best card left in their hand); the higher sum wins everything on the table
*and the cards left in the losing war players' hands*. The game ends when one side holds every card,
or when the agreed number of rounds or minutes is up: then most cards wins.

Decisions (games.md):

- Special cards have no circled values and are taken out before the deal.
- In a war each tied player must lay their next-best card (the source: "Spillerne skal
  da legge ut sine nest beste kort"): the **best card left in the hand**, by circled sum.
  A player who laid their best card in the tie lays the second-best of the five, not
  the second-best of the four cards left (games.md's corrected wording). Any card of
  the highest sum will do (with sums 266, 266, 198 left either 266), and a player with
  a single card left lays it.
  ``legal_moves`` offers only those cards, so the computer players follow the rule; the
  lesson explains a refused card with the sums.

Every battle of a round is recorded (``battles``: the card each contender laid and the
players whose card had the highest sum), and ``last_round`` keeps them with the
players whose card won (``leaders``): with four players a team wins the cards, but
only the player whose card won is named and marked.
"""

from __future__ import annotations

import random
from typing import ClassVar

from tutor.deck import Card, kids2
from tutor.engine.core import CHANCE, TERMINAL, Bot, Game, InvalidState, Move, Option, stored_int
from tutor.engine.war_family import SidePilesState, card_list
from tutor.text import N_

HAND_SIZE = 5
PHASES = ("deal", "play", "reshuffle", "over")
END_REASONS = ("", "all_cards", "round_limit", "time_limit")


def card(card_id: int) -> Card:
    return kids2()[card_id]


def card_sum(card_id: int) -> int:
    return kids2()[card_id].circled_sum


def war_sum(hand: list[int]) -> int:
    """The circled sum a player must lay in a war: the best card left in the hand (the tied card is already laid)."""
    return max(card_sum(c) for c in hand)


class CalculationWarState(SidePilesState):
    """A Calculation War position: piles per side, hands and table cards per player."""

    game: CalculationWar

    def __init__(self, game: CalculationWar) -> None:
        super().__init__(game)
        players = game.players
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.played: list[list[int]] = [[] for _ in range(players)]  # this round's table, per player
        self.contenders: list[int] = []  # who is in the current battle (everyone, or the tied players in a war)
        self.waiting: list[int] = []  # contenders who have not laid their card yet
        self.refill_queue: list[int] = []
        self.battles: list[dict] = []  # this round's decided battles: the cards laid and the leaders

    # --- the engine API ---------------------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if self.phase == "play":
            return self.waiting[0]
        return CHANCE

    def side_card_count(self, side: int) -> int:
        members = self.sides[side]
        return (
            len(self.draw_piles[side])
            + len(self.collection_piles[side])
            + sum(len(self.hands[p]) + len(self.played[p]) for p in members)
        )

    def legal_moves(self) -> list[Move]:
        if self.phase != "play":
            return []
        player = self.waiting[0]
        hand = sorted(self.hands[player])
        if self.wars:
            wanted = war_sum(hand)
            hand = [card_id for card_id in hand if card_sum(card_id) == wanted]
        return [Move("play", player, (card_id,)) for card_id in hand]

    @property
    def at_round_start(self) -> bool:
        return self.phase == "play" and self.wars == 0 and not any(self.played)

    def _apply(self, move: Move) -> None:
        if move.kind == "shuffle":
            self._deal(list(move.cards))
        elif move.kind == "reshuffle":
            self.draw_piles[self.reshuffle_side] = list(move.cards)
            self.collection_piles[self.reshuffle_side] = []
            self.reshuffle_side = None
            self._refill()
        elif move.kind == "time_up":
            self._end("time_limit")
        else:
            self.hands[move.player].remove(move.cards[0])
            self.played[move.player].append(move.cards[0])
            self.waiting.remove(move.player)
            if not self.waiting:
                self._resolve()

    # --- the rules ----------------------------------------------------------------------
    def _deal(self, order: list[int]) -> None:
        share = len(order) // len(self.sides)
        for side in range(len(self.sides)):
            self.draw_piles[side] = order[side * share : (side + 1) * share]
        self.refill_queue = list(range(self.game.players))
        self._refill()

    def _refill(self) -> None:
        """Top every hand up to five, pausing for a reshuffle when a draw pile runs out."""
        while self.refill_queue:
            player = self.refill_queue[0]
            side = self.side_of(player)
            while len(self.hands[player]) < HAND_SIZE:
                if self.draw_piles[side]:
                    self.hands[player].append(self.draw_piles[side].pop())
                elif self.collection_piles[side]:
                    self.phase, self.reshuffle_side = "reshuffle", side
                    return
                else:
                    break
            self.refill_queue.pop(0)
        self._start_round()

    def _start_round(self) -> None:
        sides_with_cards = [side for side in range(len(self.sides)) if self.side_card_count(side)]
        limit = self.game.options["round_limit"]
        if len(sides_with_cards) <= 1:
            self._end("all_cards")
        elif limit and self.rounds >= limit:
            self._end("round_limit")
        else:
            self.phase = "play"
            self.wars = 0
            self.battles = []
            self.contenders = [p for p in range(self.game.players) if self.hands[p]]
            self.waiting = list(self.contenders)

    def _resolve(self) -> None:
        """Compare the cards just laid; the best sum wins, a tie across sides is a war."""
        best = max(card_sum(self.played[p][-1]) for p in self.contenders)
        leaders = [p for p in self.contenders if card_sum(self.played[p][-1]) == best]
        self.battles.append({"cards": {str(p): self.played[p][-1] for p in self.contenders}, "leaders": leaders})
        if len({self.side_of(p) for p in leaders}) == 1:
            self._collect(self.side_of(leaders[0]))
            return
        can_fight = [p for p in leaders if self.hands[p]]
        if not can_fight:
            self._collect(None)  # nobody has a card left for the war: everyone takes back their own
        elif len({self.side_of(p) for p in can_fight}) == 1:
            self._collect(self.side_of(can_fight[0]))
        else:
            self.wars += 1
            self.contenders, self.waiting = can_fight, list(can_fight)

    def _collect(self, winner: int | None) -> None:
        """Send the table to the winner and the hands to the collection piles; start the next round."""
        table = {p: list(self.played[p]) for p in range(self.game.players) if self.played[p]}
        forfeited: dict[int, list[int]] = {}
        for player in range(self.game.players):
            side = self.side_of(player)
            if winner is None:
                self.collection_piles[side].extend(self.played[player])
            else:
                self.collection_piles[winner].extend(self.played[player])
            lost_war = bool(self.wars) and winner is not None and player in self.contenders and side != winner
            if lost_war:
                forfeited[player] = list(self.hands[player])
            self.collection_piles[winner if lost_war else side].extend(self.hands[player])
            self.hands[player], self.played[player] = [], []
        self.last_round = {
            "round": self.rounds + 1,
            "table": {str(p): cards for p, cards in table.items()},
            "winner_side": winner,
            "winners": [] if winner is None else list(self.sides[winner]),
            "wars": self.wars,
            "forfeited": {str(p): cards for p, cards in forfeited.items()},
            "battles": self.battles,
            "leaders": [] if winner is None else [p for p in self.battles[-1]["leaders"] if self.side_of(p) == winner],
        }
        self.rounds += 1
        self.battles = []
        self.contenders, self.waiting = [], []
        self.refill_queue = list(range(self.game.players))
        self._refill()

    def _end(self, reason: str) -> None:
        self.phase, self.ended_by = "over", reason
        self.contenders, self.waiting = [], []

    # --- views and storage ---------------------------------------------------------------
    def hidden_table_cards(self, viewer: int) -> set[int]:
        """Cards laid face down this step by other players, not yet turned over."""
        if not self.waiting:
            return set()
        return {self.played[p][-1] for p in self.contenders if p != viewer and p not in self.waiting and self.played[p]}

    def player_view(self, player: int) -> dict:
        hidden = self.hidden_table_cards(player)
        return {
            "game": self.game.id,
            "you": player,
            "players": self.game.players,
            "sides": self.sides,
            "phase": self.phase,
            "rounds": self.rounds,
            "wars": self.wars,
            "hand": sorted(self.hands[player]),
            "hand_counts": [len(hand) for hand in self.hands],
            "table": [[None if c in hidden else c for c in cards] for cards in self.played],
            "contenders": list(self.contenders),
            "waiting": list(self.waiting),
            "battles": self.battles,
            "draw_counts": [len(pile) for pile in self.draw_piles],
            "collection_counts": [len(pile) for pile in self.collection_piles],
            "side_counts": [self.side_card_count(side) for side in range(len(self.sides))],
            "last_round": self.last_round,
            "ended_by": self.ended_by,
            "winners": self.winners(),
        }

    def card_ids(self) -> list[int]:
        zones = self.draw_piles + self.collection_piles + self.hands + self.played
        return [card_id for zone in zones for card_id in zone]

    def to_dict(self) -> dict:
        return {
            "phase": self.phase,
            "rounds": self.rounds,
            "wars": self.wars,
            "ended_by": self.ended_by,
            "draw_piles": [list(p) for p in self.draw_piles],
            "collection_piles": [list(p) for p in self.collection_piles],
            "hands": [list(h) for h in self.hands],
            "played": [list(p) for p in self.played],
            "contenders": list(self.contenders),
            "waiting": list(self.waiting),
            "refill_queue": list(self.refill_queue),
            "reshuffle_side": self.reshuffle_side,
            "last_round": self.last_round,
            "battles": self.battles,
        }

    @classmethod
    def from_dict(cls, game: CalculationWar, data: dict) -> CalculationWarState:
        state = cls(game)
        try:
            state.phase = data["phase"]
            state.rounds = stored_int(data["rounds"])
            state.wars = stored_int(data["wars"])
            state.ended_by = data["ended_by"]
            state.draw_piles = [card_list(p, "a draw pile") for p in data["draw_piles"]]
            state.collection_piles = [card_list(p, "a collection pile") for p in data["collection_piles"]]
            state.hands = [card_list(h, "a hand") for h in data["hands"]]
            state.played = [card_list(p, "a played row") for p in data["played"]]
            state.contenders = [stored_int(p) for p in data["contenders"]]
            state.waiting = [stored_int(p) for p in data["waiting"]]
            state.refill_queue = [stored_int(p) for p in data["refill_queue"]]
            state.reshuffle_side = None if data["reshuffle_side"] is None else stored_int(data["reshuffle_side"])
            state.last_round = data["last_round"]
            state.battles = data.get("battles", [])  # absent in runs stored before battles were recorded
            if not isinstance(state.battles, list) or not all(isinstance(b, dict) for b in state.battles):
                raise TypeError("battles is not a list of records")
        except (KeyError, TypeError, ValueError) as error:
            raise InvalidState(f"calculation-war: malformed state ({error})") from error
        state.validate()
        return state

    def validate(self) -> None:
        """Raise :class:`InvalidState` unless this position can occur in a real game."""
        players, sides = self.game.players, len(self.sides)
        problems = []
        if self.phase not in PHASES or self.ended_by not in END_REASONS:
            problems.append("unknown phase or end reason")
        if (self.phase == "over") != bool(self.ended_by):
            problems.append("end reason does not match the phase")
        if (
            len(self.draw_piles) != sides
            or len(self.collection_piles) != sides
            or len(self.hands) != players
            or len(self.played) != players
        ):
            raise InvalidState("calculation-war: wrong number of piles or hands")  # the checks below look them up
        if self.rounds < 0 or self.wars < 0:
            problems.append("a negative count")
        if self.phase != "deal" and sorted(self.card_ids()) != sorted(self.game.card_ids()):
            problems.append("cards lost or duplicated")
        if self.phase == "deal" and self.card_ids():
            problems.append("cards dealt before the shuffle")
        if any(len(hand) > HAND_SIZE for hand in self.hands):
            problems.append("a hand holds more than five cards")
        if not set(self.waiting) <= set(self.contenders) <= set(range(players)):
            raise InvalidState("calculation-war: waiting players are not contenders")  # the checks below look them up
        if self.phase == "play" and (not self.waiting or any(not self.hands[p] for p in self.waiting)):
            problems.append("a player must lay a card but holds none")
        if self.phase != "play" and (self.waiting or self.contenders):
            problems.append("players wait outside the play phase")
        if self.phase == "reshuffle" and (
            self.reshuffle_side not in range(sides) or not self.collection_piles[self.reshuffle_side]
        ):
            problems.append("a reshuffle with nothing to shuffle")
        if self.phase != "reshuffle" and self.reshuffle_side is not None:
            problems.append("a reshuffle outside the reshuffle phase")
        if len(self.battles) > (self.wars if self.phase == "play" else 0):
            problems.append("more battles than wars")
        if problems:
            raise InvalidState("calculation-war: " + "; ".join(problems))


def rough_estimate(card_id: int) -> int:
    """A beginner's estimate: every circled value rounded to the nearest ten, then added."""
    return sum(10 * ((value + 5) // 10) for value in card(card_id).circled)


class StrongBot(Bot):
    """Adds exactly and always lays the card with the highest sum."""

    name = "strong"
    label = N_("strong")

    def choose(self, view: dict, legal: list[Move], rng: random.Random) -> Move:
        return max(legal, key=lambda move: (card_sum(move.cards[0]), -move.cards[0]))


class BeginnerBot(Bot):
    """Estimates roughly (tens, give or take ten) and now and then lays a worse card."""

    name = "beginner"
    label = N_("beginner")
    slip_chance = 0.25

    def choose(self, view: dict, legal: list[Move], rng: random.Random) -> Move:
        estimates = sorted(
            legal, key=lambda move: rough_estimate(move.cards[0]) + rng.choice((-10, 0, 10)), reverse=True
        )
        if len(estimates) > 1 and rng.random() < self.slip_chance:
            return rng.choice(estimates[1:])
        return estimates[0]


class CalculationWar(Game):
    """Rules and options of Calculation War."""

    id: ClassVar[str] = "calculation-war"
    title: ClassVar[str] = N_("Calculation War")
    order: ClassVar[int] = 10
    state_class = CalculationWarState
    bots = {"beginner": BeginnerBot, "strong": StrongBot}
    option_specs = (
        Option(
            "turn_seconds",
            N_("Hourglass: seconds to choose a card (0 = no hourglass)"),
            0,
            minimum=0,
            maximum=120,
            help=N_("The source plays with a 30-second hourglass; pupils play untimed unless a teacher sets it."),
        ),
        Option(
            "round_limit", N_("Number of rounds (0 = play until one side has every card)"), 0, minimum=0, maximum=1000
        ),
        Option("time_limit_minutes", N_("Playing time in minutes (0 = no time limit)"), 0, minimum=0, maximum=180),
    )

    def card_ids(self) -> tuple[int, ...]:
        """The cards in play: every number card (special cards are taken out)."""
        return kids2().number_card_ids
