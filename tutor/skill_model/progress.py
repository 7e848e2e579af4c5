"""Storing a pupil's answers and skill records; plain SQLAlchemy, no Flask.

A lesson step reads what the skill model needs once (:func:`load_model`: the pupil's
records, the fitted parameters, the question difficulties), chooses the next levels and
computes every update from it, and only then writes: the answer, the skill record and one
increment of the question's difficulty (in one of :data:`DIFFICULTY_SHARDS` rows, so that a district
answering one question does not queue for one row). The write lock is held for those few statements only.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy import func, literal, select, union_all
from sqlalchemy.orm import Session, aliased

from tutor import answer_counts
from tutor.drills import Offer, Pitch
from tutor.drills.marking import CARD_CHOICE, Attempt
from tutor.models import (
    AttemptRecord,
    DifficultyChange,
    Pupil,
    QuestionDifficulty,
    SkillParams,
    SkillRecord,
    upsert,
    utcnow,
)
from tutor.skill_model import elo, skills

#: A question kind's difficulty at each level before any pupil has answered it, in logits:
#: a new pupil (ability 0) gets level 1 right 3 times in 4 (1 / (1 + e^-1.1) = 0.75).
PRIOR_DIFFICULTY = {1: -1.1, 2: 0.0, 3: 1.1}
#: The least gap, in logits, between a skill's neighbouring levels when the next level is chosen.
LEVEL_GAP = 0.5
#: Offered questions whose forecast success is this near the target count as pitched alike: among them the
#: lesson's own order decides, so that a pupil still meets every kind the table offers (:func:`rank_offers`).
PITCHED_ALIKE = 0.1
#: How many rows each question's difficulty changes are summed in: a pupil's answers go to the row of their id
#: modulo this, so up to this many pupils answering the same question write at once without waiting for each other.
DIFFICULTY_SHARDS = 16

QuestionKey = tuple[str, str, int]  # skill, question kind, level


@dataclass
class PupilModel:
    """What the skill model knows for one pupil's step, read before anything is written."""

    pupil_id: int
    records: dict[str, SkillRecord]
    params: dict[str, SkillParams]  # the newest fitted version per skill; a skill without one uses the defaults
    difficulties: dict[QuestionKey, elo.Rating]

    def ability(self, skill: str) -> elo.Rating:
        """The pupil's Elo ability in ``skill``; one not yet practised starts from the others (:func:`elo.start`)."""
        record = self.records.get(skill)
        if record is not None and record.ability_count:
            return elo.Rating(record.ability, record.ability_count)
        return elo.start(elo.Rating(r.ability, r.ability_count) for r in self.records.values())

    def difficulty(self, key: QuestionKey) -> elo.Rating:
        return self.difficulties.get(key) or elo.Rating(PRIOR_DIFFICULTY.get(key[2], 0.0), 0)


def load_model(db: Session, pupil_id: int, shared: SharedRows | None = None) -> PupilModel:
    """The pupil's skill records, with the rows every pupil shares (from ``shared``, or read now)."""
    params, difficulties = shared.read(db) if shared is not None else read_shared(db)
    return PupilModel(pupil_id, skill_records(db, pupil_id), params, difficulties)


def read_shared(db: Session) -> tuple[dict[str, SkillParams], dict[QuestionKey, elo.Rating]]:
    """The newest fitted parameters per skill and every question's difficulty (one statement for the difficulties)."""
    return newest_params(db), read_difficulties(db)


def read_difficulties(db: Session) -> dict[QuestionKey, elo.Rating]:
    """Each question's difficulty: its calibrated value (or the prior) plus the changes in all its shards."""
    calibrated = select(
        QuestionDifficulty.skill,
        QuestionDifficulty.kind,
        QuestionDifficulty.level,
        QuestionDifficulty.value,
        QuestionDifficulty.count,
        literal(True).label("calibrated"),
    )
    changed = select(
        DifficultyChange.skill,
        DifficultyChange.kind,
        DifficultyChange.level,
        DifficultyChange.value,
        DifficultyChange.count,
        literal(False).label("calibrated"),
    )
    bases: dict[QuestionKey, elo.Rating] = {}
    changes: dict[QuestionKey, tuple[float, int]] = {}
    for skill, kind, level, value, count, is_calibrated in db.execute(union_all(calibrated, changed)):
        key = (skill, kind, level)
        if is_calibrated:
            bases[key] = elo.Rating(value, count)
        else:
            change, answers = changes.get(key, (0.0, 0))
            changes[key] = (change + value, answers + count)
    for key, (change, answers) in changes.items():
        base = bases.get(key) or elo.Rating(PRIOR_DIFFICULTY.get(key[2], 0.0), 0)
        bases[key] = elo.Rating(base.value + change, base.count + answers)
    return bases


