"""A tournament's entry may be a pair (Burraco for four): its second player, a person
(``partner_id``, with the name shown) or, once the event starts without one, a computer
player of the tournament's level (``partner_bot_level``).

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournament_entries") as batch:
        batch.add_column(sa.Column("partner_id", sa.String(32), nullable=True))
        batch.add_column(sa.Column("partner_name", sa.String(64), nullable=True))
        batch.add_column(sa.Column("partner_bot_level", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournament_entries") as batch:
        batch.drop_column("partner_bot_level")
        batch.drop_column("partner_name")
        batch.drop_column("partner_id")
