"""The database: its tables, migrations and every read and write of the server.

Holds the models (``models.py``), Alembic's migrations (``migrations/``, applied by
``migrate.py``), the engine for SQLite or PostgreSQL (``engine.py``), the storage API
(``store.py``, its players' part ``players.py``), the action log's group-commit writer
(``action_log.py``), the lease a write is fenced by (``fencing.py``) and the lease rows
themselves (``leases.py``), the ratings a rated table's end writes (``ratings.py``) and
what the leaderboards read of them (``rating_reads.py``), the tournaments' rows
(``tournaments.py``), what a player has open (``holdings.py``), a player's lock for a
check and the write it allows (``player_locks.py``), the notifications' outbox, choices
and push subscriptions (``notifications.py``, its tables ``notification_rows.py``) and
SQLite's checkpoints.  Storage
knows rows, never game states.

Every SQL statement of the server is written here.  The other rooms open a session
through storage (``Storage.reading()``, ``Storage.writing()``, ``holding_player``) and
hand it to the functions of this package, so that a check and the write it allows share
one transaction; the competition room changes the attributes of tournament rows it read
in a writing session, which that session writes at its commit.  A table's write is
checked against its lease in the write's own transaction, here (``fencing.py``).

May import: operations, settings, protocol.
"""
