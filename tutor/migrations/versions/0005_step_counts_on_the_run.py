"""lesson steps counted on the run row (no separate rate-limit write per step)

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24 01:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("lesson_run") as batch:
        batch.add_column(sa.Column("steps_window_start", sa.BigInteger(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("steps_in_window", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("lesson_run") as batch:
        batch.drop_column("steps_in_window")
        batch.drop_column("steps_window_start")
