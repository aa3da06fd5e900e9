"""``rummykit play`` and ``rummykit replay`` driven as a person would."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from rummykit.bots.registry import make_bot
from rummykit.cli.app import app
from rummykit.cli.plain import PlainFront
from rummykit.cli.replay import run as run_replay
from rummykit.cli.session import Session
from rummykit.games.record import loads
from rummykit.games.registry import game_named

runner = CliRunner()


def quiet_console() -> Console:
    return Console(file=io.StringIO(), width=120, highlight=False)


class Typist:
    """Stands in for the person: answers each prompt with ``self.answer(prompt)``."""

    def __init__(self) -> None:
        self.answer: Any = None

    def __call__(self, prompt: str) -> str:
        return str(self.answer(prompt))


def make_session(game: str, rules: Any, seed: int, tmp_path: Path) -> Session:
    info = game_named(game)
    state = info.new_state(rules, seed)
    names = [f"P{p}" for p in range(state.num_players)]
    return Session(
        game=info,
        state=state,
        seat=0,
        names=names,
        bots={p: make_bot(game, "greedy") for p in range(1, state.num_players)},
        rng=random.Random(seed),
        front=PlainFront(quiet_console(), Typist()),
        record_path=tmp_path / "game.json",
    )


def run(session: Session, answer: Any) -> str:
    """Run ``session`` with ``answer`` typing; everything printed, closing lines too."""
    front = session.front
    assert isinstance(front, PlainFront) and isinstance(front.read, Typist)
    front.read.answer = answer
    for line in session.run():
        front.console.print(line)
    return front.console.file.getvalue()  # type: ignore[attr-defined,no-any-return]


@pytest.mark.parametrize(
    ("game", "rules"),
    [
        ("burraco", {}),
        ("three-thirteen", {"players": 3, "first_round": 9, "last_round": 11}),
    ],
)
def test_a_whole_game_typed_move_by_move(game: str, rules: dict[str, Any], tmp_path: Path) -> None:
    info = game_named(game)
    session = make_session(game, info.rules_type(**rules), 11, tmp_path)
    typer_rng = random.Random(4)
    typed: list[str] = []

    def person(prompt: str) -> str:
        # Now and then a typo or an illegal move, which must be explained, not applied.
        roll = typer_rng.random()
        if roll < 0.05:
            text = "meld Zz 3h"
        elif roll < 0.10:
            text = "discard " + ("Jk" if game == "three-thirteen" else "Ah")
        elif roll < 0.12:
            text = "moves"
        else:
            actions = list(session.state.legal_actions())
            text = info.format_action(typer_rng.choice(actions))
        typed.append(text)
        return text

    output = run(session, person)
    assert session.state.game_over
    assert "Game over" in output
    assert "Not allowed" in output or "is not a card" in output
    record = loads((tmp_path / "game.json").read_text())
    assert record.totals == tuple(session.state.totals)
    assert len(record.actions) == len(session.state.actions)


def test_leaving_saves_a_record_that_replays(tmp_path: Path) -> None:
    session = make_session("burraco", game_named("burraco").rules_type(), 3, tmp_path)
    answers = iter(["draw" if session.state.current_player == 0 else "take", "quit"])
    run(session, lambda prompt: next(answers))
    record = loads((tmp_path / "game.json").read_text())
    assert not record.actions or record.actions[0] in {"draw", "take"}
    console = quiet_console()
    assert run_replay(tmp_path / "game.json", console) == 0
    assert "ends before the game is over" in console.file.getvalue()  # type: ignore[attr-defined]


def test_ctrl_c_saves_the_record(tmp_path: Path) -> None:
    session = make_session("three-thirteen", game_named("three-thirteen").rules_type(), 8, tmp_path)

    def interrupted(prompt: str) -> str:
        raise KeyboardInterrupt

    run(session, interrupted)
    assert (tmp_path / "game.json").exists()
    loads((tmp_path / "game.json").read_text())


def test_command_line_plays_and_saves(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    result = runner.invoke(
        app,
        ["play", "three-thirteen", "--seed", "5", "--players", "3", "--record", str(path)],
        input="help\nmoves\nfoo\ndraw\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "Round 1" in result.output and "wild rank" in result.output
    assert "Your legal moves" in result.output
    data = json.loads(path.read_text())
    assert data["game"] == "three-thirteen" and data["seed"] == 5


@pytest.mark.parametrize(
    "arguments",
    [
        ["play", "chess"],
        ["play", "burraco", "--players", "3"],
        ["play", "burraco", "--jokers", "3"],
        ["play", "three-thirteen", "--players", "5"],
        ["play", "burraco", "--bot", "genius"],
        ["play", "burraco", "--seed", "-4"],
    ],
)
def test_bad_options_are_explained(arguments: list[str]) -> None:
    result = runner.invoke(app, arguments, input="quit\n")
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_replay_refuses_bad_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    for text in ["{", "[]", json.dumps({"format": "rummykit-record", "format_version": 1})]:
        bad.write_text(text)
        console = quiet_console()
        assert run_replay(bad, console) == 2
        assert "not a valid record" in console.file.getvalue()  # type: ignore[attr-defined]
    assert run_replay(tmp_path / "missing.json", quiet_console()) == 2
