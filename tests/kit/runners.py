"""A bot runner for tests that watches what the server asks of its bots: every call goes
to the shared runner's workers, and each decision asked for is noted first."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from rummykit.server.bots.queue import Kind
from rummykit.server.bots.service import BotRunner, BotService

T = TypeVar("T")


@dataclass(frozen=True)
class Asked:
    """A decision the server asked a bot for."""

    game: str
    spec: str
    observation: dict[str, Any]
    legal: list[str]
    owner: str | None


class RecordingRunner(BotService):
    """The shared bot runner ``inner``, noting each decision it is asked for in
    :attr:`asked`; with ``level``, every decision is made at that level instead of the
    one asked (a search clamped to a second a move would still take its second)."""

    def __init__(self, inner: BotRunner, *, level: str | None = None) -> None:
        self.inner = inner
        self.level = level
        self.asked: list[Asked] = []

    async def decide(
        self,
        game: str,
        spec: str,
        observation: dict[str, Any],
        legal: Sequence[str],
        seed: int,
        *,
        owner: str | None = None,
    ) -> tuple[str, str]:
        self.asked.append(Asked(game, spec, observation, list(legal), owner))
        level = self.level or spec
        return await super().decide(game, level, observation, legal, seed, owner=owner)

    async def call(self, kind: Kind, owner: str | None, function: Callable[[], T]) -> T:
        return await self.inner.call(kind, owner, function)

    def close(self) -> None:
        """Nothing: the shared runner is closed by its own fixture."""
