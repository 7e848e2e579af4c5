"""MultiWar (Kids2, age 8+, 2-4 players; four play as two teams of two).

The whole deck, special cards included, is shuffled and split into halves, one per
side (a side is one player, or a team of two that shares its piles). In a round every
player, in seat order, turns the top two cards of the side's draw pile face up and
multiplies their big top numbers. The largest product wins every card on the table
into the winning side's collection pile. An empty draw pile is refilled by shuffling
the collection pile.

Special cards have no top number. A player with one special card among the two turns
one more card: a number card gives a product of the two number cards; a second special
card is a **double Kocha**, which beats every product. Equal best products on different
sides, or double Kochas on different sides, mean **war**: those players each lay two
cards face down in the pot and turn two new cards (with the same special-card rule);
the winner takes everything on the table. Ties between teammates are no war: the team
wins. The game ends when only one side has cards, or when the agreed number of rounds
or minutes is up: then most cards wins.

Turning is a player's move (``turn``), although there is nothing to choose, so that a
lesson can pause before the cards show. Turning the extra card after a special card
is a second ``turn`` move; laying the two war cards is part of the player's first
``turn`` move in the war.

Decisions:

- Banana cards behave as Kocha cards (games.md): every special card counts as Kocha.
  Two special cards among the first two turned are already a double Kocha.
- With three players the 82 cards do not split evenly: the first side gets 28, the
  others 27. With two sides (two players, or two teams) each gets 41.
- A player who cannot turn the cards the battle needs, even after shuffling the
  collection pile, is **out of that battle** and loses it; whatever the player laid
  stays on the table for the winner. If every player in a battle is out, nobody wins:
  each side takes back the cards its players laid this round (into its collection
  pile). A side with no cards at all at the start of a round takes no part and is out
  of the game.
- A game that reaches ``ROUND_CAP`` (2000) rounds ends as if the agreed time were up
  (see :mod:`tutor.engine.war_family`). Measured over 800 seeded games (two and three
  players), half end within about 200 rounds and 95% within about 700; none reached the
  cap, which only guarantees that every game ends.
"""

from __future__ import annotations

from typing import ClassVar

from tutor.deck import kids2
from tutor.engine.core import Game, InvalidState, Move
from tutor.engine.war_family import OUT, RESHUFFLE, TURNING_BOTS, BattleTableState, even_sizes, limit_options, split
from tutor.text import N_

TURNED = 2  # cards turned per battle
POT = 2  # face-down cards per player in a war
ROUND_CAP = 2000


def is_special(card_id: int) -> bool:
    return kids2()[card_id].is_special


def top(card_id: int) -> int:
    return kids2()[card_id].top


