"""single sign-on: the school accounts (issuer and subject id) linked to teachers and pupils, and the classes made
for a school's teaching groups

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-28 00:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sign_in_link",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("provider", sa.String(16), nullable=False),
        sa.Column("issuer", sa.String(255), nullable=False),
        sa.Column("subject", sa.String(255), nullable=False),
        sa.Column("teacher_id", sa.Integer(), sa.ForeignKey("teacher.id", ondelete="CASCADE"), nullable=True),
        sa.Column("pupil_id", sa.Integer(), sa.ForeignKey("pupil.id", ondelete="CASCADE"), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("issuer", "subject", name="uq_sign_in_link_issuer_subject"),
    )
    op.create_index("ix_sign_in_link_teacher_id", "sign_in_link", ["teacher_id"])
    op.create_index("ix_sign_in_link_pupil_id", "sign_in_link", ["pupil_id"])
    op.create_table(
        "sign_in_group_link",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("provider", sa.String(16), nullable=False),
        sa.Column("issuer", sa.String(255), nullable=False),
        sa.Column("group_id", sa.String(255), nullable=False),
        sa.Column("class_id", sa.Integer(), sa.ForeignKey("school_class.id", ondelete="CASCADE"), nullable=False),
        sa.UniqueConstraint("issuer", "group_id", name="uq_sign_in_group_link_issuer_group_id"),
    )
    op.create_index("ix_sign_in_group_link_class_id", "sign_in_group_link", ["class_id"])


def downgrade() -> None:
    op.drop_index("ix_sign_in_group_link_class_id", table_name="sign_in_group_link")
    op.drop_table("sign_in_group_link")
    op.drop_index("ix_sign_in_link_pupil_id", table_name="sign_in_link")
    op.drop_index("ix_sign_in_link_teacher_id", table_name="sign_in_link")
    op.drop_table("sign_in_link")
