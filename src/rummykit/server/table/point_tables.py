"""The point tables a client shows, read from the game's descriptor, for the catalog.

A browser knows no rules; to show a running Burraco hand score it needs the card points
and the burraco bonuses, and it takes them from here rather than keeping its own copy.
"""

from __future__ import annotations

import json
from typing import Any

from rummykit.games.registry import game_named


def point_tables(game: str) -> dict[str, Any] | None:
    """The game's point tables as plain JSON (``None`` for a game without them).

    >>> tables = point_tables("burraco")
    >>> tables["card_points"]["A"], tables["card_points"]["7"], tables["card_points"]["Jk"]
    (15, 5, 30)
    >>> tables["clean_burraco_bonus"], tables["burraco_size"], point_tables("three-thirteen")
    (200, 7, None)
    """
    tables = game_named(game).point_tables
    if tables is None:
        return None
    plain: dict[str, Any] = json.loads(json.dumps(tables, default=dict))
    return plain
