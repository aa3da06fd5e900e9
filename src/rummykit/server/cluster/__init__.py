"""A worker of a site of several server processes sharing PostgreSQL and Redis.

Holds table leases with fencing tokens (``leases.py``) and their keeper's stop rule
(``lease_keeper.py``), the worker (``worker.py``) and its sides: the Redis link, the
gateway of clients whose table is hosted elsewhere, the owner's side for other
gateways' clients, failover of orphaned tables, presence marks, bot requests; the
shared bot queue on Redis Streams (``bot_stream.py``), and the account limits and each
player's open table sockets counted in Redis (``redis_throttles.py``,
``redis_sockets.py``).  A single server process uses none of it.

May import: table, bots, accounts, storage, protocol, operations, settings, clock,
cancelling.
"""
