"""The reinforcement-learning example (examples/train_three_thirteen.py) enters the open
benchmark: a network trained for a moment, saved, and entered by ``module:factory``
through ``rummykit ladder``, where it plays in a process of its own from observations
alone."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from rummykit.cli.app import app

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_the_trained_policy_enters_the_benchmark(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(EXAMPLES))
    example = importlib.import_module("train_three_thirteen")
    policy, info = example.train(seconds=1.0, seed=3)
    assert info["episodes"] > 0
    weights = tmp_path / "policy.npz"
    np.savez(weights, **policy.params)
    monkeypatch.setenv("THREE_THIRTEEN_POLICY", str(weights))
    out = tmp_path / "ladder.json"
    result = CliRunner().invoke(
        app,
        [
            "ladder",
            "--suite",
            "three-thirteen/2",
            "--deals",
            "1",
            "--rungs",
            "random,train_three_thirteen:entrant",
            "--json",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    tally = data["outside"]["train_three_thirteen:entrant"]
    assert tally["decisions"] > 0
    assert tally["overrun"] == tally["crash"] == tally["error"] == tally["illegal"] == 0
    assert {rung["name"] for rung in data["ladder"]} == {"random", "train_three_thirteen:entrant"}


def test_the_policy_is_refused_at_a_game_it_does_not_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(EXAMPLES))
    result = CliRunner().invoke(
        app, ["ladder", "--suite", "burraco/2", "--rungs", "random,train_three_thirteen:entrant"]
    )
    assert result.exit_code == 2, result.output
    assert "plays three-thirteen, not burraco" in result.output
