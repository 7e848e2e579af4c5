"""What the War-like engines share: sides and piles, round limits and caps, and bots that only turn cards.

MultiWar and TripleSmart build on :class:`BattleTableState`; Calculation War on
:class:`SidePilesState`; War and its variants on the standard deck, Fraction Master and
Casino War take the option helpers, the card checks and the turning bots. The Kids2 War
games share one table: the players sit as sides (one player each, or with four
players two teams of two that share their piles); every side has a face-down draw
pile and a collection pile for the cards it wins; an empty draw pile is refilled by
shuffling the collection pile (a chance move); the game ends when only one side has
cards left, when the agreed number of rounds or minutes is up (the ``round_limit`` and
``time_limit_minutes`` options, as in Calculation War), and then most cards wins.

**Decision** (the safety cap): a game of War can go on for a very long time, and the
source plays "until one player has every card" by default. So that every game ends,
a game that reaches :attr:`WarFamilyState.round_cap` rounds (a module constant per
game, far beyond a lesson's length) ends as if the agreed time were up: most cards
wins, and the end reason is ``round_cap``.

:class:`SidePilesState` is the part Calculation War shares too (its hand of five differs).
Subclasses of :class:`WarFamilyState` supply the cards on the table (:meth:`WarFamilyState.table_cards`), the
deal, the phase in which cards are drawn (to return to after a reshuffle) and
:meth:`WarFamilyState._advance`, which runs the automatic steps until a player or
the chance player must move.
"""

from __future__ import annotations

import random
from typing import ClassVar

from tutor.engine.core import CHANCE, TERMINAL, Bot, InvalidState, Move, Option, State, stored_int
from tutor.text import N_

#: What :meth:`WarFamilyState._draw` returns when it paused for a reshuffle.
RESHUFFLE = -1
#: What :meth:`WarFamilyState._draw` returns when the side has no card left at all.
OUT = -2

COMMON_END_REASONS = ("", "all_cards", "round_limit", "time_limit", "round_cap")


def sides_for(players: int) -> list[list[int]]:
    """Four players sit as two teams (0 and 2 against 1 and 3); otherwise each plays alone."""
    if players == 4:
        return [[0, 2], [1, 3]]
    return [[player] for player in range(players)]


def split(order: list[int], sizes: list[int]) -> list[list[int]]:
    """Cut ``order`` into consecutive piles of the given sizes (the last card of a pile is its top)."""
    piles, start = [], 0
    for size in sizes:
        piles.append(list(order[start : start + size]))
        start += size
    return piles


def even_sizes(total: int, parts: int) -> list[int]:
    """Split ``total`` cards as evenly as possible; the first sides get the spare cards."""
    share, spare = divmod(total, parts)
    return [share + (1 if index < spare else 0) for index in range(parts)]


def limit_options() -> tuple[Option, ...]:
    """The two end options every War-family game takes, with Calculation War's wording."""
    return (
        Option(
            "round_limit", N_("Number of rounds (0 = play until one side has every card)"), 0, minimum=0, maximum=1000
        ),
        Option("time_limit_minutes", N_("Playing time in minutes (0 = no time limit)"), 0, minimum=0, maximum=180),
    )


def card_list(value, what: str) -> list[int]:
    if not isinstance(value, list):
        raise TypeError(f"{what} is not a list")
    return [stored_int(card_id) for card_id in value]


