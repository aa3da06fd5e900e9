"""``rummykit ladder`` end to end with the cheap bots: the order, the anchor, agreement
between two runs on different deals, and bad input refused in one line."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rummykit.cli.app import app

runner = CliRunner()


def _ladder(tmp_path: Path, *args: str) -> dict[str, Any]:
    out = tmp_path / "ladder.json"
    result = runner.invoke(app, ["ladder", *args, "--json", str(out)])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize(
    ("game_args", "rungs"),
    [
        (["--game", "burraco"], "random,greedy"),
        (["--game", "three-thirteen", "--last-round", "4"], "random,greedy"),
        (
            ["--game", "three-thirteen", "--seats", "3", "--last-round", "3"],
            "random,greedy,ismcts:iterations=2",
        ),
    ],
)
def test_random_is_at_the_bottom_with_intervals_apart(
    tmp_path: Path, game_args: list[str], rungs: str
) -> None:
    data = _ladder(tmp_path, *game_args, "--rungs", rungs, "--deals", "8")
    *above, random = data["ladder"]
    assert random["name"] == "random"
    assert random["rating"] == 1000 and random["interval"] == [1000, 1000]
    assert all(rung["interval"][0] > random["interval"][1] for rung in above)
    if len(above) == 1:
        assert above[0]["name"] == "greedy"
    # every group of rungs that fills a table plays each deal from every seat
    groups = {2: 1, 3: 1}[data["seats"]]
    assert data["games"] == 8 * groups * data["seats"] == random["games"]
    # the head-to-head counts every two rungs at every game
    pairs_a_game = data["seats"] * (data["seats"] - 1) // 2
    assert sum(m["games"] for m in data["head_to_head"]) == data["games"] * pairs_a_game
    for meeting in data["head_to_head"]:
        assert (
            meeting["games"] == meeting["first_ahead"] + meeting["level"] + meeting["second_ahead"]
        )


@pytest.mark.parametrize(
    "game_args",
    [["--game", "burraco"], ["--game", "three-thirteen", "--last-round", "4"]],
)
def test_the_levels_stand_in_order_with_their_own_intervals_apart(
    tmp_path: Path, game_args: list[str]
) -> None:
    data = _ladder(tmp_path, *game_args, "--rungs", "random,easy,greedy", "--deals", "30")
    names = [rung["name"] for rung in data["ladder"]]
    assert names == ["greedy", "easy", "random"]
    for upper, lower in itertools.pairwise(data["ladder"]):
        assert upper["own_interval"][0] > lower["own_interval"][1], (upper, lower)
    assert data["unseparated"] == []


def test_two_runs_on_different_deals_agree_within_their_intervals(tmp_path: Path) -> None:
    from rummykit.rating.ladder import Rung, disagreements
    from rummykit.rating.model import Rating

    def rungs(data: dict[str, Any]) -> list[Rung]:
        return [
            Rung(
                name=r["name"],
                points=r["rating"],
                low=r["interval"][0],
                high=r["interval"][1],
                rating=Rating(r["mu"], r["sigma"]),
                games=r["games"],
            )
            for r in data["ladder"]
        ]

    args = ["--game", "three-thirteen", "--last-round", "3", "--rungs", "random,greedy"]
    first = _ladder(tmp_path, *args, "--deals", "10", "--seed", "0")
    second = _ladder(tmp_path, *args, "--deals", "10", "--seed", "5000")
    assert disagreements(rungs(first), rungs(second)) == []


@pytest.mark.parametrize(
    "args",
    [
        ["--game", "burraco", "--rungs", "random,greedy", "--deals", "3", "--seed", "9"],
        # the search bounded by iterations makes the same moves in any process
        [
            "--game",
            "three-thirteen",
            "--last-round",
            "2",
            "--deals",
            "2",
            "--rungs",
            "random,greedy,ismcts:iterations=5",
        ],
    ],
)
def test_the_same_command_gives_the_same_ladder(tmp_path: Path, args: list[str]) -> None:
    assert _ladder(tmp_path, *args) == _ladder(tmp_path, *args, "--workers", "2")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rungs", "greedy,ismcts"], "anchor 'random'"),
        (["--rungs", "random,wizard"], "unknown bot 'wizard'"),
        (["--rungs", "random,greedy,greedy"], "named twice"),
        (["--game", "chess"], "unknown game"),
        (["--seats", "3"], "Burraco tables seat 2 or 4 players, not 3"),
        (["--deals", "0"], "at least one deal"),
        (["--game", "three-thirteen", "--seats", "4", "--rungs", "random,greedy"], "cannot fill"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["ladder", *args])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output


def test_an_outside_bot_of_a_few_lines_enters_the_benchmark_by_module_and_factory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "lowest_card.py").write_text(
        "from rummykit.bots.base import Decision\n"
        "from rummykit.bots.reasons import Reason\n"
        "class LowestCard:\n"
        "    name = 'lowest-card'\n"
        "    def decide(self, observation, legal, rng):\n"
        "        return Decision(min(legal, key=str), Reason(()))\n"
        "def factory(game):\n"
        "    return LowestCard()\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    data = _ladder(
        tmp_path,
        "--suite",
        "three-thirteen/2",
        "--deals",
        "2",
        "--rungs",
        "random,greedy,lowest_card:factory",
    )
    assert data["suite"] == "three-thirteen/2"
    assert data["seed"] == 70_200_000 and data["deals"] == 2
    assert data["rules"]["first_round"] == 3 and data["rules"]["last_round"] == 6
    assert {rung["name"] for rung in data["ladder"]} == {"random", "greedy", "lowest_card:factory"}
    entrant = next(rung for rung in data["ladder"] if rung["name"] == "lowest_card:factory")
    assert entrant["games"] == 2 * 2 * 2  # two deals, from both seats, against two bots
    tally = data["outside"]["lowest_card:factory"]
    assert tally["decisions"] > 0
    assert sum(tally[kind] for kind in ("overrun", "crash", "error", "illegal", "stopped")) == 0


def test_an_outside_bot_that_overruns_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "sleepy.py").write_text(
        "import time\n"
        "class Sleepy:\n"
        "    name = 'sleepy'\n"
        "    def decide(self, observation, legal, rng):\n"
        "        time.sleep(60)\n"
        "def factory(game):\n"
        "    return Sleepy()\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    out = tmp_path / "ladder.json"
    result = runner.invoke(
        app,
        [
            "ladder",
            "--suite",
            "burraco/2",
            "--deals",
            "1",
            "--rungs",
            "random,sleepy:factory",
            "--time-limit",
            "0.2",
            "--json",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    tally = json.loads(out.read_text(encoding="utf-8"))["outside"]["sleepy:factory"]
    assert tally["overrun"] == 2  # once in each of its two games, then stopped
    assert tally["stopped"] == tally["decisions"] - 2 > 0
    assert "sleepy:factory: " in result.output and "2 overrun" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--suite", "chess/2"], "no suite 'chess/2'"),
        (["--suite", "burraco/2", "--seed", "3"], "a suite fixes the game"),
        (["--suite", "three-thirteen/3", "--last-round", "9"], "a suite fixes the game"),
        (["--suite", "burraco/4", "--deals", "201"], "has 200 deals"),
        (["--rungs", "random,no_such_module_here:make"], "cannot be entered"),
        (["--time-limit", "0"], "time limit must be positive"),
    ],
)
def test_bad_benchmark_input_is_one_line_and_exit_code_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["ladder", *args])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output
