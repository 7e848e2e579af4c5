"""Fitting the skill model's parameters for one skill from pupils' answers.

Bayesian Knowledge Tracing (:mod:`tutor.skill_model.skills`) is a hidden Markov model with two states,
"knows the skill" and "does not yet". Its parameters (the chance of knowing it at the
start, of learning it from one question, of slipping when known, of guessing right when
not, and optionally of forgetting) are fitted here by expectation-maximisation, the
Baum-Welch algorithm, as pyBKT does (Badrinath, Wang & Pardos 2021, ``pyBKT/fit/EM_fit.py``
and ``M_step.py``):

- **E-step**: a scaled forward pass over each pupil's answers in the skill gives P(known)
  before and after each answer and the log-likelihood; a backward pass turns those into
  smoothed state probabilities and expected transition counts.
- **M-step**: each parameter is the ratio of its expected counts (learned / could learn,
  wrong while known / known, right while unknown / unknown, knew at the start / pupils).
- **Bounds**: guess and slip stay at or below 0.3 (``MAX_GUESS``, ``MAX_SLIP``), as usual in
  BKT practice, so EM cannot settle in a degenerate fit where "knowing" means "answering
  wrong" (Baker, Corbett & Aleven 2008); every parameter stays in [1e-4, 1 - 1e-4] so no
  answer is impossible. Each M-step term is concave in its own parameter, so clamping it to
  the bounds is still the best bounded step and the likelihood never falls.
- **Restarts**: like pyBKT (``num_fits=5``), ``RESTARTS`` fits from random starting values
  drawn as pyBKT's ``random_model_uni`` draws them (P(known) at the start anywhere, learning
  below 0.4, guess and slip anywhere within their bounds); the most likely fit wins.
- **Convergence**: a fit stops when one iteration gains less than ``TOLERANCE`` in
  log-likelihood per answer, or after ``MAX_ITERATIONS`` (pyBKT: 0.005 in total, 100).
- **Known guess chances**: an answer may carry its own guess chance (a tap's share of right
  buttons, raised by hints with :func:`tutor.skill_model.skills.hinted_guess`); such answers count for the slip
  and learning, and the skill's guess parameter is fitted from the other answers only.
- **Too few answers**: with fewer than ``MIN_ANSWERS`` (200) answers in the skill, :func:`fit`
  returns None and the defaults stay in use: a few dozen answers cannot tell guessing from
  knowing.

- **Forgetting**: ``forgets=True`` also fits the chance of forgetting between two answers
  (``kortmatte skills fit`` does; :func:`tutor.skill_model.skills.update` applies it). Where
  pupils do not forget it comes out near 0.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields, replace

from tutor.skill_model import skills

MIN_ANSWERS = 200
RESTARTS = 5
TOLERANCE = 1e-6  # the least gain in log-likelihood per answer that is worth another iteration
MAX_ITERATIONS = 100
MAX_GUESS = 0.3
MAX_SLIP = 0.3
EDGE = 1e-4  # every parameter stays in [EDGE, 1 - EDGE]


@dataclass(frozen=True)
class Answer:
    """One answer; ``guess`` is its own guess chance when known (buttons, hints), else None."""

    correct: bool
    guess: float | None = None


@dataclass(frozen=True)
class Fitted:
    """A skill's fitted parameters, with what they were fitted from."""

    p_init: float
    p_learn: float
    p_slip: float
    p_guess: float
    p_forget: float = 0.0
    log_likelihood: float = 0.0
    answers: int = 0
    iterations: int = 0

    def params(self, base: skills.Params = skills.DEFAULT_PARAMS) -> skills.Params:
        """The parameters as :func:`tutor.skill_model.skills.update` takes them (mastery and hints from ``base``)."""
        return replace(
            base,
            p_init=self.p_init,
            p_learn=self.p_learn,
            p_slip=self.p_slip,
            p_guess=self.p_guess,
            p_forget=self.p_forget,
        )

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> Fitted:
        names = {field.name for field in fields(cls)}
        if set(data) - names:
            raise ValueError(f"unknown fields: {sorted(set(data) - names)}")
        fitted = cls(**data)
        for name in ("p_init", "p_learn", "p_slip", "p_guess", "p_forget"):
            if not 0.0 <= getattr(fitted, name) <= 1.0:
                raise ValueError(f"{name} must be a probability")
        return fitted


def fit(
    sequences: Sequence[Sequence[bool | Answer]],
    *,
    restarts: int = RESTARTS,
    seed: int = 0,
    forgets: bool = False,
    min_answers: int = MIN_ANSWERS,
    tolerance: float = TOLERANCE,
    max_iterations: int = MAX_ITERATIONS,
) -> Fitted | None:
    """The best of ``restarts`` EM fits to the pupils' answer sequences, or None with too few answers.

    ``sequences`` holds one list per pupil, in the order the answers were given; an item is
    a bool (right or wrong) or an :class:`Answer` with its own guess chance.
    """
    data = [_prepared(sequence) for sequence in sequences if sequence]
    answers = sum(len(correct) for correct, _ in data)
    if answers < max(min_answers, 1):
        return None
    rng = random.Random(seed)
    best = None
    for _ in range(max(restarts, 1)):
        start = _random_start(rng, forgets)
        fitted = _em(data, start, answers, forgets, tolerance * answers, max_iterations)
        if best is None or fitted.log_likelihood > best.log_likelihood:
            best = fitted
    return best


def log_likelihood(params: Fitted | skills.Params, sequences: Sequence[Sequence[bool | Answer]]) -> float:
    """The log-likelihood of the answer sequences under the parameters."""
    return _expect([_prepared(sequence) for sequence in sequences if sequence], _as_tuple(params))[0]


