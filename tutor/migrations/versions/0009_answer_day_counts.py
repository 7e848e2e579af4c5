"""Per-day answer counts of each class for the weekly misconception report, counted from the answers stored so far;
the report no longer reads the answers, so their covering index goes

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02 10:00:00
"""

from collections import defaultdict
from datetime import UTC
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

#: Rows written per INSERT while counting the stored answers.
CHUNK = 5000

attempt = sa.table(
    "attempt",
    sa.column("id", sa.Integer()),
    sa.column("pupil_id", sa.Integer()),
    sa.column("skill", sa.String()),
    sa.column("question_kind", sa.String()),
    sa.column("misconception", sa.String()),
    sa.column("typed", sa.String()),
    sa.column("correct", sa.Boolean()),
    sa.column("readable", sa.Boolean()),
    sa.column("created_at", sa.DateTime(timezone=True)),
)
pupil = sa.table("pupil", sa.column("id", sa.Integer()), sa.column("class_id", sa.Integer()))
school_class = sa.table("school_class", sa.column("id", sa.Integer()), sa.column("timezone", sa.String()))


def upgrade() -> None:
    counts = op.create_table(
        "answer_day_count",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("class_id", sa.Integer(), nullable=False),
        sa.Column("pupil_id", sa.Integer(), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("skill", sa.String(length=30), nullable=False),
        sa.Column("question_kind", sa.String(length=40), nullable=False),
        sa.Column("misconception", sa.String(length=40), nullable=False),
        sa.Column("typed", sa.String(length=200), nullable=False),
        sa.Column("answers", sa.Integer(), nullable=False),
        sa.Column("wrong", sa.Integer(), nullable=False),
        sa.Column("last_wrong_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["class_id"], ["school_class.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["pupil_id"], ["pupil.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint(
            "pupil_id", "day", "skill", "question_kind", "misconception", "typed", name="uq_answer_day_count_row"
        ),
    )
    op.create_index(
        "ix_answer_day_count_week",
        "answer_day_count",
        [
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
        ],
        unique=False,
    )
    count_stored_answers(counts)
    op.drop_index("ix_attempt_week_report", table_name="attempt")


def count_stored_answers(counts: sa.Table) -> None:
    """Count every readable answer of a pupil in a class, as tutor.answer_counts.count_answer would have."""
    connection = op.get_bind()
    zones: dict[str, ZoneInfo] = {}

    def zone(name: str) -> ZoneInfo:
        if name not in zones:
            try:
                zones[name] = ZoneInfo(name)
            except (ZoneInfoNotFoundError, ValueError):
                zones[name] = ZoneInfo("UTC")
        return zones[name]

    rows: dict[tuple, list] = defaultdict(lambda: [0, 0, None])  # answers, wrong, newest wrong answer's id
    answers = connection.execute(
        sa.select(
            attempt.c.id,
            attempt.c.pupil_id,
            pupil.c.class_id,
            school_class.c.timezone,
            attempt.c.skill,
            attempt.c.question_kind,
            attempt.c.misconception,
            attempt.c.typed,
            attempt.c.correct,
            attempt.c.created_at,
        )
        .join(pupil, pupil.c.id == attempt.c.pupil_id)
        .join(school_class, school_class.c.id == pupil.c.class_id)
        .where(attempt.c.readable.is_(True))
        .execution_options(yield_per=CHUNK)  # read in chunks, on this statement only
    )
    for answer in answers:
        moment = answer.created_at if answer.created_at.tzinfo else answer.created_at.replace(tzinfo=UTC)
        shows = not answer.correct and bool(answer.misconception)
        key = (
            answer.class_id,
            answer.pupil_id,
            moment.astimezone(zone(answer.timezone or "UTC")).date(),
            answer.skill,
            answer.question_kind,
            answer.misconception if shows else "",
            answer.typed if shows else "",
        )
        row = rows[key]
        row[0] += 1
        if not answer.correct:
            row[1] += 1
            row[2] = max(row[2] or 0, answer.id)
    names = ("class_id", "pupil_id", "day", "skill", "question_kind", "misconception", "typed")
    values = [
        {**dict(zip(names, key)), "answers": a, "wrong": w, "last_wrong_id": last} for key, (a, w, last) in rows.items()
    ]
    for start in range(0, len(values), CHUNK):
        op.bulk_insert(counts, values[start : start + CHUNK])


def downgrade() -> None:
    op.create_index(
        "ix_attempt_week_report",
        "attempt",
        ["pupil_id", "created_at", "readable", "correct", "skill", "question_kind", "misconception", "typed"],
        unique=False,
    )
    op.drop_index("ix_answer_day_count_week", table_name="answer_day_count")
    op.drop_table("answer_day_count")
