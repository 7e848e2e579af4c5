"""the answers' changes to a question's difficulty are summed in shards, not in one shared row

Revision ID: 0018
Revises: 0015
Create Date: 2026-11-28 00:10:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None

#: A question's difficulty before any answer (tutor.skill_model.progress.PRIOR_DIFFICULTY), as it was when written.
PRIOR_DIFFICULTY = {1: -1.1, 2: 0.0, 3: 1.1}


def upgrade() -> None:
    op.create_table(
        "question_difficulty_change",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("skill", sa.String(length=30), nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("level", sa.Integer(), nullable=False),
        sa.Column("shard", sa.Integer(), nullable=False),
        sa.Column("value", sa.Float(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint(
            "skill", "kind", "level", "shard", name="uq_question_difficulty_change_skill_kind_level_shard"
        ),
    )


def downgrade() -> None:
    """Each question's changes go back into its one row, so the difficulties stay as they were."""
    connection = op.get_bind()
    totals: dict[tuple, list] = {}
    for skill, kind, level, value, count in connection.execute(
        sa.text("SELECT skill, kind, level, value, count FROM question_difficulty_change")
    ):
        total = totals.setdefault((skill, kind, level), [0.0, 0])
        total[0] += value
        total[1] += count
    for (skill, kind, level), (change, count) in totals.items():
        key = {"skill": skill, "kind": kind, "level": level}
        updated = connection.execute(
            sa.text(
                "UPDATE question_difficulty SET value = value + :change, count = count + :count "
                "WHERE skill = :skill AND kind = :kind AND level = :level"
            ),
            {**key, "change": change, "count": count},
        )
        if not updated.rowcount:
            connection.execute(
                sa.text(
                    "INSERT INTO question_difficulty (skill, kind, level, value, count) "
                    "VALUES (:skill, :kind, :level, :value, :count)"
                ),
                {**key, "value": PRIOR_DIFFICULTY.get(level, 0.0) + change, "count": count},
            )
    op.drop_table("question_difficulty_change")
