"""Fitting the skill model to the answers stored so far, as a new parameter version (``kortmatte skills fit``).

For every skill with enough first answers (:data:`tutor.skill_model.fitting.MIN_ANSWERS`), knowledge
tracing's parameters (with forgetting) are fitted by EM (:func:`tutor.skill_model.fitting.fit`), then
the answers are replayed in the order they were given, with the fitted parameters and with
Elo as the app ran it, and the forecast blend (:mod:`tutor.skill_model.forecast`) is fitted on the
two parts' chances before each answer. The new rows share one version number; a skill left
out keeps its older version or the defaults.

Then every pupil's record is **judged again** from their stored answers (:func:`rejudge`) by
the parameters each skill now uses, so the levels teachers see come from the fitted
parameters as soon as there are any. Each answer keeps the estimate and the version it was
judged by when it was given. ``kortmatte skills fit --when-due`` fits only the skills with
``REFIT_AFTER`` new first answers since their last version (:func:`due_skills`): run it
nightly from cron or a systemd timer (docs/deployment.md); it never runs in a pupil's request.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from tutor.models import AttemptRecord, DifficultyChange, QuestionDifficulty, SkillParams, SkillRecord, upsert
from tutor.skill_model import elo, fitting, forecast, skills
from tutor.skill_model.progress import (
    PRIOR_DIFFICULTY,
    PupilModel,
    QuestionKey,
    drill_level,
    elo_guess,
    newest_params,
    params_of,
    tap_share,
)

#: A fitted skill is fitted again once it has this many first answers more than its last version was fitted from.
REFIT_AFTER = 200
#: A question's difficulty is calibrated from the stored answers once it has this many; passes of the calibration.
MIN_CALIBRATION, CALIBRATION_PASSES = 30, 3
RIDGE = 0.01


@dataclass(frozen=True)
class StoredAnswer:
    pupil_id: int
    skill: str
    question: tuple[str, int] | None  # a drill question's kind and level (None: a card choice)
    correct: bool
    p_guess: float | None  # a tap's share of right buttons, None for a typed answer (the skill's own guess)
    hints: int
    at: datetime | None = None

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
            AttemptRecord.created_at,
        )
        .where(AttemptRecord.first_try.is_(True), AttemptRecord.readable.is_(True))
        .order_by(AttemptRecord.created_at, AttemptRecord.id)
    )
    answers = []
    for pupil_id, skill, kind, question, correct, hints, at in rows:
        question = question if isinstance(question, dict) else {}
        level = drill_level(kind, question)
        answers.append(
            StoredAnswer(
                pupil_id,
                skill,
                (kind, level) if level is not None else None,
                bool(correct),
                tap_share(question),
                hints or 0,
                at,
            )
        )
    return answers


def due_skills(db: Session, min_answers: int = fitting.MIN_ANSWERS, refit_after: int = REFIT_AFTER) -> set[str]:
    """The skills worth fitting now: enough first answers, and none fitted yet or ``refit_after`` new ones since."""
    counts = dict(
        db.execute(
            select(AttemptRecord.skill, func.count(AttemptRecord.id))
            .where(AttemptRecord.first_try.is_(True), AttemptRecord.readable.is_(True))
            .group_by(AttemptRecord.skill)
        ).all()
    )
    fitted = newest_params(db)
    return {
        skill
        for skill, count in counts.items()
        if count >= min_answers and (skill not in fitted or count >= fitted[skill].answers + refit_after)
    }


def fit_all(
    answers: list[StoredAnswer],
    seed: int = 0,
    min_answers: int = fitting.MIN_ANSWERS,
    only: set[str] | None = None,
    difficulties: dict[QuestionKey, elo.Rating] | None = None,
) -> list[FittedSkill]:
    """The fitted parameters and blend of every skill (in ``only`` when given) with ``min_answers`` answers or more."""
    sequences: dict[str, dict[int, list[fitting.Answer]]] = defaultdict(lambda: defaultdict(list))
    for answer in answers:
        sequences[answer.skill][answer.pupil_id].append(fitting.Answer(answer.correct, answer.known_guess))
    fitted = {}
    for skill in skills.SKILLS:
        if skill not in sequences or (only is not None and skill not in only):
            continue
        result = fitting.fit(list(sequences[skill].values()), seed=seed, min_answers=min_answers, forgets=True)
        if result is not None:
            fitted[skill] = result
    rows = replay(answers, {skill: result.params() for skill, result in fitted.items()}, difficulties)
    return [
        FittedSkill(
            skill, result.answers, result, forecast.choose_blend(rows[skill], min_rows=min_answers) or forecast.ELO_ONLY
        )
        for skill, result in fitted.items()
    ]


def replay(
    answers: list[StoredAnswer],
    params: dict[str, skills.Params],
    difficulties: dict[QuestionKey, elo.Rating] | None = None,
) -> dict[str, list[tuple[int, float, float, int, int, bool]]]:
    """Knowledge tracing's and Elo's chance of each drill answer being right, just before it, for the fitted skills,
    with the pupil and their earlier right and wrong answers in the skill.

    The answers update both as the app updates them (:func:`tutor.skill_model.progress.update_skill`),
    the question difficulties from ``difficulties`` (the priors where there is none).
    """
    states: dict[tuple[int, str], skills.SkillState] = {}
    models: dict[int, PupilModel] = {}
    difficulties = dict(difficulties or {})  # shared by every pupil, as in the app
    rows: dict[str, list[tuple[int, float, float, int, int, bool]]] = defaultdict(list)
    for answer in answers:
        if answer.skill not in params:
            continue
        skill_params = params[answer.skill]
        state = states.get((answer.pupil_id, answer.skill)) or skills.fresh(skill_params)
        states[answer.pupil_id, answer.skill] = skills.update(
            state,
            answer.correct,
            skill_params,
            answer.p_guess,
            answer.hints,
            drill_level=answer.question[1] if answer.question else None,
        )
        if answer.question is None:
            continue
        model = models.setdefault(answer.pupil_id, PupilModel(answer.pupil_id, {}, {}, difficulties))
        key = (answer.skill, *answer.question)
        ability, difficulty, guess = (
            model.ability(answer.skill),
            model.difficulty(key),
            elo_guess(answer.p_guess, answer.hints),
        )
        bkt_guess = skills.guess_chance(skill_params, answer.p_guess, answer.hints)
        p_bkt = forecast.bkt_chance(state.p_known, skill_params.p_slip, bkt_guess)
        p_elo = elo.expected(ability.value, difficulty.value, guess)
        right, wrong = state.correct, state.attempts - state.correct
        rows[answer.skill].append((answer.pupil_id, p_bkt, p_elo, right, wrong, answer.correct))
        moved_ability, difficulties[key] = elo.update(ability, difficulty, answer.correct, guess)
        model.records[answer.skill] = SkillRecord(
            skill=answer.skill, ability=moved_ability.value, ability_count=moved_ability.count
        )
    return rows


def calibrate(
    answers: list[StoredAnswer], only: set[str] | None = None, passes: int = CALIBRATION_PASSES
) -> dict[QuestionKey, elo.Rating]:
    """Each drill question's difficulty as the stored answers show it, for the skills in ``only`` (every one: None).

    Elo learns a shared difficulty online with a small step, so with few pupils it is still
    far from where their answers put it. Here each question with ``MIN_CALIBRATION`` answers
    or more gets the difficulty that makes its answers most likely given the pupils' Elo
    abilities just before them (a logistic fit by Newton's method, as Rasch models are
    calibrated), then the abilities are replayed with those difficulties, ``passes`` times.
    """
    table: dict[QuestionKey, elo.Rating] = {}
    for _ in range(passes):
        seen: dict[QuestionKey, list[tuple[float, float, bool]]] = defaultdict(list)
        abilities: dict[tuple[int, str], elo.Rating] = {}
        online = dict(table)
        for answer in answers:
            if answer.question is None or (only is not None and answer.skill not in only):
                continue
            key = (answer.skill, *answer.question)
            ability = abilities.get((answer.pupil_id, answer.skill)) or elo.Rating()
            difficulty = online.get(key) or elo.Rating(PRIOR_DIFFICULTY.get(key[2], 0.0), 0)
            guess = elo_guess(answer.p_guess, answer.hints)
            seen[key].append((ability.value, guess, answer.correct))
            abilities[answer.pupil_id, answer.skill], online[key] = elo.update(
                ability, difficulty, answer.correct, guess
            )
        table = {
            key: elo.Rating(_most_likely_difficulty(rows, online[key].value), len(rows))
            for key, rows in seen.items()
            if len(rows) >= MIN_CALIBRATION
        }
    return table


def _most_likely_difficulty(rows: list[tuple[float, float, bool]], start: float) -> float:
    """The d that maximises the sum of log P(answer) with P(right) = g + (1 - g) / (1 + e^(d - ability))."""
    d = start
    for _ in range(25):
        gradient = hessian = 0.0
        for ability, guess, correct in rows:
            logistic = 1 / (1 + math.exp(min(max(d - ability, -30.0), 30.0)))
            p = guess + (1 - guess) * logistic
            slope = -(1 - guess) * logistic * (1 - logistic)  # dP/dd
            gradient += slope / p if correct else -slope / (1 - p)
            hessian -= slope * slope / (p * p) if correct else slope * slope / ((1 - p) * (1 - p))
        hessian -= RIDGE  # a little pull towards where it started keeps a question everyone gets right finite
        gradient -= RIDGE * (d - start)
        step = -gradient / hessian
        d += max(min(step, 1.0), -1.0)
        if abs(step) < 1e-6:
            break
    return d


def save_difficulties(db: Session, table: dict[QuestionKey, elo.Rating]) -> None:
    """Store calibrated difficulties; online steps since the answers were read are replaced."""
    for (skill, kind, level), rating in table.items():
        db.execute(
            delete(DifficultyChange).where(
                DifficultyChange.skill == skill, DifficultyChange.kind == kind, DifficultyChange.level == level
            )
        )
        insert = upsert(
            db, QuestionDifficulty, skill=skill, kind=kind, level=level, value=rating.value, count=rating.count
        )
        db.execute(
            insert.on_conflict_do_update(
                index_elements=["skill", "kind", "level"], set_={"value": rating.value, "count": rating.count}
            )
        )


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
                p_forget=fitted.p_forget,
                blend_bkt=blend.bkt,
                blend_elo=blend.elo,
                blend_bias=blend.bias,
                blend_right=blend.right,
                blend_wrong=blend.wrong,
                answers=result.answers,
                log_likelihood=fitted.log_likelihood,
            )
        )
    db.flush()
    return version


def rejudge(db: Session, answers: list[StoredAnswer], skills_to_judge: set[str] | None = None) -> int:
    """Judge every pupil's record again from their stored answers by the parameters its skill uses now.

    Each record gets the P(known), evidence and right typed answers its answers lead to with
    the skill's newest version (the defaults without one), judged by the record's own mastery
    threshold. A record that a pupil's answer changed meanwhile (its count of answers differs)
    is left as it is: its next answer goes on from there. The number of records written.
    """
    newest = newest_params(db)
    thresholds = {
        (pupil_id, skill): (mastery, attempts)
        for pupil_id, skill, mastery, attempts in db.execute(
            select(SkillRecord.pupil_id, SkillRecord.skill, SkillRecord.mastery_threshold, SkillRecord.attempts)
        )
    }
    states: dict[tuple[int, str], skills.SkillState] = {}
    last: dict[tuple[int, str], datetime | None] = {}
    for answer in answers:
        key = (answer.pupil_id, answer.skill)
        if key not in thresholds or (skills_to_judge is not None and answer.skill not in skills_to_judge):
            continue
        params = params_of(newest.get(answer.skill), thresholds[key][0])
        state = states.get(key) or skills.fresh(params)
        states[key] = skills.update(
            state,
            answer.correct,
            params,
            answer.p_guess,
            answer.hints,
            drill_level=answer.question[1] if answer.question else None,
            days=skills.idle_days(last.get(key), answer.at),
        )
        last[key] = answer.at
    written = 0
    for (pupil_id, skill), state in states.items():
        if state.attempts != thresholds[pupil_id, skill][1]:
            continue
        fitted = newest.get(skill)
        written += db.execute(
            update(SkillRecord)
            .where(SkillRecord.pupil_id == pupil_id, SkillRecord.skill == skill, SkillRecord.attempts == state.attempts)
            .values(
                p_known=state.p_known,
                evidence=state.evidence,
                typed_right=state.typed_right,
                practised_at=last[pupil_id, skill],
                params_version=fitted.version if fitted is not None else None,
            )
        ).rowcount
    return written
