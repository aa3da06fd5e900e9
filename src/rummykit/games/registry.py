"""The games by name: ``"burraco"`` and ``"three-thirteen"``.

>>> sorted(GAMES)
['burraco', 'three-thirteen']
"""

from __future__ import annotations

from typing import Any, Final

from rummykit.games import burraco, three_thirteen
from rummykit.games.core import GameInfo

AnyGame = GameInfo[Any, Any, Any, Any]

GAMES: Final[dict[str, AnyGame]] = {
    burraco.GAME.name: burraco.GAME,
    three_thirteen.GAME.name: three_thirteen.GAME,
}


def game_named(name: object) -> AnyGame:
    """The game called ``name``; ``ValueError`` naming the known games otherwise."""
    game = GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        raise ValueError(f"unknown game {name!r}; the games are {', '.join(sorted(GAMES))}")
    return game
