"""The per-pupil skill model: Bayesian Knowledge Tracing, one record per skill.

After each first answer to a question, the chance that the pupil knows the skill is
updated from whether the answer was right, allowing for slips and lucky guesses, and
then for learning from the practice itself (Corbett & Anderson, 1995). A right answer
typed after hints is weaker evidence: each hint raises the chance that the answer was
right without knowing the skill (see :func:`hinted_guess`). The mastery threshold is
stored with each record, as Kolibri does, so it cannot shift under a pupil when the
defaults change.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from tutor import content

SKILLS = tuple(content.load("skills"))


@dataclass(frozen=True)
class Params:
    p_init: float = 0.2
    p_learn: float = 0.15
    p_slip: float = 0.1
    p_guess: float = 0.15
    mastery: float = 0.95
    p_hint: float = 0.3  # the share of the way to a right answer that one hint gives away


@dataclass
class SkillState:
    p_known: float
    attempts: int = 0
    correct: int = 0
    streak: int = 0

    def to_dict(self) -> dict:
        return asdict(self)


DEFAULT_PARAMS = Params()


def fresh(params: Params = DEFAULT_PARAMS) -> SkillState:
    return SkillState(p_known=params.p_init)


def hinted_guess(p_guess: float, hints: int, params: Params = DEFAULT_PARAMS) -> float:
    """The chance of a right answer without knowing the skill, after ``hints`` hints.

    Each hint closes the share ``p_hint`` of the gap between a guess and a sure right
    answer: 1 - (1 - p_guess) * (1 - p_hint) ** hints. With the defaults a typed answer's
    0.15 becomes 0.41 after one hint, 0.58 after two and 0.71 after three.
    """
    return 1 - (1 - p_guess) * (1 - params.p_hint) ** max(0, hints)


def update(
    state: SkillState, correct: bool, params: Params = DEFAULT_PARAMS, p_guess: float | None = None, hints: int = 0
) -> SkillState:
    """The skill state after one answer; ``p_guess`` overrides the guess chance (1/choices for buttons).

    A right answer after ``hints`` hints counts as weaker evidence (:func:`hinted_guess`);
    a wrong one counts as it would without them.
    """
    guess = params.p_guess if p_guess is None else p_guess
    if correct and hints:
        guess = hinted_guess(guess, hints, params)
    known, slip = state.p_known, params.p_slip
    if correct:
        evidence = known * (1 - slip) / (known * (1 - slip) + (1 - known) * guess)
    else:
        evidence = known * slip / (known * slip + (1 - known) * (1 - guess))
    learned = evidence + (1 - evidence) * params.p_learn
    return SkillState(
        p_known=min(max(learned, 0.0), 1.0),
        attempts=state.attempts + 1,
        correct=state.correct + int(correct),
        streak=state.streak + 1 if correct else 0,
    )


#: Levels in words, lowest first. The thresholds on P(known) are documented in docs/skill-model.md.
NOT_STARTED, ATTEMPTED, FAMILIAR, PROFICIENT, MASTERED = LEVELS = (
    "not_started",
    "attempted",
    "familiar",
    "proficient",
    "mastered",
)
FAMILIAR_FROM, PROFICIENT_FROM = 0.5, 0.8
#: A pupil "needs help" with a skill after this many answers while P(known) stays below NEEDS_HELP_BELOW.
NEEDS_HELP_AFTER, NEEDS_HELP_BELOW = 4, 0.3


def level(p_known: float | None, attempts: int, mastery: float = DEFAULT_PARAMS.mastery) -> str:
    """The level in words a pupil and teacher read: one of LEVELS."""
    if not attempts or p_known is None:
        return NOT_STARTED
    if p_known >= mastery:
        return MASTERED
    if p_known >= PROFICIENT_FROM:
        return PROFICIENT
    if p_known >= FAMILIAR_FROM:
        return FAMILIAR
    return ATTEMPTED


def needs_help(p_known: float | None, attempts: int) -> bool:
    """Many answers and still little sign of the skill: the teacher should look."""
    return attempts >= NEEDS_HELP_AFTER and p_known is not None and p_known < NEEDS_HELP_BELOW


def status(state: SkillState | None, params: Params = DEFAULT_PARAMS) -> str:
    """The level of a skill state, or "needs_help" when the teacher should step in."""
    if state is None:
        return NOT_STARTED
    if needs_help(state.p_known, state.attempts):
        return "needs_help"
    return level(state.p_known, state.attempts, params.mastery)
