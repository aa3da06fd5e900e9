"""``rummykit verify`` on a record of Burraco for four: the seed's commitment, every
deal of four hands re-dealt and every action replayed; a changed total is caught."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

from rummykit.cli.app import app
from rummykit.games import burraco
from rummykit.games.record import record_of
from rummykit.server.table.committed_deal import commitment_of

runner = CliRunner()
NONCE = "ab" * 16


def server_record(seed: int) -> dict[str, object]:
    """A finished target game of four random players, as the server writes its record."""
    state = burraco.State.new(burraco.Rules(players=4, mode="target", target=505), seed)
    rng = random.Random(seed)
    while not state.game_over:
        state.apply(rng.choice(list(state.legal_actions())))
    data = record_of(burraco.GAME, state, players=("random",) * 4).to_json()
    return {**data, "nonce": NONCE, "commitment": commitment_of(seed, NONCE)}


def test_verify_checks_a_four_player_record(tmp_path: Path) -> None:
    data = server_record(31)
    assert data["rules"]["players"] == 4  # type: ignore[index]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    assert "verified" in result.output and "NOT" not in result.output
    assert f"final totals {data['totals']}" in result.output
    totals = list(data["totals"])  # type: ignore[call-overload]
    assert len(totals) == 4 and totals[0] == totals[2] and totals[1] == totals[3]

    tampered = {**data, "totals": [totals[0] + 10, totals[1], totals[2] + 10, totals[3]]}
    path.write_text(json.dumps(tampered), encoding="utf-8")
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 1 and "NOT verified" in result.output
