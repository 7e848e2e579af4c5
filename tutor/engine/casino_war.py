"""Casino War (source 004; 1-3 players, each against the house; played for tokens).

Every player plays their own hand against the **house**, which is not a seat: its cards
are dealt by the rules. A hand goes like this:

1. Each player with at least ``stake`` tokens puts the stake down (``bet``, detail
   ``plain``), or the stake plus a **side stake** of the same size on a tie (detail
   ``tie``) when the ``side_bet`` option is on and they have the tokens.
2. One card face up to each player and one to the house (a chance move, ``deal``, whose
   cards are the drawn cards: the players' in seat order, the house's last). Ranks run
   A K Q J 10 ... 2 (ace high); suits do not count.
3. A higher card than the house's wins: the stake back plus as many tokens again. A lower
   card loses the stake. The side stake comes back eleven times over on a tie (the stake
   plus 10 to 1), and is lost otherwise.
4. On a tie the player chooses: ``surrender`` (half the stake back) or ``war`` (a second
   stake as large as the first; three cards are burned, then the house and the player get
   one card each, a chance move ``war_cards`` with the burned cards first, the house's card
   fourth and the player's last). A card equal to or higher than the house's wins: both
   stakes back plus one stake more; a lower card loses both stakes. ("Put down 10 and go
   to war: win 10 or lose 20.")
5. Every card goes to the discard pile.

The game ends after ``hands`` hands, or when nobody has a stake left; the players with
the most tokens win, and ``summary()`` says how many tokens each player gained or lost
(the house's gain is what they lost together).

The chances, exactly (``exact_chances``; the probability drills rely on them). The shoe is
shuffled before every hand, as a continuous shuffler does, so a player's card and the
house's are two different cards drawn from a full shoe of ``n`` decks: **the chance of a
tie is (4n - 1)/(52n - 1)**, 3/51 = 1/17 with one deck and 23/311 with six. Apart from ties,
winning and losing are equally likely and even, so only the tie decides the house's edge.
The tokens a player can expect to win (negative: to lose) per token of the first stake:

=====  ======  ===================  =====================  ==================
decks  tie     surrender on a tie   war on a tie           side stake
=====  ======  ===================  =====================  ==================
1      1/17    -1/34 (-2.94%)       -503/20825 (-2.42%)    -6/17 (-35.3%)
6      23/311  -23/622 (-3.70%)     -142853/4965115        -58/311 (-18.6%)
                                    (-2.88%)
=====  ======  ===================  =====================  ==================

Going to war is always the better choice (it loses less, even counted per token put down
with the war's second stake: 2.28% with one deck, 2.68% with six), and the side stake the
worst by far. In a war the player wins with a card equal to or higher than the house's, which
after the first tie happens with chance (1 + q)/2, q the chance of a second tie among the
52n - 2 cards left (649/1225 with one deck).

Decisions:

- **Tokens are whole**: the stake is an even number of tokens (2, 4, ... 10), so half the
  stake comes back on surrender without halves.
- **Going to war needs the tokens**: a player with fewer tokens than the stake left in front
  of them must surrender (``surrender`` is then the only move; the lesson says why).
- **Several players**: each plays their own hand. A tie's war is dealt for each player on
  their own (three burned, one for the house, one for the player), so every seat plays the
  same game as a lone player, with the same chances.
- The burned cards lie face down until the hand is over; then ``last_hand`` shows them.
- ``rounds`` in a stored state counts the hands played.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import ClassVar

from tutor.engine.core import CHANCE, Bot, Game, InvalidState, Move, Option, PhasedState, stored_int
from tutor.engine.war_family import card_list
from tutor.standard_deck import copies, rank
from tutor.text import N_

BURNED = 3
#: The side stake comes back this many times over on a tie (itself plus 10 to 1).
SIDE_RETURN = 11
STATUSES = ("", "bet", "won", "lost", "tie", "surrendered", "war", "war_won", "war_lost")
#: Seat statuses after the deal, with the player's cards on the table then.
CARDS_BY_STATUS = {"won": 1, "lost": 1, "tie": 1, "surrendered": 1, "war": 1, "war_won": 2, "war_lost": 2}
STATUSES_IN_PHASE = {
    "bet": ("", "bet"),
    "deal": ("", "bet"),
    "decide": ("", *CARDS_BY_STATUS),
    "war": ("", *CARDS_BY_STATUS),
    "over": ("",),
}


def exact_chances(decks: int) -> dict[str, Fraction]:
    """The chance of a tie and the expected tokens won per token staked, exactly, for a shoe of ``decks`` decks."""
    cards = 52 * decks
    tie = Fraction(4 * decks - 1, cards - 1)
    left = cards - 2  # after a tie: the tied rank has 4n - 2 cards left, every other rank 4n
    second_tie = Fraction((4 * decks - 2) * (4 * decks - 3) + 12 * 4 * decks * (4 * decks - 1), left * (left - 1))
    win_war = (1 + second_tie) / 2
    return {
        "tie": tie,
        "win_war": win_war,
        "surrender": -tie / 2,
        "war": tie * (win_war * 1 - (1 - win_war) * 2),
        "side": tie * (SIDE_RETURN - 1) - (1 - tie),
    }


class CasinoWarState(PhasedState):
    """The shoe, the cards on the table, the discard pile, and every player's tokens and stakes."""

    CHANCE_PHASES = ("deal", "war")

    game: CasinoWar
    PHASES = ("bet", "deal", "decide", "war", "over")
    END_REASONS = ("", "hands", "no_tokens")

    def __init__(self, game: CasinoWar) -> None:
        super().__init__(game)
        seats = game.players
        self.shoe: list[int] = sorted(game.card_ids())  # face down, shuffled before every draw: kept in id order
        self.player_cards: list[list[int]] = [[] for _ in range(seats)]  # the first card, then the war card
        self.house_card: list[int] = []  # the house's card of the hand
        self.house_war: list[list[int]] = [[] for _ in range(seats)]  # the house's war card against each player
        self.burned: list[list[int]] = [[] for _ in range(seats)]  # face down, per player's war
        self.discard: list[int] = []
        self.tokens = [game.options["tokens"]] * seats  # in front of each player, stakes not counted
        self.staked = [0] * seats  # the stake (doubled in a war) on the table
        self.side_staked = [0] * seats
        self.status = [""] * seats
        self.phase = "bet"
        self.rounds = 0  # hands played
        self.waiting: list[int] = []  # players still to bet, or to choose on a tie, in seat order
        self.ended_by = ""
        self.hand: dict = {}  # the hand in progress, for the lesson (burned cards only as counts)
        self.last_hand: dict | None = None
        self._start_hand()

    # --- the engine API ------------------------------------------------------------------------
    @property
    def stake(self) -> int:
        return self.game.options["stake"]

    def holdings(self, player: int) -> int:
        """The player's tokens, those on the table included."""
        return self.tokens[player] + self.staked[player] + self.side_staked[player]

    def winners(self) -> list[int]:
        if not self.is_over:
            return []
        return [p for p, count in enumerate(self.tokens) if count == max(self.tokens)]

    def legal_moves(self) -> list[Move]:
        if self.phase == "bet":
            player = self.waiting[0]
            moves = [Move("bet", player, (), "plain")]
            if self.game.options["side_bet"] and self.tokens[player] >= 2 * self.stake:
                moves.append(Move("bet", player, (), "tie"))
            return moves
        if self.phase == "decide":
            player = self.waiting[0]
            moves = [Move("surrender", player)]
            if self.tokens[player] >= self.stake:
                moves.append(Move("war", player))
            return moves
        return []

    def bettors(self) -> list[int]:
        return [p for p, status in enumerate(self.status) if status]

    def chance_move(self, rng: random.Random) -> Move:
        if self.phase == "deal":
            return Move("deal", CHANCE, tuple(rng.sample(self.shoe + self.discard, len(self.bettors()) + 1)))
        if self.phase == "war":
            return Move("war_cards", CHANCE, tuple(rng.sample(self.shoe, BURNED + 2)), str(self.waiting[0]))
        raise InvalidState("no chance event is pending")

    def is_legal_chance(self, move: Move) -> bool:
        drawn = set(move.cards)
        if len(drawn) != len(move.cards):
            return False
        if move.kind == "deal":
            return (
                self.phase == "deal"
                and len(drawn) == len(self.bettors()) + 1
                and drawn <= set(self.shoe) | set(self.discard)
            )
        if move.kind == "war_cards":
            return (
                self.phase == "war"
                and move.detail == str(self.waiting[0])
                and len(drawn) == BURNED + 2
                and drawn <= set(self.shoe)
            )
        return False

    def _apply(self, move: Move) -> None:
        if move.kind == "bet":
            self._bet(move.player, move.detail == "tie")
        elif move.kind == "deal":
            self._deal(list(move.cards))
        elif move.kind == "surrender":
            self._surrender(move.player)
        elif move.kind == "war":
            self._go_to_war(move.player)
        else:
            self._war(move.cards)

    # --- the rules ----------------------------------------------------------------------------------
    def _start_hand(self) -> None:
        able = [p for p in range(self.game.players) if self.tokens[p] >= self.stake]
        if self.rounds >= self.game.options["hands"] or not able:
            self.phase, self.ended_by = "over", "hands" if able else "no_tokens"
            return
        self.phase, self.waiting = "bet", able
        self.hand = {"hand": self.rounds + 1, "players": {}}

    def _record(self, player: int) -> dict:
        return self.hand["players"].setdefault(str(player), {"tokens_before": self.tokens[player]})

    def _bet(self, player: int, on_tie: bool) -> None:
        side = self.stake if on_tie else 0
        self._record(player).update(stake=self.stake, side_stake=side)
        self.tokens[player] -= self.stake + side
        self.staked[player], self.side_staked[player] = self.stake, side
        self.status[player] = "bet"
        self.waiting.pop(0)
        if not self.waiting:
            self.phase = "deal"

    def _deal(self, cards: list[int]) -> None:
        """The discard goes back into the shoe (a continuous shuffler), then the drawn cards are turned."""
        self.shoe, self.discard = sorted(set(self.shoe + self.discard) - set(cards)), []
        self.house_card = [cards[-1]]
        house = rank(cards[-1])
        self.hand["house"] = cards[-1]
        for player, card_id in zip(self.bettors(), cards):
            self.player_cards[player] = [card_id]
            self._settle_first_card(player, card_id, house)
        self.waiting = [p for p in self.bettors() if self.status[p] == "tie"]
        self._decide_or_finish()

    def _settle_first_card(self, player: int, card_id: int, house: int) -> None:
        tie = rank(card_id) == house
        record = self._record(player)
        record["card"] = card_id
        if self.side_staked[player]:
            record["side_result"] = "won" if tie else "lost"
            self.tokens[player] += SIDE_RETURN * self.side_staked[player] if tie else 0
            self.side_staked[player] = 0
        if tie:
            self.status[player] = record["result"] = "tie"
            return
        won = rank(card_id) > house
        self.status[player] = record["result"] = "won" if won else "lost"
        self.tokens[player] += 2 * self.staked[player] if won else 0
        self.staked[player] = 0

    def _surrender(self, player: int) -> None:
        self.tokens[player] += self.staked[player] // 2
        self.staked[player] = 0
        self.status[player] = self._record(player)["choice"] = "surrendered"
        self._next_tie()

    def _go_to_war(self, player: int) -> None:
        self.tokens[player] -= self.stake
        self.staked[player] += self.stake
        self.status[player] = self._record(player)["choice"] = "war"
        self.phase = "war"

    def _war(self, cards: tuple[int, ...]) -> None:
        player = self.waiting[0]
        burned, house, own = list(cards[:BURNED]), cards[BURNED], cards[BURNED + 1]
        self.shoe = sorted(set(self.shoe) - set(cards))
        self.burned[player], self.house_war[player] = burned, [house]
        self.player_cards[player].append(own)
        won = rank(own) >= rank(house)
        self.tokens[player] += self.staked[player] + self.stake if won else 0  # both stakes back and one stake more
        self.staked[player] = 0
        self.status[player] = "war_won" if won else "war_lost"
        self._record(player)["war"] = {
            "house": house,
            "card": own,
            "burned": len(burned),
            "result": "won" if won else "lost",
        }
        self._next_tie()

    def _next_tie(self) -> None:
        self.waiting.pop(0)
        self._decide_or_finish()

    def _decide_or_finish(self) -> None:
        if self.waiting:
            self.phase = "decide"
        else:
            self._finish_hand()

    def _finish_hand(self) -> None:
        """Every card to the discard pile; the record becomes ``last_hand``; the next hand starts."""
        seats = range(self.game.players)
        for player, record in self.hand["players"].items():
            record["tokens_after"] = self.tokens[int(player)]
            record["change"] = self.tokens[int(player)] - record["tokens_before"]
            if "war" in record:
                record["war"]["burned_cards"] = list(self.burned[int(player)])
        self.hand["house_gain"] = -sum(record["change"] for record in self.hand["players"].values())
        self.discard += self.house_card + [
            c for p in seats for c in self.player_cards[p] + self.house_war[p] + self.burned[p]
        ]
        self.house_card = []
        self.player_cards, self.house_war, self.burned = ([[] for _ in seats] for _ in range(3))
        self.status = [""] * len(seats)
        self.last_hand, self.hand = self.hand, {}
        self.rounds += 1
        self._start_hand()

    # --- views and storage ----------------------------------------------------------------------------
    def player_view(self, player: int) -> dict:
        options = self.game.options
        return {
            "game": self.game.id,
            "you": player,
            "players": self.game.players,
            "phase": self.phase,
            "hands_played": self.rounds,
            "hands": options["hands"],
            "stake": options["stake"],
            "decks": options["decks"],
            "side_bet": options["side_bet"],
            "tokens": list(self.tokens),
            "staked": list(self.staked),
            "side_staked": list(self.side_staked),
            "status": list(self.status),
            "player_cards": [list(cards) for cards in self.player_cards],
            "house_card": list(self.house_card),
            "house_war": [list(cards) for cards in self.house_war],
            "burned_counts": [len(cards) for cards in self.burned],
            "shoe_count": len(self.shoe),
            "discard_count": len(self.discard),
            "waiting": list(self.waiting),
            "to_move": self.waiting[0] if self.phase in ("bet", "decide") else None,
            "this_hand": self.hand,  # not "hand": a view's "hand" is the cards a player holds
            "last_hand": self.last_hand,
            "ended_by": self.ended_by,
            "winners": self.winners(),
        }

    def card_ids(self) -> list[int]:
        table = self.house_card + [
            c for p in range(self.game.players) for c in self.player_cards[p] + self.house_war[p] + self.burned[p]
        ]
        return self.shoe + table + self.discard

    def summary(self) -> dict:
        start = self.game.options["tokens"]
        change = {str(p): self.holdings(p) - start for p in range(self.game.players)}
        return {
            "rounds": self.rounds,
            "hands_played": self.rounds,
            "ended_by": self.ended_by,
            "tokens": {str(p): self.holdings(p) for p in range(self.game.players)},
            "token_change": change,
            "house_gain": -sum(change.values()),
        }

    def to_dict(self) -> dict:
        return {
            "shoe": list(self.shoe),
            "player_cards": [list(c) for c in self.player_cards],
            "house_card": list(self.house_card),
            "house_war": [list(c) for c in self.house_war],
            "burned": [list(c) for c in self.burned],
            "discard": list(self.discard),
            "tokens": list(self.tokens),
            "staked": list(self.staked),
            "side_staked": list(self.side_staked),
            "status": list(self.status),
            "phase": self.phase,
            "rounds": self.rounds,
            "waiting": list(self.waiting),
            "ended_by": self.ended_by,
            "hand": self.hand,
            "last_hand": self.last_hand,
        }

    @classmethod
    def from_dict(cls, game: CasinoWar, data: dict) -> CasinoWarState:
        state = cls(game)
        try:
            state.shoe = card_list(data["shoe"], "the shoe")
            state.player_cards = [card_list(c, "a player's cards") for c in data["player_cards"]]
            state.house_card = card_list(data["house_card"], "the house's card")
            state.house_war = [card_list(c, "a house war card") for c in data["house_war"]]
            state.burned = [card_list(c, "burned cards") for c in data["burned"]]
            state.discard = card_list(data["discard"], "the discard pile")
            state.tokens = [stored_int(n) for n in data["tokens"]]
            state.staked = [stored_int(n) for n in data["staked"]]
            state.side_staked = [stored_int(n) for n in data["side_staked"]]
            state.status = [str(s) for s in data["status"]]
            state.phase = str(data["phase"])
            state.rounds = stored_int(data["rounds"])
            state.waiting = [stored_int(p) for p in data["waiting"]]
            state.ended_by = str(data["ended_by"])
            state.hand, state.last_hand = data["hand"], data["last_hand"]
            if not isinstance(state.hand, dict) or not (state.last_hand is None or isinstance(state.last_hand, dict)):
                raise TypeError("hand or last_hand is not a record")
        except (KeyError, TypeError, ValueError) as error:
            raise InvalidState(f"casino-war: malformed state ({error})") from error
        state.validate()
        return state

    def validate(self) -> None:
        """Raise :class:`InvalidState` unless this position can occur in a real game."""
        self.check_in_stages(self._shape_problems, lambda: self._card_problems() + self._seat_problems())

    def _shape_problems(self) -> list[str]:
        seats = self.game.players
        rows = (self.player_cards, self.house_war, self.burned, self.tokens, self.staked, self.side_staked, self.status)
        problems = []
        if any(len(row) != seats for row in rows):
            problems.append("wrong number of seats")
        if (
            self.phase not in self.PHASES
            or self.ended_by not in self.END_REASONS
            or (self.phase == "over") != bool(self.ended_by)
        ):
            problems.append("unknown phase or end reason")
        if not 0 <= self.rounds <= self.game.options["hands"]:
            problems.append("an impossible number of hands played")
        if (
            any(p not in range(seats) for p in self.waiting)
            or len(set(self.waiting)) != len(self.waiting)
            or self.waiting != sorted(self.waiting)
        ):
            problems.append("a player who has no seat, or waits twice")
        if any(s not in STATUSES for s in self.status) or any(n < 0 for n in self.tokens):
            problems.append("an unknown status or a negative token count")
        return problems

    def _card_problems(self) -> list[str]:
        ids = self.card_ids()
        if len(ids) != len(set(ids)) or sorted(ids) != sorted(self.game.card_ids()):
            return ["cards lost or duplicated"]
        if self.shoe != sorted(self.shoe):
            return ["the shoe out of order"]
        return []

    def _seat_problems(self) -> list[str]:
        """Stakes, cards and who waits must fit each seat's status and the phase."""
        problems = []
        stake = self.stake
        dealt = self.phase in ("decide", "war")
        if len(self.house_card) != (1 if dealt else 0):
            problems.append("the house's card does not fit the phase")
        for player, status in enumerate(self.status):
            cards = CARDS_BY_STATUS.get(status, 0)
            at_war = status in ("war_won", "war_lost")
            if (len(self.player_cards[player]), len(self.house_war[player]), len(self.burned[player])) != (
                cards,
                int(at_war),
                BURNED * at_war,
            ):
                problems.append(f"player {player}'s cards do not fit their hand")
            wanted = {"bet": stake, "tie": stake, "war": 2 * stake}.get(status, 0)
            if self.staked[player] != wanted or self.side_staked[player] not in (
                (0, stake) if status == "bet" else (0,)
            ):
                problems.append(f"player {player}'s stakes do not fit their hand")
            if status not in STATUSES_IN_PHASE[self.phase]:
                problems.append(f"player {player}'s hand does not fit the phase")
        problems += self._turn_problems()
        if dealt and not problems:
            problems += self._result_problems()
        return problems

    def _turn_problems(self) -> list[str]:
        stake, seats = self.stake, range(self.game.players)
        if self.phase == "bet":
            able = [p for p in seats if self.status[p] == "" and self.tokens[p] >= stake]
            placed = [p for p in seats if self.status[p] == "bet"]
            ok = self.waiting and self.waiting == able and all(p < self.waiting[0] for p in placed)
            ok = ok and (self.game.options["side_bet"] or not any(self.side_staked))
        elif self.phase == "deal":
            ok = not self.waiting and self.bettors() and all(s in ("", "bet") for s in self.status)
            ok = ok and not any(self.status[p] == "" and self.tokens[p] >= stake for p in seats)
        elif self.phase in ("decide", "war"):
            pending = [p for p in seats if self.status[p] in ("tie", "war")]
            first = "tie" if self.phase == "decide" else "war"
            ok = self.waiting == pending and bool(pending) and self.status[pending[0]] == first
            ok = ok and all(self.status[p] == "tie" for p in pending[1:]) and "bet" not in self.status
        else:
            ok = not self.waiting and not any(self.status) and not self.house_card
        return [] if ok else ["the players waiting do not fit the phase"]

    def _result_problems(self) -> list[str]:
        """Each result must be what the cards say."""
        house = rank(self.house_card[0])
        for player, status in enumerate(self.status):
            if not status:
                continue
            mine = rank(self.player_cards[player][0])
            first = "won" if mine > house else "lost" if mine < house else "tie"
            if first != ("tie" if status in ("tie", "surrendered", "war", "war_won", "war_lost") else status):
                return [f"player {player}'s result does not fit the cards"]
            if status in ("war_won", "war_lost") and (
                rank(self.player_cards[player][1]) >= rank(self.house_war[player][0])
            ) != (status == "war_won"):
                return [f"player {player}'s war result does not fit the cards"]
        return []


