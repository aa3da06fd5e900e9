"""The server's computer players: bot workers in other processes, and what may be asked.

Holds the bot service (``service.py``: decisions, hints, reviews), the pool of worker
processes that outlives its workers (``worker_pool.py``), the fair queue in front of it
(``queue.py``), its typed failures (``errors.py``), how long a bot of a level may
think (``limits.py``), what a player may have at once (``admission.py``), and how
pages name the levels and their published ratings
(``names.py``, ``ratings.py``).  The bots themselves are :mod:`rummykit.bots`.

May import: storage, protocol, operations, settings, clock.
"""
