"""``rummykit hint`` and the hint function the server calls."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rummykit.bots.hints import suggest
from rummykit.cli.app import app
from rummykit.games import burraco, three_thirteen
from rummykit.games.record import dumps, record_of
from rummykit.games.registry import game_named

runner = CliRunner()


def advance(state: object, steps: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        actions = list(state.legal_actions())  # type: ignore[attr-defined]
        state.apply(rng.choice(actions))  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", ["burraco", "three-thirteen"])
def test_hint_suggests_a_legal_move_for_the_player_to_move(game: str, tmp_path: Path) -> None:
    info = game_named(game)
    state = info.new_state(info.rules_type(), 4)
    advance(state, 7, 1)
    path = tmp_path / "r.json"
    path.write_text(dumps(record_of(info, state)))
    mover = state.current_player
    result = runner.invoke(app, ["hint", str(path), "--player", str(mover), "--seconds", "0.2"])
    assert result.exit_code == 0, result.output
    move, _, reason = result.output.strip().partition(" — ")
    assert state.check(info.parse_action(move)) is None
    assert reason
    other = (mover + 1) % state.num_players
    result = runner.invoke(app, ["hint", str(path), "--player", str(other)])
    assert result.exit_code == 0
    assert f"not player {other}'s turn" in result.output


def test_hint_refuses_bad_input(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    assert runner.invoke(app, ["hint", str(bad)]).exit_code == 2
    assert runner.invoke(app, ["hint", str(tmp_path / "missing.json")]).exit_code == 2
    good = tmp_path / "good.json"
    state = burraco.State.new(burraco.Rules(), 1)
    good.write_text(dumps(record_of(burraco.GAME, state)))
    assert runner.invoke(app, ["hint", str(good), "--player", "5"]).exit_code == 2
    assert runner.invoke(app, ["hint", str(good), "--seconds", "0"]).exit_code == 2


def test_suggest_is_within_the_legal_moves() -> None:
    state = three_thirteen.State.new(three_thirteen.Rules(first_round=6, last_round=6), 2)
    advance(state, 1, 0)
    player = state.current_player
    assert player is not None
    actions = list(state.legal_actions())
    decision = suggest("three-thirteen", state.observation(player), actions, seconds=0.1)
    assert decision.action in actions and decision.reason.text
    only = suggest("three-thirteen", state.observation(player), actions[:1])
    assert only.action == actions[0] and "only" in only.reason.text
    with pytest.raises(ValueError):
        suggest("three-thirteen", state.observation(player), [])
