"""Bots from outside the package (``rummykit.sim.entrants``): each in a process of its
own that is sent only its seat's observation, a fresh process every game, and held to
its time a decision: an overrun stops it for the rest of the game, an exception or an
illegal answer costs that one move, every replaced move counted."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from rummykit.bots.levels import BotSpecError
from rummykit.games.core import rules_to_json
from rummykit.games.registry import game_named
from rummykit.sim.entrants import OutsideBot, check_entrant, outside_target
from rummykit.sim.series import GameTask, run_task

BOTS = '''
import gc, json, os, sys, time

from rummykit.bots.base import Decision
from rummykit.bots.reasons import Reason

LOG = os.environ.get("ENTRANT_LOG")


class First:
    name = "first"

    def decide(self, observation, legal, rng):
        return Decision(legal[0], Reason(()))


class Snoop(First):
    """Writes what it was given and every game state it can find in its process."""

    def decide(self, observation, legal, rng):
        states = [o for o in gc.get_objects() if type(o).__name__ == "State"
                  and hasattr(o, "legal_actions")]
        frames, frame = 0, sys._getframe()
        while frame is not None:
            frames += any(type(v).__name__ == "State" for v in frame.f_locals.values())
            frame = frame.f_back
        with open(LOG, "a", encoding="utf-8") as log:
            log.write(json.dumps({"pid": os.getpid(), "states": len(states), "frames": frames,
                                  "observation": observation.to_json()}) + "\\n")
        return super().decide(observation, legal, rng)


class Sleeper(First):
    def decide(self, observation, legal, rng):
        if len(legal) > 2:
            time.sleep(30)
        return super().decide(observation, legal, rng)


class Raiser(First):
    def decide(self, observation, legal, rng):
        raise RuntimeError("no idea")


class Cheat(First):
    def decide(self, observation, legal, rng):
        from rummykit.games.three_thirteen import GAME

        return Decision(GAME.parse_action("discard Jk"), Reason(()))


def first(game): return First()
def snoop(game): return Snoop()
def sleeper(game): return Sleeper()
def raiser(game): return Raiser()
def cheat(game): return Cheat()
def broken(game): raise ValueError("cannot make it")
'''


@pytest.fixture
def outside_bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A module of outside bots in a directory on the import path; the log a snooping
    bot writes."""
    (tmp_path / "outside_bots.py").write_text(textwrap.dedent(BOTS), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    log = tmp_path / "snoop.jsonl"
    monkeypatch.setenv("ENTRANT_LOG", str(log))
    return log


def _task(entries: tuple[str, ...], seed: int, *, time_limit: float = 5.0) -> GameTask:
    info = game_named("three-thirteen")
    rules = info.rules_type(first_round=3, last_round=4)
    return GameTask(
        index=0,
        game=info.name,
        rules=rules_to_json(rules),
        entries=entries,
        seed=seed,
        seating=(0, 1),
        unit=0,
        keep_record=True,
        time_limit=time_limit,
    )


def test_outside_specs_are_told_from_the_levels() -> None:
    assert outside_target("outside_bots:first") == "outside_bots:first"
    assert outside_target("pkg.mod:make.bot") == "pkg.mod:make.bot"
    assert outside_target("ismcts:iterations=5") is None
    assert outside_target("greedy") is None
    assert outside_target("no such entry point") is None


def test_the_bot_is_sent_exactly_its_seats_observation_in_a_process_without_a_state(
    outside_bots: Path,
) -> None:
    pids = set()
    for seed in (11, 12):
        outside_bots.unlink(missing_ok=True)
        result = run_task(_task(("outside_bots:snoop", "greedy"), seed))
        assert result.faults[0] == {
            "overrun": 0,
            "crash": 0,
            "error": 0,
            "illegal": 0,
            "stopped": 0,
        }
        seen = [json.loads(line) for line in outside_bots.read_text().splitlines()]
        assert len(seen) == result.decisions[0] > 5
        assert all(entry["states"] == 0 and entry["frames"] == 0 for entry in seen)
        # what it saw is the engine's observation of seat 0 at each of its decisions
        assert result.record is not None
        info = game_named("three-thirteen")
        state = info.new_state(result.record.rules, seed)
        expected = []
        for text in result.record.actions:
            if state.current_player == 0 and len(list(state.legal_actions())) > 1:
                expected.append(state.observation(0).to_json())
            state.apply(info.parse_action(text))
        assert [entry["observation"] for entry in seen] == json.loads(json.dumps(expected))
        game_pids = {entry["pid"] for entry in seen}
        assert len(game_pids) == 1  # one process a game...
        pids |= game_pids
    assert len(pids) == 2  # ... and a new one for the next game


def test_a_bot_that_overruns_is_stopped_and_the_fallback_plays_the_rest_of_its_game(
    outside_bots: Path,
) -> None:
    result = run_task(_task(("outside_bots:sleeper", "greedy"), 5, time_limit=0.5))
    faults = result.faults[0]
    assert faults["overrun"] == 1
    assert faults["stopped"] > 0
    assert faults["overrun"] + faults["stopped"] < result.decisions[0]  # it played before
    assert result.faults[1] == {}
    assert result.record is not None and len(result.record.totals) == 2  # the game ended


@pytest.mark.parametrize(("factory", "kind"), [("raiser", "error"), ("cheat", "illegal")])
def test_a_bot_that_raises_or_cheats_loses_each_such_move_to_the_fallback(
    outside_bots: Path, factory: str, kind: str
) -> None:
    result = run_task(_task((f"outside_bots:{factory}", "greedy"), 5))
    faults = result.faults[0]
    assert faults[kind] == result.decisions[0] > 0
    assert sum(faults.values()) == faults[kind]


def test_a_bot_that_cannot_be_made_is_refused_before_any_game(outside_bots: Path) -> None:
    with pytest.raises(BotSpecError, match="cannot make it"):
        check_entrant("outside_bots:broken", "burraco")
    with pytest.raises(BotSpecError, match="ModuleNotFoundError"):
        check_entrant("no_such_module_here:make", "burraco")
    assert check_entrant("outside_bots:first", "burraco") == "outside_bots:first"


def test_a_bot_whose_process_never_starts_gives_its_moves_to_the_fallback(
    outside_bots: Path,
) -> None:
    bot = OutsideBot("outside_bots:broken", "three-thirteen")
    result = run_task(_task(("outside_bots:broken", "random"), 3))
    assert result.faults[0]["crash"] == 1
    assert result.faults[0]["stopped"] == result.decisions[0] - 1
    bot.close()


def test_an_entry_point_names_an_installed_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "entered_bot.py").write_text(textwrap.dedent(BOTS), encoding="utf-8")
    dist = tmp_path / "entered_bot-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: entered-bot\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[rummykit.bots]\nfirst-legal = entered_bot:first\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert outside_target("first-legal") is None  # not an identifier: a bad name
    (dist / "entry_points.txt").write_text("[rummykit.bots]\nfirst_legal = entered_bot:first\n")
    assert outside_target("first_legal") == "entry:first_legal"
    result = run_task(_task(("first_legal", "random"), 8))
    assert sum(result.faults[0].values()) == 0 and result.decisions[0] > 0
