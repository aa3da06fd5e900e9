"""The revealed seed travels as decimal text: in ``game_over``, in the record the server
serves and in saved records; readers still take the JSON number older records hold.

A seed reaches 2**63 - 1, past what a JavaScript number keeps exactly, so a browser that
parsed it as a number would hash the wrong text and call a fair deal unfair.  The games
here are dealt from the largest seed (the secret deal is replaced) on SQLite and on
PostgreSQL, whose BIGINT column must give it back exactly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError
from typer.testing import CliRunner

from rummykit.cli.app import app as cli
from rummykit.games.randomness import MAX_SEED
from rummykit.games.record import FORMAT_VERSION, RecordError, loads
from rummykit.server.protocol.messages import GameOverMessage, json_schema, parse_server_message
from rummykit.server.settings import Settings
from rummykit.server.table import committed_deal
from tests.kit.apps import OpenClient
from tests.kit.players import guest
from tests.kit.scripted import play_to_end

NONCE = "5e" * 16
JS_SAFE = 2**53 - 1


@pytest.fixture
def client(
    settings: Settings, open_client: OpenClient, monkeypatch: pytest.MonkeyPatch
) -> TestClient:
    """A server, on either kind of database, whose every table is dealt from the largest
    seed."""
    monkeypatch.setattr(
        committed_deal, "draw_secret_deal", lambda: committed_deal.SecretDeal(MAX_SEED, NONCE)
    )
    return open_client(settings, clock=None)


def _short_game(client: TestClient) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """One round of Three-Thirteen against a bot: the creation, game_over and the record."""
    guest(client)
    created = client.post(
        "/api/tables",
        json={
            "game": "three-thirteen",
            "rules": {"last_round": 1},
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}],
        },
    ).json()
    with client.websocket_connect(created["ws_url"]) as ws:
        over = play_to_end(ws)[-1]
    record = client.get(f"/api/tables/{created['table_id']}/record").json()
    return created, over, record


def test_the_seed_is_decimal_text_in_game_over_and_the_record(
    client: TestClient, tmp_path: Path
) -> None:
    created, over, record = _short_game(client)
    assert MAX_SEED > JS_SAFE
    assert over["type"] == "game_over" and over["seed"] == str(MAX_SEED)
    assert record["seed"] == str(MAX_SEED) and record["format_version"] == FORMAT_VERSION
    assert over["nonce"] == record["nonce"] == NONCE
    # the commitment hashes exactly this text
    assert committed_deal.commitment_of(int(over["seed"]), over["nonce"]) == created["commitment"]
    assert loads(json.dumps(record)).seed == MAX_SEED


def test_verify_and_replay_take_the_seed_as_text_and_as_a_number(
    client: TestClient, tmp_path: Path
) -> None:
    created, _, record = _short_game(client)
    old_style = dict(record, format_version=1, seed=int(record["seed"]))
    runner = CliRunner()
    for name, data in (("new.json", record), ("old.json", old_style)):
        path = tmp_path / name
        path.write_text(json.dumps(data))
        verified = runner.invoke(cli, ["verify", str(path)])
        assert verified.exit_code == 0, verified.output
        assert f"seed {MAX_SEED}" in verified.output and created["commitment"] in verified.output
        replayed = runner.invoke(cli, ["replay", str(path)])
        assert replayed.exit_code == 0, replayed.output
        assert f"seed {MAX_SEED}" in replayed.output
    # the seed a JavaScript number would round it to, and one off by one, are caught
    for wrong in (str(int(float(MAX_SEED))), str(MAX_SEED - 1)):
        path = tmp_path / "wrong.json"
        path.write_text(json.dumps(dict(record, seed=wrong)))
        refused = runner.invoke(cli, ["verify", str(path)])
        assert refused.exit_code == 1 and "NOT verified" in refused.output, wrong


@pytest.mark.parametrize(
    "seed", ["", "-1", "+5", "007", " 7", "7 ", "1e3", "٣", str(MAX_SEED + 1), "9" * 40, 1.5, True]
)
def test_a_record_seed_that_is_not_a_canonical_decimal_is_refused(seed: object) -> None:
    from rummykit.games.burraco import GAME, Rules
    from rummykit.games.record import GameRecord

    record = GameRecord(game=GAME.name, rules=Rules(), seed=1, actions=(), totals=(0, 0))
    data = dict(record.to_json(), seed=seed)
    with pytest.raises(RecordError, match="seed"):
        loads(json.dumps(data))


def test_the_game_over_model_writes_the_seed_as_text_and_reads_both() -> None:
    fields = {
        "type": "game_over",
        "table_id": "t",
        "totals": [3, 9],
        "winners": [0],
        "ended_by": None,
        "nonce": NONCE,
        "commitment": "c",
        "record_url": "/api/tables/t/record",
    }
    built = GameOverMessage(  # as the table host builds it, from its int
        table_id="t",
        totals=[3, 9],
        winners=[0],
        seed=MAX_SEED,
        nonce=NONCE,
        commitment="c",
        record_url="/api/tables/t/record",
    )
    assert json.loads(built.model_dump_json()) == dict(fields, seed=str(MAX_SEED))
    assert built.model_dump()["seed"] == str(MAX_SEED)
    for sent in (str(MAX_SEED), MAX_SEED, "0", 0):
        parsed = parse_server_message(dict(fields, seed=sent))
        assert isinstance(parsed, GameOverMessage) and parsed.seed == int(sent)
    # a tournament round's shared deal: no seed until every table of the round is over
    held = parse_server_message(dict(fields, seed=None, nonce=None))
    assert isinstance(held, GameOverMessage) and held.seed is None and held.nonce is None
    for bad in ("07", "-3", "+3", "x", "", 1.0, True, -1, str(MAX_SEED + 1), "9" * 20):
        with pytest.raises(ValidationError):
            parse_server_message(dict(fields, seed=bad))
    published = json_schema()["server"]["$defs"]["GameOverMessage"]["properties"]["seed"]
    text, held_back = published["anyOf"]
    assert text["type"] == "string" and text["pattern"] == "^(0|[1-9][0-9]{0,18})$"
    assert held_back == {"type": "null"}
