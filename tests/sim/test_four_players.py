"""The simulator with Burraco for four: bots by seat or by team, a team's win a win for
both partners, ladders and tournaments of pairs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rummykit.cli.app import app
from rummykit.games.burraco import Rules
from rummykit.sim.event import BotTables
from rummykit.sim.ladder import ladder_tasks, outcome_of
from rummykit.sim.series import (
    GameTask,
    TaskResult,
    make_tasks,
    run_tasks,
    seatings,
    summarize,
)

runner = CliRunner()
FOUR = Rules(players=4)


def _result(task: GameTask, totals: tuple[int, ...], winners: tuple[int, ...]) -> TaskResult:
    return TaskResult(
        task=task,
        totals=totals,
        winners=winners,
        decisions=(10,) * len(totals),
        decision_seconds=(0.5,) * len(totals),
        record=None,
    )


def test_one_bot_per_team_plays_both_partners_and_the_teams_change_sides() -> None:
    tasks = make_tasks(
        game="burraco", rules=FOUR, entries=["a", "b"], games=2, seed=5, duplicate=True
    )
    assert [(t.seed, t.seating, t.unit) for t in tasks] == [
        (5, (0, 1, 0, 1), 0),
        (5, (1, 0, 1, 0), 0),
        (6, (0, 1, 0, 1), 1),
        (6, (1, 0, 1, 0), 1),
    ]
    rotating = make_tasks(
        game="burraco", rules=FOUR, entries=["a", "b"], games=3, seed=0, duplicate=False
    )
    assert [t.seating for t in rotating] == [(0, 1, 0, 1), (1, 0, 1, 0), (0, 1, 0, 1)]
    by_seat = make_tasks(
        game="burraco", rules=FOUR, entries=["a", "b", "c", "d"], games=1, seed=0, duplicate=True
    )
    assert [t.seating for t in by_seat] == [(0, 1, 2, 3), (1, 2, 3, 0), (2, 3, 0, 1), (3, 0, 1, 2)]
    with pytest.raises(ValueError, match="one per seat, or 2, one per team; not 3"):
        seatings(4, 3, (0, 1, 0, 1))
    with pytest.raises(ValueError, match="one per seat, not 1"):
        seatings(2, 1, (0, 1))


def test_a_team_win_is_a_win_for_each_entry_of_the_team() -> None:
    tasks = make_tasks(
        game="burraco", rules=FOUR, entries=["a", "b"], games=1, seed=0, duplicate=True
    )
    results = [
        _result(tasks[0], (400, 100, 400, 100), (0, 2)),  # a (seats 0 and 2) by 300
        _result(tasks[1], (200, 300, 200, 300), (1, 3)),  # a now seats 1 and 3: by 100
    ]
    summary = summarize(
        game="burraco", entries=["a", "b"], results=results, seed=0, duplicate=True, rules={}
    )
    a, b = summary.entries
    assert (a.games, a.wins, a.draws, a.win_rate) == (2, 2, 0, 1.0)
    assert (b.games, b.wins, b.draws, b.win_rate) == (2, 0, 0, 0.0)
    assert a.mean_score_diff == pytest.approx(200.0)  # the duplicate set: (300 + 100) / 2
    assert b.mean_score_diff == pytest.approx(-200.0)
    assert a.decisions == 40  # both partners' decisions, both games

    seats = make_tasks(
        game="burraco", rules=FOUR, entries=["a", "b", "c", "d"], games=1, seed=0, duplicate=False
    )
    tie = make_tasks(
        game="burraco", rules=FOUR, entries=["a", "b", "c", "d"], games=2, seed=0, duplicate=False
    )[1]
    partners = summarize(
        game="burraco",
        entries=["a", "b", "c", "d"],
        results=[
            _result(seats[0], (100, 300, 100, 300), (1, 3)),
            _result(tie, (250, 250, 250, 250), (0, 1, 2, 3)),  # a drawn game: all four win
        ],
        seed=0,
        duplicate=False,
        rules={},
    )
    assert [(e.wins, e.draws) for e in partners.entries] == [(0, 1), (1, 1), (0, 1), (1, 1)]


def test_greedy_pairs_beat_random_pairs_from_either_side() -> None:
    tasks = make_tasks(
        game="burraco",
        rules=FOUR,
        entries=["greedy", "random"],
        games=2,
        seed=40,
        duplicate=True,
    )
    results = run_tasks(tasks)
    for result in results:
        greedy_seats = tuple(s for s, e in enumerate(result.task.seating) if e == 0)
        assert result.winners == greedy_seats
    summary = summarize(
        game="burraco",
        entries=["greedy", "random"],
        results=results,
        seed=40,
        duplicate=True,
        rules={},
    )
    assert summary.entries[0].wins == 4 and summary.entries[1].games == 4


def test_simulate_command_takes_players_four(tmp_path: Path) -> None:
    out = tmp_path / "four.json"
    result = runner.invoke(
        app,
        [
            "simulate",
            "--players",
            "4",
            "--bots",
            "greedy,random",
            "--games",
            "1",
            "--duplicate",
            "--json",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["rules"]["players"] == 4 and data["games"] == 2
    assert [(b["name"], b["games"], b["wins"]) for b in data["bots"]] == [
        ("greedy", 2, 2),
        ("random", 2, 0),
    ]
    wrong = runner.invoke(app, ["simulate", "--players", "4", "--bots", "greedy,random,easy"])
    assert wrong.exit_code == 2
    assert "4 players need 4 bots, one per seat, or 2, one per team; not 3" in wrong.output
    three = runner.invoke(app, ["simulate", "--players", "3", "--bots", "greedy,random"])
    assert three.exit_code == 2 and "Burraco is for 2 or 4 players, not 3" in three.output


def test_a_ladder_of_four_rates_teams() -> None:
    tasks = ladder_tasks(
        game="burraco", rules=FOUR, rungs=["random", "greedy"], seats=4, deals=1, seed=3
    )
    assert [t.seating for t in tasks] == [(0, 1, 0, 1), (1, 0, 1, 0)]
    results = run_tasks(tasks)
    assert [outcome_of(result) for result in results] == [
        (("random", "greedy"), (2, 1)),
        (("greedy", "random"), (1, 2)),
    ]


def test_a_tournament_table_of_four_seats_two_teams() -> None:
    play = BotTables(game="burraco", rules=FOUR, entries=["greedy", "random"], deals=1, seed=9)
    (table,) = play(0, [(0, 1)])
    assert play.games_played == 2
    assert table.players == (0, 1) and table.totals[0] > table.totals[1]
