"""The bot levels' published ratings, shown where a player picks a bot.

The figures are the bot ladder's (docs/competition.md, "The levels without the search"):
for each game the mean of its two published ladder runs of the levels ``random``,
``easy`` and ``greedy``, on the ladder's scale (the random bot at 1,000).
Only levels measured as the site plays them are given: the ladder's search was bounded
at 100 iterations a move, while the site's ``ismcts`` level thinks for a time, so it has
no published figure.  People's ratings are on a scale of the same unit whose origin is
a new player at 1,500 (``ratings_store.display_rating``); no rated game seats a bot, so
the two origins are not tied by any measurement.

This module is data; re-running the ladder is how its figures change.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

PUBLISHED: Final[Mapping[str, Mapping[str, int]]] = {
    # rummykit ladder --rungs random,easy,greedy --deals 20, seeds 0 and 1000:
    # easy 1,737 and 1,757, greedy 2,162 and 2,165
    "burraco": {"random": 1000, "easy": 1747, "greedy": 2164},
    # rummykit ladder --rungs random,easy,greedy --deals 10, seeds 0 and 1000:
    # easy 1,657 and 1,680, greedy 2,316 and 2,252
    "three-thirteen": {"random": 1000, "easy": 1668, "greedy": 2284},
}


def published_ratings(game: str) -> dict[str, int]:
    """The published rating of each measured bot level of ``game`` (none for a game
    never laddered).

    >>> published_ratings("burraco")["greedy"]
    2164
    >>> published_ratings("a game never laddered")
    {}
    """
    return dict(PUBLISHED.get(game, {}))
