"""teacher accounts the school's administrator can switch off

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27 18:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("teacher") as batch:
        batch.add_column(sa.Column("disabled", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("teacher") as batch:
        batch.drop_column("disabled")
