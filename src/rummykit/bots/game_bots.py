"""The shape of what one game's bot package provides: :class:`GameBots`.

Only the shape; each game's ``game_bots`` module fills it in (``bots/<game>/game_bots.py``),
:mod:`rummykit.bots.by_game` finds it by the game's name, and nothing here names a game.
The search adapter's type is imported for types only, so the search module, which knows
no game, never loads this one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rummykit.bots.base import Bot
    from rummykit.bots.inference import PileReading
    from rummykit.bots.ismcts import SearchAdapter


@dataclass(frozen=True, slots=True, kw_only=True)
class GameBots:
    """One game's bots: ``greedy`` and ``search`` make a new greedy bot and a new search
    adapter; ``points_per_reward(observation)`` converts the search's reward (a value in
    ``-1 .. 1``) into the game's points at that decision.

    ``hint_iterations(observation)`` is the search budget of a hint at that decision (and
    of the review of that decision, so that both search alike): a number of iterations,
    never a time, so that the same position gets the same hint; each game sizes it to
    take about 0.5 to 1 s on a two-core machine.  ``mistake_points``: the smallest loss,
    in the game's points, that a review calls a mistake (and only when the loss is also
    significant).  ``moves_with_progress(observation, legal_actions)``: the legal
    actions less those that would let a hand go round in circles
    (:mod:`rummykit.bots.progress`), for a bot that picks among them itself (``easy``).
    ``pile_reading``: how the model of play of :mod:`rummykit.bots.inference` reads the
    game's pile history, wild cards and hands (the search's inference, ``expert``).
    """

    greedy: Callable[[], Bot]
    search: Callable[[], SearchAdapter]
    points_per_reward: Callable[[Any], float]
    hint_iterations: Callable[[Any], int]
    mistake_points: float
    moves_with_progress: Callable[[Any, Sequence[Any]], list[Any]]
    pile_reading: Callable[[], PileReading]
