"""A series of games between named bots (a match): seatings, duplicate deals, workers and
the summary.  Not a tournament: the events of many tables are :mod:`rummykit.sim.event`.

Every game is described by a picklable :class:`GameTask` (game name, rules, seed and
which entry sits in which seat), so tasks run the same in this process, in worker
processes or on a Ray cluster (:mod:`rummykit.sim.backends`).  The summary follows the
statistics of :mod:`rummykit.sim.stats`.

In a game of partnerships (Burraco for four: seats 0 and 2 against 1 and 3) the entries
name one bot per seat, or one per team that both partners play; a team's win is a win
for each entry in it, and a score difference is taken against the other team's seats.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from rummykit.games.core import rules_from_json, rules_to_json
from rummykit.games.record import GameRecord, record_of
from rummykit.games.registry import game_named
from rummykit.sim.backends import Backend, ProcessBackend
from rummykit.sim.entrants import OutsideBot, make_entrant
from rummykit.sim.match import play_game
from rummykit.sim.stats import mean_interval, wilson_interval


@dataclass(frozen=True, slots=True)
class GameTask:
    """One game to play: ``seating[s]`` is the index of the entry sitting in seat ``s``.

    ``unit`` groups the games whose score differences are averaged into one independent
    sample (a whole duplicate set of seatings, or a single game).
    """

    index: int
    game: str
    rules: dict[str, Any]
    entries: tuple[str, ...]
    seed: int
    seating: tuple[int, ...]
    unit: int
    keep_record: bool = False
    time_limit: float | None = None
    """Seconds an outside bot has for a decision (:mod:`rummykit.sim.entrants`)."""


@dataclass(frozen=True, slots=True)
class TaskResult:
    task: GameTask
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    decisions: tuple[int, ...]
    decision_seconds: tuple[float, ...]
    record: GameRecord | None
    faults: tuple[Mapping[str, int], ...] = ()
    """Each seat's moves replaced by the fallback, by kind (an outside bot's seat
    only; empty for a game without one): :data:`rummykit.sim.entrants.FAULT_KINDS`."""


@lru_cache(maxsize=64)
def _teams(game: str, rules_text: str) -> tuple[int, ...]:
    info = game_named(game)
    state = info.new_state(rules_from_json(info.rules_type, json.loads(rules_text)), 0)
    team_of = getattr(state, "team_of", None)
    seats = range(state.num_players)
    return tuple(seats) if team_of is None else tuple(team_of(seat) for seat in seats)


def seat_teams(game: str, rules: dict[str, Any]) -> tuple[int, ...]:
    """The team of every seat of ``game`` played by ``rules`` (JSON): partners share
    one, and a game without partnerships gives every seat its own.

    >>> seat_teams("burraco", {"players": 4}), seat_teams("three-thirteen", {"players": 3})
    ((0, 1, 0, 1), (0, 1, 2))
    """
    return _teams(game, json.dumps(rules, sort_keys=True))


def seatings(players: int, entries: int, teams: Sequence[int]) -> list[tuple[int, ...]]:
    """The seatings of a duplicate set: the entry in each seat, one seating per
    rotation.  With an entry per seat the seats rotate; with one per team (fewer
    entries than seats, as many as teams) both partners play their team's entry and
    the teams rotate.  ``ValueError`` for any other count.

    >>> seatings(2, 2, (0, 1)), seatings(4, 2, (0, 1, 0, 1))
    ([(0, 1), (1, 0)], [(0, 1, 0, 1), (1, 0, 1, 0)])
    >>> seatings(4, 4, (0, 1, 0, 1))[1]
    (1, 2, 3, 0)
    """
    if entries == players:
        base = tuple(range(players))
        return [base[rotation:] + base[:rotation] for rotation in range(players)]
    sides = len(set(teams))
    if entries == sides < players:
        return [
            tuple((teams[seat] + rotation) % sides for seat in range(players))
            for rotation in range(sides)
        ]
    if sides < players:
        raise ValueError(
            f"{players} players need {players} bots, one per seat, or {sides}, one per team;"
            f" not {entries}"
        )
    raise ValueError(f"{players} players need {players} bots, one per seat, not {entries}")


def run_task(task: GameTask) -> TaskResult:
    """Play one task's game (in whatever process calls this)."""
    game = game_named(task.game)
    rules = rules_from_json(game.rules_type, task.rules)
    bots = [
        make_entrant(task.game, task.entries[entry], time_limit=task.time_limit)
        for entry in task.seating
    ]
    try:
        result = play_game(game, rules, bots, task.seed)
    finally:
        for bot in bots:
            if isinstance(bot, OutsideBot):
                bot.close()
    faults: tuple[Mapping[str, int], ...] = ()
    if any(isinstance(bot, OutsideBot) for bot in bots):
        faults = tuple(dict(bot.faults) if isinstance(bot, OutsideBot) else {} for bot in bots)
    record = None
    if task.keep_record:
        names = [f"{task.entries[entry]} (entry {entry})" for entry in task.seating]
        record = record_of(game, result.state, players=names)
    return TaskResult(
        task=task,
        totals=result.totals,
        winners=result.winners,
        decisions=result.decisions,
        decision_seconds=result.decision_seconds,
        record=record,
        faults=faults,
    )


