"""``rummykit play`` and ``rummykit replay`` driven as a person would."""

from __future__ import annotations

import fnmatch
import io
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

import rummykit
from rummykit.bots.levels import make_bot
from rummykit.cli import views
from rummykit.cli.app import app
from rummykit.cli.numbering import engine_to_shown
from rummykit.cli.plain import PlainFront
from rummykit.cli.replay import run as run_replay
from rummykit.cli.session import Session
from rummykit.cli.text import plural
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
        ("burraco", {"players": 4}),
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
            shown = engine_to_shown(typer_rng.choice(actions), session.scene().numbers)
            text = info.format_action(shown)
        typed.append(text)
        return text

    output = run(session, person)
    assert session.state.game_over
    assert "Game over" in output
    if rules.get("players") == 4:  # each team once, by its partners' names
        game_over = output[output.index("Game over") :]
        assert "Totals: P0 and P2: " in game_over and " · P1 and P3: " in game_over
        assert game_over.count("P0") == 1 + ("P0 and P2 win" in game_over)
    assert "Not allowed" in output or "is not a card" in output
    assert "you have no meld" not in output  # every extend typed as the screen numbers it
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
    assert data["game"] == "three-thirteen" and data["seed"] == "5"


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


@pytest.mark.parametrize(
    "arguments",
    [
        ["play", "three-thirteen", "--jokers", "1"],
        ["play", "burraco", "--jokers", "0"],
        ["play", "three-thirteen", "--first-round", "5", "--last-round", "4"],
        ["play", "burraco", "--last-round", "4"],
    ],
)
def test_bad_rule_options_are_explained(arguments: list[str], tmp_path: Path) -> None:
    result = runner.invoke(app, [*arguments, "--record", str(tmp_path / "r.json")], input="")
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "r.json").exists()


def test_jokers_in_three_thirteen_and_burraco(tmp_path: Path) -> None:
    for game, jokers, expected in [("three-thirteen", "2", True), ("burraco", "4", 4)]:
        path = tmp_path / f"{game}.json"
        result = runner.invoke(
            app, ["play", game, "--jokers", jokers, "--record", str(path)], input="quit\n"
        )
        assert result.exit_code == 0, result.output
        assert json.loads(path.read_text())["rules"]["jokers"] == expected


def test_an_unwritable_record_is_refused_before_the_first_move(tmp_path: Path) -> None:
    (tmp_path / "file.txt").write_text("")
    for place in [tmp_path / "no" / "such" / "folder" / "r.json", tmp_path / "file.txt" / "r"]:
        result = runner.invoke(
            app, ["play", "burraco", "--seed", "1", "--record", str(place)], input="draw\n"
        )
        assert result.exit_code == 2, result.output
        assert "cannot write the record" in " ".join(result.output.split())
        assert "Your move" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt"]


def test_a_record_folder_gets_the_usual_name(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["play", "burraco", "--seed", "1", "--record", str(tmp_path)], input="quit\n"
    )
    assert result.exit_code == 0, result.output
    assert [p.name for p in tmp_path.iterdir()] == ["rummykit-burraco-1.json"]


def test_the_same_seed_twice_keeps_both_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for _ in range(3):
        result = runner.invoke(app, ["play", "burraco", "--seed", "9"], input="draw\nquit\n")
        assert result.exit_code == 0, result.output
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [
        "rummykit-burraco-9-2.json",
        "rummykit-burraco-9-3.json",
        "rummykit-burraco-9.json",
    ]
    for name in names:
        loads((tmp_path / name).read_text())
    explicit = tmp_path / "mine.json"
    for _ in range(2):
        runner.invoke(
            app, ["play", "burraco", "--seed", "9", "--record", str(explicit)], input="quit\n"
        )
    assert explicit.exists() and (tmp_path / "mine-2.json").exists()


def test_the_gitignore_matches_the_record_names() -> None:
    root = Path(__file__).resolve().parents[2]
    patterns = [
        line for line in (root / ".gitignore").read_text().splitlines() if "rummykit-" in line
    ]
    for name in ["rummykit-burraco-7.json", "rummykit-three-thirteen-12-2.json"]:
        assert any(fnmatch.fnmatch(name, pattern) for pattern in patterns), name


def test_words_for_one_and_for_you() -> None:
    names = ["You", "Computer 1", "Computer 2", "Computer 3"]
    assert views.game_over_line([0], [5, 10, 20, 30], names).startswith(
        "[bold]Game over[/]: You win."
    )
    assert "Computer 1 wins." in views.game_over_line([1], [5, 0, 20, 30], names)
    assert "You and Computer 1 win" in views.game_over_line([0, 1], [5, 5, 20, 30], names)
    assert views.totals_line([12, 0, 7, 3], names) == (
        "Totals: You: 12 · Computer 1: 0 · Computer 2: 7 · Computer 3: 3"
    )
    assert plural(1, "card") == "1 card" and plural(0, "card") == "0 cards"


def test_plain_output_says_one_card(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        [
            "play",
            "three-thirteen",
            "--players",
            "3",
            "--seed",
            "2",
            "--record",
            str(tmp_path / "r.json"),
        ],
        input="quit\n",
    )
    assert "1 cards" not in result.output and "You wins" not in result.output
    assert re.search(r"Computer 1: \d+ cards", result.output)


