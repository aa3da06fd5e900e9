"""Players that see only an observation and the legal actions.

A bot never receives a game state: it is handed one player's observation, the legal
actions and a random generator, and returns one of those actions.  What every game
shares is here (:mod:`.base`, :mod:`.random_bot`, the :mod:`.ismcts` search,
:mod:`.hints`, the bots by level in :mod:`.levels`, the shape of a game's bots in
:mod:`.game_bots` and each game's by name in :mod:`.by_game`); what one game needs is in
its own package, :mod:`.burraco` and :mod:`.three_thirteen`.
"""
