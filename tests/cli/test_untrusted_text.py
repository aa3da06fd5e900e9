"""Outside text (names, actions, typed moves, numbers) never breaks the command line.

A record is untrusted input: a player named ``[/]`` or holding terminal escapes, an
action text with markup, numbers past Python's 4,300-digit limit, a file too large to
be a record.  Each gets printed as text or refused with the typed error, never a
traceback, never an escape sequence reaching the terminal.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rummykit.cli import record_files
from rummykit.cli.app import app
from rummykit.cli.text import clean, safe
from rummykit.games import burraco
from rummykit.games.core import NotationError
from rummykit.games.record import RecordError, dumps, loads, record_of
from rummykit.games.registry import game_named

runner = CliRunner()
NASTY = ["[/]", "[bold]x[/bold", "\x1b[2J\x1b]0;title\x07Eve\x9b31m", "a\u202eb"]


def flat(output: str) -> str:
    """The output with line breaks (the console's wrapping) turned into spaces."""
    return " ".join(output.split())


def finished_record(game: str, names: list[str], seed: int = 3) -> str:
    info = game_named(game)
    options = {} if game == "burraco" else {"players": len(names), "last_round": 1}
    state = info.new_state(info.rules_type(**options), seed)
    rng = random.Random(seed)
    while not state.game_over:
        state.apply(rng.choice(list(state.legal_actions())))
    return dumps(record_of(info, state, players=names))


def test_clean_strips_escapes_and_controls() -> None:
    for text in NASTY:
        cleaned = clean(text)
        assert not any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 for ch in cleaned)
        assert "\u202e" not in cleaned
    assert clean("\x1b[2J\x1b]0;title\x07Eve") == "Eve"
    assert safe("[/]") == "\\[/]"


@pytest.mark.parametrize("game", ["burraco", "three-thirteen"])
def test_replay_prints_hostile_names_as_text(game: str, tmp_path: Path) -> None:
    names = NASTY[:2] if game == "burraco" else NASTY[:3]
    path = tmp_path / "r.json"
    path.write_text(finished_record(game, names))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "[/]" in flat(result.output) and "Game over" in flat(result.output)
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert "Traceback" not in flat(result.output)


def test_replay_and_hint_refuse_markup_in_actions(tmp_path: Path) -> None:
    data = json.loads(finished_record("burraco", ["a", "b"]))
    data["actions"][1] = "discard [/]"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    for command in (["replay", str(path)], ["hint", str(path)]):
        result = runner.invoke(app, command)
        assert result.exit_code == 2, result.output
        assert "not a valid record" in flat(result.output) and "[/]" in flat(result.output)


def test_a_file_path_with_markup_is_printed(tmp_path: Path) -> None:
    missing = tmp_path / "[/]missing.json"
    for command in (["replay", str(missing)], ["hint", str(missing)]):
        result = runner.invoke(app, command)
        assert result.exit_code == 2
        assert "cannot read" in flat(result.output)
        assert "[/]missing.json" in "".join(result.output.split())  # wrapped anywhere


@pytest.mark.parametrize("field", ["seed", "seed_text", "format_version", "totals", "meld"])
def test_numbers_past_the_digit_limit_are_record_errors(field: str, tmp_path: Path) -> None:
    text = finished_record("burraco", ["a", "b"])
    huge = "9" * 5000
    if field == "totals":
        text = text.replace('"totals": [\n', f'"totals": [\n  {huge},\n', 1)
    elif field == "meld":
        data = json.loads(text)
        data["actions"][1] = f"extend {huge} 5h"
        text = json.dumps(data)
    elif field == "seed_text":  # the seed as decimal text, as records are written now
        text = re.sub(r'"seed": "\d+"', f'"seed": "{huge}"', text, count=1)
    else:  # a JSON number, as in format version 1
        text = re.sub(rf'"{field}": "?\d+"?', f'"{field}": {huge}', text, count=1)
    assert huge in text
    with pytest.raises(RecordError):
        loads(text)
    path = tmp_path / "r.json"
    path.write_text(text)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2 and "not a valid record" in flat(result.output)
    assert "Traceback" not in flat(result.output)


def test_a_typed_meld_number_past_the_digit_limit_is_a_notation_error() -> None:
    with pytest.raises(NotationError):
        burraco.GAME.parse_action("extend " + "1" * 5000 + " 5h")
    with pytest.raises(NotationError):
        burraco.GAME.parse_action("extend 10001 5h")
    assert burraco.GAME.format_action(burraco.GAME.parse_action("extend 007 5h")) == ("extend 7 5h")


def test_replay_checks_the_size_before_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "big.json"
    path.write_text(" " * 2000)
    monkeypatch.setattr(record_files, "MAX_TEXT", 1000)
    read: list[Path] = []
    monkeypatch.setattr(Path, "open", lambda self, *a, **k: read.append(self))  # never called
    with pytest.raises(record_files.RecordFileError, match="larger than a record"):
        record_files.read_record(path)
    assert not read


@pytest.mark.parametrize("seconds", ["nan", "inf", "-inf", "0", "-1", "1e9"])
def test_hint_seconds_must_be_a_finite_positive_number(seconds: str, tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    state = burraco.State.new(burraco.Rules(), 1)
    path.write_text(dumps(record_of(burraco.GAME, state)))
    result = runner.invoke(app, ["hint", str(path), "--seconds", seconds])
    assert result.exit_code == 2
    assert "--seconds must be" in flat(result.output)
    assert "Traceback" not in flat(result.output)


def test_play_explains_a_typed_move_with_markup(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        ["play", "burraco", "--seed", "4", "--record", str(tmp_path / "g.json")],
        input="discard [/]\nmeld [bold]\nextend 9 [/]\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "'[/]'" in flat(result.output) or "[/]" in flat(result.output)
    assert "Traceback" not in flat(result.output) and "Record saved" in flat(result.output)
