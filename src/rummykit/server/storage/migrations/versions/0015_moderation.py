"""Reports and moderation: roles (``player_roles``), players' reports (``reports``),
moderators' measures (``sanctions``) and the log of every moderator's action
(``moderation_log``).

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_roles",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("role", sa.String(16), primary_key=True),
        sa.Column("granted_at", sa.Float, nullable=False),
    )
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("reporter_id", sa.String(32), nullable=False),
        sa.Column("reported_id", sa.String(32), nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("text", sa.String(500), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("open", sa.Boolean, nullable=False),
    )
    op.create_index("ix_reports_reporter_id", "reports", ["reporter_id"])
    op.create_index("ix_reports_reported_id", "reports", ["reported_id"])
    op.create_index("ix_reports_open", "reports", ["open"])
    op.create_table(
        "sanctions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("until", sa.Float, nullable=True),
        sa.Column("lifted_at", sa.Float, nullable=True),
    )
    op.create_index("ix_sanctions_player_id", "sanctions", ["player_id"])
    op.create_table(
        "moderation_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("moderator_id", sa.String(32), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_moderation_log_player_id", "moderation_log", ["player_id"])


def downgrade() -> None:
    op.drop_table("moderation_log")
    op.drop_table("sanctions")
    op.drop_table("reports")
    op.drop_table("player_roles")