class SharedRows:
    """:func:`read_shared`, read again at most every ``seconds`` in a process.

    Every step needs them, and they change slowly: parameters only when ``kortmatte skills
    fit`` stores a new version, a difficulty by a small step per answer (written as an
    increment, so a step that judged with a slightly older value still adds its own change
    exactly). Reading them once for many steps saves two statements and their decoding per step.
    """

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.lock = threading.Lock()
        self.rows: tuple[dict, dict] | None = None
        self.read_at = 0.0

    def read(self, db: Session) -> tuple[dict[str, SkillParams], dict[QuestionKey, elo.Rating]]:
        with self.lock:
            if self.rows is None or time.monotonic() - self.read_at >= self.seconds:
                params, difficulties = read_shared(db)
                for row in params.values():
                    db.expunge(row)  # kept beyond this session: a rollback there must not expire them
                self.rows, self.read_at = (params, difficulties), time.monotonic()
            return self.rows


class PupilPitch(Pitch):
    """A pupil's levels (:func:`levels_for`) and ranking of offered questions (:func:`rank_offers`) for a lesson.

    Worked out from the pupil's model on first use: most lesson steps ask no question and need none.
    """

    def __init__(self, model: Callable[[], PupilModel], target: Callable[[], float] = lambda: elo.TARGET) -> None:
        self.model, self.target, self.levels = model, target, None

    def _levels(self) -> dict[str, int]:
        if self.levels is None:
            self.levels = levels_for(self.model(), self.target())
        return self.levels

    def __getitem__(self, skill: str) -> int:
        return self._levels()[skill]

    def __iter__(self):
        return iter(self._levels())

    def __len__(self) -> int:
        return len(self._levels())

    def ranked(self, offers: Sequence[Offer]) -> list[tuple[Offer, int]]:
        model = self.model()
        abilities = {offer.skill: model.ability(offer.skill).value for offer in offers}
        pairs = [(offer.skill, offer.kind) for offer in offers]
        ranking = rank_offers(abilities, model.difficulties, pairs, self.target())
        return [(offers[index], level) for index, level in ranking]


def newest_params(db: Session) -> dict[str, SkillParams]:
    """Each fitted skill's newest parameter row; a skill without one uses the defaults."""
    newer = aliased(SkillParams)
    newest = select(SkillParams).where(
        ~select(newer.id).where(newer.skill == SkillParams.skill, newer.version > SkillParams.version).exists()
    )
    return {row.skill: row for row in db.scalars(newest)}


def is_card_choice(kind: str) -> bool:
    """Whether an answer is a card chosen in the game (judged as an answer), not a drill question."""
    return kind.startswith(CARD_CHOICE)


def ordered(difficulties: dict[int, float]) -> dict[int, float]:
    """A skill's level difficulties with level 1 below 2 below 3, at least ``LEVEL_GAP`` apart (level 2 stays)."""
    middle = difficulties[2]
    return {1: min(difficulties[1], middle - LEVEL_GAP), 2: middle, 3: max(difficulties[3], middle + LEVEL_GAP)}


def level_difficulties(difficulties: Mapping[QuestionKey, elo.Rating]) -> dict[str, dict[int, float]]:
    """Each skill's difficulty per level: the mean over its drill kinds answered at that level, else the prior; ordered.

    Card choices are left out: their buttons are the pupil's hand, not a level of a drill.
    """
    by_level: dict[str, dict[int, list[float]]] = {}
    for (skill, kind, level), rating in difficulties.items():
        if level in PRIOR_DIFFICULTY and not is_card_choice(kind):
            by_level.setdefault(skill, {}).setdefault(level, []).append(rating.value)
    table = {}
    for skill in skills.SKILLS:
        learnt = by_level.get(skill, {})
        means = {
            level: sum(learnt[level]) / len(learnt[level]) if learnt.get(level) else prior
            for level, prior in PRIOR_DIFFICULTY.items()
        }
        table[skill] = ordered(means)
    return table


def levels_for(model: PupilModel, target: float = elo.TARGET) -> dict[str, int]:
    """The level (1 to 3) of the next question in every skill, chosen for an expected success of ``target``.

    The pupil's Elo ability in the skill against each level's difficulty (:func:`level_difficulties`).
    """
    table = level_difficulties(model.difficulties)
    return {skill: elo.choose_difficulty(model.ability(skill).value, table[skill], target) for skill in skills.SKILLS}


def kind_difficulties(
    difficulties: Mapping[QuestionKey, elo.Rating], table: dict[str, dict[int, float]], skill: str, kind: str
) -> dict[int, float]:
    """One drill kind's difficulty per level: its own where pupils have answered it, else the skill's level's
    (``table``, from :func:`level_difficulties`); ordered as :func:`ordered` orders a skill's."""
    return ordered(
        {
            level: difficulties[skill, kind, level].value if (skill, kind, level) in difficulties else value
            for level, value in table[skill].items()
        }
    )


