"""Database tables: teachers, classes, pupils, homework, lesson runs, answers and skill records.

The chain follows Kolibri's logger: a pupil has lesson runs; each answer is an
attempt that stores what was typed, how it was read, whether it was right, the hints
used and the time taken; a skill record per pupil and skill holds the model's estimate
and the mastery threshold it is judged by. Beside it, Kolibri's coach side: a teacher
teaches classes, a class has pupils and assignments, and a small summary row per pupil
and assignment keeps the dashboards from counting every answer again.

Every row a URL names has a random ``public_id``; the sequential ``id`` never leaves the
server.
"""

from __future__ import annotations

import secrets
from datetime import UTC, date, datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship


def utcnow() -> datetime:
    return datetime.now(UTC)


def new_public_id() -> str:
    """A random id for URLs (96 bits): not guessable, not sequential."""
    return secrets.token_urlsafe(12)


def public_id_column() -> Mapped[str]:
    return mapped_column(String(24), unique=True, default=new_public_id)


def upsert(db: Session, model: type[Base], **values):
    """An INSERT of ``values`` into ``model``'s table that takes ON CONFLICT DO UPDATE (SQLite or PostgreSQL)."""
    dialect = postgresql if db.get_bind().dialect.name == "postgresql" else sqlite
    return dialect.insert(model).values(**values)


class Base(DeclarativeBase):
    type_annotation_map = {dict: JSON, list: JSON}


class Teacher(Base):
    __tablename__ = "teacher"

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = public_id_column()
    # stored lower-case; None for a teacher who comes from a learning platform (LtiTeacherLink) and has no password
    email: Mapped[str | None] = mapped_column(String(254), unique=True, nullable=True)
    name: Mapped[str] = mapped_column(String(80))
    password_hash: Mapped[str | None] = mapped_column(String(255), nullable=True)
    locale: Mapped[str] = mapped_column(String(8), default="en")
    # switched off by the school's administrator (kortmatte teacher disable): cannot sign in, keeps their classes
    disabled: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # The second factor (tutor.second_factor): the TOTP secret, kept while it is being set up and once it is on.
    totp_secret: Mapped[str | None] = mapped_column(String(64), nullable=True)
    totp_on: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # the time step of the last code accepted, so a code seen over a shoulder cannot be used again
    totp_last_step: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    memberships: Mapped[list[ClassTeacher]] = relationship(back_populates="teacher", cascade="all, delete-orphan")


class SchoolClass(Base):
    """A class: its pupils sign in with its code, then their name, then their pictures or PIN."""

    __tablename__ = "school_class"

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = public_id_column()
    code: Mapped[str] = mapped_column(String(8), unique=True)
    name: Mapped[str] = mapped_column(String(60))
    locale: Mapped[str] = mapped_column(String(8), default="en")
    timezone: Mapped[str] = mapped_column(String(64), default="UTC")
    sign_in: Mapped[str] = mapped_column(String(8), default="pictures")  # "pictures" or "pin"
    # The share of questions the class's pupils should get right: the next question's level is chosen for it.
    target_success: Mapped[float] = mapped_column(Float, default=0.75, server_default="0.75")
    # Casino War is a lesson about chance with tokens: off until a teacher switches it on for the class.
    casino_war_on: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # For the youngest classes: each new text of a lesson is read aloud once, where the device has a voice.
    read_aloud_on: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    memberships: Mapped[list[ClassTeacher]] = relationship(back_populates="school_class", cascade="all, delete-orphan")
    pupils: Mapped[list[Pupil]] = relationship(
        back_populates="school_class", cascade="all, delete-orphan", passive_deletes=True
    )
    assignments: Mapped[list[Assignment]] = relationship(
        back_populates="school_class", cascade="all, delete-orphan", passive_deletes=True
    )
    groups: Mapped[list[PupilGroup]] = relationship(cascade="all, delete-orphan", passive_deletes=True)


