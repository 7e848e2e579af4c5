"""Steal War (Gary Philippy and Hayes Ruberti, source 004; 2-4 players, 54 cards).

War with two jokers above the aces, in which won cards stay in sight and can be stolen.
The 54 cards are shuffled and dealt face down into equal packs (27, 18 or 13 each; what is
left over stays out of the game). Each player also has a **face-up pile** (``faceup``, its
last card the top), empty at first, that everybody sees.

In a battle the players move in seat order. The player to move picks up the top card of
their pack and looks at it (only they see it). They either **play** it (``turn``: it goes
face up on the table), or, if it has the same rank as the top card of an opponent's
face-up pile, **steal** that pile (``steal``; ``detail`` names the pile the card is put on):
the card goes on top of the victim's pile and the whole pile, its order unchanged, goes on
top of the stealer's own face-up pile. A card that matches several opponents' piles steals
them all. Then the stealer picks up the next card and chooses again (in a game of three or
four, another pile may be stolen). When two players' cards match each other's piles, both
steal and the two piles are **swapped**. Playing a card of the same rank as the top of your
own face-up pile **protects** that pile for the rest of the battle: nobody may steal it.
When all have played, the highest card wins every card on the table (jokers beat aces);
the winner chooses which won card goes on top of their face-up pile (``top``), the others
go under it.

Equal highest cards are **war**: every player still in the round lays three cards face
down (automatically: they are not looked at and cannot steal), then picks up the next card,
which may steal or be played face up to decide the war. A player whose pack is empty
shuffles their face-up pile into a new pack (chance move ``reshuffle``). A player who
cannot lay the four cards a war needs lays what they have face down and loses the war; if
everyone left runs out, the one who runs out first loses, and at the same moment it is a
draw (as in :mod:`tutor.engine.classic_war`). A player with no cards at the start of a round
is out; the game ends when one player has every card, or by the round limit, the time
limit or the safety cap as in War.

Decisions:

- **Timing.** The source leaves the order of steals open ("A and B could wait for ever for
  the other to play first"); here players move in seat order, and protection (the source's
  suggested rule) lasts until the battle is decided; each battle of a war is a new battle.
- **A card that matches several piles steals them all** (the source: "se la tua carta
  corrisponde a più di un mazzo del tuo avversario, puoi rubare entrambi i mazzi"). The
  piles go onto the stealer's pile one after the other, each in its own order: the others
  in seat order from the stealer, then the one the card is put on (the move's ``detail``,
  one legal ``steal`` per matching pile), with the card on top. The steal's record
  (``steals`` in the battle's ``laid``) lists every pile taken: ``{"card", "cards",
  "piles": [{"victim", "cards", "swap"}]}``, ``cards`` counting the card too.
- **The swap** (the source: "Se la carta di ciascun giocatore corrisponde alla prima carta
  del mazzo di cattura dell'altro giocatore, possono entrambi rubare e scambiare le due pile
  di cattura"). Both players look at their cards at the same moment, but here they move in
  seat order: so when A steals B's pile, the pile A had just before (its size and top card)
  is kept in ``swaps``, and when B's turn comes in the same battle, a card of the same rank
  as that old top steals it back from the bottom of A's pile: B takes A's old pile under its
  card, A keeps B's, and the two piles are swapped. The swap is a steal like any other (a
  ``steal`` move naming A, its record's pile marked ``swap``), and it cannot be made once A
  protected its pile, or once A's pile left it as a whole (stolen, swapped, shuffled into a
  new pack, or laid by a player who ran out). A card that matches the top A's pile has now
  takes the whole pile instead.
- **The won cards' order.** The winner chooses the top card among the cards won (one
  ``top`` move per won card is legal); the other won cards go under it in the order they
  are gathered (the winner's own first, then seat by seat from the winner; each player's
  face-up cards, then their face-down ones). With a single card won (the time-limit rule
  removed the rest) there is nothing to choose.
- **Reshuffling** happens when a card must be picked up or laid and the pack is empty:
  the face-up pile is shuffled into the new pack. A player who runs out in a war lays their
  pack and then their face-up pile (top card first) face down, unshuffled: face down, the
  order does not show.
- **A player whose face-up pile was stolen** before their turn and who has no cards left
  takes no part in that battle (in a war: runs out).
- **Computer players.** ``beginner`` never steals and puts a random won card on top.
  ``strong`` always steals when it can (every matching pile, and a swap), putting its card
  on the largest pile (it never keeps the card to fight a war with), and puts on top the
  won card whose rank is most often in sight (on the face-up piles, the table, the removed
  cards and the cards just won), so the fewest unseen cards can match it.
"""

