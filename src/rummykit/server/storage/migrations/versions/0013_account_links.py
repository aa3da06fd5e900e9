"""What links accounts of one person: the browser and the address each was used from,
kept as keyed hashes (``account_links``).

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "account_links",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("first_seen", sa.Float, nullable=False),
        sa.Column("last_seen", sa.Float, nullable=False),
        sa.UniqueConstraint("player_id", "kind", "key", name="uq_account_links_trace"),
    )
    op.create_index("ix_account_links_player_id", "account_links", ["player_id"])
    op.create_index("ix_account_links_key", "account_links", ["kind", "key"])


def downgrade() -> None:
    op.drop_index("ix_account_links_key", "account_links")
    op.drop_index("ix_account_links_player_id", "account_links")
    op.drop_table("account_links")
