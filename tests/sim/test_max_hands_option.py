"""The Burraco ``max_hands`` rule option from the command line (RULES.md 1.8)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from rummykit.cli.app import app
from rummykit.cli.options import rules_from_options
from rummykit.games.record import final_state, loads


def test_max_hands_reaches_the_burraco_rules() -> None:
    rules = rules_from_options("burraco", seats=2, mode="target", target=505, max_hands=7)
    assert (rules.mode, rules.target, rules.max_hands) == ("target", 505, 7)
    assert rules_from_options("burraco", seats=2).max_hands == 50
    with pytest.raises(ValueError, match="--max-hands is a Burraco option, not a Three-Thirteen"):
        rules_from_options("three-thirteen", seats=2, max_hands=7)


def test_simulate_stops_a_target_game_after_max_hands(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        [
            "simulate",
            "--game",
            "burraco",
            "--bots",
            "random,random",
            "--games",
            "1",
            "--mode",
            "target",
            "--target",
            "100000",
            "--max-hands",
            "2",
            "--records",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.output
    (path,) = tmp_path.iterdir()
    state = final_state(loads(path.read_text()))
    assert state.rules.max_hands == 2
    assert state.game_over and len(state.hand_results) == 2