from __future__ import annotations

import random
from typing import ClassVar

from tutor.engine.classic_war import (
    ClassicWarState,
    StandardWarGame,
    player_list,
    rank_of,
    time_options,
)
from tutor.engine.core import Bot, Move, stored_int
from tutor.engine.war_family import card_list
from tutor.text import N_

#: Cards laid face down in a war before the deciding card.
WAR_DOWN = 3


class StealWarState(ClassicWarState):
    """A Steal War position: packs, face-up piles, the card in hand, the table and the won cards to place."""

    game: StealWar
    PHASES: ClassVar[tuple[str, ...]] = ("deal", "turn", "reshuffle", "top", "over")

    def __init__(self, game: StealWar) -> None:
        super().__init__(game)
        players = game.players
        self.faceup: list[list[int]] = [[] for _ in range(players)]  # won cards, face up; the last is the top
        self.hands: list[list[int]] = [[] for _ in range(players)]  # the card the player to move looks at
        self.prize: list[int] = []  # won cards waiting for the winner to choose the top one
        self.protected: list[int] = []  # whose face-up pile cannot be stolen in this battle
        self.down_due: list[int] = [0] * players  # war cards still to lay face down in this battle
        # the piles thieves had before a steal in this battle, which their victims may take back (a swap)
        self.swaps: list[dict] = []

    # --- counts ------------------------------------------------------------------------------
    def available(self, player: int) -> int:
        """Cards the player can still lay: pack, face-up pile and the card in hand."""
        return len(self.piles[player]) + len(self.faceup[player]) + len(self.hands[player])

    def card_count(self, player: int) -> int:
        prize = len(self.prize) if self.phase == "top" and self.waiting == [player] else 0
        return self.available(player) + len(self.up[player]) + len(self.down[player]) + prize

    @property
    def at_round_start(self) -> bool:
        """Nobody has laid a card or stolen a pile yet (a card picked up to look at does not count)."""
        return super().at_round_start and not any(entry.get("steals") for entry in self.laid.values())

    # --- the engine API ----------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.phase == "top":
            return self.waiting[0]
        return super().current_player

    def legal_moves(self) -> list[Move]:
        if self.phase == "top":
            return [Move("top", self.waiting[0], (card,)) for card in self.prize]
        if self.phase != "turn":
            return []
        player = self.waiting[0]
        return [Move("turn", player)] + [
            Move("steal", player, (), str(victim)) for victim in self.steal_targets(player)
        ]

    def steal_targets(self, player: int) -> list[int]:
        """Opponents whose face-up pile (or a part of it: a swap) the card in hand steals, in seat order."""
        return sorted(self.stolen_parts(player))

    def stolen_parts(self, player: int) -> dict[int, int]:
        """What the card in hand steals: victim -> how many cards from the bottom of their face-up pile.

        The whole pile when its top has the card's rank; a swap (the pile the victim had before stealing this player's
        pile in this battle) when that pile's old top has it. A protected pile is safe from both.
        """
        if not self.hands[player]:
            return {}
        value = rank_of(self.hands[player][0])
        parts = {}
        for swap in self.swaps:
            thief, size = swap["thief"], swap["size"]
            if swap["victim"] == player and rank_of(self.faceup[thief][size - 1]) == value:
                parts[thief] = size
        for victim in range(self.game.players):
            if victim != player and self.faceup[victim] and rank_of(self.faceup[victim][-1]) == value:
                parts[victim] = len(self.faceup[victim])
        return {victim: size for victim, size in parts.items() if victim not in self.protected}

    def _apply_player_move(self, move: Move) -> None:
        if move.kind == "top":
            self._place_prize(move.cards[0])
            return
        if move.kind == "steal":
            self._steal(move.player, int(move.detail))
        else:
            self._play(move.player)
        self._advance()

    # --- a player's turn ----------------------------------------------------------------------
    def reshuffle_source(self, player: int) -> list[int]:
        """An empty pack is refilled from the face-up pile."""
        return self.faceup[player]

    def _reshuffle(self, player: int, order: list[int]) -> None:
        self._forget_swaps(player)  # the face-up pile becomes the new pack: nothing of it is left to take back
        super()._reshuffle(player, order)

    def _start_battle(self, players: list[int], size: int) -> None:
        super()._start_battle(players, size)
        self.protected, self.swaps = [], []
        self.down_due = [size - 1 if p in players else 0 for p in range(self.game.players)]

    def _advance(self) -> None:
        """Lay war cards, reshuffle, pick up the next card, until a player chooses or the round is decided."""
        while self.phase == "turn":
            if not self.waiting:
                self._resolve()
                continue
            player = self.waiting[0]
            if self.hands[player]:
                return
            if str(player) not in self.laid:
                if self.available(player) < self.battle_size:
                    self._run_out(player)
                    continue
                self.laid[str(player)] = {"down": [], "up": None, "card": None, "note": "", "steals": []}
            if not self.piles[player]:
                self.phase = "reshuffle"
            elif self.down_due[player]:
                card = self.piles[player].pop()
                self.down[player].append(card)
                self.laid[str(player)]["down"].append(card)
                self.down_due[player] -= 1
            else:
                self.hands[player].append(self.piles[player].pop())

    def _run_out(self, player: int) -> None:
        """Too few cards for the battle: everything goes face down and the player is out of it."""
        cards = self.piles[player][::-1] + self.faceup[player][::-1]
        self.piles[player], self.faceup[player], self.down_due[player] = [], [], 0
        self._forget_swaps(player)
        self.down[player] += cards
        self.waiting.remove(player)
        self.contenders.remove(player)
        self.out.append(player)
        self.ran_out.append([player, len(cards)])
        self.laid[str(player)] = {"down": cards, "up": None, "card": None, "note": "ran_out", "steals": []}

    def _play(self, player: int) -> None:
        card = self.hands[player].pop()
        own = self.faceup[player]
        if own and rank_of(own[-1]) == rank_of(card):
            self.protected.append(player)
            self.laid[str(player)]["note"] = "protected"
        self.up[player].append(card)
        self.laid[str(player)].update(up=card, card=card)
        self.waiting.remove(player)

    def _steal(self, player: int, pointed: int) -> None:
        """Every pile the card matches, the pointed one last under the card; a swap takes back an old pile."""
        parts = self.stolen_parts(player)
        card = self.hands[player].pop()
        players = self.game.players
        order = [v for v in ((player + step) % players for step in range(1, players)) if v in parts and v != pointed]
        before = len(self.faceup[player])
        piles = []
        for victim in [*order, pointed]:
            size = parts[victim]
            swap = size < len(self.faceup[victim])  # a part of the pile: the one the victim had before stealing
            self.faceup[player] += self.faceup[victim][:size]
            self.faceup[victim] = self.faceup[victim][size:]
            self._forget_swaps(victim)
            piles.append({"victim": victim, "cards": size, "swap": swap})
            if before and not swap:
                self.swaps.append({"thief": player, "victim": victim, "size": before})
        self.faceup[player].append(card)
        self.laid[str(player)]["steals"].append(
            {"card": card, "cards": sum(pile["cards"] for pile in piles) + 1, "piles": piles}
        )

    def _forget_swaps(self, player: int) -> None:
        """The player's face-up pile left as a whole: the piles they had before their steals cannot be taken back."""
        self.swaps = [swap for swap in self.swaps if swap["thief"] != player]

    # --- the won cards ----------------------------------------------------------------------------
    def _collect(self, player: int, cards: list[int]) -> None:
        """Won cards wait for the winner to choose the top one; a single card goes straight on the face-up pile."""
        if len(cards) >= 2:
            self.prize = list(cards)
        else:
            self.faceup[player] += cards

    def _close_round(self, outcome: dict) -> None:
        if not self.prize:
            super()._close_round(outcome)
            return
        self.last_round = self._round_record({**outcome, "top": None})
        self.rounds += 1
        self._clear_battle()
        self.phase, self.waiting = "top", [outcome["winner"]]

    def _place_prize(self, top: int) -> None:
        winner = self.waiting[0]
        self.faceup[winner] += [card for card in self.prize if card != top] + [top]
        self.prize, self.waiting = [], []
        self.last_round["top"] = top
        self._start_round()

    def _end(self, reason: str) -> None:
        """A card picked up to look at goes back on top of its pack when the game ends (the clock ran out)."""
        for player, hand in enumerate(self.hands):
            self.piles[player] += hand
            hand.clear()
        super()._end(reason)

    def _clear_battle(self) -> None:
        super()._clear_battle()
        self.protected, self.down_due, self.swaps = [], [0] * self.game.players, []

    # --- views and storage ---------------------------------------------------------------------
    def player_view(self, player: int) -> dict:
        view = super().player_view(player)
        view.update(
            to_move=self.waiting[0] if self.phase in ("turn", "top") else None,
            faceup=[list(pile) for pile in self.faceup],
            faceup_counts=[len(pile) for pile in self.faceup],
            hand=list(self.hands[player]),
            hand_counts=[len(hand) for hand in self.hands],
            prize=list(self.prize),
            protected=list(self.protected),
            swaps=[dict(swap) for swap in self.swaps],
            steal_targets=self.steal_targets(player) if self.phase == "turn" and self.waiting[0] == player else [],
        )
        return view

    def card_ids(self) -> list[int]:
        return super().card_ids() + [c for zone in (*self.faceup, *self.hands, self.prize) for c in zone]

    def to_dict(self) -> dict:
        data = super().to_dict()
        data.update(
            faceup=[list(pile) for pile in self.faceup],
            hands=[list(hand) for hand in self.hands],
            prize=list(self.prize),
            protected=list(self.protected),
            down_due=list(self.down_due),
            swaps=[dict(swap) for swap in self.swaps],
        )
        return data

    def read(self, data: dict) -> None:
        super().read(data)
        self.faceup = [card_list(p, "a face-up pile") for p in data["faceup"]]
        self.hands = [card_list(h, "a hand") for h in data["hands"]]
        self.prize = card_list(data["prize"], "the won cards")
        self.protected = player_list(data["protected"])
        self.down_due = [stored_int(n) for n in data["down_due"]]
        # A game stored before swaps existed has none pending (the old rules had no swaps).
        self.swaps = [
            {key: stored_int(swap[key]) for key in ("thief", "victim", "size")} for swap in data.get("swaps", [])
        ]

    def shape_problems(self) -> list[str]:
        problems = super().shape_problems()
        players = self.game.players
        if not len(self.faceup) == len(self.hands) == len(self.down_due) == players:
            problems.append("wrong number of face-up piles or hands")
        if not set(self.protected) <= set(range(players)) or len(set(self.protected)) != len(self.protected):
            problems.append("a protected player who does not sit at the table")
        if any(not 0 <= n <= WAR_DOWN for n in self.down_due) or any(len(hand) > 1 for hand in self.hands):
            problems.append("impossible cards due or in hand")
        if self.won and any(self.won):
            problems.append("Steal War has no won piles")
        seats = range(players)
        if len(self.faceup) == players and any(
            swap["thief"] not in seats
            or swap["victim"] not in seats
            or swap["thief"] == swap["victim"]
            or not 1 <= swap["size"] < len(self.faceup[swap["thief"]])
            for swap in self.swaps
        ):
            problems.append("a swap of a pile that is not there")
        return problems

    def fight_problems(self) -> list[str]:
        problems = super().fight_problems() if self.phase != "top" else []
        mover = self.waiting[0] if self.waiting and self.phase in ("turn", "reshuffle") else None
        if any(self.hands[p] for p in range(self.game.players) if p != mover):
            problems.append("a card in the hand of a player who is not moving")
        if any(self.down_due[p] for p in range(self.game.players) if p not in self.waiting):
            problems.append("war cards due from a player who is not in the battle")
        if any(p in self.waiting for p in self.protected):
            problems.append("a protected pile before its player played")
        if self.swaps and self.phase not in ("turn", "reshuffle"):
            problems.append("a swap outside a battle")
        if self.phase == "top":
            if (
                len(self.waiting) != 1
                or len(self.prize) < 2
                or self.contenders
                or self.laid
                or any(self.up)
                or any(self.down)
            ):
                problems.append("a choice of top card without a won battle")
        elif self.prize:
            problems.append("won cards outside the choice of the top card")
        return problems

    def mover_problems(self) -> list[str]:
        player = self.waiting[0]
        started = str(player) in self.laid
        if self.phase == "turn" and not self.hands[player]:
            return ["the player to move holds no card"]
        if self.phase == "reshuffle" and (
            self.hands[player] or self.piles[player] or not self.faceup[player] or not started
        ):
            return ["a reshuffle nobody needs"]
        if self.down_due[player] and self.hands[player]:
            return ["a card picked up before the war cards are laid"]
        if any(self.down_due[p] != self.battle_size - 1 for p in self.waiting[1:]) or (
            not started and self.down_due[player] != self.battle_size - 1
        ):
            return ["war cards laid before the player's turn"]
        if not self.in_war and (any(self.down) or self.battle_size != 1):
            return ["war cards without a war"]
        return []


