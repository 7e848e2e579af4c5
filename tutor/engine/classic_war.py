"""War and its variants on the standard deck (source 004): War, Războiul, P'yanitsa, Tod und Leben, Two-deck War, Joker
War.

**War** (2-4 players, 52 cards, ace high, suits ignored). The cards are shuffled and dealt
face down: 26 each for two players, 17 for three, 13 for four; the cards left over stay out
of the game (``aside``). Nobody looks at their pile. In a round every player still in the
game turns the top card of their pile (``turn``, in seat order: there is nothing to choose,
the move lets a lesson pause before the card shows). The highest card wins every card on
the table; they go to the bottom of the winner's pile. Equal highest cards are **war**:
every player still in the round (not only the tied ones) lays ``war_size`` cards face down
(three, or one) and turns one more face up; the highest new card wins everything on the
table, and a new tie is another war. A player with no cards at the start of a round is
out; the last player with cards wins.

Running out of cards in a war (``out_of_cards``): **lose** (the default): a player who
cannot lay the cards the war needs lays what they have face down and loses the war; if
every player in the war runs out, the one who runs out first (fewest cards) loses, and if
they run out at the same moment the game is a draw. **last_card**: the last card is turned
face up and stands for every battle of that war. The source's examples: A and B both turn
a seven, one face-down card per war. Lose: each lays one card face down, but it is B's
last card: A wins. Last card: A lays a card face down; B has one card, so it goes face up:
a queen; A's face-up card is a queen too, so the war goes on; B's queen stays while A lays
a card face down and one face up, a nine: B wins all seven cards (five from A, two from B).

Jokers (``jokers``): two jokers above the ace, or (two players) one joker buried in each
player's pile. With a time limit the clock may run out at the start of a round
(``time_up``); then, with ``time_limit_rule`` "remove_low", every 3 won leaves play, once
every 3 has left the 4s, and so on up to the aces; with "most_cards" the game ends at once
and the most cards wins. ``round_limit`` ends the game after that many rounds (most cards
wins).

**Războiul** (Romania): a war has as many cards as the tied card's value (an 8: seven face
down, the eighth face up); if a player in the war has fewer cards, everyone lays as many
as the shortest (k cards: k-1 face down, the last face up); a player in the war with no
cards at all loses. **P'yanitsa** (the Drunkard, Russia): 36 cards (6 to ace); the six beats
the ace, and only the ace; a tie for the highest card makes every player lay a new card, the
tied ones and the others (``tie_rule``: a new face-up card on the one played, or one face
down and one face up), and the highest new card wins the trick; ``drunkard``: the player who ends
with every card is the drunkard and the others win, or the first player to run out is the
drunkard. **Tod und Leben** (Mecklenburg): 32 cards (7 to ace), two players, 16 each; the
winner of a trick keeps it in a ``won`` pile, out of play; a tie simply turns the next card
(the trick grows to 4, 6, ...); after all 16 cards the player who won more cards takes the
round; several rounds (``rounds``), each dealt anew. **Two-deck War**: each of two players
shuffles a whole 52-card deck; won cards go to a ``won`` pile that is shuffled into a new
pile when the pile runs out; the game ends when a player has no cards. **Joker War**: 54
cards; jokers beat aces and a 2 beats a joker; a war is two cards face down and a third
face up; a player who runs out in a war loses.

Decisions:

- **Dealing.** One chance move ``shuffle`` carries the whole order; player ``p`` gets the
  ``p``-th run of equal length (the last card of a pile is its top) and the cards left at
  the end go ``aside`` for the whole game. Two-deck War: one ``shuffle`` move carries both
  decks, copy 0 first (player 0's pile), then copy 1 (player 1's).
- **Buried jokers** (two players): the jokers are taken out of the shuffled order, the 52
  other cards dealt 26 each, and the joker 52 goes into player 0's pile, the joker 53 into
  player 1's, at the place ``(position of that joker in the shuffled order) mod 27``
  counted from the bottom: a replay needs no generator.
- **Where won cards go.** Under the winner's pile (index 0): the winner picks up their own
  cards first, then each other player's in seat order from the winner; each player's
  face-up cards in the order turned, then their face-down cards in the order laid; the
  first card picked up becomes the new bottom. Two-deck War and Tod und Leben: onto the
  ``won`` pile in the same order. (Picking up seat by seat from player 0 instead makes
  many more deals cycle for ever: over 60 seeds, 3 two-player War games and 16 two-player
  P'yanitsa games reached the safety cap, against none this way.)
- **Two-deck War's reshuffle** (chance move ``reshuffle``) happens just before a player's
  turn when the pile holds fewer cards than the turn needs: the shuffled won cards go under
  the cards still in the pile. Nothing is won during a battle, so this is the same as
  shuffling at the moment the pile runs out.
- **Who runs out first** is who has fewer cards when the war needs them (cards are laid
  together). A player who runs out lays every card they have face down; whatever a
  player laid stays on the table for the winner. If only one player can finish the war,
  they win it. A drawn game (everyone left runs out at the same moment; with
  ``last_card``, the last cards of everyone left tie and nobody can lay another card)
  leaves the cards on the table; its winners are those players.
- **More than two players with a six or a 2 that beats the top card.** P'yanitsa: if an
  ace is among the cards compared, every six counts above everything (the source: "if a
  six and an ace are played, the six counts as the highest card"); without an ace a six is
  the lowest card. Joker War the same with the 2 and the joker. So 6, K, A: the six wins.
- **Razboiul's aces count 11**, pictures 10 (the source: "perhaps they all have the value
  10"), so a war over two aces is ten cards face down and the eleventh face up.
- **P'yanitsa's ties with three or four players.** The source: "Se c'è un pareggio per il
  massimo allora: tutti mettono una nuova carta scoperta sulla carta che hanno giocato"
  (a tie for the highest card: everyone puts a new card on the card they played), so every
  player still in the round lays a new card, not only the tied ones, as in War.
- **P'yanitsa's ties.** A player who cannot lay what the tie needs (one card, or two with
  ``down_up``) drops out of that tie without laying; whatever they laid stays for the
  winner. If every player drops out, nobody wins the trick: each player takes back the
  cards they laid this round (under their pile).
- **P'yanitsa's end at a limit** (round limit, time, safety cap): the drunkard is whoever
  is nearest to the drunkard's fate (the most cards with ``all_cards``, the fewest with
  ``runs_out``) and every other player wins; if all hold the same number, all win.
- **Tod und Leben's tie on the last cards** (the source: "Se le ultime carte dei giocatori
  sono uguali, ottengono una carta ciascuna", they get one card each): the undecided trick
  is split, each player takes back the cards they laid in it (into their won pile): one
  card each when only the last cards tie, more when the trick grew through ties before
  (ties on the 15th and 16th cards: a trick of 4, two cards back each). A 16-16 round is
  drawn; the game's winner won most rounds (equal: both win).
- **The time-limit rule** removes the ranks above the deck's lowest from the lowest up (3
  to ace in a 52-card deck, 7 to ace in P'yanitsa's 36); the lowest rank, which beats the
  top card in Joker War and P'yanitsa, and the jokers stay. A rank is finished when every
  card of it in play (not ``aside``) has left; the rank removed from a trick is fixed when
  the trick is won. Removed cards lie face up in ``removed``.
- **The safety cap**: a game that reaches ``ROUND_CAP`` (5000) rounds ends as "most cards
  wins" with ``ended_by`` "round_cap" (War can go on for ever: won cards go under the pile
  in a fixed order, and some deals cycle). Over 200 seeds per game and player count with
  the default options it ended 4 three-player War games and 6 three-player Războiul games
  (each a cycle between two players left, about 10,100 moves), and no other; the longest
  game that ended by itself was a Two-deck War of 3961 rounds.

The state opens with the card lists (``piles``); ``waiting`` are the players still to turn
in the battle in progress (the first is to move), ``contenders`` the players still in the
fight, ``out`` those who ran out or dropped out this round, ``frozen`` those whose last card
stands (``last_card``). ``battles`` records the decided battles of the round and ``laid`` the
battle in progress (face-down cards as ids: a view replaces them by None); ``last_round``
keeps the whole round: battles, winner, cards won, cards removed.
"""

