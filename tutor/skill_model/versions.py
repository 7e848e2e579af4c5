"""Fitting the skill model to the answers stored so far, as a new parameter version (``kortmatte skills fit``).

For every skill with enough first answers (:data:`tutor.skill_model.fitting.MIN_ANSWERS`), knowledge
tracing's four parameters are fitted by EM (:func:`tutor.skill_model.fitting.fit`), then the answers
are replayed in the order they were given, with the fitted parameters and with Elo as the
app ran it, and the forecast blend (:mod:`tutor.skill_model.forecast`) is fitted on the two parts'
chances before each answer. The new rows share one version number; a skill left out keeps
its older version or the defaults. Records judged before keep the version they were judged by.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tutor.models import AttemptRecord, SkillParams, SkillRecord
from tutor.skill_model import elo, fitting, forecast, skills
from tutor.skill_model.progress import PupilModel, QuestionKey, elo_guess


@dataclass(frozen=True)
class StoredAnswer:
    pupil_id: int
    skill: str
    question: tuple[str, int] | None  # kind and level, when the question had a level
    correct: bool
    p_guess: float | None  # 1/buttons for a tap, None for a typed answer (the skill's own guess)
    hints: int

    @property
    def known_guess(self) -> float | None:
        """The guess chance EM takes as known: a tap's, or a hinted answer's (raised from the default guess)."""
        if not self.hints:
            return self.p_guess
        return skills.hinted_guess(skills.DEFAULT_PARAMS.p_guess if self.p_guess is None else self.p_guess, self.hints)


@dataclass(frozen=True)
class FittedSkill:
    skill: str
    answers: int
    fitted: fitting.Fitted
    blend: forecast.Blend


def stored_answers(db: Session) -> list[StoredAnswer]:
    """Every readable first answer, in the order they were given."""
    rows = db.execute(
        select(
            AttemptRecord.pupil_id,
            AttemptRecord.skill,
            AttemptRecord.question_kind,
            AttemptRecord.question,
            AttemptRecord.correct,
            AttemptRecord.hints_used,
        )
        .where(AttemptRecord.first_try.is_(True), AttemptRecord.readable.is_(True))
        .order_by(AttemptRecord.created_at, AttemptRecord.id)
    )
    answers = []
    for pupil_id, skill, kind, question, correct, hints in rows:
        level = question.get("difficulty") if isinstance(question, dict) else None
        choices = (
            len(question.get("choices") or [])
            if isinstance(question, dict) and question.get("answer") == "choice"
            else 0
        )
        answers.append(
            StoredAnswer(
                pupil_id,
                skill,
                (kind, level) if isinstance(level, int) else None,
                bool(correct),
                1 / choices if choices else None,
                hints or 0,
            )
        )
    return answers


def fit_all(answers: list[StoredAnswer], seed: int = 0, min_answers: int = fitting.MIN_ANSWERS) -> list[FittedSkill]:
    """The fitted parameters and blend of every skill with at least ``min_answers`` answers."""
    sequences: dict[str, dict[int, list[fitting.Answer]]] = defaultdict(lambda: defaultdict(list))
    for answer in answers:
        sequences[answer.skill][answer.pupil_id].append(fitting.Answer(answer.correct, answer.known_guess))
    fitted = {}
    for skill in skills.SKILLS:
        result = (
            fitting.fit(list(sequences[skill].values()), seed=seed, min_answers=min_answers)
            if skill in sequences
            else None
        )
        if result is not None:
            fitted[skill] = result
    rows = replay(answers, {skill: result.params() for skill, result in fitted.items()})
    return [
        FittedSkill(
            skill, result.answers, result, forecast.fit_blend(rows[skill], min_rows=min_answers) or forecast.ELO_ONLY
        )
        for skill, result in fitted.items()
    ]


def replay(answers: list[StoredAnswer], params: dict[str, skills.Params]) -> dict[str, list[tuple[float, float, bool]]]:
    """Knowledge tracing's and Elo's chance of each answer being right, just before it, for the fitted skills.

    The answers update both as the app updates them (:func:`tutor.skill_model.progress.update_skill`).
    """
    states: dict[tuple[int, str], skills.SkillState] = {}
    models: dict[int, PupilModel] = {}
    difficulties: dict[QuestionKey, elo.Rating] = {}  # shared by every pupil, as in the app
    rows: dict[str, list[tuple[float, float, bool]]] = defaultdict(list)
    for answer in answers:
        if answer.skill not in params or answer.question is None:
            continue
        skill_params = params[answer.skill]
        state = states.get((answer.pupil_id, answer.skill)) or skills.fresh(skill_params)
        model = models.setdefault(answer.pupil_id, PupilModel(answer.pupil_id, {}, {}, difficulties))
        key = (answer.skill, *answer.question)
        ability, difficulty, guess = (
            model.ability(answer.skill),
            model.difficulty(key),
            elo_guess(answer.p_guess, answer.hints),
        )
        bkt_guess = skills.hinted_guess(
            skill_params.p_guess if answer.p_guess is None else answer.p_guess, answer.hints
        )
        p_bkt = forecast.bkt_chance(state.p_known, skill_params.p_slip, bkt_guess)
        rows[answer.skill].append((p_bkt, elo.expected(ability.value, difficulty.value, guess), answer.correct))
        states[answer.pupil_id, answer.skill] = skills.update(
            state, answer.correct, skill_params, answer.p_guess, answer.hints
        )
        moved_ability, difficulties[key] = elo.update(ability, difficulty, answer.correct, guess)
        model.records[answer.skill] = SkillRecord(
            skill=answer.skill, ability=moved_ability.value, ability_count=moved_ability.count
        )
    return rows


def save_version(db: Session, results: list[FittedSkill]) -> int | None:
    """Store the results as the next version; its number, or None when there is nothing to store."""
    if not results:
        return None
    version = (db.scalar(select(func.max(SkillParams.version))) or 0) + 1
    for result in results:
        fitted, blend = result.fitted, result.blend
        db.add(
            SkillParams(
                version=version,
                skill=result.skill,
                p_init=fitted.p_init,
                p_learn=fitted.p_learn,
                p_slip=fitted.p_slip,
                p_guess=fitted.p_guess,
                blend_bkt=blend.bkt,
                blend_elo=blend.elo,
                blend_bias=blend.bias,
                answers=result.answers,
                log_likelihood=fitted.log_likelihood,
            )
        )
    db.flush()
    return version
