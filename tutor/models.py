"""Database tables: pupils, lesson runs, answers (attempts) and skill records.

The chain follows Kolibri's logger: a pupil has lesson runs; each answer is an
attempt that stores what was typed, how it was read, whether it was right, the hints
used and the time taken; a skill record per pupil and skill holds the model's estimate
and the mastery threshold it is judged by.
"""

from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import JSON, BigInteger, Boolean, DateTime, Float, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class Base(DeclarativeBase):
    type_annotation_map = {dict: JSON, list: JSON}


class Pupil(Base):
    __tablename__ = "pupil"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    is_guest: Mapped[bool] = mapped_column(Boolean, default=True)
    locale: Mapped[str] = mapped_column(String(8), default="en")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    runs: Mapped[list[LessonRunRecord]] = relationship(back_populates="pupil", cascade="all, delete-orphan")


class LessonRunRecord(Base):
    """One lesson being played or finished; ``data`` is :meth:`LessonRun.to_dict`."""

    __tablename__ = "lesson_run"

    id: Mapped[int] = mapped_column(primary_key=True)
    pupil_id: Mapped[int] = mapped_column(ForeignKey("pupil.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[str] = mapped_column(String(40))
    seed: Mapped[int] = mapped_column(BigInteger)
    stage: Mapped[str] = mapped_column(String(12))
    data: Mapped[dict] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    pupil: Mapped[Pupil] = relationship(back_populates="runs")
    attempts: Mapped[list[AttemptRecord]] = relationship(back_populates="run", cascade="all, delete-orphan")

    # Two app servers saving the same run at once: the second save fails instead of losing a step.
    __mapper_args__ = {"version_id_col": version}


class AttemptRecord(Base):
    __tablename__ = "attempt"

    id: Mapped[int] = mapped_column(primary_key=True)
    pupil_id: Mapped[int] = mapped_column(ForeignKey("pupil.id", ondelete="CASCADE"), index=True)
    run_id: Mapped[int | None] = mapped_column(ForeignKey("lesson_run.id", ondelete="CASCADE"), index=True, nullable=True)
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
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    run: Mapped[LessonRunRecord | None] = relationship(back_populates="attempts")


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
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)
