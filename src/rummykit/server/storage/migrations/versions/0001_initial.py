"""The first schema: players, secrets, tables, seats, actions, chat.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("login_name", sa.String(64), nullable=True, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("value", sa.String(200), nullable=False),
    )
    op.create_table(
        "game_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("private", sa.Boolean, nullable=False),
        sa.Column("invite_token", sa.String(64), nullable=True),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("nonce", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("turn_seconds", sa.Float, nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("creator_id", sa.String(32), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("started_at", sa.Float, nullable=True),
        sa.Column("finished_at", sa.Float, nullable=True),
        sa.Column("totals", sa.JSON, nullable=True),
        sa.Column("winners", sa.JSON, nullable=True),
    )
    op.create_index("ix_game_tables_status", "game_tables", ["status"])
    op.create_table(
        "seats",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("level", sa.String(64), nullable=True),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
    )
    op.create_index("ix_seats_player_id", "seats", ["player_id"])
    op.create_table(
        "actions",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("state_number", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.String(400), nullable=False),
        sa.Column("actor", sa.String(16), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_chat_table_id", "chat", ["table_id"])


def downgrade() -> None:
    op.drop_table("chat")
    op.drop_table("actions")
    op.drop_table("seats")
    op.drop_table("game_tables")
    op.drop_table("server_secrets")
    op.drop_table("players")
