"""Tournaments: the events, their entrants and the tables of their rounds; a table
knows its tournament and whether the reveal of its deal is held (``tournaments.py``).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("tournament_id", sa.String(32), nullable=True))
        batch.add_column(
            sa.Column("reveal_held", sa.Boolean, nullable=False, server_default=sa.false())
        )
        batch.create_index("ix_game_tables_tournament_id", ["tournament_id"])
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("table_size", sa.Integer, nullable=False),
        sa.Column("capacity", sa.Integer, nullable=False),
        sa.Column("bot_level", sa.String(64), nullable=True),
        sa.Column("turn_seconds", sa.Float, nullable=True),
        sa.Column("time_bank_seconds", sa.Float, nullable=True),
        sa.Column("starts_at", sa.Float, nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("creator_id", sa.String(32), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=True),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_table(
        "tournament_entries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "tournament_id",
            sa.String(32),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("entry", sa.Integer, nullable=True),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("bot_level", sa.String(64), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("registered_at", sa.Float, nullable=False),
        sa.UniqueConstraint("tournament_id", "player_id", name="uq_tournament_entries_player"),
    )
    op.create_index("ix_tournament_entries_tournament_id", "tournament_entries", ["tournament_id"])
    op.create_table(
        "tournament_tables",
        sa.Column(
            "tournament_id",
            sa.String(32),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("entries", sa.JSON, nullable=False),
        sa.Column("totals", sa.JSON, nullable=True),
        sa.Column("forfeits", sa.JSON, nullable=True),
        sa.Column("seed", sa.BigInteger, nullable=True),
        sa.Column("nonce", sa.String(64), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("tournament_tables")
    op.drop_index("ix_tournament_entries_tournament_id", "tournament_entries")
    op.drop_table("tournament_entries")
    op.drop_index("ix_tournaments_status", "tournaments")
    op.drop_table("tournaments")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_index("ix_game_tables_tournament_id")
        batch.drop_column("reveal_held")
        batch.drop_column("tournament_id")
