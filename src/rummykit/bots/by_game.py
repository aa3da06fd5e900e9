"""Each game's bots by the game's name: the one place that names the games.

A game's bot package provides a :class:`~rummykit.bots.game_bots.GameBots` (in its
``game_bots`` module): how to make its ``greedy`` bot, its search adapter for ``ismcts``,
and the points one unit of the search's reward is worth.  :func:`bots_for` imports only
the named game's package, so that playing one game never loads the other's bots.  A new
game adds one entry to :data:`GAME_BOTS`; the ``random`` bot needs nothing of a game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from rummykit.bots.game_bots import GameBots


def _burraco() -> GameBots:
    from rummykit.bots.burraco.game_bots import BOTS

    return BOTS


def _three_thirteen() -> GameBots:
    from rummykit.bots.three_thirteen.game_bots import BOTS

    return BOTS


GAME_BOTS: Final[Mapping[str, Callable[[], GameBots]]] = {
    "burraco": _burraco,
    "three-thirteen": _three_thirteen,
}
"""How to load each game's bots, by the game's name (a game without an entry has only
the ``random`` bot)."""


def bots_for(game: str) -> GameBots:
    """The bots of ``game``; ``ValueError`` naming the games that have bots otherwise.

    >>> bots_for("chess")
    Traceback (most recent call last):
    ...
    ValueError: no bots for the game 'chess'; games: burraco, three-thirteen
    """
    loader = GAME_BOTS.get(game)
    if loader is None:
        raise ValueError(f"no bots for the game {game!r}; games: {', '.join(GAME_BOTS)}")
    return loader()
