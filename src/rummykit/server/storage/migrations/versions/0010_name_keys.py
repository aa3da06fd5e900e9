"""Players carry the key of what their name looks like (``protocol/names.py``), so a
name confusable with another player's is found by an index.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from rummykit.server.protocol.names import look_alike_key

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("name_key", sa.String(64), nullable=True))
        batch.create_index("ix_players_name_key", ["name_key"])
    players = sa.table("players", sa.column("id", sa.String), sa.column("name", sa.String),
                       sa.column("name_key", sa.String))  # fmt: skip
    connection = op.get_bind()
    for player_id, name in connection.execute(sa.select(players.c.id, players.c.name)).all():
        connection.execute(
            players.update().where(players.c.id == player_id).values(name_key=look_alike_key(name))
        )


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_index("ix_players_name_key")
        batch.drop_column("name_key")