class SidePilesState(State):
    """Sides (a player, or a team of two), each with a draw and a collection pile.

    Shared by every War-like Kids2 game, Calculation War included: the deal and the
    reshuffle of a collection pile are chance moves, the clock may run out at the start
    of a round, and the side with the most cards wins.
    """

    def __init__(self, game) -> None:
        super().__init__(game)
        self.sides = sides_for(game.players)
        self.draw_piles: list[list[int]] = [[] for _ in self.sides]  # the last card is the top
        self.collection_piles: list[list[int]] = [[] for _ in self.sides]
        self.phase = "deal"
        self.rounds = 0
        self.wars = 0  # wars in the current round
        self.ended_by = ""
        self.reshuffle_side: int | None = None
        self.last_round: dict | None = None

    @property
    def at_round_start(self) -> bool:
        """Whether the clock may run out now: a player is to move and no card is on the table yet."""
        raise NotImplementedError

    def side_card_count(self, side: int) -> int:
        raise NotImplementedError

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def side_of(self, player: int) -> int:
        return next(index for index, side in enumerate(self.sides) if player in side)

    def winners(self) -> list[int]:
        if not self.is_over:
            return []
        counts = [self.side_card_count(side) for side in range(len(self.sides))]
        best = max(counts)
        return sorted(p for side, count in enumerate(counts) if count == best for p in self.sides[side])

    def summary(self) -> dict:
        return {
            "rounds": self.rounds,
            "ended_by": self.ended_by,
            "card_counts": {"+".join(map(str, side)): self.side_card_count(i) for i, side in enumerate(self.sides)},
        }

    def chance_move(self, rng: random.Random) -> Move:
        if self.phase == "deal":
            order = list(self.game.card_ids())
            rng.shuffle(order)
            return Move("shuffle", CHANCE, tuple(order))
        if self.phase == "reshuffle":
            order = list(self.collection_piles[self.reshuffle_side])
            rng.shuffle(order)
            return Move("reshuffle", CHANCE, tuple(order), str(self.reshuffle_side))
        raise InvalidState("no chance event is pending")

    def is_legal_chance(self, move: Move) -> bool:
        if move.kind == "shuffle":
            return self.phase == "deal" and sorted(move.cards) == sorted(self.game.card_ids())
        if move.kind == "reshuffle":
            side = self.reshuffle_side
            return (
                self.phase == "reshuffle"
                and move.detail == str(side)
                and sorted(move.cards) == sorted(self.collection_piles[side])
            )
        if move.kind == "time_up":
            return self.game.options["time_limit_minutes"] > 0 and not move.cards and self.at_round_start
        return False


