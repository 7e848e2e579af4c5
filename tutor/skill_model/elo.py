"""Ability and difficulty ratings, as Math Garden keeps them, to pitch questions at 75 % success.

Each pupil has an ability per skill and each question kind and level a difficulty, on
one logit scale (Klinkenberg, Straatemeier & van der Maas 2011). The expected score of
an answer is the logistic of ability minus difficulty, raised by the chance of a lucky
guess for button questions: guess + (1 - guess) / (1 + e^(difficulty - ability)). After
each answer both ratings move by K times the surprise (score minus expected score), the
ability up and the difficulty down for a right answer. K falls with the number of
answers a rating has seen, K = K0 / (1 + DECAY * n) (Pelánek 2016, "Applications of the
Elo rating system in adaptive educational systems"), so new pupils find their level fast
and settled ratings stay steady. A question's difficulty is shared by every pupil, so it
moves with a tenth of a pupil's step (``DIFFICULTY_K0``): it is learnt from many pupils,
and one weak pupil's run of wrong answers cannot make a level-1 question look hard.

:func:`choose_difficulty` picks the level whose expected success is closest to the target
(0.75 by default): weak pupils mostly succeed, strong ones are stretched. A pupil's first
ability in a new skill starts from their abilities in the others (:func:`start`).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import TypeVar

K0 = 1.0
DIFFICULTY_K0 = 0.1
DECAY = 0.05
TARGET = 0.75

Level = TypeVar("Level", bound=Hashable)


@dataclass(frozen=True)
class Rating:
    """An ability or a difficulty in logits, and how many answers it has been updated from."""

    value: float = 0.0
    count: int = 0

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> Rating:
        value, count = data["value"], data["count"]
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise ValueError("a rating's value must be a finite number")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError("a rating's count must be a whole number from 0")
        return cls(float(value), count)


def start(abilities: Iterable[Rating]) -> Rating:
    """A pupil's first ability in a new skill: the mean of their abilities in the skills they have practised.

    A pupil strong in one skill tends to be strong in the next, so this finds their level
    sooner than starting everyone at 0 (the mean difficulty). With no other skill yet, 0.
    """
    values = [rating.value for rating in abilities if rating.count]
    return Rating(sum(values) / len(values) if values else 0.0, 0)


def expected(ability: float, difficulty: float, guess: float = 0.0) -> float:
    """The chance of a right answer: the logistic of ability - difficulty, above the guess chance."""
    gap = ability - difficulty
    if gap >= 0:
        logistic = 1 / (1 + math.exp(-gap))
    else:
        tail = math.exp(gap)
        logistic = tail / (1 + tail)
    return guess + (1 - guess) * logistic


def k_factor(count: int, k0: float = K0, decay: float = DECAY) -> float:
    """How far one answer moves a rating that has seen ``count`` answers."""
    return k0 / (1 + decay * count)


def update(
    ability: Rating,
    difficulty: Rating,
    correct: bool,
    guess: float = 0.0,
    k0: float = K0,
    decay: float = DECAY,
    difficulty_k0: float = DIFFICULTY_K0,
) -> tuple[Rating, Rating]:
    """The pupil's ability and the question's difficulty after one answer (the difficulty by the smaller step)."""
    surprise = float(correct) - expected(ability.value, difficulty.value, guess)
    return (
        Rating(ability.value + k_factor(ability.count, k0, decay) * surprise, ability.count + 1),
        Rating(difficulty.value - k_factor(difficulty.count, difficulty_k0, decay) * surprise, difficulty.count + 1),
    )


def choose_difficulty(
    ability: float, levels: Mapping[Level, float], target: float = TARGET, guess: float = 0.0
) -> Level:
    """The level (a key of ``levels``, which maps levels to difficulties) whose expected success is nearest ``target``.

    On a tie the level listed first wins.
    """
    if not levels:
        raise ValueError("no levels to choose from")
    return min(levels, key=lambda level: abs(expected(ability, levels[level], guess) - target))
