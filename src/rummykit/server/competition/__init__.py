"""Play that counts: leaderboards and profiles, tournaments, reviews of finished games.

Holds the leaderboards and profiles (``leaderboard.py``), tournaments (``tournaments.py``
and the ``tournament_*`` modules: registration, rounds, their tables, standings, pages)
and reviews (``review.py``, computed by the bot workers through ``review_jobs.py``).  A
rated table's ratings are written at its end by storage (``storage/ratings.py``), in
the same transaction; this room reads them (``storage/rating_reads.py``), and the
tournaments' rows through ``storage/tournaments.py``: no SQL is written here.

May import: table, bots, storage, protocol, operations, settings, clock, cancelling.
"""
