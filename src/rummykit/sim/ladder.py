"""The bot ladder's games: every group of rungs at a table, on the same deals from every
seat.

For ``seats`` players a table, every combination of ``seats`` rungs plays each of the
``deals`` deals once per rotation of its seating (duplicate deals).  The games are
listed deal by deal, so that a rating made in their order sees every pairing early and
no group's games all come last.  Each game gives the rungs seated and their finishing
places, which a rating model (``rummykit.rating``) turns into the ladder.

In a game of partnerships (Burraco for four) a rung is a team: both partners play it,
a group is one rung per team, the teams change sides over a duplicate set, and a game
gives each rung once with its team's place.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from rummykit.games.core import rules_to_json
from rummykit.pairings.standings import places_of
from rummykit.sim.series import GameTask, TaskResult, seat_teams, seatings


class LadderError(ValueError):
    """A ladder that cannot be run as asked."""


def ladder_tasks(
    *,
    game: str,
    rules: Any,
    rungs: Sequence[str],
    seats: int,
    deals: int,
    seed: int,
    time_limit: float | None = None,
) -> list[GameTask]:
    """The ladder's games, deal by deal (seeds ``seed``, ``seed + 1``, ...); an outside
    rung has ``time_limit`` seconds a decision (:mod:`rummykit.sim.entrants`).

    >>> from rummykit.games.three_thirteen import Rules
    >>> tasks = ladder_tasks(game="three-thirteen", rules=Rules(players=2),
    ...     rungs=["random", "greedy", "ismcts"], seats=2, deals=2, seed=7)
    >>> len(tasks), sorted({t.seed for t in tasks}), tasks[1].entries, tasks[1].seating
    (12, [7, 8], ('random', 'greedy'), (1, 0))
    >>> from rummykit.games.burraco import Rules as BurracoRules
    >>> tasks = ladder_tasks(game="burraco", rules=BurracoRules(players=4),
    ...     rungs=["random", "greedy", "ismcts"], seats=4, deals=1, seed=7)
    >>> len(tasks), tasks[1].entries, tasks[1].seating
    (6, ('random', 'greedy'), (1, 0, 1, 0))
    """
    if len(set(rungs)) != len(rungs):
        raise LadderError("a rung is named twice")
    rules_json = rules_to_json(rules)
    teams = seat_teams(game, rules_json)
    sides = len(set(teams))
    if len(rungs) < sides:
        raise LadderError(f"{len(rungs)} rungs cannot fill a table of {seats}")
    if deals < 1:
        raise LadderError(f"the ladder needs at least one deal, not {deals}")
    rotations = seatings(len(teams), sides, teams)
    tasks: list[GameTask] = []
    for deal in range(deals):
        for group in combinations(rungs, sides):
            for seating in rotations:
                tasks.append(
                    GameTask(
                        index=len(tasks),
                        game=game,
                        rules=rules_json,
                        entries=tuple(group),
                        seed=seed + deal,
                        seating=seating,
                        unit=deal,
                        time_limit=time_limit,
                    )
                )
    return tasks


def outcome_of(result: TaskResult) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The rungs in seat order and where each finished in one ladder game (a rung
    playing both seats of a team: once, at its first seat, with the team's place)."""
    task = result.task
    first_seats: dict[int, int] = {}
    for seat, entry in enumerate(task.seating):
        first_seats.setdefault(entry, seat)
    names = tuple(task.entries[entry] for entry in first_seats)
    totals = [result.totals[seat] for seat in first_seats.values()]
    return names, tuple(places_of(task.game, totals))


def head_to_head(
    outcomes: Sequence[tuple[tuple[str, ...], tuple[int, ...]]],
) -> list[dict[str, Any]]:
    """For every two rungs that met, in how many games each finished ahead of the other
    and in how many they were level.

    >>> head_to_head([(("a", "b"), (1, 2)), (("b", "a"), (1, 1)), (("b", "a"), (2, 1))])
    [{'first': 'a', 'second': 'b', 'games': 3, 'first_ahead': 2, 'level': 1, 'second_ahead': 0}]
    """
    counts: dict[tuple[str, str], list[int]] = {}
    order: dict[str, int] = {}
    for names, _ in outcomes:
        for name in names:
            order.setdefault(name, len(order))
    for names, places in outcomes:
        seated = sorted(zip(names, places, strict=True), key=lambda pair: order[pair[0]])
        for (one, place_one), (two, place_two) in combinations(seated, 2):
            tally = counts.setdefault((one, two), [0, 0, 0])
            tally[0 if place_one < place_two else 1 if place_one == place_two else 2] += 1
    return [
        {
            "first": one,
            "second": two,
            "games": sum(tally),
            "first_ahead": tally[0],
            "level": tally[1],
            "second_ahead": tally[2],
        }
        for (one, two), tally in counts.items()
    ]