class WarFamilyState(SidePilesState):
    """Sides, draw and collection piles, reshuffles, rounds, the end and the winners."""

    #: Phases a stored state may be in; subclasses add their own play phases.
    PHASES: ClassVar[tuple[str, ...]] = ("deal", "reshuffle", "over")
    END_REASONS: ClassVar[tuple[str, ...]] = COMMON_END_REASONS
    #: The phase in which cards are drawn, to return to after a reshuffle.
    DRAWING_PHASE: ClassVar[str] = ""
    #: The safety cap on the number of rounds (see the module docstring).
    round_cap: ClassVar[int] = 1000

    # --- hooks for the game ---------------------------------------------------------------
    def table_cards(self, player: int) -> list[int]:
        """Every card ``player`` has laid on the table this round (face up or face down)."""
        raise NotImplementedError

    def _deal(self, order: list[int]) -> None:
        raise NotImplementedError

    def _advance(self) -> None:
        """Run automatic steps until a player or the chance player must move, or the game ends."""
        raise NotImplementedError

    def _player_to_move(self) -> int:
        raise NotImplementedError

    # --- the engine API ---------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if self.phase in ("deal", "reshuffle"):
            return CHANCE
        return self._player_to_move()

    def pile_count(self, side: int) -> int:
        """Cards the side can still turn: its draw pile and its collection pile."""
        return len(self.draw_piles[side]) + len(self.collection_piles[side])

    def side_card_count(self, side: int) -> int:
        """Every card the side owns: piles plus what its players have on the table."""
        return self.pile_count(side) + sum(len(self.table_cards(p)) for p in self.sides[side])

    def _apply(self, move: Move) -> None:
        if move.kind == "shuffle":
            self._deal(list(move.cards))
        elif move.kind == "reshuffle":
            side = self.reshuffle_side
            self.draw_piles[side] = list(move.cards)
            self.collection_piles[side] = []
            self.reshuffle_side = None
            self.phase = self.DRAWING_PHASE
            self._advance()
        elif move.kind == "time_up":
            self._end("time_limit")
        else:
            self._apply_player_move(move)

    def _apply_player_move(self, move: Move) -> None:
        raise NotImplementedError

    # --- shared rules ---------------------------------------------------------------------------
    def _draw(self, side: int) -> int:
        """The top card of the side's draw pile, or :data:`RESHUFFLE` (and pause) or :data:`OUT`."""
        if self.draw_piles[side]:
            return self.draw_piles[side].pop()
        if self.collection_piles[side]:
            self.phase, self.reshuffle_side = "reshuffle", side
            return RESHUFFLE
        return OUT

    def _end_reason_at_round_start(self) -> str:
        """Why the game ends before the next round, or "" if it goes on."""
        sides_with_cards = [side for side in range(len(self.sides)) if self.pile_count(side)]
        limit = self.game.options["round_limit"]
        if len(sides_with_cards) <= 1:
            return "all_cards"
        if limit and self.rounds >= limit:
            return "round_limit"
        if self.rounds >= self.round_cap:
            return "round_cap"
        return ""

    def _end(self, reason: str) -> None:
        self.phase, self.ended_by = "over", reason

    # --- views and storage ------------------------------------------------------------------
    def common_view(self, player: int) -> dict:
        return {
            "game": self.game.id,
            "you": player,
            "players": self.game.players,
            "sides": self.sides,
            "phase": self.phase,
            "rounds": self.rounds,
            "wars": self.wars,
            "draw_counts": [len(pile) for pile in self.draw_piles],
            "collection_counts": [len(pile) for pile in self.collection_piles],
            "side_counts": [self.side_card_count(side) for side in range(len(self.sides))],
            "last_round": self.last_round,
            "ended_by": self.ended_by,
            "winners": self.winners(),
        }

    def piles_to_dict(self) -> dict:
        """The piles first, so that a stored state opens with its card lists."""
        return {
            "draw_piles": [list(p) for p in self.draw_piles],
            "collection_piles": [list(p) for p in self.collection_piles],
        }

    def common_to_dict(self) -> dict:
        return {
            "phase": self.phase,
            "rounds": self.rounds,
            "wars": self.wars,
            "ended_by": self.ended_by,
            "reshuffle_side": self.reshuffle_side,
            "last_round": self.last_round,
        }

    def read_common(self, data: dict) -> None:
        """Fill the shared fields from a stored dict (KeyError, TypeError, ValueError on junk)."""
        self.draw_piles = [card_list(p, "a draw pile") for p in data["draw_piles"]]
        self.collection_piles = [card_list(p, "a collection pile") for p in data["collection_piles"]]
        self.phase = str(data["phase"])
        self.rounds = stored_int(data["rounds"])
        self.wars = stored_int(data["wars"])
        self.ended_by = str(data["ended_by"])
        self.reshuffle_side = None if data["reshuffle_side"] is None else stored_int(data["reshuffle_side"])
        last_round = data["last_round"]
        if last_round is not None and not isinstance(last_round, dict):
            raise TypeError("last_round is not a record")
        self.last_round = last_round

    def common_problems(self) -> list[str]:
        """What is impossible about the shared part of this position."""
        sides = len(self.sides)
        problems = []
        if self.phase not in self.PHASES or self.ended_by not in self.END_REASONS:
            problems.append("unknown phase or end reason")
        if (self.phase == "over") != bool(self.ended_by):
            problems.append("end reason does not match the phase")
        if len(self.draw_piles) != sides or len(self.collection_piles) != sides:
            problems.append("wrong number of piles")
        if self.rounds < 0 or self.wars < 0:
            problems.append("a negative count")
        ids = self.card_ids()
        if self.phase == "deal":
            if ids:
                problems.append("cards dealt before the shuffle")
        elif len(ids) != len(set(ids)) or sorted(ids) != sorted(self.game.card_ids()):
            problems.append("cards lost or duplicated")
        if self.phase == "reshuffle" and (
            self.reshuffle_side not in range(sides) or not self.collection_piles[self.reshuffle_side]
        ):
            problems.append("a reshuffle with nothing to shuffle")
        if self.phase == "reshuffle" and self.reshuffle_side in range(sides) and self.draw_piles[self.reshuffle_side]:
            problems.append("a reshuffle while the draw pile still has cards")
        if self.phase != "reshuffle" and self.reshuffle_side is not None:
            problems.append("a reshuffle outside the reshuffle phase")
        return problems

    def raise_problems(self, problems: list[str]) -> None:
        if problems:
            raise InvalidState(f"{self.game.id}: " + "; ".join(problems))