from __future__ import annotations

import copy
import random
from functools import lru_cache
from typing import ClassVar

from tutor.engine.core import CHANCE, Game, InvalidOptions, InvalidState, Move, Option, PhasedState, stored_int
from tutor.engine.war_family import TURNING_BOTS, card_list, limit_options
from tutor.standard_deck import ACE, COPY_SIZE, JACK, JOKER_IDS, JOKER_RANK, KING, MAX_COPIES, deck, rank
from tutor.text import N_

#: The safety cap on rounds (see the module docstring).
ROUND_CAP = 5000
#: A six (P'yanitsa) or a 2 (Joker War) facing the top card counts above everything.
ABOVE_ALL = 16
END_REASONS = ("", "all_cards", "round_limit", "time_limit", "round_cap", "draw", "ran_out", "all_rounds")


@lru_cache(maxsize=1)
def _ranks() -> tuple[int, ...]:
    """Every card id's rank, looked up once: battles compare ranks millions of times in a simulation."""
    return tuple(rank(card_id) for card_id in range(MAX_COPIES * COPY_SIZE))


def rank_of(card_id: int) -> int:
    return _ranks()[card_id]


def razboiul_value(card_id: int) -> int:
    """How many cards a Războiul war over this card needs: 2-10 their number, pictures 10, the ace 11."""
    value = rank_of(card_id)
    if JACK <= value <= KING:
        return 10
    return 11 if value == ACE else value


def hidden_record(record):
    """A copy of a battle record (or a round record) with every face-down card replaced by None."""
    if isinstance(record, dict):
        return {key: [None] * len(value) if key == "down" else hidden_record(value) for key, value in record.items()}
    if isinstance(record, list):
        return [hidden_record(item) for item in record]
    return record


def player_list(value) -> list[int]:
    if not isinstance(value, list):
        raise TypeError("not a list of players")
    return [stored_int(p) for p in value]


