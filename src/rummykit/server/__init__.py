"""The game server: the authoritative host of every table, behind HTTP and a WebSocket.

It is cut into rooms, one concern each, and a room imports only the rooms below it
(``tests/test_architecture.py`` holds the table, ``docs/design.md`` draws it):

- :mod:`~rummykit.server.app`: ``create_app(settings)``, the wiring of every room;
- :mod:`~rummykit.server.api`: the HTTP routes, the table socket, the handlers' context;
- :mod:`~rummykit.server.cluster`: one worker of a site of several processes (leases,
  gateways, Redis);
- :mod:`~rummykit.server.competition`: leaderboards, tournaments, reviews;
- :mod:`~rummykit.server.table`: a live table's host and its collaborators, the registry;
- :mod:`~rummykit.server.bots`: the bot workers, their queue and limits;
- :mod:`~rummykit.server.accounts`: sessions, passwords, throttles, security headers;
- :mod:`~rummykit.server.storage`: the database (models, migrations, the action log);
- :mod:`~rummykit.server.protocol`: every message and body on the wire, error codes;
- :mod:`~rummykit.server.operations`: logs, the loop's lag, the garbage collector;
- :mod:`~rummykit.server.settings` and :mod:`~rummykit.server.clock`, asked by all;
- :mod:`~rummykit.server.cancelling`: ending a part's tasks at a stop.

Importing this package imports nothing.
"""
