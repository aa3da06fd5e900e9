"""The games by name: ``"burraco"`` and ``"three-thirteen"``, each by its descriptor.

A game's descriptor is its package's ``GAME`` (:class:`~rummykit.games.core.GameInfo`):
rule options, player counts, notation, scoring direction, point tables.  A new game of
this package adds one loader here; the other layers keep their own registries keyed by
the same names (docs/design.md, "What a new game must provide").
A game's package is imported the first time the game is looked up, so that a program
that plays or answers for one game (``rummykit play burraco``, the rules service) never
loads the other.

>>> sorted(GAMES)
['burraco', 'three-thirteen']
>>> [game.name for game in GAMES.values()]
['burraco', 'three-thirteen']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final

from rummykit.games.core import GameInfo

AnyGame = GameInfo[Any, Any, Any, Any]


def _burraco() -> AnyGame:
    from rummykit.games import burraco

    return burraco.GAME


def _three_thirteen() -> AnyGame:
    from rummykit.games import three_thirteen

    return three_thirteen.GAME


class _Games(Mapping[str, AnyGame]):
    """The games by name; looking one up imports its package (once: Python keeps it)."""

    def __init__(self, loaders: Mapping[str, Callable[[], AnyGame]]) -> None:
        self._loaders = dict(loaders)

    def __getitem__(self, name: str) -> AnyGame:
        return self._loaders[name]()

    def __iter__(self) -> Iterator[str]:
        return iter(self._loaders)

    def __len__(self) -> int:
        return len(self._loaders)


_GAMES: Final = _Games({"burraco": _burraco, "three-thirteen": _three_thirteen})
GAMES: Final[Mapping[str, AnyGame]] = _GAMES


def register_game(name: str, loader: Callable[[], AnyGame]) -> Callable[[], None]:
    """Add a game to :data:`GAMES` at run time (as OpenSpiel's ``register_game``):
    ``loader`` imports and returns its descriptor.  Returns what removes it again.

    The games of this package are listed above; this is for a game kept elsewhere (a
    plug-in, a test's toy game).  ``ValueError`` for a name already taken.
    """
    loaders = _GAMES._loaders
    if name in loaders:
        raise ValueError(f"there is already a game called {name!r}")
    loaders[name] = loader

    def unregister() -> None:
        loaders.pop(name, None)

    return unregister


def game_named(name: object) -> AnyGame:
    """The game called ``name``; ``ValueError`` naming the known games otherwise."""
    game = GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        raise ValueError(f"unknown game {name!r}; the games are {', '.join(sorted(GAMES))}")
    return game
