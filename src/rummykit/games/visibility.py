"""What every game shares about who may see what: seats, redacted events, the version.

Each game decides which of its events hold something private (a dealt hand, a card
drawn from the stock, a pozzetto's cards): such an event has a ``seen_by(player)``
method, which :func:`rummykit.games.events.seen_by` calls; the helpers here are the
pieces those methods and the states' ``observation``/``events_for`` have in common.
``VERSION`` numbers the JSON shape of both games' observations and events together
(docs/observations.md says what changes bump it).  Nothing here knows a game's rules
or changes a state.

>>> check_player(1, 2)
1
>>> check_player(True, 2)
Traceback (most recent call last):
...
ValueError: a player is a seat number from 0 to 1, not True
>>> own_seat_only((("7h",), ("Kd",), ("2c",)), 1)
(None, ('Kd',), None)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Final, TypeVar

VERSION: Final = 4
"""The version of the observation and event JSON of every game (docs/observations.md)."""

T = TypeVar("T")
E = TypeVar("E")


def check_player(player: object, players: int) -> int:
    """``player`` as a seat at a table of ``players``; ``ValueError`` for anything else."""
    if type(player) is not int or not 0 <= player < players:
        raise ValueError(f"a player is a seat number from 0 to {players - 1}, not {player!r}")
    return player


def own_seat_only(per_seat: Sequence[T | None], player: int) -> tuple[T | None, ...]:
    """``per_seat`` with every seat but ``player``'s replaced by ``None``."""
    return tuple(value if seat == player else None for seat, value in enumerate(per_seat))


def events_seen_by(events: Iterable[E], player: int, seen_by: Callable[[E, int], E]) -> list[E]:
    """``events`` as ``player`` may see them, each through the game's ``seen_by``."""
    return [seen_by(event, player) for event in events]