class ClassTeacher(Base):
    """Who teaches a class: its owner and any co-teachers (both see everything in it)."""

    __tablename__ = "class_teacher"

    class_id: Mapped[int] = mapped_column(ForeignKey("school_class.id", ondelete="CASCADE"), primary_key=True)
    teacher_id: Mapped[int] = mapped_column(ForeignKey("teacher.id", ondelete="CASCADE"), primary_key=True, index=True)
    role: Mapped[str] = mapped_column(String(8), default="owner")  # "owner" or "co"

    school_class: Mapped[SchoolClass] = relationship(back_populates="memberships")
    teacher: Mapped[Teacher] = relationship(back_populates="memberships")


class Pupil(Base):
    """A child in a class (first name or nickname only), or a guest without a class."""

    __tablename__ = "pupil"
    __table_args__ = (UniqueConstraint("class_id", "name", name="uq_pupil_class_id_name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = public_id_column()
    name: Mapped[str] = mapped_column(String(40))
    is_guest: Mapped[bool] = mapped_column(Boolean, default=True)
    locale: Mapped[str] = mapped_column(String(8), default="en")
    class_id: Mapped[int | None] = mapped_column(
        ForeignKey("school_class.id", ondelete="CASCADE"), index=True, nullable=True
    )
    avatar: Mapped[str | None] = mapped_column(String(20), nullable=True)
    # A picture password ("sun cat car") or a PIN, printed on the login card for the teacher to hand out:
    # a child's secret guards only their own maths work, and failures are throttled per pupil.
    secret: Mapped[str | None] = mapped_column(String(40), nullable=True)
    # A guest's device: the hash of a long-lived cookie, so signing in again on that device finds their games.
    device_hash: Mapped[str | None] = mapped_column(String(64), index=True, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    school_class: Mapped[SchoolClass | None] = relationship(back_populates="pupils")
    runs: Mapped[list[LessonRunRecord]] = relationship(
        back_populates="pupil", cascade="all, delete-orphan", passive_deletes=True
    )


class LessonRunRecord(Base):
    """One lesson being played or finished; ``data`` is :meth:`LessonRun.to_dict`."""

    __tablename__ = "lesson_run"

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = public_id_column()
    pupil_id: Mapped[int] = mapped_column(ForeignKey("pupil.id", ondelete="CASCADE"), index=True)
    assignment_id: Mapped[int | None] = mapped_column(
        ForeignKey("assignment.id", ondelete="SET NULL"), index=True, nullable=True
    )
    game_id: Mapped[str] = mapped_column(String(40))
    seed: Mapped[int] = mapped_column(BigInteger)
    stage: Mapped[str] = mapped_column(String(12))
    data: Mapped[dict] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    # the fingerprint of the code that wrote ``data`` (tutor.code_version): that code trusts it without checking
    # it again; None (written before there were fingerprints) or another code's: checked when read
    written_by: Mapped[str | None] = mapped_column(String(16), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # the rate limit of lesson steps (tutor.limits.LESSON_STEPS): counted here, as the run is written on every step
    # anyway
    steps_window_start: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    steps_in_window: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    pupil: Mapped[Pupil] = relationship(back_populates="runs")
    attempts: Mapped[list[AttemptRecord]] = relationship(
        back_populates="run", cascade="all, delete-orphan", passive_deletes=True
    )

    # Two app servers saving the same run at once: the second save fails instead of losing a step.
    __mapper_args__ = {"version_id_col": version}


class AttemptRecord(Base):
    """One answer. An unreadable answer keeps its refusal code, never the typed text."""

    __tablename__ = "attempt"
    __table_args__ = (Index("ix_attempt_pupil_created", "pupil_id", "created_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    pupil_id: Mapped[int] = mapped_column(ForeignKey("pupil.id", ondelete="CASCADE"))
    run_id: Mapped[int | None] = mapped_column(
        ForeignKey("lesson_run.id", ondelete="CASCADE"), index=True, nullable=True
    )
    skill: Mapped[str] = mapped_column(String(30))
    question_kind: Mapped[str] = mapped_column(String(40))
    question: Mapped[dict] = mapped_column(JSON)
    typed: Mapped[str] = mapped_column(String(200))
    read_as: Mapped[str | None] = mapped_column(String(200), nullable=True)
    correct: Mapped[bool] = mapped_column(Boolean)
    readable: Mapped[bool] = mapped_column(Boolean, default=True)
    first_try: Mapped[bool] = mapped_column(Boolean, default=True)
    hints_used: Mapped[int] = mapped_column(Integer, default=0)
    time_ms: Mapped[int] = mapped_column(Integer, default=0)
    error_code: Mapped[str | None] = mapped_column(String(40), nullable=True)  # why an answer could not be read
    misconception: Mapped[str | None] = mapped_column(String(40), nullable=True)
    feedback: Mapped[list | None] = mapped_column(JSON, nullable=True)  # the feedback shown, as Text dicts
    move_index: Mapped[int | None] = mapped_column(Integer, nullable=True)  # where in the run's moves it was asked
    p_known_after: Mapped[float | None] = mapped_column(Float, nullable=True)  # the skill estimate it led to
    params_version: Mapped[int | None] = mapped_column(
        Integer, nullable=True
    )  # the fitted parameters that judged it (None: defaults)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    run: Mapped[LessonRunRecord | None] = relationship(back_populates="attempts")


class AnswerDayCount(Base):
    """A pupil's readable answers of one question kind on one day of the class's calendar, counted as they are stored.

    The weekly misconception report sums these rows instead of the week's answers
    (:mod:`tutor.answer_counts` keeps them). A row with a ``misconception`` counts the wrong
    answers that showed it with one value ``typed``; a row without (``""``) counts the kind's
    other readable answers, right and wrong. ``day`` is the date in the class's time zone when
    the answer was stored.
    """

    __tablename__ = "answer_day_count"
    __table_args__ = (
        UniqueConstraint(
            "pupil_id", "day", "skill", "question_kind", "misconception", "typed", name="uq_answer_day_count_row"
        ),
        # Covers the report's GROUP BYs: a class's week is summed from the index alone, without reading the rows.
        Index(
            "ix_answer_day_count_week",
            "class_id",
            "day",
            "skill",
            "question_kind",
            "misconception",
            "pupil_id",
            "typed",
            "answers",
            "wrong",
            "last_wrong_id",
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    class_id: Mapped[int] = mapped_column(ForeignKey("school_class.id", ondelete="CASCADE"))
    pupil_id: Mapped[int] = mapped_column(ForeignKey("pupil.id", ondelete="CASCADE"))
    day: Mapped[date] = mapped_column(Date)
    skill: Mapped[str] = mapped_column(String(30))
    question_kind: Mapped[str] = mapped_column(String(40))
    misconception: Mapped[str] = mapped_column(String(40))
    typed: Mapped[str] = mapped_column(String(200))
    answers: Mapped[int] = mapped_column(Integer)
    wrong: Mapped[int] = mapped_column(Integer)
    # the newest wrong answer's attempt id: the report's example and the moment its replay link opens
    last_wrong_id: Mapped[int | None] = mapped_column(Integer, nullable=True)


class SkillRecord(Base):
    __tablename__ = "skill_record"
    __table_args__ = (UniqueConstraint("pupil_id", "skill"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    pupil_id: Mapped[int] = mapped_column(ForeignKey("pupil.id", ondelete="CASCADE"), index=True)
    skill: Mapped[str] = mapped_column(String(30))
    p_known: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    correct: Mapped[int] = mapped_column(Integer, default=0)
    streak: Mapped[int] = mapped_column(Integer, default=0)
    mastery_threshold: Mapped[float] = mapped_column(Float)
    params_version: Mapped[int | None] = mapped_column(
        Integer, nullable=True
    )  # the fitted parameters of its last update
    ability: Mapped[float] = mapped_column(
        Float, default=0.0, server_default="0"
    )  # Elo, in logits (tutor.skill_model.elo)
    ability_count: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # The luck-proof evidence of the level-2 and level-3 drill answers (tutor.skill_model.skills.update), the right
    # typed ones among them, and when the skill was last practised (the evidence ages from then).
    evidence: Mapped[float] = mapped_column(Float, default=0.0, server_default="0")
    typed_right: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    practised_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)


class SkillParams(Base):
    """One skill's fitted parameters in one version; ``kortmatte skills fit`` writes a new version.

    A skill without a row uses the defaults of :mod:`tutor.skill_model.skills`; otherwise its newest row counts.
    """

    __tablename__ = "skill_params"
    __table_args__ = (UniqueConstraint("version", "skill"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    version: Mapped[int] = mapped_column(Integer, index=True)
    skill: Mapped[str] = mapped_column(String(30))
    p_init: Mapped[float] = mapped_column(Float)
    p_learn: Mapped[float] = mapped_column(Float)
    p_slip: Mapped[float] = mapped_column(Float)
    p_guess: Mapped[float] = mapped_column(Float)
    p_forget: Mapped[float] = mapped_column(Float, default=0.0, server_default="0")
    blend_bkt: Mapped[float] = mapped_column(Float)  # tutor.skill_model.forecast.Blend
    blend_elo: Mapped[float] = mapped_column(Float)
    blend_bias: Mapped[float] = mapped_column(Float)
    blend_right: Mapped[float] = mapped_column(Float, default=0.0, server_default="0")
    blend_wrong: Mapped[float] = mapped_column(Float, default=0.0, server_default="0")
    answers: Mapped[int] = mapped_column(Integer)  # how many first answers it was fitted from
    log_likelihood: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class QuestionDifficulty(Base):
    """The Elo difficulty of one kind of question at one level, learnt from every pupil's first answers."""

    __tablename__ = "question_difficulty"
    __table_args__ = (UniqueConstraint("skill", "kind", "level"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    skill: Mapped[str] = mapped_column(String(30))
    kind: Mapped[str] = mapped_column(String(40))
    level: Mapped[int] = mapped_column(Integer)
    value: Mapped[float] = mapped_column(Float)  # logits; see tutor.skill_model.elo
    count: Mapped[int] = mapped_column(Integer)


class DifficultyChange(Base):
    """What answers since the last calibration moved a question's difficulty, summed in one of several shards.

    Every first answer adds its small change to one shard (chosen by the pupil), so a whole district
    answering the same question at once writes to many rows instead of queueing for one. The difficulty
    is the calibrated value (:class:`QuestionDifficulty`, or the prior) plus every shard's change.
    """

    __tablename__ = "question_difficulty_change"
    __table_args__ = (
        UniqueConstraint(
            "skill", "kind", "level", "shard", name="uq_question_difficulty_change_skill_kind_level_shard"
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    skill: Mapped[str] = mapped_column(String(30))
    kind: Mapped[str] = mapped_column(String(40))
    level: Mapped[int] = mapped_column(Integer)
    shard: Mapped[int] = mapped_column(Integer)
    value: Mapped[float] = mapped_column(Float)  # the sum of the changes, in logits
    count: Mapped[int] = mapped_column(Integer)  # how many answers made them


class Assignment(Base):
    """Homework: a lesson (game, options, players, computer players), a goal and a due time."""

    __tablename__ = "assignment"

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = public_id_column()
    class_id: Mapped[int] = mapped_column(ForeignKey("school_class.id", ondelete="CASCADE"), index=True)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("teacher.id", ondelete="SET NULL"), nullable=True)
    game_id: Mapped[str] = mapped_column(String(40))
    players: Mapped[int] = mapped_column(Integer, default=2)
    bots: Mapped[str] = mapped_column(String(20), default="beginner")
    options: Mapped[dict] = mapped_column(JSON, default=dict)
    goal: Mapped[str] = mapped_column(String(12))  # "games", "questions" or "skill"
    goal_count: Mapped[int] = mapped_column(Integer, default=1)
    goal_skill: Mapped[str | None] = mapped_column(String(30), nullable=True)
    goal_level: Mapped[str | None] = mapped_column(String(12), nullable=True)
    due_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))  # UTC
    seed: Mapped[int | None] = mapped_column(
        BigInteger, nullable=True
    )  # the class deal, when every pupil gets the same one
    # For whom: the whole class (everyone), else a group of the class (group_id), else the pupils in assignment_pupil.
    everyone: Mapped[bool] = mapped_column(Boolean, default=True)
    group_id: Mapped[int | None] = mapped_column(
        ForeignKey("pupil_group.id", ondelete="SET NULL"), index=True, nullable=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # when a teacher last changed it (None: never), so its pupils can be told
    changed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    school_class: Mapped[SchoolClass] = relationship(back_populates="assignments")
    group: Mapped[PupilGroup | None] = relationship()
    chosen: Mapped[list[AssignmentPupil]] = relationship(cascade="all, delete-orphan", passive_deletes=True)
    work: Mapped[list[AssignmentWork]] = relationship(cascade="all, delete-orphan", passive_deletes=True)
    extensions: Mapped[list[AssignmentExtension]] = relationship(cascade="all, delete-orphan", passive_deletes=True)


class AssignmentPupil(Base):
    """A pupil chosen for an assignment that is not for the whole class."""

    __tablename__ = "assignment_pupil"

    assignment_id: Mapped[int] = mapped_column(ForeignKey("assignment.id", ondelete="CASCADE"), primary_key=True)
    pupil_id: Mapped[int] = mapped_column(ForeignKey("pupil.id", ondelete="CASCADE"), primary_key=True, index=True)


class AssignmentExtension(Base):
    """A later due time for one pupil of an assignment (a late pupil given a new date alone)."""

    __tablename__ = "assignment_extension"

    assignment_id: Mapped[int] = mapped_column(ForeignKey("assignment.id", ondelete="CASCADE"), primary_key=True)
    pupil_id: Mapped[int] = mapped_column(ForeignKey("pupil.id", ondelete="CASCADE"), primary_key=True, index=True)
    due_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))  # UTC


class PupilGroup(Base):
    """A group of pupils inside a class (a reading table, a maths set) that homework can be set for."""

    __tablename__ = "pupil_group"
    __table_args__ = (UniqueConstraint("class_id", "name", name="uq_pupil_group_class_id_name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = public_id_column()
    class_id: Mapped[int] = mapped_column(ForeignKey("school_class.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    members: Mapped[list[GroupMember]] = relationship(cascade="all, delete-orphan", passive_deletes=True)


class GroupMember(Base):
    """A pupil in a group of their class."""

    __tablename__ = "group_member"

    group_id: Mapped[int] = mapped_column(ForeignKey("pupil_group.id", ondelete="CASCADE"), primary_key=True)
    pupil_id: Mapped[int] = mapped_column(ForeignKey("pupil.id", ondelete="CASCADE"), primary_key=True, index=True)


class AssignmentWork(Base):
    """One pupil's work on one assignment, kept up to date as they play (a summary, as Kolibri's)."""

    __tablename__ = "assignment_work"

    assignment_id: Mapped[int] = mapped_column(ForeignKey("assignment.id", ondelete="CASCADE"), primary_key=True)
    pupil_id: Mapped[int] = mapped_column(ForeignKey("pupil.id", ondelete="CASCADE"), primary_key=True, index=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_active_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    games_finished: Mapped[int] = mapped_column(Integer, default=0)
    questions: Mapped[int] = mapped_column(Integer, default=0)  # first tries that could be read
    first_try_right: Mapped[int] = mapped_column(Integer, default=0)
    time_ms: Mapped[int] = mapped_column(Integer, default=0)
    done_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class SignInSession(Base):
    """A signed-in browser. The cookie holds a random token; only its hash is stored, and
    signing out deletes the row, so a copied cookie stops working."""

    __tablename__ = "sign_in_session"

    id: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    teacher_id: Mapped[int | None] = mapped_column(
        ForeignKey("teacher.id", ondelete="CASCADE"), index=True, nullable=True
    )
    pupil_id: Mapped[int | None] = mapped_column(ForeignKey("pupil.id", ondelete="CASCADE"), index=True, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    teacher: Mapped[Teacher | None] = relationship()
    pupil: Mapped[Pupil | None] = relationship()
    last_seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    # read with the session in one statement (tutor.accounts.find_session): every request needs them
    teacher: Mapped[Teacher | None] = relationship()
    pupil: Mapped[Pupil | None] = relationship()


class RecoveryCode(Base):
    """A one-time code that signs a teacher in when the phone with their second factor is lost (only its hash)."""

    __tablename__ = "recovery_code"

    id: Mapped[int] = mapped_column(primary_key=True)
    teacher_id: Mapped[int] = mapped_column(ForeignKey("teacher.id", ondelete="CASCADE"), index=True)
    code_hash: Mapped[str] = mapped_column(String(64))


class PasswordReset(Base):
    """A link e-mailed to a teacher who forgot their password (tutor.password_reset): only its token's hash."""

    __tablename__ = "password_reset"

    id: Mapped[int] = mapped_column(primary_key=True)
    teacher_id: Mapped[int] = mapped_column(ForeignKey("teacher.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    teacher: Mapped[Teacher] = relationship()


class RateLimit(Base):
    """Uses of a rate limit per key in the current window (tutor.limits), shared by every app server."""

    __tablename__ = "rate_limit"

    key: Mapped[str] = mapped_column(String(80), primary_key=True)  # the limit's name and who: "step:42"
    window_start: Mapped[int] = mapped_column(BigInteger)  # Unix seconds
    hits: Mapped[int] = mapped_column(Integer)


class SignInThrottle(Base):
    """Failed sign-ins per key (an account, an address, a pupil), shared by every app server."""

    __tablename__ = "sign_in_throttle"

    key: Mapped[str] = mapped_column(String(80), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer, default=0)
    window_started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    locked_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


# --- LTI 1.3: learning platforms that launch Kortmatte (tutor.lti) --------------------------------
class LtiPlatform(Base):
    """A learning platform registered by ``kortmatte lti add-platform``: who it is and where its endpoints are."""

    __tablename__ = "lti_platform"
    __table_args__ = (UniqueConstraint("issuer", "client_id", name="uq_lti_platform_issuer_client_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    issuer: Mapped[str] = mapped_column(String(255))
    client_id: Mapped[str] = mapped_column(String(255))
    deployment_ids: Mapped[list] = mapped_column(JSON)  # the platform's deployments of this tool that may launch it
    login_url: Mapped[str] = mapped_column(String(1000))  # the platform's OIDC authorisation endpoint
    token_url: Mapped[str] = mapped_column(String(1000))  # its OAuth 2 token endpoint (for the services, later)
    keyset_url: Mapped[str] = mapped_column(String(1000))  # its public keys, which sign the launches
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    keys: Mapped[list[LtiToolKey]] = relationship(
        cascade="all, delete-orphan", passive_deletes=True, order_by="LtiToolKey.id"
    )


class LtiToolKey(Base):
    """One of the tool's own RSA key pairs for a platform; the newest signs, older ones stay published until removed."""

    __tablename__ = "lti_tool_key"

    id: Mapped[int] = mapped_column(primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("lti_platform.id", ondelete="CASCADE"), index=True)
    kid: Mapped[str] = mapped_column(String(64), unique=True)
    private_pem: Mapped[str] = mapped_column(Text)
    public_pem: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class LtiTeacherLink(Base):
    """A teacher account that a platform's user (its opaque subject id) signs in to: never matched by name."""

    __tablename__ = "lti_teacher_link"
    __table_args__ = (UniqueConstraint("platform_id", "subject", name="uq_lti_teacher_link_platform_id_subject"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("lti_platform.id", ondelete="CASCADE"))
    subject: Mapped[str] = mapped_column(String(255))
    teacher_id: Mapped[int] = mapped_column(ForeignKey("teacher.id", ondelete="CASCADE"), index=True)


class LtiClassLink(Base):
    """The class made for a platform's course (its context id)."""

    __tablename__ = "lti_class_link"
    __table_args__ = (UniqueConstraint("platform_id", "context_id", name="uq_lti_class_link_platform_id_context_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("lti_platform.id", ondelete="CASCADE"))
    context_id: Mapped[str] = mapped_column(String(255))
    class_id: Mapped[int] = mapped_column(ForeignKey("school_class.id", ondelete="CASCADE"), index=True)


class LtiPupilLink(Base):
    """The pupil a platform's learner (its opaque subject id) is in one linked class: never matched by name."""

    __tablename__ = "lti_pupil_link"
    __table_args__ = (
        UniqueConstraint("platform_id", "subject", "class_id", name="uq_lti_pupil_link_platform_id_subject_class_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("lti_platform.id", ondelete="CASCADE"))
    subject: Mapped[str] = mapped_column(String(255))
    class_id: Mapped[int] = mapped_column(ForeignKey("school_class.id", ondelete="CASCADE"))
    pupil_id: Mapped[int] = mapped_column(ForeignKey("pupil.id", ondelete="CASCADE"), index=True)


class LtiLineItem(Base):
    """A platform's gradebook column for a homework (made by the platform from a deep link's line item).

    Recorded from the first launch of the link that names it; the homework's scores go there.
    """

    __tablename__ = "lti_line_item"
    __table_args__ = (
        UniqueConstraint("platform_id", "assignment_id", name="uq_lti_line_item_platform_id_assignment_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("lti_platform.id", ondelete="CASCADE"))
    assignment_id: Mapped[int] = mapped_column(ForeignKey("assignment.id", ondelete="CASCADE"), index=True)
    url: Mapped[str] = mapped_column(String(1000))


class LtiGradeSent(Base):
    """The score last accepted by the platform for one pupil in one gradebook column (so only changes are sent)."""

    __tablename__ = "lti_grade_sent"

    line_item_id: Mapped[int] = mapped_column(ForeignKey("lti_line_item.id", ondelete="CASCADE"), primary_key=True)
    pupil_id: Mapped[int] = mapped_column(ForeignKey("pupil.id", ondelete="CASCADE"), primary_key=True, index=True)
    score: Mapped[int] = mapped_column(Integer)  # per cent of the goal
    sent_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LtiKeySetCache(Base):
    """A platform's public key set as last fetched from its URL, kept for a bounded time (tutor.lti.key_sets)."""

    __tablename__ = "lti_key_set_cache"

    url: Mapped[str] = mapped_column(String(1000), primary_key=True)
    keys: Mapped[dict] = mapped_column(JSON)
    fetched_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LtiNonce(Base):
    """A nonce handed to a platform at login, taken (deleted) by the one launch that brings it back."""

    __tablename__ = "lti_nonce"

    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class SignInLink(Base):
    """A school account (its provider's subject id, per issuer) that signs in a teacher or a pupil: never by name."""

    __tablename__ = "sign_in_link"
    __table_args__ = (UniqueConstraint("issuer", "subject", name="uq_sign_in_link_issuer_subject"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    provider: Mapped[str] = mapped_column(String(16))  # "feide", "google" or "entra" (tutor.sso.providers)
    issuer: Mapped[str] = mapped_column(String(255))
    subject: Mapped[str] = mapped_column(String(255))
    # exactly one of the two is set
    teacher_id: Mapped[int | None] = mapped_column(
        ForeignKey("teacher.id", ondelete="CASCADE"), index=True, nullable=True
    )
    pupil_id: Mapped[int | None] = mapped_column(ForeignKey("pupil.id", ondelete="CASCADE"), index=True, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    teacher: Mapped[Teacher | None] = relationship()
    pupil: Mapped[Pupil | None] = relationship()


class SignInGroupLink(Base):
    """The class made for a teaching group in a school's records (Feide's groups API), found again by its group id."""

    __tablename__ = "sign_in_group_link"
    __table_args__ = (UniqueConstraint("issuer", "group_id", name="uq_sign_in_group_link_issuer_group_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    provider: Mapped[str] = mapped_column(String(16))
    issuer: Mapped[str] = mapped_column(String(255))
    group_id: Mapped[str] = mapped_column(String(255))
    class_id: Mapped[int] = mapped_column(ForeignKey("school_class.id", ondelete="CASCADE"), index=True)
