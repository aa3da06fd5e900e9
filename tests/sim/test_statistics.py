"""The simulator's statistics on known inputs."""

from __future__ import annotations

import math

import pytest

from rummykit.sim.series import GameTask, TaskResult, make_tasks, score_difference, summarize
from rummykit.sim.stats import Z_95, mean_interval, wilson_interval


def test_wilson_matches_the_textbook_formula() -> None:
    # 8 wins (7 wins and 2 draws) out of 10 games.
    low, high = wilson_interval(8, 10)
    p, n, z = 0.8, 10, Z_95
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    assert (low, high) == pytest.approx((centre - half, centre + half))
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)


def test_wilson_edges() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(20, 20)
    assert high == 1.0 and 0.83 < low < 0.84
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_mean_interval() -> None:
    mean, interval = mean_interval([10.0, -10.0, 10.0, -10.0])
    assert mean == 0.0
    assert interval is not None
    half = Z_95 * math.sqrt((4 * 100 / 3) / 4)
    assert interval == pytest.approx((-half, half))
    assert mean_interval([5.0]) == (5.0, None)
    assert mean_interval([]) == (0.0, None)


def fake_result(task: GameTask, totals: tuple[int, ...], winners: tuple[int, ...]) -> TaskResult:
    seats = len(totals)
    return TaskResult(
        task=task,
        totals=totals,
        winners=winners,
        decisions=(10,) * seats,
        decision_seconds=(0.5,) * seats,
        record=None,
    )


def test_summary_of_a_fixed_table_of_outcomes() -> None:
    # Entry 0 ("a") vs entry 1 ("b"), Burraco, not duplicate: seats rotate each game.
    tasks = make_tasks(
        game="burraco",
        rules=_burraco_rules(),
        entries=["a", "b"],
        games=4,
        seed=0,
        duplicate=False,
    )
    assert [t.seating for t in tasks] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    outcomes = [
        ((300, 100), (0,)),  # a wins by 200
        ((250, 250), (0, 1)),  # draw
        ((100, 400), (1,)),  # b wins by 300
        ((50, 150), (1,)),  # seat 1 is a: a wins by 100
    ]
    results = [fake_result(t, *o) for t, o in zip(tasks, outcomes, strict=True)]
    summary = summarize(
        game="burraco", entries=["a", "b"], results=results, seed=0, duplicate=False, rules={}
    )
    a, b = summary.entries
    assert (a.games, a.wins, a.draws) == (4, 2, 1)
    assert (b.games, b.wins, b.draws) == (4, 1, 1)
    assert a.win_rate == pytest.approx(2.5 / 4)
    assert a.win_rate_ci == pytest.approx(wilson_interval(2.5, 4))
    # a's differences per game: +200, 0, -300, +100.
    assert a.mean_score_diff == pytest.approx(0.0)
    expected_mean, expected_ci = mean_interval([200.0, 0.0, -300.0, 100.0])
    assert a.mean_score_diff_ci == pytest.approx(expected_ci)
    assert b.mean_score_diff == pytest.approx(-expected_mean)
    assert summary.decisions == 80 and summary.decisions_per_second == pytest.approx(20.0)
    data = summary.to_json()
    assert set(data) >= {"game", "games", "seed", "duplicate", "bots", "decisions_per_second"}
    assert set(data["bots"][0]) >= {
        "name",
        "wins",
        "draws",
        "win_rate",
        "win_rate_ci",
        "mean_score_diff",
        "mean_score_diff_ci",
    }


def test_duplicate_units_average_their_seatings() -> None:
    tasks = make_tasks(
        game="burraco",
        rules=_burraco_rules(),
        entries=["a", "b"],
        games=2,
        seed=7,
        duplicate=True,
    )
    assert [(t.seed, t.seating, t.unit) for t in tasks] == [
        (7, (0, 1), 0),
        (7, (1, 0), 0),
        (8, (0, 1), 1),
        (8, (1, 0), 1),
    ]
    outcomes = [
        ((300, 100), (0,)),  # a +200
        ((200, 100), (0,)),  # b in seat 0: a -100
        ((100, 100), (0, 1)),  # a 0
        ((0, 400), (1,)),  # a in seat 1: a +400
    ]
    results = [fake_result(t, *o) for t, o in zip(tasks, outcomes, strict=True)]
    summary = summarize(
        game="burraco", entries=["a", "b"], results=results, seed=7, duplicate=True, rules={}
    )
    a = summary.entries[0]
    # Units: (200 - 100) / 2 = 50 and (0 + 400) / 2 = 200.
    assert a.mean_score_diff == pytest.approx(125.0)
    assert a.mean_score_diff_ci == pytest.approx(mean_interval([50.0, 200.0])[1])


def test_score_difference_with_more_seats_and_lower_is_better() -> None:
    assert score_difference("three-thirteen", [30, 60, 90], 1) == pytest.approx(0.0)
    assert score_difference("three-thirteen", [30, 60, 90], 0) == pytest.approx(45.0)
    assert score_difference("burraco", [500, 200], 1) == pytest.approx(-300.0)


def _burraco_rules() -> object:
    from rummykit.games import burraco

    return burraco.Rules()
