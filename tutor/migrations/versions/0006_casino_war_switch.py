"""Casino War switched on per class (off until a teacher switches it on)

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26 15:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("school_class") as batch:
        batch.add_column(sa.Column("casino_war_on", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("school_class") as batch:
        batch.drop_column("casino_war_on")
