"""teachers, classes, homework, server-side sessions and sign-in throttles

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23 14:02:57.899569
"""

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "school_class",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("public_id", sa.String(length=24), nullable=False),
        sa.Column("code", sa.String(length=8), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("locale", sa.String(length=8), nullable=False),
        sa.Column("timezone", sa.String(length=64), nullable=False),
        sa.Column("sign_in", sa.String(length=8), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("code"),
        sa.UniqueConstraint("public_id"),
    )
    op.create_table(
        "sign_in_throttle",
        sa.Column("key", sa.String(length=80), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("window_started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("locked_until", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("key"),
    )
    op.create_table(
        "teacher",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("public_id", sa.String(length=24), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("password_hash", sa.String(length=255), nullable=False),
        sa.Column("locale", sa.String(length=8), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("email"),
        sa.UniqueConstraint("public_id"),
    )
    op.create_table(
        "assignment",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("public_id", sa.String(length=24), nullable=False),
        sa.Column("class_id", sa.Integer(), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=True),
        sa.Column("game_id", sa.String(length=40), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("bots", sa.String(length=20), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("goal", sa.String(length=12), nullable=False),
        sa.Column("goal_count", sa.Integer(), nullable=False),
        sa.Column("goal_skill", sa.String(length=30), nullable=True),
        sa.Column("goal_level", sa.String(length=12), nullable=True),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=True),
        sa.Column("everyone", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["class_id"], ["school_class.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["created_by"], ["teacher.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("public_id"),
    )
    with op.batch_alter_table("assignment", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_assignment_class_id"), ["class_id"], unique=False)

    op.create_table(
        "class_teacher",
        sa.Column("class_id", sa.Integer(), nullable=False),
        sa.Column("teacher_id", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(length=8), nullable=False),
        sa.ForeignKeyConstraint(["class_id"], ["school_class.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["teacher_id"], ["teacher.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("class_id", "teacher_id"),
    )
    with op.batch_alter_table("class_teacher", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_class_teacher_teacher_id"), ["teacher_id"], unique=False)

    op.create_table(
        "assignment_pupil",
        sa.Column("assignment_id", sa.Integer(), nullable=False),
        sa.Column("pupil_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["assignment_id"], ["assignment.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["pupil_id"], ["pupil.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("assignment_id", "pupil_id"),
    )
    with op.batch_alter_table("assignment_pupil", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_assignment_pupil_pupil_id"), ["pupil_id"], unique=False)

    op.create_table(
        "assignment_work",
        sa.Column("assignment_id", sa.Integer(), nullable=False),
        sa.Column("pupil_id", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_active_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("games_finished", sa.Integer(), nullable=False),
        sa.Column("questions", sa.Integer(), nullable=False),
        sa.Column("first_try_right", sa.Integer(), nullable=False),
        sa.Column("time_ms", sa.Integer(), nullable=False),
        sa.Column("done_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["assignment_id"], ["assignment.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["pupil_id"], ["pupil.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("assignment_id", "pupil_id"),
    )
    with op.batch_alter_table("assignment_work", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_assignment_work_pupil_id"), ["pupil_id"], unique=False)

    op.create_table(
        "sign_in_session",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("teacher_id", sa.Integer(), nullable=True),
        sa.Column("pupil_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["pupil_id"], ["pupil.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["teacher_id"], ["teacher.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash"),
    )
    with op.batch_alter_table("sign_in_session", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_sign_in_session_pupil_id"), ["pupil_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_sign_in_session_teacher_id"), ["teacher_id"], unique=False)

    with op.batch_alter_table("attempt", schema=None) as batch_op:
        batch_op.add_column(sa.Column("error_code", sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column("misconception", sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column("feedback", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("move_index", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("p_known_after", sa.Float(), nullable=True))
        batch_op.drop_index(batch_op.f("ix_attempt_pupil_id"))
        batch_op.create_index("ix_attempt_pupil_created", ["pupil_id", "created_at"], unique=False)

    with op.batch_alter_table("lesson_run", schema=None) as batch_op:
        batch_op.add_column(sa.Column("public_id", sa.String(length=24), nullable=True))
        batch_op.add_column(sa.Column("assignment_id", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_lesson_run_assignment_id"), ["assignment_id"], unique=False)
        batch_op.create_foreign_key(
            "fk_lesson_run_assignment_id", "assignment", ["assignment_id"], ["id"], ondelete="SET NULL"
        )

    with op.batch_alter_table("pupil", schema=None) as batch_op:
        batch_op.add_column(sa.Column("public_id", sa.String(length=24), nullable=True))
        batch_op.add_column(sa.Column("class_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("avatar", sa.String(length=20), nullable=True))
        batch_op.add_column(sa.Column("secret", sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column("device_hash", sa.String(length=64), nullable=True))
        batch_op.create_index(batch_op.f("ix_pupil_class_id"), ["class_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_pupil_device_hash"), ["device_hash"], unique=False)
        batch_op.create_unique_constraint("uq_pupil_class_id_name", ["class_id", "name"])
        batch_op.create_foreign_key("fk_pupil_class_id", "school_class", ["class_id"], ["id"], ondelete="CASCADE")

    # Rows from before this revision get their random public ids now.
    connection = op.get_bind()
    for table in ("pupil", "lesson_run"):
        ids = [row[0] for row in connection.execute(sa.text(f"SELECT id FROM {table}"))]
        for row_id in ids:
            connection.execute(
                sa.text(f"UPDATE {table} SET public_id = :public_id WHERE id = :id"),
                {"public_id": secrets.token_urlsafe(12), "id": row_id},
            )
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.alter_column("public_id", existing_type=sa.String(length=24), nullable=False)
            batch_op.create_unique_constraint(f"uq_{table}_public_id", ["public_id"])


def downgrade() -> None:
    with op.batch_alter_table("pupil", schema=None) as batch_op:
        batch_op.drop_constraint("fk_pupil_class_id", type_="foreignkey")
        batch_op.drop_constraint("uq_pupil_class_id_name", type_="unique")
        batch_op.drop_constraint("uq_pupil_public_id", type_="unique")
        batch_op.drop_index(batch_op.f("ix_pupil_device_hash"))
        batch_op.drop_index(batch_op.f("ix_pupil_class_id"))
        batch_op.drop_column("device_hash")
        batch_op.drop_column("secret")
        batch_op.drop_column("avatar")
        batch_op.drop_column("class_id")
        batch_op.drop_column("public_id")

    with op.batch_alter_table("lesson_run", schema=None) as batch_op:
        batch_op.drop_constraint("fk_lesson_run_assignment_id", type_="foreignkey")
        batch_op.drop_constraint("uq_lesson_run_public_id", type_="unique")
        batch_op.drop_index(batch_op.f("ix_lesson_run_assignment_id"))
        batch_op.drop_column("assignment_id")
        batch_op.drop_column("public_id")

    with op.batch_alter_table("attempt", schema=None) as batch_op:
        batch_op.drop_index("ix_attempt_pupil_created")
        batch_op.create_index(batch_op.f("ix_attempt_pupil_id"), ["pupil_id"], unique=False)
        batch_op.drop_column("p_known_after")
        batch_op.drop_column("move_index")
        batch_op.drop_column("feedback")
        batch_op.drop_column("misconception")
        batch_op.drop_column("error_code")

    with op.batch_alter_table("sign_in_session", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_sign_in_session_teacher_id"))
        batch_op.drop_index(batch_op.f("ix_sign_in_session_pupil_id"))

    op.drop_table("sign_in_session")
    with op.batch_alter_table("assignment_work", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_assignment_work_pupil_id"))

    op.drop_table("assignment_work")
    with op.batch_alter_table("assignment_pupil", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_assignment_pupil_pupil_id"))

    op.drop_table("assignment_pupil")
    with op.batch_alter_table("class_teacher", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_class_teacher_teacher_id"))

    op.drop_table("class_teacher")
    with op.batch_alter_table("assignment", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_assignment_class_id"))

    op.drop_table("assignment")
    op.drop_table("teacher")
    op.drop_table("sign_in_throttle")
    op.drop_table("school_class")
