"""Table leases: which server process owns each live table, until when, under which
fencing token (``server/cluster/leases.py``, ``docs/scale-out.md``).

A lease row is never deleted while its table exists (a release only ends it), so a
table's token keeps increasing across owners.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_leases",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("token", sa.BigInteger, nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("table_leases")