class BattleTableState(WarFamilyState):
    """The table of MultiWar and TripleSmart: per player a face-down pot and the turned cards.

    A battle is fought by its *contenders*; ``waiting`` are those still to move, ``out``
    those who could not turn enough cards; ``pot_due`` and ``turn_due`` count the cards
    the move in progress still has to lay or turn; ``battles`` records the decided
    battles of the round for the lesson.
    """

    #: Cards turned face up per battle, and laid face down per player in a war.
    turned_per_battle: ClassVar[int] = 2
    pot_per_war: ClassVar[int] = 2

    def __init__(self, game) -> None:
        super().__init__(game)
        players = game.players
        self.pot: list[list[int]] = [[] for _ in range(players)]  # face-down war cards and earlier battles' cards
        self.turned: list[list[int]] = [[] for _ in range(players)]  # face up in the current battle
        self.contenders: list[int] = []  # who is in the current battle
        self.waiting: list[int] = []  # contenders still to move, in seat order; the first is to move
        self.out: list[int] = []  # contenders who could not turn enough cards this battle
        self.pot_due = [0] * players  # cards the move in progress still has to lay face down
        self.turn_due = [0] * players  # cards the move in progress still has to turn
        self.battles: list[dict] = []  # this round's decided battles, for the lesson

    def table_cards(self, player: int) -> list[int]:
        return self.pot[player] + self.turned[player]

    def _one_side_wins(self, leaders: list[int]) -> bool:
        """Leaders all on one side win the table (True); otherwise it is war: the turned cards join the pot."""
        if len({self.side_of(p) for p in leaders}) == 1:
            self._finish(self.side_of(leaders[0]))
            return True
        self.wars += 1
        for player in range(self.game.players):
            self.pot[player].extend(self.turned[player])
            self.turned[player] = []
        return False

    def _finish(self, winner: int | None) -> None:
        raise NotImplementedError

    def _clear_table(self, winner: int | None) -> dict:
        """Send every card on the table to the winning side (or back to each side); what lay there."""
        table = {str(p): self.table_cards(p) for p in range(self.game.players) if self.table_cards(p)}
        for player in range(self.game.players):
            side = self.side_of(player) if winner is None else winner
            self.collection_piles[side].extend(self.table_cards(player))
            self.pot[player], self.turned[player] = [], []
        return table

    def battle_to_dict(self) -> dict:
        return {
            "pot": [list(p) for p in self.pot],
            "turned": [list(t) for t in self.turned],
            "contenders": list(self.contenders),
            "waiting": list(self.waiting),
            "out": list(self.out),
            "pot_due": list(self.pot_due),
            "turn_due": list(self.turn_due),
            "battles": self.battles,
        }

    def read_battle(self, data: dict) -> None:
        """Read the table fields of a stored state (KeyError, TypeError or ValueError when malformed)."""
        self.pot = [card_list(p, "a pot") for p in data["pot"]]
        self.turned = [card_list(t, "a turned row") for t in data["turned"]]
        self.contenders = [stored_int(p) for p in data["contenders"]]
        self.waiting = [stored_int(p) for p in data["waiting"]]
        self.out = [stored_int(p) for p in data["out"]]
        self.pot_due = [stored_int(n) for n in data["pot_due"]]
        self.turn_due = [stored_int(n) for n in data["turn_due"]]
        self.battles = data["battles"]
        if not isinstance(self.battles, list) or not all(isinstance(b, dict) for b in self.battles):
            raise TypeError("battles is not a list of records")

    def battle_problems(self, movers: set[int]) -> list[str]:
        """What is wrong with the table, besides the piles (``movers``: players a battle is waiting for)."""
        players = self.game.players
        problems = self.common_problems()
        if not (len(self.pot) == len(self.turned) == len(self.pot_due) == len(self.turn_due) == players):
            self.raise_problems(problems + ["wrong number of table rows"])
        if not movers | set(self.out) <= set(self.contenders) <= set(range(players)):
            self.raise_problems(
                problems + ["moving or out players are not contenders"]
            )  # the checks below look them up
        if len(set(self.contenders)) != len(self.contenders) or set(self.waiting) & set(self.out):
            problems.append("a player contends twice, or both waits and is out")
        if any(not 0 <= n <= self.pot_per_war for n in self.pot_due) or any(
            not 0 <= n <= self.turned_per_battle for n in self.turn_due
        ):
            problems.append("impossible cards due")
        if any(len(t) > self.turned_per_battle + 1 for t in self.turned):
            problems.append("too many cards turned")
        if any(self.turned[p] for p in range(players) if p not in self.contenders):
            problems.append("cards turned by a player outside the battle")
        if self.wars == 0 and any(self.pot):
            problems.append("a pot without a war")
        return problems


class TurningBot(Bot):
    """Turns the cards: in MultiWar and War's pure-chance variants a player has nothing to choose
    (the strength is in the drills the lesson asks the pupil, not in the play)."""

    def choose(self, view: dict, legal: list[Move], rng: random.Random) -> Move:
        return legal[0]


class StrongTurningBot(TurningBot):
    name = "strong"
    label = N_("strong")


class BeginnerTurningBot(TurningBot):
    """Turns at once like the strong one; kept so that every game offers both strengths."""

    name = "beginner"
    label = N_("beginner")


#: The computer players of a game without choices.
TURNING_BOTS = {"beginner": BeginnerTurningBot, "strong": StrongTurningBot}
