"""``rummykit fairplay assess``: records of the simulator assessed per seat and pooled per
player; a bad record is named and skipped, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from rummykit.cli.app import app

runner = CliRunner()


def simulated(tmp_path: Path) -> list[Path]:
    result = runner.invoke(
        app,
        [
            "simulate",
            "--game",
            "three-thirteen",
            "--bots",
            "greedy,random",
            "--games",
            "2",
            "--first-round",
            "3",
            "--last-round",
            "3",
            "--records",
            str(tmp_path / "r"),
        ],
    )
    assert result.exit_code == 0, result.output
    return sorted((tmp_path / "r").glob("*.json"))


def test_simulated_records_are_assessed_by_seat_and_pooled_by_player(tmp_path: Path) -> None:
    records = simulated(tmp_path)
    assert len(records) == 2
    result = runner.invoke(
        app, ["fairplay", "assess", *map(str, records), "--iterations", "30", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert len(data["games"]) == 4
    assert {row["verdict"] for row in data["games"]} <= {
        "nothing",
        "unclear",
        "suspicious",
        "very_likely",
    }
    players = {row["player"]: row for row in data["players"]}
    assert set(players) == {"greedy (entry 0)", "random (entry 1)"}
    assert all(row["games"] == 2 and not row["reported"] for row in players.values())
    # the random player loses more per decision than the greedy one
    losses = {row["player"]: row["mean_loss"] for row in data["games"]}
    assert losses["random (entry 1)"] > losses["greedy (entry 0)"]


def test_a_bad_record_is_named_and_the_others_are_still_assessed(tmp_path: Path) -> None:
    good = simulated(tmp_path)[0]
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "rummykit-record"')
    named = tmp_path / "named.json"
    data = json.loads(good.read_text())
    data["players"] = ["[red]Mallory[/red]", "<b>Eve</b>"]
    named.write_text(json.dumps(data))
    result = runner.invoke(
        app,
        ["fairplay", "assess", str(bad), str(named), "--iterations", "20"],
        env={"COLUMNS": "160"},
    )
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert "bad.json" in result.output
    assert "[red]Mallory[/red]" in result.output  # a name is shown as written, never as markup
    assert "<b>Eve</b>" in result.output


def test_a_game_for_four_shows_each_seats_partner_evidence(tmp_path: Path) -> None:
    made = runner.invoke(
        app,
        ["simulate", "--game", "burraco", "--bots", "greedy,random", "--players", "4",
         "--games", "1", "--records", str(tmp_path / "r")],
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    [record] = sorted((tmp_path / "r").glob("*.json"))
    as_json = runner.invoke(
        app, ["fairplay", "assess", str(record), "--iterations", "12", "--json"]
    )
    assert as_json.exit_code == 0, as_json.output
    data = json.loads(as_json.stdout)
    assert len(data["games"]) == 4
    assert all(isinstance(row["partner_evidence"], float) for row in data["games"])
    assert all(isinstance(row["partner_evidence"], float) for row in data["players"])
    shown = runner.invoke(
        app, ["fairplay", "assess", str(record), "--iterations", "12"], env={"COLUMNS": "200"}
    )
    assert shown.exit_code == 0, shown.output
    assert shown.output.count(" partner ") == 2  # a column of both tables
