"""``rummykit tournament`` end to end with cheap bots: a Swiss event of 16 bots, a
knockout, Three-Thirteen tables of three, and bad input refused in one line."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rummykit.cli.app import app

runner = CliRunner()


def _event(tmp_path: Path, *args: str) -> tuple[dict[str, Any], str]:
    out = tmp_path / "event.json"
    result = runner.invoke(app, ["tournament", *args, "--json", str(out)])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return data, result.output


def test_a_swiss_event_of_sixteen_bots_runs_to_the_end(tmp_path: Path) -> None:
    data, output = _event(
        tmp_path,
        "--game",
        "burraco",
        "--format",
        "swiss",
        "--rounds",
        "5",
        "--bots",
        "greedy*8,random*8",
        "--workers",
        "2",
    )
    assert len(data["rounds"]) == 5 and len(data["players"]) == 16
    assert data["repeats"] == 0
    met = [
        frozenset(pair)
        for round_ in data["rounds"]
        for table in round_["tables"]
        for pair in combinations(table["players"], 2)
    ]
    assert len(met) == len(set(met)) == 5 * 8
    # every table of a round played the same deal
    assert [round_["seeds"] for round_ in data["rounds"]] == [[0], [1], [2], [3], [4]]
    standings = data["standings"]
    assert sorted(line["player"] for line in standings) == list(range(16))
    # round 1 seats each greedy bot (players 0-7) against a random one (8-15), which
    # they beat; then greedy meets greedy and random random, identical bots on the same
    # deals from both seats, which is a draw every time
    points = {line["player"]: line["points"] for line in standings}
    assert all(points[p] == 3 for p in range(8))
    assert all(points[p] == 2 for p in range(8, 16))
    assert {table["players"][1] - table["players"][0] for table in data["rounds"][0]["tables"]} == {
        8
    }
    assert "greedy #1" in output and "Buchholz" in output


def test_a_knockout_crowns_a_greedy_bot(tmp_path: Path) -> None:
    data, output = _event(
        tmp_path, "--format", "knockout", "--bots", "random*3,greedy,random*2", "--seed", "4"
    )
    assert data["champion"] == 3
    assert data["standings"][0]["player"] == 3
    assert "champion greedy" in output
    assert data["rounds"][0]["byes"] == [0, 1]  # 6 players in 8 slots: the top seeds wait


def test_three_thirteen_tables_of_three_with_a_bye(tmp_path: Path) -> None:
    data, _ = _event(
        tmp_path,
        "--game",
        "three-thirteen",
        "--seats",
        "3",
        "--last-round",
        "2",
        "--bots",
        "greedy*2,random*5",
        "--rounds",
        "3",
        "--deals",
        "2",
    )
    assert all(len(t["players"]) == 3 for r in data["rounds"] for t in r["tables"])
    byes = [p for r in data["rounds"] for p in r["byes"]]
    assert len(byes) == 3 and len(set(byes)) == 3
    assert data["rounds"][1]["seeds"] == [2, 3]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--format", "round-robin"], "swiss or knockout"),
        (["--bots", "greedy*0,random"], "count after '*'"),
        (["--bots", "greedy"], "cannot fill a table"),
        (["--bots", "greedy,wizard"], "unknown bot 'wizard'"),
        (["--seats", "3"], "Burraco tables seat 2 or 4 players, not 3"),
        (["--rounds", "0"], "at least one round"),
        (["--format", "knockout", "--rounds", "2"], "--rounds is for Swiss"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["tournament", *args])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output