class ClassicWarState(PhasedState):
    """A position of War or a variant: piles, won piles, the table and the battle in progress."""

    CHANCE_PHASES = ("deal", "reshuffle")

    game: StandardWarGame
    PHASES: ClassVar[tuple[str, ...]] = ("deal", "turn", "reshuffle", "over")
    END_REASONS: ClassVar[tuple[str, ...]] = END_REASONS
    round_cap: ClassVar[int] = ROUND_CAP

    def __init__(self, game: StandardWarGame) -> None:
        super().__init__(game)
        players = game.players
        self.piles: list[list[int]] = [[] for _ in range(players)]  # face down; the last card is the top
        self.won: list[list[int]] = [[] for _ in range(players)]  # Two-deck War, Tod und Leben: won cards, face down
        self.down: list[list[int]] = [[] for _ in range(players)]  # face-down cards on the table this round
        self.up: list[list[int]] = [[] for _ in range(players)]  # face-up cards on the table this round, in order
        self.aside: list[int] = []  # left over by the deal, face down, out of play
        self.removed: list[int] = []  # taken out of play by the time-limit rule, face up
        self.phase = "deal"
        self.rounds = 0
        self.waiting: list[int] = []  # still to turn in this battle, in seat order; the first is to move
        self.contenders: list[int] = []  # still in the fight in this battle
        self.frozen: list[int] = []  # last_card: their last card stands in this battle
        self.out: list[int] = []  # ran out or dropped out of this round's fight, in order
        self.ran_out: list[list[int]] = []  # [player, cards they had] for who ran out in this battle
        self.battle_size = 0  # cards each player lays in this battle, the last face up
        self.laid: dict[str, dict] = {}  # what each player laid in this battle, for the record
        self.battles: list[dict] = []  # this round's decided battles
        self.time_up = False
        self.ended_by = ""
        self.drawn: list[int] = []  # the winners of a drawn game
        self.deal_scores: list[list[int]] = []  # Tod und Leben: cards won per player in each finished round
        self.last_round: dict | None = None

    # --- counts ---------------------------------------------------------------------------
    def available(self, player: int) -> int:
        """Cards the player can still lay: the pile, and in Two-deck War the won pile too."""
        if self.game.reshuffles_won:
            return len(self.piles[player]) + len(self.won[player])
        return len(self.piles[player])

    def table_cards(self, player: int) -> list[int]:
        """What the player laid this round, face up first (the order won cards are gathered in)."""
        return self.up[player] + self.down[player]

    def card_count(self, player: int) -> int:
        """Every card the player owns, including what they laid this round."""
        return len(self.piles[player]) + len(self.won[player]) + len(self.up[player]) + len(self.down[player])

    @property
    def in_war(self) -> bool:
        return bool(self.battles)

    @property
    def at_round_start(self) -> bool:
        """Whether the clock may run out now: a round is under way and nobody has laid a card."""
        return self.phase in ("turn", "reshuffle") and not any(self.up) and not any(self.down)

    # --- the engine API ---------------------------------------------------------------------
    def winners(self) -> list[int]:
        if not self.is_over:
            return []
        if self.ended_by == "draw":
            return sorted(self.drawn)
        return self.game.winners_of(self)

    def legal_moves(self) -> list[Move]:
        if self.phase != "turn":
            return []
        return [Move("turn", self.waiting[0])]

    def chance_move(self, rng: random.Random) -> Move:
        if self.phase == "deal":
            return Move("shuffle", CHANCE, tuple(self.game.shuffled(rng)))
        if self.phase == "reshuffle":
            player = self.waiting[0]
            order = list(self.reshuffle_source(player))
            rng.shuffle(order)
            return Move("reshuffle", CHANCE, tuple(order), str(player))
        raise InvalidState("no chance event is pending")

    def is_legal_chance(self, move: Move) -> bool:
        if move.kind == "shuffle":
            return self.phase == "deal" and not move.detail and self.game.is_deal_order(move.cards)
        if move.kind == "reshuffle":
            return (
                self.phase == "reshuffle"
                and move.detail == str(self.waiting[0])
                and sorted(move.cards) == sorted(self.reshuffle_source(self.waiting[0]))
            )
        if move.kind == "time_up":
            minutes = self.game.options.get("time_limit_minutes", 0)
            return bool(minutes) and not self.time_up and not move.cards and not move.detail and self.at_round_start
        return False

    def _apply(self, move: Move) -> None:
        if move.kind == "shuffle":
            self._deal(list(move.cards))
        elif move.kind == "reshuffle":
            self._reshuffle(int(move.detail), list(move.cards))
        elif move.kind == "time_up":
            self._clock_runs_out()
        else:
            self._apply_player_move(move)

    def _apply_player_move(self, move: Move) -> None:
        self._lay(move.player)
        self._advance()

    # --- dealing and reshuffling ------------------------------------------------------------
    def _deal(self, order: list[int]) -> None:
        self.piles, self.aside = self.game.deal(order)
        self.won = [[] for _ in range(self.game.players)]
        self._start_round()

    def reshuffle_source(self, player: int) -> list[int]:
        """The cards a reshuffle turns into a new pile: the won pile."""
        return self.won[player]

    def needs_reshuffle(self, player: int) -> bool:
        """Whether the pile holds fewer cards than the turn needs while won cards wait."""
        return self.game.reshuffles_won and bool(self.won[player]) and len(self.piles[player]) < self.lay_count(player)

    def _reshuffle(self, player: int, order: list[int]) -> None:
        self.piles[player] = order + self.piles[player]
        self.reshuffle_source(player).clear()
        self.phase = "turn"
        self._advance()

    def _clock_runs_out(self) -> None:
        self.time_up = True
        if self.game.options.get("time_limit_rule") == "most_cards":
            self._end("time_limit")

    # --- rounds and battles -------------------------------------------------------------------
    def _start_round(self) -> None:
        reason = self._end_reason()
        if reason == "round_over":
            self._finish_deal()
            return
        if reason:
            self._end(reason)
            return
        self.phase = "turn"
        self._start_battle([p for p in range(self.game.players) if self.available(p)], 1)
        self._advance()

    def _end_reason(self) -> str:
        """Why the game (or a Tod und Leben round) ends before the next round, or "" if it goes on."""
        holders = [p for p in range(self.game.players) if self.available(p)]
        if self.game.redeals:
            return "" if holders else "round_over"
        if self.game.drunkard_rule == "runs_out" and len(holders) < self.game.players:
            return "ran_out"
        if len(holders) <= 1:
            return "all_cards"
        limit = self.game.options.get("round_limit", 0)
        if limit and self.rounds >= limit:
            return "round_limit"
        if self.rounds >= self.round_cap:
            return "round_cap"
        return ""

    def _finish_deal(self) -> None:
        """Tod und Leben: score the round; deal again, or end after the agreed rounds."""
        self.deal_scores.append([len(pile) for pile in self.won])
        if len(self.deal_scores) >= self.game.options["rounds"]:
            self._end("all_rounds")
        else:
            self.phase = "deal"

    def _start_battle(self, players: list[int], size: int) -> None:
        self.contenders, self.waiting = list(players), list(players)
        self.frozen, self.ran_out, self.laid = [], [], {}
        self.battle_size = size

    def lay_count(self, player: int) -> int:
        """How many cards the player lays in this battle (0: nothing, they sit it out)."""
        have, size = self.available(player), self.battle_size
        if have >= size:
            return size
        return 0 if self.game.out_rule == "drop" else have

    def _advance(self) -> None:
        """Run the automatic steps until a player or the chance player must move, or the game ends."""
        while self.phase == "turn":
            if not self.waiting:
                self._resolve()
                continue
            player = self.waiting[0]
            if self.lay_count(player) == 0:
                self._sit_out(player)
            elif self.needs_reshuffle(player):
                self.phase = "reshuffle"
            else:
                return

    def _sit_out(self, player: int) -> None:
        """A player in a war with nothing to lay: the last card stands, or they are out of the fight."""
        self.waiting.remove(player)
        rule = self.game.out_rule
        if rule == "last_card":
            self.frozen.append(player)
            self.laid[str(player)] = {"down": [], "up": None, "card": self.up[player][-1], "note": "last_card"}
            return
        self.contenders.remove(player)
        self.out.append(player)
        if rule == "lose":
            self.ran_out.append([player, 0])
        self.laid[str(player)] = {
            "down": [],
            "up": None,
            "card": None,
            "note": "ran_out" if rule == "lose" else "dropped_out",
        }

    def _lay(self, player: int) -> None:
        """The turn: lay the battle's cards, face down but the last; short of cards, the out-of-cards rule."""
        count = self.lay_count(player)
        cards = [self.piles[player].pop() for _ in range(count)]
        self.waiting.remove(player)
        note = ""
        if count < self.battle_size and self.game.out_rule == "lose":
            down, up, note = cards, None, "ran_out"
            self.contenders.remove(player)
            self.out.append(player)
            self.ran_out.append([player, count])
        else:
            down, up = cards[:-1], cards[-1]
            self.up[player].append(up)
            if count < self.battle_size:
                note = "last_card"
        self.down[player] += down
        self.laid[str(player)] = {"down": down, "up": up, "card": up, "note": note}

    def current_card(self, player: int) -> int:
        return self.up[player][-1]

    def leaders(self, players: list[int]) -> list[int]:
        """The players whose card is the strongest of these players' cards."""
        cards = [self.current_card(p) for p in players]
        strengths = [self.game.strength(c, cards) for c in cards]
        best = max(strengths)
        return [p for p, s in zip(players, strengths) if s == best]

    def _resolve(self) -> None:
        """Decide the battle: one strongest card wins; a tie is war, unless nobody can lay another card."""
        live = list(self.contenders)
        leaders = self.leaders(live) if live else []
        record = {"size": self.battle_size, "laid": self.laid, "leaders": leaders, "result": "war"}
        self.battles.append(record)
        if not live:
            self._nobody_finished(record)
        elif len(leaders) == 1:
            record["result"] = "win"
            self._win(leaders[0])
        else:
            self._declare_war(record, live, leaders)

    def _declare_war(self, record: dict, live: list[int], leaders: list[int]) -> None:
        counts = [self.available(p) for p in live]
        if not any(counts):
            self._deadlock(record, live, leaders)
            return
        self._start_battle(live, self.game.war_battle_size(self.current_card(leaders[0]), counts))

    def _deadlock(self, record: dict, players: list[int], leaders: list[int]) -> None:
        """A tie nobody in it can lay another card for: a draw, or (P'yanitsa, Tod und Leben) the trick is split."""
        rule = self.game.out_rule
        if rule == "drop":
            record["result"] = "split"
            self._split()
        else:
            record["result"] = "draw"
            self._draw(leaders if rule == "last_card" else players)

    def _nobody_finished(self, record: dict) -> None:
        """Everyone in the battle ran out (the last to run out wins) or dropped out (the trick is split)."""
        if self.game.out_rule != "lose":
            record["result"] = "split"
            self._split()
            return
        most = max(count for _, count in self.ran_out)
        last = [p for p, count in self.ran_out if count == most]
        record["leaders"] = last
        if len(last) == 1:
            record["result"] = "win"
            self._win(last[0])
        else:
            record["result"] = "draw"
            self._draw(last)

    # --- the end of a round ------------------------------------------------------------------
    def _gather_table(self, winner: int) -> list[int]:
        """Every card on the table, the winner's first, then seat by seat from the winner; the table is cleared."""
        players = self.game.players
        table = []
        for player in [(winner + step) % players for step in range(players)]:
            table += self.table_cards(player)
            self.up[player], self.down[player] = [], []
        return table

    def removal_rank(self) -> int | None:
        """The rank the time-limit rule removes now: the lowest one with a card still in play."""
        gone = set(self.aside) | set(self.removed)
        for value in self.game.removal_ranks():
            if any(rank_of(c) == value and c not in gone for c in self.game.card_ids()):
                return value
        return None

    def _win(self, winner: int) -> None:
        table = self._gather_table(winner)
        removed = []
        if self.time_up and self.game.options.get("time_limit_rule") == "remove_low":
            value = self.removal_rank()
            removed = [c for c in table if rank_of(c) == value]
            self.removed += removed
        kept = [c for c in table if c not in removed]
        self._collect(winner, kept)
        self._close_round({"winner": winner, "cards": len(table), "won": len(kept), "removed": removed})

    def _collect(self, player: int, cards: list[int]) -> None:
        """Won cards go under the pile, or onto the won pile (Two-deck War, Tod und Leben)."""
        if self.game.won_pile:
            self.won[player] += cards
        else:
            self.piles[player][:0] = cards

    def _split(self) -> None:
        """Nobody wins the trick: each player takes back what they laid this round."""
        taken = {}
        for player in range(self.game.players):
            cards = self.table_cards(player)
            if cards:
                taken[str(player)] = len(cards)
                self._collect(player, cards)
            self.up[player], self.down[player] = [], []
        self._close_round({"winner": None, "cards": sum(taken.values()), "won": 0, "removed": [], "taken_back": taken})

    def _draw(self, players: list[int]) -> None:
        """Everyone left ran out together: the game is drawn, the cards stay on the table."""
        self.drawn = sorted(players)
        self.last_round = self._round_record(
            {
                "winner": None,
                "cards": sum(len(self.table_cards(p)) for p in range(self.game.players)),
                "won": 0,
                "removed": [],
                "drawn": self.drawn,
            }
        )
        self.rounds += 1
        self._end("draw")

    def _round_record(self, outcome: dict) -> dict:
        return {"round": self.rounds + 1, "battles": self.battles, "wars": len(self.battles) - 1, **outcome}

    def _close_round(self, outcome: dict) -> None:
        self.last_round = self._round_record(outcome)
        self.rounds += 1
        self._clear_battle()
        self._start_round()

    def _clear_battle(self) -> None:
        self.waiting, self.contenders, self.frozen, self.out, self.ran_out = [], [], [], [], []
        self.battles, self.laid, self.battle_size = [], {}, 0

    def _end(self, reason: str) -> None:
        self.phase, self.ended_by = "over", reason
        self._clear_battle()

    # --- views and storage ---------------------------------------------------------------------
    def player_view(self, player: int) -> dict:
        players = range(self.game.players)
        removal = (
            self.removal_rank() if self.time_up and self.game.options.get("time_limit_rule") == "remove_low" else None
        )
        return {
            "game": self.game.id,
            "you": player,
            "players": self.game.players,
            "phase": self.phase,
            "rounds": self.rounds,
            "wars": len(self.battles),
            "pile_counts": [len(self.piles[p]) for p in players],
            "won_counts": [len(self.won[p]) for p in players],
            "card_counts": [self.card_count(p) for p in players],
            "aside_count": len(self.aside),
            "removed": list(self.removed),
            "table_up": [list(self.up[p]) for p in players],
            "table_down_counts": [len(self.down[p]) for p in players],
            "contenders": list(self.contenders),
            "waiting": list(self.waiting),
            "to_move": self.waiting[0] if self.phase == "turn" else None,
            "out": list(self.out),
            "frozen": list(self.frozen),
            "battle_size": self.battle_size,
            "battle": hidden_record(self.laid),
            "battles": hidden_record(self.battles),
            "last_round": hidden_record(self.last_round),
            "time_up": self.time_up,
            "removal_rank": removal,
            "deal_scores": [list(s) for s in self.deal_scores],
            "ended_by": self.ended_by,
            "winners": self.winners(),
        }

    def card_ids(self) -> list[int]:
        zones = [*self.piles, *self.won, *self.down, *self.up, self.aside, self.removed]
        return [card_id for zone in zones for card_id in zone]

    def summary(self) -> dict:
        data = {
            "rounds": self.rounds,
            "ended_by": self.ended_by,
            "card_counts": {str(p): self.card_count(p) for p in range(self.game.players)},
        }
        if self.game.redeals:
            data["deal_scores"] = [list(s) for s in self.deal_scores]
        return data

    def to_dict(self) -> dict:
        return {
            "piles": [list(p) for p in self.piles],
            "won": [list(p) for p in self.won],
            "down": [list(p) for p in self.down],
            "up": [list(p) for p in self.up],
            "aside": list(self.aside),
            "removed": list(self.removed),
            "phase": self.phase,
            "rounds": self.rounds,
            "waiting": list(self.waiting),
            "contenders": list(self.contenders),
            "frozen": list(self.frozen),
            "out": list(self.out),
            "ran_out": [list(pair) for pair in self.ran_out],
            "battle_size": self.battle_size,
            "laid": copy.deepcopy(self.laid),
            "battles": copy.deepcopy(self.battles),
            "time_up": self.time_up,
            "ended_by": self.ended_by,
            "drawn": list(self.drawn),
            "deal_scores": [list(s) for s in self.deal_scores],
            "last_round": copy.deepcopy(self.last_round),
        }

    @classmethod
    def from_dict(cls, game: StandardWarGame, data: dict) -> ClassicWarState:
        state = cls(game)
        try:
            state.read(data)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise InvalidState(f"{game.id}: malformed state ({error!r})") from error
        state.validate()
        return state

    def read(self, data: dict) -> None:
        """Fill the fields from a stored dict (KeyError, TypeError or ValueError when malformed)."""
        self.piles = [card_list(p, "a pile") for p in data["piles"]]
        self.won = [card_list(p, "a won pile") for p in data["won"]]
        self.down = [card_list(p, "a face-down row") for p in data["down"]]
        self.up = [card_list(p, "a face-up row") for p in data["up"]]
        self.aside = card_list(data["aside"], "the cards set aside")
        self.removed = card_list(data["removed"], "the removed cards")
        self.phase = data["phase"]
        self.rounds = stored_int(data["rounds"])
        self.waiting = player_list(data["waiting"])
        self.contenders = player_list(data["contenders"])
        self.frozen = player_list(data["frozen"])
        self.out = player_list(data["out"])
        self.ran_out = [player_list(pair) for pair in data["ran_out"]]
        self.battle_size = stored_int(data["battle_size"])
        self.laid, self.battles, self.last_round = (
            copy.deepcopy(data[key]) for key in ("laid", "battles", "last_round")
        )
        self.time_up, self.ended_by = data["time_up"], data["ended_by"]
        self.drawn = player_list(data["drawn"])
        self.deal_scores = [player_list(score) for score in data["deal_scores"]]
        if (
            not isinstance(self.laid, dict)
            or not isinstance(self.battles, list)
            or not all(isinstance(b, dict) for b in self.battles)
        ):
            raise TypeError("the battle records are not records")
        if self.last_round is not None and not isinstance(self.last_round, dict):
            raise TypeError("last_round is not a record")
        if not isinstance(self.phase, str) or not isinstance(self.ended_by, str) or not isinstance(self.time_up, bool):
            raise TypeError("phase, end reason or clock of the wrong type")

    def validate(self) -> None:
        """Raise :class:`InvalidState` unless this position can occur in a real game."""
        problems = self.shape_problems()
        if problems:
            raise InvalidState(f"{self.game.id}: " + "; ".join(problems))
        problems = self.card_problems() + self.fight_problems()
        if problems:
            raise InvalidState(f"{self.game.id}: " + "; ".join(problems))

    def shape_problems(self) -> list[str]:
        """Wrong numbers of rows, unknown phase, players who do not sit at this table, negative counts."""
        players = self.game.players
        problems = []
        if not all(len(rows) == players for rows in (self.piles, self.won, self.down, self.up)):
            problems.append("wrong number of piles or table rows")
        if self.phase not in self.PHASES or self.ended_by not in self.END_REASONS:
            problems.append("unknown phase or end reason")
        if (self.phase == "over") != bool(self.ended_by):
            problems.append("end reason does not match the phase")
        seats = set(range(players))
        named = [
            *self.waiting,
            *self.contenders,
            *self.frozen,
            *self.out,
            *self.drawn,
            *(pair[0] for pair in self.ran_out if pair),
        ]
        if not set(named) <= seats:
            problems.append("a player who does not sit at the table")
        if self.rounds < 0 or self.battle_size < 0 or any(len(pair) != 2 or pair[1] < 0 for pair in self.ran_out):
            problems.append("a negative count")
        if any(len(score) != players or min(score) < 0 for score in self.deal_scores):
            problems.append("an impossible round score")
        return problems

    def card_problems(self) -> list[str]:
        ids = self.card_ids()
        problems = []
        between_rounds = self.phase == "deal" and self.deal_scores
        if self.phase == "deal" and not between_rounds:
            if ids:
                problems.append("cards dealt before the shuffle")
            return problems
        if len(ids) != len(set(ids)) or sorted(ids) != sorted(self.game.card_ids()):
            problems.append("cards lost or duplicated")
        if len(self.aside) != self.game.aside_size():
            problems.append("the wrong number of cards set aside")
        if between_rounds and any(self.piles + self.down + self.up):
            problems.append("cards out of the won piles between two rounds")
        if self.removed and not self.time_up:
            problems.append("cards removed before the time was up")
        if any(rank_of(c) not in self.game.removal_ranks() for c in self.removed):
            problems.append("a removed card of a rank the time-limit rule keeps")
        return problems

    def fight_problems(self) -> list[str]:
        """What is impossible about the battle in progress."""
        problems = []
        lists = (self.waiting, self.contenders, self.frozen, self.out, self.drawn)
        if any(len(set(group)) != len(group) for group in lists):
            problems.append("a player named twice")
        if (
            not set(self.waiting) <= set(self.contenders)
            or set(self.frozen) - set(self.contenders)
            or set(self.waiting) & set(self.frozen)
        ):
            problems.append("waiting or frozen players outside the fight")
        if set(self.out) & set(self.contenders) or not {pair[0] for pair in self.ran_out} <= set(self.out):
            problems.append("a player both in and out of the fight")
        if any(not self.up[p] for p in self.contenders if p not in self.waiting):
            problems.append("a player in the fight without a card")
        if self.frozen and (
            self.game.out_rule != "last_card" or not self.in_war or any(self.available(p) for p in self.frozen)
        ):
            problems.append("a last card standing for a player who can still lay cards")
        if self.ran_out and self.game.out_rule != "lose":
            problems.append("a player ran out under a rule where nobody does")
        if self.waiting != sorted(self.waiting) or self.contenders != sorted(self.contenders):
            problems.append("players out of seat order")
        if bool(self.drawn) != (self.ended_by == "draw"):
            problems.append("drawn players without a draw")
        if self.deal_scores and not self.game.redeals:
            problems.append("round scores in a game of one deal")
        if self.phase in ("turn", "reshuffle"):
            if not self.waiting or self.battle_size < 1:
                problems.append("nobody is to turn")
            else:
                problems += self.mover_problems()
        else:
            on_table = any(self.up) or any(self.down)
            if (
                self.waiting
                or self.contenders
                or self.frozen
                or self.out
                or self.battle_size
                or self.laid
                or self.battles
            ):
                problems.append("a battle outside a round")
            if on_table and self.ended_by != "draw":
                problems.append("cards on the table outside a round")
        return problems

    def mover_problems(self) -> list[str]:
        """What is wrong with the player to move (or the reshuffle they wait for) in a round."""
        player = self.waiting[0]
        if self.lay_count(player) == 0 or self.needs_reshuffle(player) != (self.phase == "reshuffle"):
            return ["the player to move cannot turn"]
        if not self.in_war and (self.out or any(self.down) or self.battle_size != 1):
            return ["war cards without a war"]
        return []


