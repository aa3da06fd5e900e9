"""Ratings: rated and casual tables, seats left early, every player's rating per pool and
the history of each change (``server/storage/ratings.py``, docs/competition.md).

``rating_history`` holds one row per player and rated table (unique), which is what
makes rating a finished table idempotent.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "game_tables",
        sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.add_column("seats", sa.Column("left_at", sa.Float, nullable=True))
    op.create_table(
        "player_ratings",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("pool", sa.String(40), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_player_ratings_pool", "player_ratings", ["pool"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("pool", sa.String(40), nullable=False),
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("change", sa.Float, nullable=False),
        sa.Column("left_early", sa.Boolean, nullable=False),
        sa.Column("substituted", sa.Boolean, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.UniqueConstraint("table_id", "player_id", name="uq_rating_history_table_player"),
    )
    op.create_index("ix_rating_history_player_id", "rating_history", ["player_id"])
    op.create_index("ix_rating_history_pool_at", "rating_history", ["pool", "at"])


def downgrade() -> None:
    op.drop_table("rating_history")
    op.drop_table("player_ratings")
    op.drop_column("seats", "left_at")
    op.drop_column("game_tables", "rated")
