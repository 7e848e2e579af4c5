"""a lesson run keeps the fingerprint of the code that wrote it

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-27 21:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("lesson_run") as batch:
        batch.add_column(sa.Column("written_by", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("lesson_run") as batch:
        batch.drop_column("written_by")