# --- computer players ---------------------------------------------------------------------------------


class BeginnerBot(Bot):
    """Takes the side stake one time in four, and surrenders or goes to war at random."""

    name = "beginner"
    label = N_("beginner")

    def choose(self, view: dict, legal: list[Move], rng: random.Random) -> Move:
        if legal[0].kind == "bet":
            return legal[-1] if rng.random() < 0.25 else legal[0]
        return rng.choice(legal)


class StrongBot(Bot):
    """Never takes the side stake and always goes to war: the choices that lose the least (see the module docstring)."""

    name = "strong"
    label = N_("strong")

    def choose(self, view: dict, legal: list[Move], rng: random.Random) -> Move:
        return legal[-1] if legal[0].kind == "surrender" else legal[0]


class CasinoWar(Game):
    """Rules and options of Casino War."""

    id: ClassVar[str] = "casino-war"
    title: ClassVar[str] = N_("Casino War")
    order: ClassVar[int] = 180
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 3
    state_class = CasinoWarState
    bots = {"beginner": BeginnerBot, "strong": StrongBot}
    option_specs = (
        Option("tokens", N_("Tokens each player starts with"), 20, minimum=2, maximum=1000),
        Option(
            "stake",
            N_("Tokens staked on each hand"),
            2,
            choices=(2, 4, 6, 8, 10),
            help=N_("An even number, so that half of it comes back when a player gives up."),
        ),
        Option("hands", N_("Number of hands"), 10, minimum=1, maximum=50),
        Option("decks", N_("Decks in the shoe"), 1, choices=(1, 2, 4, 6, 8)),
        Option("side_bet", N_("Offer the side stake on a tie (10 to 1)"), True),
    )

    def card_ids(self) -> tuple[int, ...]:
        """The shoe: ``decks`` copies of the 52 cards."""
        return copies(self.options["decks"])
