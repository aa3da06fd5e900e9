"""``rummykit simulate`` end to end with cheap bots."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from rummykit.cli.app import app
from rummykit.games.record import loads
from rummykit.sim.series import make_tasks, run_tasks

runner = CliRunner()


def test_simulate_writes_json_and_records(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    result = runner.invoke(
        app,
        [
            "simulate",
            "--game",
            "three-thirteen",
            "--bots",
            "random,random,random",
            "--games",
            "3",
            "--last-round",
            "2",
            "--duplicate",
            "--json",
            str(out),
            "--records",
            str(tmp_path / "records"),
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["games"] == 9 and data["duplicate"] is True
    assert [b["games"] for b in data["bots"]] == [9, 9, 9]
    records = sorted((tmp_path / "records").iterdir())
    assert len(records) == 9
    assert loads(records[0].read_text()).game == "three-thirteen"


def test_workers_give_the_same_results_as_one_process() -> None:
    from rummykit.games import burraco

    tasks = make_tasks(
        game="burraco",
        rules=burraco.Rules(),
        entries=["random", "random"],
        games=4,
        seed=3,
        duplicate=False,
    )
    alone = run_tasks(tasks, workers=1)
    pooled = run_tasks(tasks, workers=2)
    assert [r.totals for r in alone] == [r.totals for r in pooled]


def test_bad_arguments_are_explained() -> None:
    for arguments in (
        ["simulate", "--bots", "random"],
        ["simulate", "--bots", "random,wizard"],
        ["simulate", "--bots", "ismcts:depth=3,random"],
        ["simulate", "--game", "three-thirteen", "--bots", "random,random", "--first-round", "12"],
        ["simulate", "--games", "0"],
    ):
        result = runner.invoke(app, arguments)
        assert result.exit_code == 2, (arguments, result.output)
        assert "Traceback" not in result.output