class NeverStealsBot(Bot):
    """Plays every card it picks up and puts a random won card on top."""

    name = "beginner"
    label = N_("beginner")

    def choose(self, view: dict, legal: list[Move], rng: random.Random) -> Move:
        if legal[0].kind == "top":
            return rng.choice(legal)
        return legal[0]


class StealingBot(Bot):
    """Steals whenever it can, its card on the largest pile; on top puts the won card whose rank is most in sight."""

    name = "strong"
    label = N_("strong")

    def choose(self, view: dict, legal: list[Move], rng: random.Random) -> Move:
        if legal[0].kind == "top":
            return self.choose_top(view, legal)
        steals = [move for move in legal if move.kind == "steal"]
        if not steals:
            return legal[0]
        return max(steals, key=lambda move: (view["faceup_counts"][int(move.detail)], -int(move.detail)))

    @staticmethod
    def choose_top(view: dict, legal: list[Move]) -> Move:
        """The card whose rank has the most cards in sight: the fewest unseen cards can steal it."""
        seen = (
            [c for pile in view["faceup"] for c in pile]
            + [c for row in view["table_up"] for c in row]
            + view["removed"]
            + view["prize"]
        )
        ranks = [rank_of(c) for c in seen]
        return max(legal, key=lambda move: ranks.count(rank_of(move.cards[0])))


class StealWar(StandardWarGame):
    """Steal War: jokers in, won cards face up, a matching card steals a pile."""

    id: ClassVar[str] = "steal-war"
    title: ClassVar[str] = N_("Steal War")
    order: ClassVar[int] = 150
    deck_name: ClassVar[str] = "jokers"
    state_class = StealWarState
    bots = {"beginner": NeverStealsBot, "strong": StealingBot}
    option_specs = time_options()

    @property
    def out_rule(self) -> str:
        return "lose"

    def war_battle_size(self, tied_card: int, counts: list[int]) -> int:
        return WAR_DOWN + 1