def rank_offers(
    abilities: Mapping[str, float],
    difficulties: Mapping[QuestionKey, elo.Rating],
    offers: Sequence[tuple[str, str]],
    target: float = elo.TARGET,
) -> list[tuple[int, int]]:
    """The offered questions (skill, kind) as (index, level), the one whose expected success is nearest ``target``
    first, each at its own nearest level.

    A struggling pupil gets the easier kind the table offers, a strong one the harder: the level
    alone cannot pitch a question whose easiest level is still above the pupil. ``abilities``: the
    pupil's Elo ability per offered skill. Offers forecast within :data:`PITCHED_ALIKE` of the
    target keep the lesson's order among them (its variety), ahead of every offer farther off.
    """
    table = level_difficulties(difficulties)
    chosen = []
    for index, (skill, kind) in enumerate(offers):
        by_level = kind_difficulties(difficulties, table, skill, kind)
        level = elo.choose_difficulty(abilities[skill], by_level, target)
        distance = abs(elo.expected(abilities[skill], by_level[level]) - target)
        chosen.append((max(distance, PITCHED_ALIKE), index, level))
    return [(index, level) for _, index, level in sorted(chosen)]


def choose_levels(db: Session, pupil_id: int, target: float = elo.TARGET) -> dict[str, int]:
    """:func:`levels_for` the pupil's model as it stands in the database."""
    return levels_for(load_model(db, pupil_id), target)


def target_success(pupil: Pupil) -> float:
    """The success the pupil's questions are chosen for: their class's setting, or the default for a guest."""
    return pupil.school_class.target_success if pupil.school_class is not None else elo.TARGET


def params_of(row: SkillParams | None, mastery: float = skills.DEFAULT_PARAMS.mastery) -> skills.Params:
    """The knowledge-tracing parameters a fitted row stands for (the defaults without one), judged by ``mastery``."""
    if row is None:
        return replace(skills.DEFAULT_PARAMS, mastery=mastery)
    return replace(
        skills.DEFAULT_PARAMS,
        p_init=row.p_init,
        p_learn=row.p_learn,
        p_slip=row.p_slip,
        p_guess=row.p_guess,
        p_forget=row.p_forget or 0.0,
        mastery=mastery,
    )


def tap_share(question: dict) -> float | None:
    """A stored question's chance of a lucky tap: right buttons ÷ buttons (None for a typed answer)."""
    if question.get("answer") != "choice" or not question.get("choices"):
        return None
    expected = set((question.get("check") or {}).get("expected") or [])
    values = [choice.get("value") for choice in question["choices"]]
    return sum(value in expected for value in values) / len(values)


def drill_level(attempt_kind: str, question: dict) -> int | None:
    """The level of a drill question (None for a card choice or a question without one)."""
    level = question.get("difficulty")
    return (
        level if isinstance(level, int) and not isinstance(level, bool) and not is_card_choice(attempt_kind) else None
    )


def skill_records(db: Session, pupil_id: int) -> dict[str, SkillRecord]:
    return {row.skill: row for row in db.scalars(select(SkillRecord).where(SkillRecord.pupil_id == pupil_id))}


def right_after_retry(db: Session, pupil_id: int) -> dict[str, int]:
    """Per skill, the answers that were right at a second or later try (apart from first tries).

    The skill record counts only first tries; these show the pupil who corrects a mistake.
    """
    rows = db.execute(
        select(AttemptRecord.skill, func.count(AttemptRecord.id))
        .where(
            AttemptRecord.pupil_id == pupil_id,
            AttemptRecord.correct.is_(True),
            AttemptRecord.readable.is_(True),
            AttemptRecord.first_try.is_(False),
        )
        .group_by(AttemptRecord.skill)
    )
    return {skill: count for skill, count in rows}


