"""LTI grades: a homework's gradebook column on a platform, and the score last accepted there per pupil; the
platforms' key sets kept for a bounded time

Revision ID: 0017
Revises: 0015
Create Date: 2026-11-28 00:40:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "lti_line_item",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("platform_id", sa.Integer(), sa.ForeignKey("lti_platform.id", ondelete="CASCADE"), nullable=False),
        sa.Column("assignment_id", sa.Integer(), sa.ForeignKey("assignment.id", ondelete="CASCADE"), nullable=False),
        sa.Column("url", sa.String(1000), nullable=False),
        sa.UniqueConstraint("platform_id", "assignment_id", name="uq_lti_line_item_platform_id_assignment_id"),
    )
    op.create_index("ix_lti_line_item_assignment_id", "lti_line_item", ["assignment_id"])
    op.create_table(
        "lti_grade_sent",
        sa.Column(
            "line_item_id",
            sa.Integer(),
            sa.ForeignKey("lti_line_item.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("pupil_id", sa.Integer(), sa.ForeignKey("pupil.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_lti_grade_sent_pupil_id", "lti_grade_sent", ["pupil_id"])
    op.create_table(
        "lti_key_set_cache",
        sa.Column("url", sa.String(1000), primary_key=True),
        sa.Column("keys", sa.JSON(), nullable=False),
        sa.Column("fetched_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("lti_key_set_cache")
    op.drop_index("ix_lti_grade_sent_pupil_id", table_name="lti_grade_sent")
    op.drop_table("lti_grade_sent")
    op.drop_index("ix_lti_line_item_assignment_id", table_name="lti_line_item")
    op.drop_table("lti_line_item")
