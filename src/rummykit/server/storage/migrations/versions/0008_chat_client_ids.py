"""Chat lines carry the id their client gave them, unique per table and player, so a
line sent again (after a reconnect, or to a table's new owner) is stored once
(``table/talk.py``).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("chat") as batch:
        batch.add_column(sa.Column("client_id", sa.String(64), nullable=True))
        batch.create_unique_constraint("uq_chat_client_id", ["table_id", "player_id", "client_id"])


def downgrade() -> None:
    with op.batch_alter_table("chat") as batch:
        batch.drop_constraint("uq_chat_client_id", type_="unique")
        batch.drop_column("client_id")
