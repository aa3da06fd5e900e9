"""Login names unique whatever their case; who goes by a name found by index; session
epochs (a logout revokes the cookies signed before it).

Two registered names that differ only in case (``alice`` and ``Alice``) may already be
stored: the oldest keeps its name, each later one is renamed ``<name>-2`` (or the next
number free) so that the unique index can be built.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

MAX_NAME = 64


def _free_name(name: str, taken: set[str]) -> str:
    """``name-2``, ``name-3``... the first whose lower case is not in ``taken``."""
    number = 2
    while True:
        suffix = f"-{number}"
        candidate = name[: MAX_NAME - len(suffix)] + suffix
        if candidate.lower() not in taken:
            return candidate
        number += 1


def _rename_case_duplicates() -> None:
    players = sa.table(
        "players",
        sa.column("id", sa.String),
        sa.column("name", sa.String),
        sa.column("login_name", sa.String),
        sa.column("created_at", sa.Float),
    )
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(players.c.id, players.c.login_name)
        .where(players.c.login_name.is_not(None))
        .order_by(players.c.created_at, players.c.id)
    ).all()
    taken = {login_name.lower() for _, login_name in rows}
    kept: set[str] = set()
    for player_id, login_name in rows:
        if login_name.lower() not in kept:
            kept.add(login_name.lower())
            continue
        renamed = _free_name(login_name, taken)
        taken.add(renamed.lower())
        connection.execute(
            sa.update(players)
            .where(players.c.id == player_id)
            .values(login_name=renamed, name=renamed)
        )


def upgrade() -> None:
    _rename_case_duplicates()
    op.add_column(
        "players",
        sa.Column("session_epoch", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_index(
        "ix_players_login_name_lower",
        "players",
        [sa.text("lower(login_name)")],
        unique=True,
    )
    op.create_index("ix_players_name_lower", "players", [sa.text("lower(name)")])


def downgrade() -> None:
    op.drop_index("ix_players_name_lower", table_name="players")
    op.drop_index("ix_players_login_name_lower", table_name="players")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("session_epoch")
