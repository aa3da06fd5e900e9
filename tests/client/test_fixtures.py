"""The client tests' fixtures are what the engine and the server send now.

tests/client/*.test.mjs (``npm test``) test the client's modules on the positions of
tests/client/fixtures/*.json.  Here each position is made again from its fixture's seed,
rules and actions, with the server's own message model and watcher view, and must be the
stored message exactly; the messages must pass the protocol's validation and the
observations the engine's own reader.  So the node tests never run on data the server
would not send.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rummykit.games.core import IllegalAction
from rummykit.games.registry import game_named
from rummykit.server.protocol.messages import StateMessage, parse_server_message

HERE = Path(__file__).resolve().parent


def load_maker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_fixtures", HERE / "make_fixtures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


make_fixtures = load_maker()
FIXTURES = sorted((HERE / "fixtures").glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_there_is_a_fixture_of_each_game() -> None:
    assert [path.stem for path in FIXTURES] == ["burraco", "three-thirteen"]


@pytest.mark.parametrize("path", FIXTURES, ids=lambda path: path.stem)
def test_every_position_is_what_the_server_sends_now(path: Path) -> None:
    data = load(path)
    again = make_fixtures.replayed(data)
    for name, position in data["positions"].items():
        assert again[name] == position["message"], (
            f"{path.name}, position {name!r}: not what the server sends now;"
            " run python tests/client/make_fixtures.py"
        )


@pytest.mark.parametrize("path", FIXTURES, ids=lambda path: path.stem)
def test_every_message_passes_the_protocol_and_the_engine(path: Path) -> None:
    data = load(path)
    game = game_named(data["game"])
    for position in data["positions"].values():
        message = parse_server_message(position["message"])
        assert isinstance(message, StateMessage)
        assert message.game == data["game"]
        if message.seat is None:
            assert message.observation["player"] is None and message.observation["hand"] is None
            continue
        observation = game.observation_from_json(message.observation)
        assert observation.to_json() == message.observation
        for action in message.legal_actions:
            game.parse_action(action)


def test_a_changed_position_is_found() -> None:
    data = load(FIXTURES[0])
    name, position = next(iter(data["positions"].items()))
    position["message"]["observation"]["stock_count"] += 1
    again = make_fixtures.replayed(data)
    assert again[name] != position["message"]


def test_an_illegal_action_in_a_fixture_is_refused() -> None:
    data = load(FIXTURES[0])
    data["actions"][0] = "discard Ah" if data["actions"][0] != "discard Ah" else "discard Kh"
    with pytest.raises(IllegalAction):
        make_fixtures.replayed(data)
