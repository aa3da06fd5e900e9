"""Burraco's point tables as a player is shown them: card points, burraco bonuses.

A browser or a terminal knows no rules; to show a running hand score it reads these
(through the game's descriptor) rather than keeping its own copy.  Data only.

>>> POINT_TABLES["card_points"]["A"], POINT_TABLES["card_points"]["Jk"]
(15, 30)
>>> POINT_TABLES["clean_burraco_bonus"], POINT_TABLES["burraco_size"]
(200, 7)
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Final

from rummykit.cards import BURRACO_POINTS, JOKER, RANKS, format_card
from rummykit.games.burraco.melds import BURRACO_SIZE
from rummykit.games.burraco.scoring import CLEAN_BURRACO_BONUS, DIRTY_BURRACO_BONUS


def _card_points() -> dict[str, int]:
    points = {RANKS[card]: BURRACO_POINTS[card] for card in range(len(RANKS))}
    points[format_card(JOKER)] = BURRACO_POINTS[JOKER]
    return points


POINT_TABLES: Final = MappingProxyType[str, Any](
    {
        "card_points": MappingProxyType(_card_points()),
        "clean_burraco_bonus": CLEAN_BURRACO_BONUS,
        "dirty_burraco_bonus": DIRTY_BURRACO_BONUS,
        "burraco_size": BURRACO_SIZE,
    }
)
"""Points by rank letter (and ``Jk``), the bonus of a clean and of a dirty burraco and
the cards a burraco needs."""