# --- the games ---------------------------------------------------------------------------------


def time_options() -> tuple[Option, ...]:
    """Round limit, time limit and what happens when the time is up."""
    return (
        *limit_options(),
        Option(
            "time_limit_rule",
            N_("When the time is up"),
            "remove_low",
            choices=("remove_low", "most_cards"),
            help=N_(
                "From then on every won 3 leaves the game, then the 4s, and so on up to the aces; or the game ends at "
                "once and the most cards wins."
            ),
        ),
    )


def war_options() -> tuple[Option, ...]:
    """The war rules War and Two-deck War let the players choose."""
    return (
        Option(
            "war_size",
            N_("Face-down cards in a war"),
            3,
            choices=(1, 3),
            help=N_("1 or 3 cards face down before the card that decides the war."),
        ),
        Option(
            "out_of_cards",
            N_("Running out of cards in a war"),
            "lose",
            choices=("lose", "last_card"),
            help=N_(
                "A player who runs out in a war loses it (everyone at once: nobody wins), or their last card is turned "
                "face up and stays for every battle of that war."
            ),
        ),
    )


class StandardWarGame(Game):
    """What the War family on the standard deck shares; each game sets its deck and its rules."""

    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    state_class = ClassicWarState
    bots = TURNING_BOTS
    #: The named deck of content/standard_decks.toml.
    deck_name: ClassVar[str] = "full"
    #: Won cards go onto a won pile instead of under the pile.
    won_pile: ClassVar[bool] = False
    # : The won pile is shuffled into a new pile when the pile runs out (Two-deck War; Tod und Leben keeps it out of
    # play).
    reshuffles_won: ClassVar[bool] = False
    #: A new shuffle and deal after every 16 cards (Tod und Leben).
    redeals: ClassVar[bool] = False

    def card_ids(self) -> tuple[int, ...]:
        return deck(self.deck_name)

    # --- the deal -------------------------------------------------------------------------
    def shuffled(self, rng: random.Random) -> list[int]:
        order = list(self.card_ids())
        rng.shuffle(order)
        return order

    def is_deal_order(self, cards: tuple[int, ...]) -> bool:
        return sorted(cards) == sorted(self.card_ids())

    def deal(self, order: list[int]) -> tuple[list[list[int]], list[int]]:
        """Equal piles in runs of the order; what is left over goes aside."""
        share = len(order) // self.players
        return [list(order[p * share : (p + 1) * share]) for p in range(self.players)], list(
            order[self.players * share :]
        )

    def aside_size(self) -> int:
        return len(self.card_ids()) % self.players

    # --- the rules ----------------------------------------------------------------------------
    @property
    def out_rule(self) -> str:
        """Running out in a war: "lose", "last_card", or "drop" (out of the tie without laying)."""
        return self.options.get("out_of_cards", "lose")

    @property
    def drunkard_rule(self) -> str:
        return ""

    def strength(self, card_id: int, compared: list[int]) -> int:
        """How strong the card is among the cards compared with it (the rank; a joker 15)."""
        return rank_of(card_id)

    def war_battle_size(self, tied_card: int, counts: list[int]) -> int:
        """Cards each player lays in a war battle, the last face up (``counts``: what the players have)."""
        return self.options.get("war_size", 3) + 1

    def removal_ranks(self) -> tuple[int, ...]:
        """The ranks the time-limit rule removes, in order: every rank above the deck's lowest, up to the ace."""
        lowest = min(rank_of(c) for c in self.card_ids())
        return tuple(range(lowest + 1, ACE + 1))

    def winners_of(self, state: ClassicWarState) -> list[int]:
        """The most cards wins (the last player with cards, when one has them all)."""
        counts = [state.card_count(p) for p in range(self.players)]
        best = max(counts)
        return [p for p, count in enumerate(counts) if count == best]


