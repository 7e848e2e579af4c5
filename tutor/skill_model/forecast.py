"""The chance that a pupil's next answer in a skill is right, from both halves of the skill model.

Knowledge tracing (:mod:`tutor.skill_model.skills`) knows whether the pupil has learnt the skill but not
how hard the next question is; Elo (:mod:`tutor.skill_model.elo`) knows how hard each question kind and
level is but treats learning as a slow drift. The forecast combines their two chances of a
right answer in one logistic regression per skill (stacking, as in Khajah, Lindsey & Mozer
2016, "How deep is knowledge tracing?", which found such blends at least as good as either
part):

    P(right) = σ(bkt · logit(P_bkt) + elo · logit(P_elo) + bias + right · R + wrong · W)

where P_bkt = P(known)(1 - slip) + (1 - P(known)) guess, P_elo is Elo's expected score, and R
and W count the pupil's earlier right and wrong first answers in the skill (the terms of
Performance Factors Analysis, Pavlik, Cen & Koedinger 2009: how a pupil's own record in the
skill adds to what the two models say).
The weights are fitted with the skill's BKT parameters by ``kortmatte skills fit`` and stored
with them (a skill with too few answers gets Elo's alone: weights 0, 1, 0, 0, 0); where one
part alone predicts pupils the blend was not fitted on better, that part alone is stored
(:func:`choose_blend`). The app does not
use the forecast while a pupil plays: levels come from P(known) and the evidence, the next
question's level from Elo alone; bench/skill_model.py measures the blend of the live model
(defaults, then the automatic fit) as its prediction of the next answer.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

EDGE = 1e-6  # chances are kept in [EDGE, 1 - EDGE] so that their logits are finite
RIDGE = 1e-3  # a little shrinkage keeps the fit finite when one part predicts perfectly
MAX_ITERATIONS = 50


@dataclass(frozen=True)
class Blend:
    """The weights of the two parts' logits, a bias, and the weights of the earlier right and wrong answers."""

    bkt: float = 0.0
    elo: float = 1.0
    bias: float = 0.0
    right: float = 0.0
    wrong: float = 0.0

    def chance(self, p_bkt: float, p_elo: float, right: int = 0, wrong: int = 0) -> float:
        """P(right) of the next answer from the two parts' chances and the pupil's earlier answers in the skill."""
        return sigmoid(
            self.bkt * logit(p_bkt) + self.elo * logit(p_elo) + self.bias + self.right * right + self.wrong * wrong
        )

    def to_dict(self) -> dict:
        return asdict(self)


ELO_ONLY, BKT_ONLY = Blend(), Blend(bkt=1.0, elo=0.0)


def logit(p: float) -> float:
    p = min(max(p, EDGE), 1 - EDGE)
    return math.log(p / (1 - p))


def sigmoid(x: float) -> float:
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    tail = math.exp(x)
    return tail / (1 + tail)


def bkt_chance(p_known: float, p_slip: float, p_guess: float) -> float:
    """Knowledge tracing's chance of a right answer: known and no slip, or not known and a lucky guess."""
    return p_known * (1 - p_slip) + (1 - p_known) * p_guess


def fit_blend(rows: Sequence[tuple[float, float, int, int, bool]], min_rows: int = 200) -> Blend | None:
    """The weights that best predict the answers ``(p_bkt, p_elo, right, wrong, correct)``, by Newton's method.

    None with fewer than ``min_rows`` answers: then the forecast stays Elo's.
    """
    if len(rows) < min_rows:
        return None
    data = [
        ((logit(p_bkt), logit(p_elo), 1.0, float(right), float(wrong)), 1.0 if correct else 0.0)
        for p_bkt, p_elo, right, wrong, correct in rows
    ]
    size = 5
    weights = [0.0, 1.0, 0.0, 0.0, 0.0]
    for _ in range(MAX_ITERATIONS):
        gradient = [-RIDGE * w for w in weights]
        hessian = [[RIDGE if i == j else 0.0 for j in range(size)] for i in range(size)]
        for x, y in data:
            p = sigmoid(sum(w * v for w, v in zip(weights, x)))
            for i in range(size):
                gradient[i] += (y - p) * x[i]
                for j in range(i, size):
                    hessian[i][j] += p * (1 - p) * x[i] * x[j]
        for i in range(size):
            for j in range(i):
                hessian[i][j] = hessian[j][i]
        step = _solve(hessian, gradient)
        weights = [w + s for w, s in zip(weights, step)]
        if max(abs(s) for s in step) < 1e-8:
            break
    return Blend(*weights)


def choose_blend(rows: Sequence[tuple[int, float, float, int, int, bool]], min_rows: int = 200) -> Blend | None:
    """The fitted blend of ``(pupil, p_bkt, p_elo, right, wrong, correct)`` rows, unless one part alone predicts better.

    A blend fitted on one class can be a little worse on the next than its better part (where
    the question makes no difference, Elo and the counts add only noise to knowledge tracing).
    So it is judged on pupils it was not fitted on: fitted on the pupils with even ids and
    scored on the odd ones, and the other way round. Knowledge tracing's or Elo's chance alone
    replaces it when its log-likelihood on the held-out pupils is higher. None with fewer than
    ``min_rows`` rows.
    """
    blend = fit_blend([row[1:] for row in rows], min_rows)
    if blend is None:
        return None
    halves = [[row[1:] for row in rows if row[0] % 2 == side] for side in (0, 1)]
    if not all(halves):
        return blend
    held_out = dict.fromkeys((blend, BKT_ONLY, ELO_ONLY), 0.0)
    for fitted_on, judged_on in ((halves[0], halves[1]), (halves[1], halves[0])):
        half_blend = fit_blend(fitted_on, min_rows=1)
        for candidate in held_out:
            held_out[candidate] += log_likelihood(half_blend if candidate is blend else candidate, judged_on)
    return max(held_out, key=held_out.get)


def log_likelihood(blend: Blend, rows: Sequence[tuple[float, float, int, int, bool]]) -> float:
    """The log-likelihood of the answers ``(p_bkt, p_elo, right, wrong, correct)`` under ``blend``."""
    total = 0.0
    for p_bkt, p_elo, right, wrong, correct in rows:
        p = min(max(blend.chance(p_bkt, p_elo, right, wrong), EDGE), 1 - EDGE)
        total += math.log(p if correct else 1 - p)
    return total


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix · x = vector, by Gaussian elimination with partial pivoting."""
    size = len(vector)
    rows = [list(matrix[i]) + [vector[i]] for i in range(size)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda r: abs(rows[r][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        for r in range(column + 1, size):
            factor = rows[r][column] / rows[column][column]
            for c in range(column, size + 1):
                rows[r][c] -= factor * rows[column][c]
    solution = [0.0] * size
    for r in reversed(range(size)):
        solution[r] = (rows[r][size] - sum(rows[r][c] * solution[c] for c in range(r + 1, size))) / rows[r][r]
    return solution
