"""The per-pupil skill model: Bayesian Knowledge Tracing and luck-proof evidence, one record per skill.

After each first answer to a question, the chance that the pupil knows the skill is
updated from whether the answer was right, allowing for slips and lucky guesses, then for
forgetting and for learning from the practice itself (Corbett & Anderson, 1995). A tap's
chance of a lucky guess is the share of right options among those offered, never less
than a typed answer's (:func:`guess_chance`); a right answer after hints is weaker
evidence (:func:`hinted_guess`).

P(known) alone cannot say "mastered": its learning step raises it after every answer,
so a pupil tapping at random on two buttons reaches 0.95 after a lucky run. The record
therefore also keeps **evidence**: how much likelier the pupil's first answers to drill
questions at level 2 or 3 are from a pupil who knows the skill than from one who guesses,
as a log-likelihood ratio (:func:`evidence_step`), held between ``EVIDENCE_FLOOR`` and
``EVIDENCE_CAP`` and halving every ``EVIDENCE_HALF_LIFE_DAYS`` days without practice. A
guesser's ratio has mean 1 whatever the buttons, so it passes 300 (``MASTERY_EVIDENCE``) in
1 of 300 endless runs at most (Ville's inequality; the floor adds a little, measured by
bench/skill_model.py). 300 rather than 100 to 1 because a pupil who half knows the skill is
no guesser: at 100 to 1, weak pupils' skills were first shown "mastered" too early in 1 case of 10.
The levels (:func:`level`) need both, and "mastered" also a right
typed answer in a skill whose drills have typed questions. The mastery threshold is stored
with each record, as Kolibri does, so it cannot shift under a pupil when the defaults change.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from datetime import UTC, datetime

from tutor import content
from tutor.text import NC_

SKILLS = tuple(content.load("skills"))
#: The skills whose drills ask for a typed number (level 3 or always): "mastered" needs a right one.
TYPED_SKILLS = frozenset(skill for skill, entry in content.load("skills").items() if entry.get("typed"))


@dataclass(frozen=True)
class Params:
    """Knowledge tracing's chances for one skill: the cautious defaults until ``kortmatte skills fit`` fits them."""

    p_init: float = 0.1
    p_learn: float = 0.1
    p_slip: float = 0.1
    p_guess: float = 0.15  # a typed answer's chance of being right by luck; a tap's is at least this
    p_forget: float = 0.0  # the chance of forgetting between two answers
    mastery: float = 0.95
    p_hint: float = 0.3  # the share of the way to a right answer that one hint gives away


@dataclass
class SkillState:
    p_known: float
    attempts: int = 0
    correct: int = 0
    streak: int = 0
    evidence: float = 0.0  # log-likelihood ratio, knows against guesses, of the level-2 and level-3 drill answers
    typed_right: int = 0  # right typed first answers at level 2 or 3 without hints

    def to_dict(self) -> dict:
        return asdict(self)


DEFAULT_PARAMS = Params()

#: Evidence needed, as a log-likelihood ratio: "proficient" 10 to 1, "mastered" 300 to 1 against guessing.
PROFICIENT_EVIDENCE, MASTERY_EVIDENCE = math.log(10), math.log(300)
#: Evidence is kept within these bounds: old mistakes cannot bury a pupil who has learnt since, and a long
#: run of right answers cannot carry "mastered" through more than one half-life without practice.
EVIDENCE_FLOOR, EVIDENCE_CAP = -math.log(100), 2 * MASTERY_EVIDENCE
#: Evidence halves with every 14 days in which the skill is not practised.
EVIDENCE_HALF_LIFE_DAYS = 14.0
#: The slip chance the evidence allows for: a pupil who knows the skill still gets 1 in 10 wrong.
EVIDENCE_SLIP = 0.1
#: The lowest level whose drill answers count as evidence: level 1 gives support that does part of the work.
EVIDENCE_LEVEL = 2


def fresh(params: Params = DEFAULT_PARAMS) -> SkillState:
    return SkillState(p_known=params.p_init)


def hinted_guess(p_guess: float, hints: int, params: Params = DEFAULT_PARAMS) -> float:
    """The chance of a right answer without knowing the skill, after ``hints`` hints.

    Each hint closes the share ``p_hint`` of the gap between a guess and a sure right
    answer: 1 - (1 - p_guess) * (1 - p_hint) ** hints. A typed answer's 0.15 becomes
    0.41 after one hint, 0.58 after two and 0.71 after three.
    """
    return 1 - (1 - p_guess) * (1 - params.p_hint) ** max(0, hints)


def guess_chance(params: Params, tap_share: float | None = None, hints: int = 0) -> float:
    """The chance of a right answer by luck: a typed answer's ``p_guess``, a tap's share of right options.

    ``tap_share``: right options ÷ options offered (None for a typed answer); never below
    the typed answer's chance. Raised by hints (:func:`hinted_guess`).
    """
    base = min(params.p_guess if tap_share is None else max(tap_share, params.p_guess), 1.0)
    return hinted_guess(base, hints, params) if hints > 0 else base


def evidence_step(correct: bool, guess: float) -> float:
    """How much one answer adds to the evidence: log P(answer | knows) / P(answer | guesses)."""
    guess = min(max(guess, 1e-6), 1 - 1e-6)
    if correct:
        return math.log((1 - EVIDENCE_SLIP) / guess)
    return math.log(EVIDENCE_SLIP / (1 - guess))


def aged_evidence(evidence: float, days: float) -> float:
    """The evidence after ``days`` without practice: it halves every ``EVIDENCE_HALF_LIFE_DAYS``."""
    return evidence * 0.5 ** (max(days, 0.0) / EVIDENCE_HALF_LIFE_DAYS)