class War(StandardWarGame):
    """The base game: ace high, optional jokers, the war size and out-of-cards rule chosen."""

    id: ClassVar[str] = "war"
    title: ClassVar[str] = N_("War")
    order: ClassVar[int] = 90
    option_specs = (
        *war_options(),
        Option(
            "jokers",
            N_("Jokers"),
            "none",
            choices=("none", "high", "buried"),
            help=N_(
                "Jokers beat every other card. Buried: one joker goes somewhere into each player's pile (two players "
                "only)."
            ),
        ),
        *time_options(),
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.options["jokers"] == "buried" and self.players != 2:
            raise InvalidOptions("war: buried jokers need two players (one joker in each pile)")

    def card_ids(self) -> tuple[int, ...]:
        return deck("full" if self.options["jokers"] == "none" else "jokers")

    def deal(self, order: list[int]) -> tuple[list[list[int]], list[int]]:
        if self.options["jokers"] != "buried":
            return super().deal(order)
        plain = [c for c in order if c not in JOKER_IDS]
        piles, aside = super().deal(plain)
        for player, joker in enumerate(JOKER_IDS):
            piles[player].insert(order.index(joker) % (len(piles[player]) + 1), joker)
        return piles, aside

    def aside_size(self) -> int:
        return 0 if self.options["jokers"] == "buried" else super().aside_size()


class Razboiul(StandardWarGame):
    """Războiul: the tied card's value sets the size of the war."""

    id: ClassVar[str] = "razboiul"
    title: ClassVar[str] = N_("Războiul")
    order: ClassVar[int] = 130
    option_specs = time_options()

    @property
    def out_rule(self) -> str:
        return "lose"

    def war_battle_size(self, tied_card: int, counts: list[int]) -> int:
        """The tied card's value, or as many as the shortest player in the war has."""
        return min(razboiul_value(tied_card), min(count for count in counts if count))


class Pyanitsa(StandardWarGame):
    """P'yanitsa, the Drunkard: 36 cards, the six beats the ace, a tie makes everyone lay a new card."""

    id: ClassVar[str] = "pyanitsa"
    title: ClassVar[str] = N_("P'yanitsa (Drunkard)")
    order: ClassVar[int] = 120
    deck_name: ClassVar[str] = "piquet36"
    option_specs = (
        Option(
            "tie_rule",
            N_("At a tie"),
            "face_up",
            choices=("face_up", "down_up"),
            help=N_("What every player lays when the highest cards are equal."),
        ),
        Option(
            "drunkard",
            N_("Who is the drunkard"),
            "all_cards",
            choices=("all_cards", "runs_out"),
            help=N_("The drunkard loses: the player who ends with all the cards, or the first to run out of cards."),
        ),
        *time_options(),
    )

    @property
    def out_rule(self) -> str:
        return "drop"

    @property
    def drunkard_rule(self) -> str:
        return self.options["drunkard"]

    def strength(self, card_id: int, compared: list[int]) -> int:
        """The six beats the ace: with an ace among the cards it counts above all, otherwise it is the lowest."""
        value = rank_of(card_id)
        if value == 6 and any(rank_of(c) == ACE for c in compared):
            return ABOVE_ALL
        return value

    def war_battle_size(self, tied_card: int, counts: list[int]) -> int:
        return 1 if self.options["tie_rule"] == "face_up" else 2

    def winners_of(self, state: ClassicWarState) -> list[int]:
        """Everyone but the drunkard wins (at a limit: the nearest to the drunkard's fate)."""
        counts = [state.card_count(p) for p in range(self.players)]
        worst = max(counts) if self.drunkard_rule == "all_cards" else min(counts)
        winners = [p for p, count in enumerate(counts) if count != worst]
        return winners or list(range(self.players))


class TodUndLeben(StandardWarGame):
    """Tod und Leben: 32 cards, 16 tricks a round, won tricks kept aside; several rounds."""

    id: ClassVar[str] = "tod-und-leben"
    title: ClassVar[str] = N_("Tod und Leben")
    order: ClassVar[int] = 140
    max_players: ClassVar[int] = 2
    deck_name: ClassVar[str] = "piquet32"
    won_pile: ClassVar[bool] = True
    redeals: ClassVar[bool] = True
    option_specs = (
        Option(
            "rounds",
            N_("Number of rounds"),
            3,
            minimum=1,
            maximum=9,
            help=N_("Each round is a new deal of 16 cards each."),
        ),
    )

    @property
    def out_rule(self) -> str:
        return "drop"

    def war_battle_size(self, tied_card: int, counts: list[int]) -> int:
        return 1

    def winners_of(self, state: ClassicWarState) -> list[int]:
        """Most rounds won (a 16-16 round is nobody's); equal: both win."""
        wins = [sum(1 for score in state.deal_scores if score[p] > score[1 - p]) for p in range(2)]
        best = max(wins)
        return [p for p in range(2) if wins[p] == best]


class TwoDeckWar(StandardWarGame):
    """Two-deck War: a whole deck each; won cards are shuffled into a new pile."""

    id: ClassVar[str] = "two-deck-war"
    title: ClassVar[str] = N_("Two-deck War")
    order: ClassVar[int] = 110
    max_players: ClassVar[int] = 2
    deck_name: ClassVar[str] = "double"
    won_pile: ClassVar[bool] = True
    reshuffles_won: ClassVar[bool] = True
    option_specs = (*war_options(), *time_options())

    def copy_ids(self, copy_number: int) -> list[int]:
        return [c for c in self.card_ids() if c // COPY_SIZE == copy_number]

    def shuffled(self, rng: random.Random) -> list[int]:
        first, second = self.copy_ids(0), self.copy_ids(1)
        rng.shuffle(first)
        rng.shuffle(second)
        return first + second

    def is_deal_order(self, cards: tuple[int, ...]) -> bool:
        size = len(self.copy_ids(0))
        return sorted(cards[:size]) == self.copy_ids(0) and sorted(cards[size:]) == self.copy_ids(1)


class JokerWar(StandardWarGame):
    """Joker War: jokers beat aces, a 2 beats a joker, a war is two cards down and one up."""

    id: ClassVar[str] = "joker-war"
    title: ClassVar[str] = N_("Joker War")
    order: ClassVar[int] = 100
    deck_name: ClassVar[str] = "jokers"
    option_specs = time_options()

    @property
    def out_rule(self) -> str:
        return "lose"

    def strength(self, card_id: int, compared: list[int]) -> int:
        """A 2 beats a joker: with a joker among the cards it counts above all, otherwise it is the lowest."""
        value = rank_of(card_id)
        if value == 2 and any(rank_of(c) == JOKER_RANK for c in compared):
            return ABOVE_ALL
        return value

    def war_battle_size(self, tied_card: int, counts: list[int]) -> int:
        return 3
