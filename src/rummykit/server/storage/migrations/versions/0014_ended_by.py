"""A finished table says how its game ended when it was not played to its end
(``ended_by``: ``abandoned``, the win claimed over a side that was gone, or ``aborted``,
every person gone).

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("ended_by", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("ended_by")
