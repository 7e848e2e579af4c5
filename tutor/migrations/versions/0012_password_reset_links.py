"""teachers' password reset links, kept as hashes for an hour

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-27 19:10:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "password_reset",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("teacher_id", sa.Integer(), sa.ForeignKey("teacher.id", ondelete="CASCADE"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_password_reset_teacher_id", "password_reset", ["teacher_id"])


def downgrade() -> None:
    op.drop_index("ix_password_reset_teacher_id", table_name="password_reset")
    op.drop_table("password_reset")
