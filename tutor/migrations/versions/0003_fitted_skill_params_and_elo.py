"""fitted skill parameters with versions, Elo abilities and question difficulties, a class's target success

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23 22:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "skill_params",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("skill", sa.String(length=30), nullable=False),
        sa.Column("p_init", sa.Float(), nullable=False),
        sa.Column("p_learn", sa.Float(), nullable=False),
        sa.Column("p_slip", sa.Float(), nullable=False),
        sa.Column("p_guess", sa.Float(), nullable=False),
        sa.Column("blend_bkt", sa.Float(), nullable=False),
        sa.Column("blend_elo", sa.Float(), nullable=False),
        sa.Column("blend_bias", sa.Float(), nullable=False),
        sa.Column("answers", sa.Integer(), nullable=False),
        sa.Column("log_likelihood", sa.Float(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("version", "skill"),
    )
    with op.batch_alter_table("skill_params", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_skill_params_version"), ["version"], unique=False)
    op.create_table(
        "question_difficulty",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("skill", sa.String(length=30), nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("level", sa.Integer(), nullable=False),
        sa.Column("value", sa.Float(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("skill", "kind", "level"),
    )
    with op.batch_alter_table("skill_record", schema=None) as batch_op:
        batch_op.add_column(sa.Column("params_version", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("ability", sa.Float(), server_default="0", nullable=False))
        batch_op.add_column(sa.Column("ability_count", sa.Integer(), server_default="0", nullable=False))
    with op.batch_alter_table("attempt", schema=None) as batch_op:
        batch_op.add_column(sa.Column("params_version", sa.Integer(), nullable=True))
    with op.batch_alter_table("school_class", schema=None) as batch_op:
        batch_op.add_column(sa.Column("target_success", sa.Float(), server_default="0.75", nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("school_class", schema=None) as batch_op:
        batch_op.drop_column("target_success")
    with op.batch_alter_table("attempt", schema=None) as batch_op:
        batch_op.drop_column("params_version")
    with op.batch_alter_table("skill_record", schema=None) as batch_op:
        batch_op.drop_column("ability_count")
        batch_op.drop_column("ability")
        batch_op.drop_column("params_version")
    op.drop_table("question_difficulty")
    with op.batch_alter_table("skill_params", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_skill_params_version"))
    op.drop_table("skill_params")
