"""The server's edge: every HTTP route, the table WebSocket, and what their handlers share.

Holds the lobby's routes (tables, history, records, the catalog), sessions and
registration, ratings, replays, reviews, tournaments, rematches and notifications as
routes, the table
socket's endpoint (``sockets.py``), who may read a table (``table_access.py``), and the
:class:`~rummykit.server.api.context.ServerContext` handed to every handler.  A route
checks its request and asks the room that owns the matter; the rules of tables,
accounts and competitions live there, not here.

May import: table, competition, bots, accounts, notify, storage, protocol, operations,
settings, clock.
"""
