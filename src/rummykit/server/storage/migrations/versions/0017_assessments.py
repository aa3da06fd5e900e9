"""Fair-play assessments: one row per seat of a finished rated or tournament game, claimed
by one process at a time (``claimed_by``, ``claimed_at``) and holding the seat's figures
once done; and the turns in which a player's page lost focus (``focus_losses``).

Revision ID: 0017
Revises: 0016
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "assessments",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("claimed_by", sa.String(64), nullable=False),
        sa.Column("claimed_at", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("done_at", sa.Float, nullable=True),
        sa.Column("verdict", sa.String(16), nullable=True),
        sa.Column("evidence", sa.Float, nullable=True),
        sa.Column("figures", sa.JSON, nullable=True),
    )
    op.create_index("ix_assessments_player_id", "assessments", ["player_id"])
    op.create_index("ix_assessments_status", "assessments", ["status"])
    op.create_table(
        "focus_losses",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("state_number", sa.Integer, primary_key=True),
    )


def downgrade() -> None:
    op.drop_table("focus_losses")
    op.drop_index("ix_assessments_status", "assessments")
    op.drop_index("ix_assessments_player_id", "assessments")
    op.drop_table("assessments")
