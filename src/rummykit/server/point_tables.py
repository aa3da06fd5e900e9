"""The point tables a client shows, read from the engine, for the games catalog.

A browser knows no rules; to show a running Burraco hand score it needs the card points
and the burraco bonuses, and it takes them from here rather than keeping its own copy.
"""

from __future__ import annotations

from typing import Any

from rummykit.cards import BURRACO_POINTS, JOKER, RANKS, format_card
from rummykit.games.burraco.melds import BURRACO_SIZE
from rummykit.games.burraco.scoring import CLEAN_BURRACO_BONUS, DIRTY_BURRACO_BONUS


def point_tables(game: str) -> dict[str, Any] | None:
    """Burraco's ``card_points`` by rank letter (and ``Jk``), the bonus of a clean and of a
    dirty burraco and the cards a burraco needs; ``None`` for a game without them.

    >>> tables = point_tables("burraco")
    >>> tables["card_points"]["A"], tables["card_points"]["7"], tables["card_points"]["Jk"]
    (15, 5, 30)
    >>> tables["clean_burraco_bonus"], tables["burraco_size"], point_tables("three-thirteen")
    (200, 7, None)
    """
    if game != "burraco":
        return None
    points = {RANKS[card]: BURRACO_POINTS[card] for card in range(len(RANKS))}
    points[format_card(JOKER)] = BURRACO_POINTS[JOKER]
    return {
        "card_points": points,
        "clean_burraco_bonus": CLEAN_BURRACO_BONUS,
        "dirty_burraco_bonus": DIRTY_BURRACO_BONUS,
        "burraco_size": BURRACO_SIZE,
    }