def make_tasks(
    *,
    game: str,
    rules: Any,
    entries: Sequence[str],
    games: int,
    seed: int,
    duplicate: bool,
    keep_records: bool = False,
) -> list[GameTask]:
    """The games of a match (the seats from ``rules``; entries as :func:`seatings` takes
    them: one per seat, or one per team).

    Without ``duplicate``: ``games`` deals (seeds ``seed``, ``seed + 1``, ...), the seating
    rotating by one seat (or team) each game.  With ``duplicate``: ``games`` deals, each
    played once per rotation of the seating, so every entry plays every deal from every
    seat.
    """
    rules_json = rules_to_json(rules)
    teams = seat_teams(game, rules_json)
    options = seatings(len(teams), len(entries), teams)
    tasks: list[GameTask] = []
    for deal in range(games):
        chosen = options if duplicate else [options[deal % len(options)]]
        for seating in chosen:
            tasks.append(
                GameTask(
                    index=len(tasks),
                    game=game,
                    rules=rules_json,
                    entries=tuple(entries),
                    seed=seed + deal,
                    seating=seating,
                    unit=deal if duplicate else len(tasks),
                    keep_record=keep_records,
                )
            )
    return tasks


def run_tasks(
    tasks: Sequence[GameTask],
    *,
    workers: int = 1,
    backend: Backend | None = None,
    on_result: Callable[[TaskResult], None] | None = None,
) -> list[TaskResult]:
    """Play every task and give the results in task order, whatever order they finished
    in, so that the same tasks give the same results everywhere.

    The games run on ``backend`` (already entered, and left open for the caller's next
    match), or without one in ``workers`` processes (in this process for 1).
    """
    if backend is None:
        with Backend() if workers <= 1 else ProcessBackend(workers) as own:
            return run_tasks(tasks, backend=own, on_result=on_result)
    results: list[TaskResult] = []
    with closing(backend.map_unordered(run_task, tasks)) as stream:
        for result in stream:
            results.append(result)
            if on_result is not None:
                on_result(result)
    return sorted(results, key=lambda result: result.task.index)


# ---------------------------------------------------------------------------------------
# The summary


@dataclass(frozen=True, slots=True)
class EntrySummary:
    name: str
    games: int
    wins: int
    draws: int
    win_rate: float
    win_rate_ci: tuple[float, float]
    mean_score_diff: float
    mean_score_diff_ci: tuple[float, float] | None
    decisions: int
    decision_seconds: float

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "win_rate": self.win_rate,
            "win_rate_ci": list(self.win_rate_ci),
            "mean_score_diff": self.mean_score_diff,
            "mean_score_diff_ci": None
            if self.mean_score_diff_ci is None
            else list(self.mean_score_diff_ci),
            "decisions": self.decisions,
            "decisions_per_second": _rate(self.decisions, self.decision_seconds),
        }


