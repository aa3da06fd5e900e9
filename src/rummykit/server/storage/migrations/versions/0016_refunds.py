"""A rating history row says whether what its table took from the player was given back
(``refunded``: an opponent at that table was marked by a moderator).

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rating_history") as batch:
        batch.add_column(
            sa.Column("refunded", sa.Boolean, nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("rating_history") as batch:
        batch.drop_column("refunded")
