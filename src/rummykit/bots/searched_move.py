"""A search that always weighs one given move at the root, beside its own candidates.

A review and a fair-play assessment compare the move a player made with the search's
choice on the same simulated deals (paired rounds); a move the game's adapter would
leave out at the root (:meth:`~rummykit.bots.ismcts.Playout.root_candidates`) is added
by :func:`including`, and nothing else about the search changes.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rummykit.bots.base import Bot
from rummykit.bots.ismcts import Playout, SearchAdapter


def including(adapter: SearchAdapter, action: Any) -> SearchAdapter:
    """``adapter`` with ``action`` (when legal) among the root's candidates."""
    return _Including(adapter, action)


class _Including:
    """A search adapter that always searches ``action`` at the root (the played move), so
    that the search compares it with its own choice on the same deals."""

    def __init__(self, adapter: SearchAdapter, action: Any) -> None:
        self._adapter = adapter
        self._action = action

    @property
    def game(self) -> Any:
        return self._adapter.game

    @property
    def exploration(self) -> float:
        return self._adapter.exploration

    @property
    def paired(self) -> bool:
        return self._adapter.paired

    @property
    def guide(self) -> Bot:
        return self._adapter.guide

    def playout(self, observation: Any) -> Playout:
        return _IncludingPlayout(self._adapter.playout(observation), self._action)


class _IncludingPlayout:
    def __init__(self, inner: Playout, action: Any) -> None:
        self._inner = inner
        self._action = action

    def root_candidates(self, legal_actions: Sequence[Any]) -> Sequence[Any]:
        candidates = list(self._inner.root_candidates(legal_actions))
        if self._action not in candidates and self._action in legal_actions:
            candidates.append(self._action)
        return candidates

    def candidates(self, state: Any, actions: list[Any]) -> Sequence[Any]:
        return self._inner.candidates(state, actions)

    def finished(self, state: Any) -> bool:
        return self._inner.finished(state)

    def rewards(self, state: Any, rng: random.Random) -> Sequence[float]:
        return self._inner.rewards(state, rng)
