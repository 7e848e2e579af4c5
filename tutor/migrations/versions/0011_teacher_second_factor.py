"""teachers' optional second factor (TOTP) and their one-time recovery codes

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27 19:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("teacher") as batch:
        batch.add_column(sa.Column("totp_secret", sa.String(64), nullable=True))
        batch.add_column(sa.Column("totp_on", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("totp_last_step", sa.BigInteger(), nullable=True))
    op.create_table(
        "recovery_code",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("teacher_id", sa.Integer(), sa.ForeignKey("teacher.id", ondelete="CASCADE"), nullable=False),
        sa.Column("code_hash", sa.String(64), nullable=False),
    )
    op.create_index("ix_recovery_code_teacher_id", "recovery_code", ["teacher_id"])


def downgrade() -> None:
    op.drop_index("ix_recovery_code_teacher_id", table_name="recovery_code")
    op.drop_table("recovery_code")
    with op.batch_alter_table("teacher") as batch:
        batch.drop_column("totp_last_step")
        batch.drop_column("totp_on")
        batch.drop_column("totp_secret")