@dataclass(frozen=True, slots=True)
class MatchSummary:
    game: str
    games: int
    seed: int
    duplicate: bool
    rules: dict[str, Any]
    entries: list[EntrySummary] = field(default_factory=list)
    decisions: int = 0
    decision_seconds: float = 0.0

    @property
    def decisions_per_second(self) -> float | None:
        return _rate(self.decisions, self.decision_seconds)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "games": self.games,
            "seed": self.seed,
            "duplicate": self.duplicate,
            "rules": self.rules,
            "bots": [entry.to_json() for entry in self.entries],
            "decisions_per_second": self.decisions_per_second,
            "score_difference": "the entry's score minus the mean of the other seats"
            + (
                ", sign reversed: fewer points is better"
                if game_named(self.game).lower_is_better
                else ""
            ),
        }


def _rate(count: int, seconds: float) -> float | None:
    return count / seconds if seconds > 0 else None


def score_difference(
    game: str, totals: Sequence[int], seat: int, teams: Sequence[int] | None = None
) -> float:
    """How much better ``seat`` did than the mean of the other seats (positive = better);
    with ``teams`` (each seat's), than the mean of the seats of other teams.

    >>> score_difference("burraco", [300, 100], 0)
    200.0
    >>> score_difference("three-thirteen", [40, 70, 100], 0)
    45.0
    >>> score_difference("burraco", [300, 100, 300, 100], 2, teams=(0, 1, 0, 1))
    200.0
    """
    if teams is None:
        teams = range(len(totals))
    others = [t for s, t in enumerate(totals) if teams[s] != teams[seat]]
    difference = totals[seat] - sum(others) / len(others)
    return -difference if game_named(game).lower_is_better else difference


def summarize(
    *,
    game: str,
    entries: Sequence[str],
    results: Sequence[TaskResult],
    seed: int,
    duplicate: bool,
    rules: dict[str, Any],
) -> MatchSummary:
    """Wins, draws, win rates and score differences of each entry, with 95% intervals.

    A game counts once for each entry seated in it.  An entry wins when its seat (or its
    team's) is among the winners and the winners are of one team; when winners of
    several teams share the game, it is a draw for each of them."""
    count = len(entries)
    wins = [0] * count
    draws = [0] * count
    games = [0] * count
    decisions = [0] * count
    seconds = [0.0] * count
    units: dict[int, list[list[float]]] = {}
    for result in results:
        seating = result.task.seating
        teams = seat_teams(result.task.game, result.task.rules)
        unit = units.setdefault(result.task.unit, [[] for _ in range(count)])
        winning_teams = {teams[seat] for seat in result.winners}
        for entry in sorted(set(seating)):
            seats = [seat for seat, seated in enumerate(seating) if seated == entry]
            games[entry] += 1
            if any(seat in result.winners for seat in seats):
                if len(winning_teams) == 1:
                    wins[entry] += 1
                else:
                    draws[entry] += 1
            differences = [score_difference(game, result.totals, seat, teams) for seat in seats]
            unit[entry].append(sum(differences) / len(differences))
        for seat, entry in enumerate(seating):
            decisions[entry] += result.decisions[seat]
            seconds[entry] += result.decision_seconds[seat]
    summaries: list[EntrySummary] = []
    for entry, name in enumerate(entries):
        samples = [sum(u[entry]) / len(u[entry]) for u in units.values() if u[entry]]
        mean, interval = mean_interval(samples)
        rate_wins = wins[entry] + 0.5 * draws[entry]
        summaries.append(
            EntrySummary(
                name=name,
                games=games[entry],
                wins=wins[entry],
                draws=draws[entry],
                win_rate=rate_wins / games[entry] if games[entry] else 0.0,
                win_rate_ci=wilson_interval(rate_wins, games[entry]),
                mean_score_diff=mean,
                mean_score_diff_ci=interval,
                decisions=decisions[entry],
                decision_seconds=seconds[entry],
            )
        )
    return MatchSummary(
        game=game,
        games=len(results),
        seed=seed,
        duplicate=duplicate,
        rules=rules,
        entries=summaries,
        decisions=sum(decisions),
        decision_seconds=sum(seconds),
    )
