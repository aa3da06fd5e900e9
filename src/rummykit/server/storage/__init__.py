"""The database: its tables, migrations and every read and write of the server.

Holds the models (``models.py``), Alembic's migrations (``migrations/``, applied by
``migrate.py``), the engine for SQLite or PostgreSQL (``engine.py``), the storage API
(``store.py``), the action log's group-commit writer (``action_log.py``), the lease a
write is fenced by (``fencing.py``), the ratings a rated table's end writes
(``ratings.py``), a player's lock for a check and the write it allows
(``player_locks.py``) and SQLite's checkpoints.  Storage knows rows, never game states.

May import: operations, settings, protocol.
"""