def simulate(params: Fitted | skills.Params, length: int, rng: random.Random) -> tuple[list[bool], list[bool]]:
    """One simulated pupil's answers under BKT, and whether they knew the skill before each answer.

    The second list has one more entry: the state after the last answer's learning. Used by
    the tests and by bench/skill_model.py to check that a fit recovers known parameters.
    """
    init, learn, forget, slip, guess = _as_tuple(params)
    known = rng.random() < init
    answers, states = [], [known]
    for _ in range(length):
        answers.append(rng.random() < (1 - slip if known else guess))
        known = rng.random() >= forget if known else rng.random() < learn
        states.append(known)
    return answers, states


def _prepared(sequence: Sequence[bool | Answer]) -> tuple[list[bool], list[float | None]]:
    """Right-or-wrong and the known guess chance (or None) of each answer."""
    correct, guesses = [], []
    for item in sequence:
        if isinstance(item, Answer):
            correct.append(bool(item.correct))
            guesses.append(None if item.guess is None else _bounded(item.guess, 1 - EDGE))
        else:
            correct.append(bool(item))
            guesses.append(None)
    return correct, guesses


def _as_tuple(params: Fitted | skills.Params) -> tuple[float, float, float, float, float]:
    return params.p_init, params.p_learn, getattr(params, "p_forget", 0.0), params.p_slip, params.p_guess


def _bounded(value: float, upper: float) -> float:
    return min(max(value, EDGE), upper)


def _random_start(rng: random.Random, forgets: bool) -> tuple[float, float, float, float, float]:
    """Starting values drawn as pyBKT's random_model_uni draws them, inside our bounds."""
    return (
        _bounded(rng.random(), 1 - EDGE),
        _bounded(rng.random() * 0.4, 1 - EDGE),
        _bounded(rng.random() * 0.1, 1 - EDGE) if forgets else 0.0,
        _bounded(rng.random() * MAX_SLIP, MAX_SLIP),
        _bounded(rng.random() * MAX_GUESS, MAX_GUESS),
    )


def _em(data, start, answers: int, forgets: bool, tolerance: float, max_iterations: int) -> Fitted:
    """One EM fit from ``start``; every step raises the likelihood, so the last parameters are the best."""
    params, previous = start, -math.inf
    for iteration in range(1, max_iterations + 1):
        likelihood, counts = _expect(data, params)
        if likelihood - previous < tolerance or iteration == max_iterations:
            break
        params, previous = _maximise(counts, params, forgets), likelihood
    init, learn, forget, slip, guess = params
    return Fitted(init, learn, slip, guess, forget, likelihood, answers, iteration)


def _maximise(counts, params, forgets: bool):
    """The M-step: each parameter from its expected counts, kept inside its bounds."""
    knew, pupils, learned, could_learn, forgot, could_forget, slipped, known, guessed, unknown = counts
    init, learn, forget, slip, guess = params
    upper = 1 - EDGE
    return (
        _bounded(knew / pupils, upper),
        _bounded(learned / could_learn, upper) if could_learn > 0 else learn,
        _bounded(forgot / could_forget, upper) if forgets and could_forget > 0 else 0.0,
        _bounded(slipped / known, MAX_SLIP) if known > 0 else slip,
        _bounded(guessed / unknown, MAX_GUESS) if unknown > 0 else guess,
    )


def _expect(data, params):
    """The E-step: the log-likelihood and the expected counts, by scaled forward-backward.

    Forward: before answer t the pupil knows the skill with chance ``ahead_known[t]`` (and
    not with ``ahead_unknown[t]``); after seeing it, ``known_after[t]``. Backward: the
    smoothed chances given all the pupil's answers, and from them the expected transitions
    from t to t + 1. "Known" and "unknown" are carried apart, not as 1 - p, so that near
    certainty neither rounds to zero.
    """
    init, learn, forget, slip, guess = params
    log = math.log
    total = 0.0
    knew = learned = could_learn = forgot = could_forget = 0.0
    slipped = known = guessed = unknown = 0.0
    keep, stay = 1 - forget, 1 - learn
    for correct, guesses in data:
        length = len(correct)
        ahead_known, ahead_unknown = [0.0] * length, [0.0] * length
        known_after, unknown_after = [0.0] * length, [0.0] * length
        pk, pu = init, 1 - init
        for t in range(length):
            g = guess if guesses[t] is None else guesses[t]
            if correct[t]:
                a, b = pk * (1 - slip), pu * g
            else:
                a, b = pk * slip, pu * (1 - g)
            c = a + b
            total += log(c)
            ahead_known[t], ahead_unknown[t] = pk, pu
            qk = known_after[t] = a / c
            qu = unknown_after[t] = b / c
            pk, pu = qk * keep + qu * learn, qk * forget + qu * stay
        sk, su = known_after[-1], unknown_after[-1]
        for t in range(length - 1, -1, -1):
            if t < length - 1:
                qk, qu = known_after[t], unknown_after[t]
                to_known = sk / ahead_known[t + 1]
                to_unknown = su / ahead_unknown[t + 1] if ahead_unknown[t + 1] else 0.0
                became, stayed_out = qu * learn * to_known, qu * stay * to_unknown
                lost, kept = qk * forget * to_unknown, qk * keep * to_known
                learned += became
                could_learn += became + stayed_out
                forgot += lost
                could_forget += lost + kept
                sk, su = lost + kept, became + stayed_out
            known += sk
            if not correct[t]:
                slipped += sk
            if guesses[t] is None:
                unknown += su
                if correct[t]:
                    guessed += su
        knew += sk
    counts = (knew, len(data), learned, could_learn, forgot, could_forget, slipped, known, guessed, unknown)
    return total, counts
