"""A pair forms only with its partner's consent: the pair's link (``pair_token``), the
player its first player invited (``invited_id``, ``invited_name``), and the name of a
first player who withdrew, told to the partner who now leads the pair
(``partner_left``).

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournament_entries") as batch:
        batch.add_column(sa.Column("pair_token", sa.String(32), nullable=True))
        batch.add_column(sa.Column("invited_id", sa.String(32), nullable=True))
        batch.add_column(sa.Column("invited_name", sa.String(64), nullable=True))
        batch.add_column(sa.Column("partner_left", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournament_entries") as batch:
        batch.drop_column("partner_left")
        batch.drop_column("invited_name")
        batch.drop_column("invited_id")
        batch.drop_column("pair_token")