def record_attempt(
    db: Session,
    pupil_id: int,
    run_id: int | None,
    attempt: Attempt,
    at: datetime | None = None,
    model: PupilModel | None = None,
) -> tuple[AttemptRecord, SkillRecord | None]:
    """Store one answer and count it in its day's count (:mod:`tutor.answer_counts`); a readable first try also
    updates the pupil's skill record.

    An answer that could not be read is stored as its refusal code, not as what was typed:
    children type names and phone numbers into answer boxes. ``model``: what
    :func:`load_model` read at the start of the step (read now when not given).
    """
    record, at = None, at or utcnow()
    if attempt.first_try:
        level = drill_level(attempt.kind, attempt.question)
        record = update_skill(
            db,
            pupil_id,
            attempt.skill,
            attempt.correct,
            tap_share(attempt.question),
            attempt.hints_used,
            question=(attempt.kind, level) if level is not None else None,
            model=model,
            at=at,
        )
    row = AttemptRecord(
        pupil_id=pupil_id,
        run_id=run_id,
        skill=attempt.skill,
        question_kind=attempt.kind,
        question=attempt.question,
        typed=attempt.typed if attempt.readable else "",
        read_as=attempt.read_as if attempt.readable else None,
        correct=attempt.correct,
        readable=attempt.readable,
        first_try=attempt.first_try,
        hints_used=attempt.hints_used,
        time_ms=attempt.time_ms,
        error_code=None if attempt.readable else attempt.error_code,
        misconception=attempt.misconception,
        feedback=attempt.feedback or None,
        move_index=attempt.move_index,
        p_known_after=record.p_known if record is not None else None,
        params_version=record.params_version if record is not None else None,
        created_at=at,
    )
    db.add(row)
    db.flush()  # the answer's id, which its day's count keeps as the newest wrong answer
    answer_counts.count_answer(db, row)
    return row, record


def update_skill(
    db: Session,
    pupil_id: int,
    skill: str,
    correct: bool,
    p_guess: float | None = None,
    hints: int = 0,
    question: tuple[str, int] | None = None,
    model: PupilModel | None = None,
    at: datetime | None = None,
) -> SkillRecord:
    """Update the pupil's record of ``skill`` with one first answer at ``at`` (``hints``: hints shown before it).

    ``p_guess``: a tap's share of right buttons (:func:`tap_share`; None for a typed answer).
    Knowledge tracing uses the skill's newest fitted parameters (the defaults until
    ``kortmatte skills fit`` has fitted them) and the record keeps their version. With a drill
    ``question``'s kind and level, the answer counts as evidence from level 2 and the pupil's
    Elo ability and that question's difficulty move too; a card choice (no question) does neither.
    """
    at = at or utcnow()
    model = model or load_model(db, pupil_id)
    fitted = model.params.get(skill)
    record = model.records.get(skill)
    if record is None:
        params = params_of(fitted)
        start = model.ability(skill)
        record = SkillRecord(
            pupil_id=pupil_id,
            skill=skill,
            p_known=params.p_init,
            attempts=0,
            correct=0,
            streak=0,
            mastery_threshold=skills.DEFAULT_PARAMS.mastery,
            ability=start.value,
            ability_count=0,
            evidence=0.0,
            typed_right=0,
        )
        db.add(record)
        model.records[skill] = record
    params = params_of(fitted, record.mastery_threshold)
    new = skills.update(
        state_of(record),
        correct,
        params,
        p_guess,
        hints,
        drill_level=question[1] if question is not None else None,
        days=skills.idle_days(record.practised_at, at),
    )
    record.p_known, record.attempts, record.correct, record.streak = new.p_known, new.attempts, new.correct, new.streak
    record.evidence, record.typed_right, record.practised_at = new.evidence, new.typed_right, at
    record.params_version = fitted.version if fitted is not None else None
    if question is not None:
        rate_question(db, model, record, question, correct, elo_guess(p_guess, hints))
    return record


def state_of(record: SkillRecord) -> skills.SkillState:
    """A stored record as the skill model's state."""
    return skills.SkillState(
        record.p_known, record.attempts, record.correct, record.streak, record.evidence or 0.0, record.typed_right or 0
    )


def elo_guess(p_guess: float | None, hints: int) -> float:
    """The chance of a lucky right answer Elo allows for: a tap's share of right buttons (typed: 0), raised by hints."""
    return skills.hinted_guess(p_guess or 0.0, hints)


def rate_question(
    db: Session, model: PupilModel, record: SkillRecord, question: tuple[str, int], correct: bool, guess: float
) -> None:
    """Move the pupil's ability and the question's difficulty by one answer (:func:`tutor.skill_model.elo.update`).

    The difficulty is shared by every pupil, so it moves by an increment in one upsert
    (value = value + change) of the pupil's shard (:data:`DIFFICULTY_SHARDS`): two servers rating
    the same question at once both count, and pupils of other shards do not wait for the row.
    """
    key = (record.skill, *question)
    difficulty = model.difficulty(key)
    ability, moved = elo.update(elo.Rating(record.ability, record.ability_count), difficulty, correct, guess)
    record.ability, record.ability_count = ability.value, ability.count
    model.difficulties[key] = moved
    change = moved.value - difficulty.value
    shard = model.pupil_id % DIFFICULTY_SHARDS
    insert = upsert(db, DifficultyChange, skill=key[0], kind=key[1], level=key[2], shard=shard, value=change, count=1)
    db.execute(
        insert.on_conflict_do_update(
            index_elements=["skill", "kind", "level", "shard"],
            set_={"value": DifficultyChange.value + change, "count": DifficultyChange.count + 1},
        )
    )