def update(
    state: SkillState,
    correct: bool,
    params: Params = DEFAULT_PARAMS,
    p_guess: float | None = None,
    hints: int = 0,
    *,
    drill_level: int | None = None,
    days: float = 0.0,
) -> SkillState:
    """The skill state after one first answer, ``days`` after the one before.

    ``p_guess``: a tap's share of right options (None for a typed answer, :func:`guess_chance`);
    a right answer after ``hints`` hints counts as weaker evidence, a wrong one as it would
    without them. ``drill_level``: the level of a drill question (None for a card chosen in
    the game); only levels from ``EVIDENCE_LEVEL`` add to the evidence.
    """
    guess = guess_chance(params, p_guess, hints if correct else 0)
    known, slip = state.p_known, params.p_slip
    if correct:
        seen = known * (1 - slip) / (known * (1 - slip) + (1 - known) * guess)
    else:
        seen = known * slip / (known * slip + (1 - known) * (1 - guess))
    learned = seen * (1 - params.p_forget) + (1 - seen) * params.p_learn
    evidence, typed_right = aged_evidence(state.evidence, days), state.typed_right
    if drill_level is not None and drill_level >= EVIDENCE_LEVEL:
        evidence = min(max(evidence + evidence_step(correct, guess), EVIDENCE_FLOOR), EVIDENCE_CAP)
        typed_right += int(correct and p_guess is None and not hints)
    return SkillState(
        p_known=min(max(learned, 0.0), 1.0),
        attempts=state.attempts + 1,
        correct=state.correct + int(correct),
        streak=state.streak + 1 if correct else 0,
        evidence=evidence,
        typed_right=typed_right,
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
#: The levels in words, one scale in each school system's own terms (nb påbegynt / grunnleggende / sikker / mestret;
#: Italy's official primary evaluation levels), all under one context: the pupil's page, the teacher's pages, homework
#: goals ("Reach the level ...") and the exports say the same word for a level. "needs help" marks a skill the
#: teacher should step in on.
LEVEL_WORDS = {
    NOT_STARTED: NC_("skill level", "not started"),
    ATTEMPTED: NC_("skill level", "attempted"),
    FAMILIAR: NC_("skill level", "familiar"),
    PROFICIENT: NC_("skill level", "proficient"),
    MASTERED: NC_("skill level", "mastered"),
    "needs_help": NC_("skill level", "needs help"),
}
#: A pupil "needs help" with a skill after this many answers while P(known) stays below NEEDS_HELP_BELOW.
NEEDS_HELP_AFTER, NEEDS_HELP_BELOW = 4, 0.3


def level(
    p_known: float | None,
    attempts: int,
    mastery: float = DEFAULT_PARAMS.mastery,
    evidence: float = 0.0,
    typed_missing: bool = False,
) -> str:
    """The level in words a pupil and teacher read: one of LEVELS.

    "proficient" needs P(known) >= 0.8 and evidence of 10 to 1; "mastered" P(known) at the
    record's threshold, evidence of 300 to 1 and, where the skill has typed questions, a
    right typed answer (``typed_missing`` False). Without that evidence a skill stays "familiar".
    """
    if not attempts or p_known is None:
        return NOT_STARTED
    if p_known >= mastery and evidence >= MASTERY_EVIDENCE and not typed_missing:
        return MASTERED
    if p_known >= PROFICIENT_FROM and evidence >= PROFICIENT_EVIDENCE:
        return PROFICIENT
    if p_known >= FAMILIAR_FROM:
        return FAMILIAR
    return ATTEMPTED


def awaits_typed(skill: str | None, typed_right: int | None) -> bool:
    """Whether "mastered" still waits for a right typed answer: the skill has typed questions and none was right."""
    return skill in TYPED_SKILLS and not typed_right


def needs_help(p_known: float | None, attempts: int) -> bool:
    """Many answers and still little sign of the skill: the teacher should look."""
    return attempts >= NEEDS_HELP_AFTER and p_known is not None and p_known < NEEDS_HELP_BELOW


def status(
    state: SkillState | None, params: Params = DEFAULT_PARAMS, skill: str | None = None, days: float = 0.0
) -> str:
    """The level of a skill state ``days`` after its last answer, or "needs_help" when the teacher should step in."""
    if state is None:
        return NOT_STARTED
    if needs_help(state.p_known, state.attempts):
        return "needs_help"
    evidence = aged_evidence(state.evidence, days)
    return level(state.p_known, state.attempts, params.mastery, evidence, awaits_typed(skill, state.typed_right))


def idle_days(practised_at: datetime | None, now: datetime | None) -> float:
    """Days from the last answer to ``now`` (0 without either; a time without zone is UTC)."""
    if practised_at is None or now is None:
        return 0.0
    if practised_at.tzinfo is None:
        practised_at = practised_at.replace(tzinfo=UTC)
    if now.tzinfo is None:
        now = now.replace(tzinfo=UTC)
    return max((now - practised_at).total_seconds() / 86400, 0.0)


def record_level(record, now: datetime | None) -> str:
    """The level of a stored skill record (or a row with its columns) as it stands at ``now``.

    Reads ``skill``, ``p_known``, ``attempts``, ``mastery_threshold``, ``evidence``,
    ``typed_right`` and ``practised_at``: every page that shows a level uses this one rule.
    """
    evidence = aged_evidence(record.evidence or 0.0, idle_days(record.practised_at, now))
    lacking = awaits_typed(record.skill, record.typed_right)
    return level(record.p_known, record.attempts, record.mastery_threshold, evidence, lacking)


def record_status(record, now: datetime | None) -> str:
    """:func:`record_level`, or "needs_help" when the teacher should step in."""
    if needs_help(record.p_known, record.attempts):
        return "needs_help"
    return record_level(record, now)
