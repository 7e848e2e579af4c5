"""a class's lessons read aloud automatically

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-27 19:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("school_class") as batch:
        batch.add_column(sa.Column("read_aloud_on", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("school_class") as batch:
        batch.drop_column("read_aloud_on")
