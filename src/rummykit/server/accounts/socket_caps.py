"""How many table sockets one player may hold open at once (``sockets_per_player``).

A browser tab holds one socket per table it shows; a player with many tabs or a few
tables holds a handful.  Past the cap a new socket is refused (``too_many_sockets``)
before it reaches a table.  One server process counts in memory
(:class:`LocalSockets`); the workers of a site count together in Redis
(``cluster/redis_sockets.py``), so the cap holds whichever worker each socket reaches.
"""

from __future__ import annotations

from typing import Protocol


class SocketSlot(Protocol):
    """One open socket's place in its player's count, given back when it closes."""

    async def give_back(self) -> None: ...


class SocketCap(Protocol):
    """The count of each player's open table sockets."""

    limit: int

    async def take(self, player_id: str) -> SocketSlot | None:
        """A slot for one more socket of ``player_id``; ``None`` when they hold
        :attr:`limit` already."""
        ...

    async def close(self) -> None:
        """Stop any background work (at shutdown)."""
        ...


class LocalSlot:
    """A slot of :class:`LocalSockets`; giving it back twice counts once."""

    def __init__(self, counts: LocalSockets, player_id: str) -> None:
        self._counts = counts
        self._player_id = player_id
        self._given_back = False

    async def give_back(self) -> None:
        self.release()

    def release(self) -> None:
        if not self._given_back:
            self._given_back = True
            self._counts.release(self._player_id)


class LocalSockets:
    """The cap counted in this process's memory.

    >>> import asyncio
    >>> sockets = LocalSockets(2)
    >>> async def three() -> list[bool]:
    ...     return [await sockets.take("ann") is not None for _ in range(3)]
    >>> asyncio.run(three())
    [True, True, False]
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open: dict[str, int] = {}

    def open_sockets(self, player_id: str) -> int:
        return self._open.get(player_id, 0)

    async def take(self, player_id: str) -> LocalSlot | None:
        return self.take_now(player_id)

    def take_now(self, player_id: str) -> LocalSlot | None:
        """:meth:`take` without waiting (nothing to wait for in memory)."""
        count = self._open.get(player_id, 0)
        if count >= self.limit:
            return None
        self._open[player_id] = count + 1
        return LocalSlot(self, player_id)

    def release(self, player_id: str) -> None:
        count = self._open.get(player_id, 0) - 1
        if count > 0:
            self._open[player_id] = count
        else:
            self._open.pop(player_id, None)

    async def close(self) -> None:
        return None
