"""skill records keep luck-proof evidence, right typed answers and the last practice; fits keep forgetting and
the forecast's weights of earlier right and wrong answers

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27 13:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("skill_record") as batch:
        batch.add_column(sa.Column("evidence", sa.Float(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("typed_right", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("practised_at", sa.DateTime(timezone=True), nullable=True))
    # Until `kortmatte skills fit` judges them again from the stored answers, a record was last practised when
    # it was last updated.
    op.execute("UPDATE skill_record SET practised_at = updated_at")
    with op.batch_alter_table("skill_params") as batch:
        batch.add_column(sa.Column("p_forget", sa.Float(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("blend_right", sa.Float(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("blend_wrong", sa.Float(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("skill_params") as batch:
        batch.drop_column("blend_wrong")
        batch.drop_column("blend_right")
        batch.drop_column("p_forget")
    with op.batch_alter_table("skill_record") as batch:
        batch.drop_column("practised_at")
        batch.drop_column("typed_right")
        batch.drop_column("evidence")
