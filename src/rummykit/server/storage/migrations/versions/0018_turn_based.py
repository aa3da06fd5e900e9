"""Turn-based tables (games over days): a table's time per move in days
(``days_per_move``, null at a live table), and the seat to move with the time its turn
began (``turn_seat``, ``turn_since``), kept for the lobby's list of current games (the
table host derives its clock from the action log; these follow it); and each player's
vacations (``vacations``), which stop the clocks of their turn-based games.

Revision ID: 0018
Revises: 0017
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("days_per_move", sa.Integer, nullable=True))
        batch.add_column(sa.Column("turn_seat", sa.Integer, nullable=True))
        batch.add_column(sa.Column("turn_since", sa.Float, nullable=True))
    op.create_table(
        "vacations",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("starts_at", sa.Float, nullable=False),
        sa.Column("ends_at", sa.Float, nullable=False),
        sa.Column("declared", sa.Boolean, nullable=False),
    )
    op.create_index("ix_vacations_player_id", "vacations", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_vacations_player_id", table_name="vacations")
    op.drop_table("vacations")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("turn_since")
        batch.drop_column("turn_seat")
        batch.drop_column("days_per_move")
