"""The game-engine API every game implements, in the style of OpenSpiel.

A :class:`Game` holds the rules and the chosen options and makes a fresh
:class:`State`. A state says whose turn it is, lists the legal moves, applies a move,
and says when the game is over and who won. Randomness is a *chance move*: at a
chance node the driver asks the state for a move drawn from a seeded generator and
applies it like any other, and the drawn outcome (a shuffle order) is recorded in the
move itself. So a seed plus the move list replays a game exactly.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any, ClassVar

from tutor.text import N_

#: The player number of the chance player (shuffles, reshuffles, the clock).
CHANCE = -1
#: What :attr:`State.current_player` says once the game is over.
TERMINAL = -2


class IllegalMove(ValueError):
    """A move that the rules do not allow in this state; the state is unchanged."""


class InvalidState(ValueError):
    """A stored state that cannot occur in this game."""


class InvalidOptions(ValueError):
    """Options or a player count that this game does not accept."""


def stored_int(value) -> int:
    """A whole number read from a stored state; text, a float or true/false raises TypeError (JSON keeps types)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"not an integer: {value!r}")
    return value


@dataclass(frozen=True)
class Move:
    """One move: what kind, by whom, which cards, and any further choice."""

    kind: str
    player: int
    cards: tuple[int, ...] = ()
    detail: str = ""

    def to_dict(self) -> dict:
        data: dict[str, Any] = {"kind": self.kind, "player": self.player}
        if self.cards:
            data["cards"] = list(self.cards)
        if self.detail:
            data["detail"] = self.detail
        return data

    @classmethod
    def from_dict(cls, data: dict) -> Move:
        try:
            return cls(
                str(data["kind"]),
                int(data["player"]),
                tuple(int(c) for c in data.get("cards", ())),
                str(data.get("detail", "")),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise InvalidState(f"not a move: {data!r}") from error


@dataclass(frozen=True)
class Option:
    """A named rule switch with its default, as games.md lists them."""

    key: str
    label: str
    default: Any
    choices: tuple = ()
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""

    def parse(self, raw: Any) -> Any:
        """Turn ``raw`` (a value or command-line text) into a checked option value."""
        kind = type(self.default)
        try:
            if kind is bool:
                value = (
                    raw
                    if isinstance(raw, bool)
                    else {"true": True, "false": False, "1": True, "0": False, "yes": True, "no": False}[
                        str(raw).lower()
                    ]
                )
            else:
                value = kind(raw)
        except (KeyError, TypeError, ValueError) as error:
            raise InvalidOptions(f"option {self.key}: cannot read {raw!r} as {kind.__name__}") from error
        if self.choices and value not in self.choices:
            raise InvalidOptions(f"option {self.key}: {value!r} is not one of {list(self.choices)}")
        if self.minimum is not None and value < self.minimum:
            raise InvalidOptions(f"option {self.key}: {value!r} is below {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise InvalidOptions(f"option {self.key}: {value!r} is above {self.maximum}")
        return value

    def describe(self) -> dict:
        data = {"key": self.key, "label": self.label, "default": self.default, "help": self.help}
        if self.choices:
            data["choices"] = list(self.choices)
        if self.minimum is not None:
            data["minimum"] = self.minimum
        if self.maximum is not None:
            data["maximum"] = self.maximum
        return data


@dataclass
class Game:
    """The rules of one game with a player count and options chosen."""

    id: ClassVar[str]
    title: ClassVar[str]
    #: Where the game is listed among the others (the registry, the home page, the homework form):
    #: lower first. Each game sets its own; numbers go in tens so a new game fits between two.
    order: ClassVar[int]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    option_specs: ClassVar[tuple[Option, ...]] = ()
    state_class: ClassVar[type[State]]
    bots: ClassVar[dict[str, type[Bot]]] = {}

    players: int = 2
    options: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.min_players <= self.players <= self.max_players:
            raise InvalidOptions(f"{self.id} takes {self.min_players}-{self.max_players} players, not {self.players}")
        known = {spec.key: spec for spec in self.option_specs}
        unknown = set(self.options) - set(known)
        if unknown:
            raise InvalidOptions(f"{self.id} has no option {', '.join(sorted(unknown))}")
        self.options = {key: spec.parse(self.options.get(key, spec.default)) for key, spec in known.items()}

    def new_state(self) -> State:
        return self.state_class(self)

    def state_from_dict(self, data: dict) -> State:
        """Rebuild a state from :meth:`State.to_dict`, refusing impossible states."""
        return self.state_class.from_dict(self, data)

    def describe(self) -> dict:
        return {
            "id": self.id,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "options": [spec.describe() for spec in self.option_specs],
            "bots": sorted(self.bots),
        }


class State:
    """The position of one game in play; subclasses implement the underscored hooks."""

    def __init__(self, game: Game) -> None:
        self.game = game

    # --- what every game provides -------------------------------------------------
    @property
    def current_player(self) -> int:
        """The player to move, :data:`CHANCE` at a chance node; undefined when over."""
        raise NotImplementedError

    @property
    def is_over(self) -> bool:
        raise NotImplementedError

    def winners(self) -> list[int]:
        """The players who won (several for a team or a draw); empty while playing."""
        raise NotImplementedError

    def legal_moves(self) -> list[Move]:
        """The moves the current (non-chance) player may make, in a stable order."""
        raise NotImplementedError

    def chance_move(self, rng: random.Random) -> Move:
        """Draw the outcome of the pending chance event from ``rng``."""
        raise NotImplementedError

    def is_legal_chance(self, move: Move) -> bool:
        """Whether a chance-player move fits now (a shuffle order, or the clock running out)."""
        raise NotImplementedError

    def _apply(self, move: Move) -> None:
        raise NotImplementedError

    def to_dict(self) -> dict:
        raise NotImplementedError

    @classmethod
    def from_dict(cls, game: Game, data: dict) -> State:
        raise NotImplementedError

    def player_view(self, player: int) -> dict:
        """What ``player`` may see: their own hand, but only counts of hidden piles."""
        raise NotImplementedError

    def card_ids(self) -> list[int]:
        """Every card in every zone, to check that none is lost or duplicated."""
        raise NotImplementedError

    def summary(self) -> dict:
        """Round count, card counts per player or team, for reports and the CLI."""
        raise NotImplementedError

    # --- shared behaviour -------------------------------------------------------------
    @property
    def is_chance(self) -> bool:
        return not self.is_over and self.current_player == CHANCE

    def is_legal(self, move: Move) -> bool:
        if self.is_over:
            return False
        if move.player == CHANCE:
            return self.is_legal_chance(move)
        return not self.is_chance and move in self.legal_moves()

    def apply(self, move: Move) -> None:
        """Apply ``move``; an illegal move raises :class:`IllegalMove` and changes nothing."""
        if not self.is_legal(move):
            raise IllegalMove(f"{self.game.id}: {move.to_dict()} is not legal now")
        self._apply(move)

    def clone(self) -> State:
        return copy.deepcopy(self)

    def check_in_stages(self, *stages) -> None:
        """Raise :class:`InvalidState` with the problems of the first stage that finds any.

        Each stage is a function listing problems; a later stage may rely on the earlier ones
        having passed (the rows have the right lengths before the cards in them are counted).
        """
        for stage in stages:
            problems = stage()
            if problems:
                raise InvalidState(f"{self.game.id}: " + "; ".join(problems))


class PhasedState(State):
    """A state with a ``phase`` ("over" at the end) and the players ``waiting`` to move, the first of them next.

    The class names the phases in which a chance event is due (a shuffle, war cards drawn);
    in every other phase the first waiting player moves.
    """

    CHANCE_PHASES: ClassVar[tuple[str, ...]] = ("deal",)
    phase: str
    waiting: list[int]

    @property
    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if self.phase in self.CHANCE_PHASES:
            return CHANCE
        return self.waiting[0]

    @property
    def is_over(self) -> bool:
        return self.phase == "over"


class Bot:
    """A computer player: chooses a move from what its own player view shows."""

    name: ClassVar[str]
    label: ClassVar[str]

    def choose(self, view: dict, legal: list[Move], rng: random.Random) -> Move:
        raise NotImplementedError


STRENGTHS = {"beginner": N_("beginner"), "strong": N_("strong")}
