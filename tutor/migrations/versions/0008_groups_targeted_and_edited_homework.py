"""Groups inside a class, homework for a group, a pupil's own later due date, when homework was changed, and an
index that covers the weekly misconception report

Revision ID: 0008
Revises: 0006
Create Date: 2026-12-01 10:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pupil_group",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("public_id", sa.String(length=24), nullable=False),
        sa.Column("class_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["class_id"], ["school_class.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("public_id"),
        sa.UniqueConstraint("class_id", "name", name="uq_pupil_group_class_id_name"),
    )
    op.create_index(op.f("ix_pupil_group_class_id"), "pupil_group", ["class_id"], unique=False)
    op.create_table(
        "group_member",
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("pupil_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["group_id"], ["pupil_group.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["pupil_id"], ["pupil.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("group_id", "pupil_id"),
    )
    op.create_index(op.f("ix_group_member_pupil_id"), "group_member", ["pupil_id"], unique=False)
    op.create_table(
        "assignment_extension",
        sa.Column("assignment_id", sa.Integer(), nullable=False),
        sa.Column("pupil_id", sa.Integer(), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["assignment_id"], ["assignment.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["pupil_id"], ["pupil.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("assignment_id", "pupil_id"),
    )
    op.create_index(op.f("ix_assignment_extension_pupil_id"), "assignment_extension", ["pupil_id"], unique=False)
    with op.batch_alter_table("assignment") as batch:
        batch.add_column(sa.Column("group_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("changed_at", sa.DateTime(timezone=True), nullable=True))
        batch.create_index(batch.f("ix_assignment_group_id"), ["group_id"], unique=False)
        batch.create_foreign_key(
            "fk_assignment_group_id_pupil_group", "pupil_group", ["group_id"], ["id"], ondelete="SET NULL"
        )
    op.create_index(
        "ix_attempt_week_report",
        "attempt",
        ["pupil_id", "created_at", "readable", "correct", "skill", "question_kind", "misconception", "typed"],
        unique=False,
    )


def downgrade() -> None:
    op.drop_index("ix_attempt_week_report", table_name="attempt")
    with op.batch_alter_table("assignment") as batch:
        batch.drop_constraint("fk_assignment_group_id_pupil_group", type_="foreignkey")
        batch.drop_index(batch.f("ix_assignment_group_id"))
        batch.drop_column("changed_at")
        batch.drop_column("group_id")
    op.drop_index(op.f("ix_assignment_extension_pupil_id"), table_name="assignment_extension")
    op.drop_table("assignment_extension")
    op.drop_index(op.f("ix_group_member_pupil_id"), table_name="group_member")
    op.drop_table("group_member")
    op.drop_index(op.f("ix_pupil_group_class_id"), table_name="pupil_group")
    op.drop_table("pupil_group")