class MultiWarState(BattleTableState):
    """A MultiWar position: piles per side, the pot and the turned cards per player."""

    game: MultiWar
    PHASES = ("deal", "turn", "reshuffle", "over")
    DRAWING_PHASE = "turn"
    round_cap = ROUND_CAP

    # --- what a player holds --------------------------------------------------------------
    def needs_card(self, player: int) -> bool:
        """Whether the player must still turn: nothing turned yet, or one special card and one number card."""
        turned = self.turned[player]
        return not turned or (len(turned) == TURNED and sum(map(is_special, turned)) == 1)

    def result(self, player: int) -> tuple[int, int] | None:
        """(2, 0) for a double Kocha, (1, product) otherwise; None for a player out of the battle."""
        if player in self.out:
            return None
        turned = self.turned[player]
        if sum(map(is_special, turned)) >= 2:
            return (2, 0)
        numbers = [top(c) for c in turned if not is_special(c)]
        return (1, numbers[0] * numbers[1])

    # --- the engine API ---------------------------------------------------------------------
    def _player_to_move(self) -> int:
        return self.waiting[0]

    def legal_moves(self) -> list[Move]:
        if self.phase != "turn":
            return []
        return [Move("turn", self.waiting[0])]

    @property
    def at_round_start(self) -> bool:
        return (
            self.phase == "turn" and self.wars == 0 and not any(self.table_cards(p) for p in range(self.game.players))
        )

    def _apply_player_move(self, move: Move) -> None:
        player = move.player
        if not self.turned[player]:
            self.pot_due[player] = POT if self.wars else 0
            self.turn_due[player] = TURNED
        else:
            self.turn_due[player] = 1
        self._advance()

    # --- the rules --------------------------------------------------------------------------
    def _deal(self, order: list[int]) -> None:
        self.draw_piles = split(order, even_sizes(len(order), len(self.sides)))
        self._start_round()
        self._advance()

    def _start_round(self) -> None:
        reason = self._end_reason_at_round_start()
        if reason:
            self._end(reason)
            return
        self.phase, self.wars, self.battles, self.out = "turn", 0, [], []
        self.contenders = [p for p in range(self.game.players) if self.pile_count(self.side_of(p))]
        self.waiting = list(self.contenders)

    def _advance(self) -> None:
        while self.phase == "turn":
            if not self.waiting:
                self._resolve()
                continue
            player = self.waiting[0]
            side = self.side_of(player)
            if self.pot_due[player] or self.turn_due[player]:
                card_id = self._draw(side)
                if card_id == RESHUFFLE:
                    return
                if card_id == OUT:
                    self._drop(player)
                elif self.pot_due[player]:
                    self.pot_due[player] -= 1
                    self.pot[player].append(card_id)
                else:
                    self.turn_due[player] -= 1
                    self.turned[player].append(card_id)
                continue
            if not self.needs_card(player):
                self.waiting.pop(0)
            elif not self.pile_count(side):
                self._drop(player)  # nothing left to turn: out of the battle without a pointless move
            else:
                return  # the player turns

    def _end(self, reason: str) -> None:
        super()._end(reason)
        self.contenders, self.waiting, self.out = [], [], []

    def _drop(self, player: int) -> None:
        self.out.append(player)
        self.pot_due[player] = self.turn_due[player] = 0
        self.waiting.remove(player)

    def _resolve(self) -> None:
        """Compare the battle: a double Kocha beats every product; a tie across sides is a war."""
        results = {p: self.result(p) for p in self.contenders}
        live = [p for p, r in results.items() if r is not None]
        best = max((results[p] for p in live), default=None)
        leaders = [p for p in live if results[p] == best]
        self.battles.append(
            {
                "turned": {str(p): list(self.turned[p]) for p in self.contenders},
                "results": {
                    str(p): ("out" if r is None else "double_kocha" if r[0] == 2 else r[1]) for p, r in results.items()
                },
                "leaders": leaders,
            }
        )
        if not live:
            self._finish(None)
            return
        if not self._one_side_wins(leaders):
            self.contenders, self.waiting, self.out = list(leaders), list(leaders), []

    def _finish(self, winner: int | None) -> None:
        """Send the table to the winner (or back to each side if nobody could finish); start the next round."""
        table = self._clear_table(winner)
        self.last_round = {
            "round": self.rounds + 1,
            "table": table,
            "battles": self.battles,
            "winner_side": winner,
            "winners": [] if winner is None else list(self.sides[winner]),
            "leaders": [] if winner is None else list(self.battles[-1]["leaders"]),
            "wars": self.wars,
        }
        self.rounds += 1
        self.contenders, self.waiting, self.out, self.battles = [], [], [], []
        self._start_round()

    # --- views and storage -----------------------------------------------------------------
    def player_view(self, player: int) -> dict:
        return {
            **self.common_view(player),
            "turned": [list(cards) for cards in self.turned],
            "pot_counts": [len(cards) for cards in self.pot],
            "contenders": list(self.contenders),
            "waiting": list(self.waiting),
            "out": list(self.out),
            "to_move": self.waiting[0] if self.phase == "turn" else None,
            "extra_card": self.phase == "turn" and bool(self.turned[self.waiting[0]]),
            "battles": self.battles,
        }

    def card_ids(self) -> list[int]:
        zones = self.draw_piles + self.collection_piles + self.pot + self.turned
        return [card_id for zone in zones for card_id in zone]

    def to_dict(self) -> dict:
        return {**self.piles_to_dict(), **self.common_to_dict(), **self.battle_to_dict()}

    @classmethod
    def from_dict(cls, game: MultiWar, data: dict) -> MultiWarState:
        state = cls(game)
        try:
            state.read_common(data)
            state.read_battle(data)
        except (KeyError, TypeError, ValueError) as error:
            raise InvalidState(f"multiwar: malformed state ({error})") from error
        state.validate()
        return state

    def validate(self) -> None:
        """Raise :class:`InvalidState` unless this position can occur in a real game."""
        players = self.game.players
        problems = self.battle_problems(set(self.waiting))
        busy = self.waiting[0] if self.waiting else None
        if any((self.pot_due[p] or self.turn_due[p]) for p in range(players) if p != busy):
            problems.append("cards due from a player who is not moving")
        if any(self.turned[p] for p in self.waiting[1:]):
            problems.append("a player turned before their turn")
        done = [p for p in self.contenders if p not in self.waiting and p not in self.out]
        if any(self.needs_card(p) for p in done):
            problems.append("a player left the battle without finishing")
        if self.phase == "turn":
            if not self.waiting or self.pot_due[busy] or self.turn_due[busy] or not self.needs_card(busy):
                problems.append("nobody is to turn")
        elif self.phase == "reshuffle":
            if (
                busy is None
                or not (self.pot_due[busy] or self.turn_due[busy])
                or self.reshuffle_side != self.side_of(busy)
            ):
                problems.append("a reshuffle that nobody is waiting for")
        elif self.contenders or self.waiting or self.out or any(self.pot) or any(self.turned):
            problems.append("cards on the table outside a round")
        self.raise_problems(problems)


class MultiWar(Game):
    """Rules and options of MultiWar."""

    id: ClassVar[str] = "multiwar"
    title: ClassVar[str] = N_("MultiWar")
    order: ClassVar[int] = 60
    state_class = MultiWarState
    bots = TURNING_BOTS
    option_specs = limit_options()

    def card_ids(self) -> tuple[int, ...]:
        """The cards in play: the whole deck, special cards included."""
        return tuple(card.id for card in kids2().cards)