def test_help_pages_have_no_type_tags(tmp_path: Path) -> None:
    for command in [[], ["play"], ["simulate"], ["hint"], ["replay"], ["rules"]]:
        result = runner.invoke(app, [*command, "--help"])
        assert result.exit_code == 0, result.output
        assert not re.search(r"<(int|str|bool|float|path)>", result.output), result.output
        assert "{" not in result.output
        assert "Usage: rummykit" in result.output
        assert all(len(line) <= 80 for line in result.output.splitlines())
    page = runner.invoke(app, ["play", "--help"]).output
    assert "Usage: rummykit play [OPTIONS] GAME" in page
    jokers = " ".join(page[page.index("--jokers") : page.index("--one-set-per-rank")].split())
    assert "Burraco: jokers in the deck: 2 (106 cards) or 4 (default 2)" in jokers
    assert "Three-Thirteen: 2 jokers in each deck (default 0)" in jokers
    assert "[default" not in jokers


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"rummykit {rummykit.__version__}"


@pytest.mark.parametrize(
    ("game", "rules", "expected"),
    [
        ("burraco", {}, ["Rules: jokers 2", "Hand 1 · dealer P", "pozzetto 1:", "discard pile:"]),
        (
            "three-thirteen",
            {"players": 3, "first_round": 10, "last_round": 11},
            ["Rules: players 3", "Round 10 · wild rank Q", "Round 11 · wild rank K", "Totals:"],
        ),
    ],
)
def test_replay_shows_deals_round_headers_and_rules(
    game: str, rules: dict[str, Any], expected: list[str], tmp_path: Path
) -> None:
    info = game_named(game)
    session = make_session(game, info.rules_type(**rules), 11, tmp_path)
    rng = random.Random(2)
    run(
        session,
        lambda prompt: info.format_action(
            engine_to_shown(
                rng.choice(list(session.state.legal_actions())), session.scene().numbers
            )
        ),
    )
    console = quiet_console()
    assert run_replay(tmp_path / "game.json", console) == 0
    told = console.file.getvalue()  # type: ignore[attr-defined]
    for text in expected:
        assert text in told, text
    assert "Game over" in told
    if game == "burraco":
        assert re.search(r"takes the pile: \S\S", told)
        taken = session.state.hand_results[-1]
        assert ("takes a pozzetto" in told) == any(
            type(e).__name__ == "PozzettoTaken" for e in session.state.events
        ), taken


def test_four_players_at_the_terminal_see_their_team(tmp_path: Path) -> None:
    path = tmp_path / "four.json"
    result = runner.invoke(
        app,
        ["play", "burraco", "--players", "4", "--seed", "7", "--plain", "--record", str(path)],
        input="draw\nmeld 7h 8h 9h\ndiscard 4c\ndraw\nquit\n",
    )
    assert result.exit_code == 0, result.output
    output = result.output
    assert "To play: You · then West, Partner, East" in output
    assert "West and East: pozzetto not taken" in output
    assert "Partner: 11 cards" in output
    assert "Your team's melds: 1: 7h 8h 9h" in output
    # the partner melded Tc Tc Ts after the person: the team's second meld
    assert "Partner melds Tc Tc Ts as meld 2" in output
    assert "Your team's melds: 1: 7h 8h 9h   2: Tc Tc Ts" in output
    record = loads(path.read_text())
    assert record.players == ("You", "West", "Partner", "East")
    assert record.actions[2:5] == ("draw", "meld 7h 8h 9h", "discard 4c")  # East first


def test_a_hand_of_four_is_scored_by_team() -> None:
    from rummykit.games.burraco import Rules, State
    from rummykit.games.burraco.results import HandResult

    state = State.new(Rules(players=4), 7)
    names = ["You", "West", "Partner", "East"]
    assert views.team_names(names) == ["You and Partner", "West and East"]
    assert views.team_names(["You", "Computer"]) == ["You", "Computer"]
    assert "To play:" in views.turn_order_line(state.observation(0), names)
    breakdown = state.observation(0).hand_results
    assert breakdown == ()
    from rummykit.games.burraco.scoring import score_hand

    scores = (score_hand(melds=[], hand=[], took_pozzetto=True, closed=False),) * 2
    result = HandResult(
        hand_number=0,
        dealer=3,
        reason="closed",
        closer=2,
        scores=(scores[0].total, scores[1].total),
        breakdown=scores,
        totals=(scores[0].total, scores[1].total),
        melds=((), ()),
    )
    lines = views.burraco_hand_result(result, names)
    assert "Partner closed" in lines[0]
    assert lines[1].lstrip().startswith("You and Partner:")
    assert lines[2].lstrip().startswith("West and East:")
    assert lines[3].startswith("Totals: You and Partner: ")
    assert views.burraco_game_over_line([0, 2], [40, 10, 40, 10], names) == (
        "[bold]Game over[/]: You and Partner win. Totals: You and Partner: 40 · West and East: 10."
    )
    assert "a draw" in views.burraco_game_over_line([0, 1, 2, 3], [9, 9, 9, 9], names)
