"""The bot ladder's games: every group of rungs at a table, on the same deals from every
seat.

For ``seats`` players a table, every combination of ``seats`` rungs plays each of the
``deals`` deals once per rotation of its seating (duplicate deals).  The games are
listed deal by deal, so that a rating made in their order sees every pairing early and
no group's games all come last.  Each game gives the rungs seated and their finishing
places, which a rating model (``rummykit.rating``) turns into the ladder.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from rummykit.games.core import rules_to_json
from rummykit.sim.standings import places_of
from rummykit.sim.tournament import GameTask, TaskResult


class LadderError(ValueError):
    """A ladder that cannot be run as asked."""


def ladder_tasks(
    *, game: str, rules: Any, rungs: Sequence[str], seats: int, deals: int, seed: int
) -> list[GameTask]:
    """The ladder's games, deal by deal (seeds ``seed``, ``seed + 1``, ...).

    >>> from rummykit.games.three_thirteen import Rules
    >>> tasks = ladder_tasks(game="three-thirteen", rules=Rules(players=2),
    ...     rungs=["random", "greedy", "ismcts"], seats=2, deals=2, seed=7)
    >>> len(tasks), sorted({t.seed for t in tasks}), tasks[1].entries, tasks[1].seating
    (12, [7, 8], ('random', 'greedy'), (1, 0))
    """
    if len(set(rungs)) != len(rungs):
        raise LadderError("a rung is named twice")
    if len(rungs) < seats:
        raise LadderError(f"{len(rungs)} rungs cannot fill a table of {seats}")
    if deals < 1:
        raise LadderError(f"the ladder needs at least one deal, not {deals}")
    rules_json = rules_to_json(rules)
    base = tuple(range(seats))
    tasks: list[GameTask] = []
    for deal in range(deals):
        for group in combinations(rungs, seats):
            for rotation in range(seats):
                tasks.append(
                    GameTask(
                        index=len(tasks),
                        game=game,
                        rules=rules_json,
                        entries=tuple(group),
                        seed=seed + deal,
                        seating=base[rotation:] + base[:rotation],
                        unit=deal,
                    )
                )
    return tasks


def outcome_of(result: TaskResult) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The rungs in seat order and where each finished in one ladder game."""
    task = result.task
    names = tuple(task.entries[entry] for entry in task.seating)
    return names, tuple(places_of(task.game, result.totals))
