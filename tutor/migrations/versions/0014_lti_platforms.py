"""LTI 1.3: registered learning platforms, the tool's keys, launch nonces, and the links to teachers, classes and
pupils; a teacher from a platform has no e-mail address or password here

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-27 21:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("teacher") as batch:
        batch.alter_column("email", existing_type=sa.String(254), nullable=True)
        batch.alter_column("password_hash", existing_type=sa.String(255), nullable=True)
    op.create_table(
        "lti_platform",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("issuer", sa.String(255), nullable=False),
        sa.Column("client_id", sa.String(255), nullable=False),
        sa.Column("deployment_ids", sa.JSON(), nullable=False),
        sa.Column("login_url", sa.String(1000), nullable=False),
        sa.Column("token_url", sa.String(1000), nullable=False),
        sa.Column("keyset_url", sa.String(1000), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("issuer", "client_id", name="uq_lti_platform_issuer_client_id"),
    )
    op.create_table(
        "lti_tool_key",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("platform_id", sa.Integer(), sa.ForeignKey("lti_platform.id", ondelete="CASCADE"), nullable=False),
        sa.Column("kid", sa.String(64), nullable=False, unique=True),
        sa.Column("private_pem", sa.Text(), nullable=False),
        sa.Column("public_pem", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_lti_tool_key_platform_id", "lti_tool_key", ["platform_id"])
    op.create_table(
        "lti_teacher_link",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("platform_id", sa.Integer(), sa.ForeignKey("lti_platform.id", ondelete="CASCADE"), nullable=False),
        sa.Column("subject", sa.String(255), nullable=False),
        sa.Column("teacher_id", sa.Integer(), sa.ForeignKey("teacher.id", ondelete="CASCADE"), nullable=False),
        sa.UniqueConstraint("platform_id", "subject", name="uq_lti_teacher_link_platform_id_subject"),
    )
    op.create_index("ix_lti_teacher_link_teacher_id", "lti_teacher_link", ["teacher_id"])
    op.create_table(
        "lti_class_link",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("platform_id", sa.Integer(), sa.ForeignKey("lti_platform.id", ondelete="CASCADE"), nullable=False),
        sa.Column("context_id", sa.String(255), nullable=False),
        sa.Column("class_id", sa.Integer(), sa.ForeignKey("school_class.id", ondelete="CASCADE"), nullable=False),
        sa.UniqueConstraint("platform_id", "context_id", name="uq_lti_class_link_platform_id_context_id"),
    )
    op.create_index("ix_lti_class_link_class_id", "lti_class_link", ["class_id"])
    op.create_table(
        "lti_pupil_link",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("platform_id", sa.Integer(), sa.ForeignKey("lti_platform.id", ondelete="CASCADE"), nullable=False),
        sa.Column("subject", sa.String(255), nullable=False),
        sa.Column("class_id", sa.Integer(), sa.ForeignKey("school_class.id", ondelete="CASCADE"), nullable=False),
        sa.Column("pupil_id", sa.Integer(), sa.ForeignKey("pupil.id", ondelete="CASCADE"), nullable=False),
        sa.UniqueConstraint(
            "platform_id", "subject", "class_id", name="uq_lti_pupil_link_platform_id_subject_class_id"
        ),
    )
    op.create_index("ix_lti_pupil_link_pupil_id", "lti_pupil_link", ["pupil_id"])
    op.create_table(
        "lti_nonce",
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_lti_nonce_expires_at", "lti_nonce", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_lti_nonce_expires_at", table_name="lti_nonce")
    op.drop_table("lti_nonce")
    op.drop_index("ix_lti_pupil_link_pupil_id", table_name="lti_pupil_link")
    op.drop_table("lti_pupil_link")
    op.drop_index("ix_lti_class_link_class_id", table_name="lti_class_link")
    op.drop_table("lti_class_link")
    op.drop_index("ix_lti_teacher_link_teacher_id", table_name="lti_teacher_link")
    op.drop_table("lti_teacher_link")
    op.drop_index("ix_lti_tool_key_platform_id", table_name="lti_tool_key")
    op.drop_table("lti_tool_key")
    op.drop_table("lti_platform")
    # teachers from a platform have no e-mail address or password: they cannot exist in the older schema
    op.execute("DELETE FROM teacher WHERE email IS NULL OR password_hash IS NULL")
    with op.batch_alter_table("teacher") as batch:
        batch.alter_column("password_hash", existing_type=sa.String(255), nullable=False)
        batch.alter_column("email", existing_type=sa.String(254), nullable=False)
