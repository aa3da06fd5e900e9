"""What ``rummykit --help``, ``play`` and ``rules`` load: only what each one runs.

These commands must start fast (``benchmarks/startup.py`` measures them; the figures are
in the README's Benchmarks table).  Their time goes into imports, so these tests hold
the design rather than a time: each command runs in a fresh interpreter, and the modules
it imported are read from ``sys.modules`` once it has finished.  The server stack, the
research environments, the simulator and Pydantic (which Typer 0.29 imports for every
option, hence the pin in pyproject.toml) belong to other commands; ``--help`` loads
neither the engine nor Rich; a game, or a rules request, for one game loads nothing of
the other.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

RUN_AND_LIST_MODULES = """
import json, sys
from rummykit.cli.app import app
try:
    app(sys.argv[2:], prog_name="rummykit")
except SystemExit as stop:
    if stop.code not in (None, 0):
        raise
with open(sys.argv[1], "w", encoding="utf-8") as out:
    json.dump(sorted(sys.modules), out)
"""

OTHER_COMMANDS = (
    "fastapi",
    "starlette",
    "uvicorn",
    "sqlalchemy",
    "alembic",
    "pydantic",
    "pydantic_core",
    "asyncio",
    "numpy",
    "gymnasium",
    "pettingzoo",
    "multiprocessing",
    "concurrent",
    "rummykit.server",
    "rummykit.envs",
    "rummykit.sim",
    "openskill",
    "rummykit.rating",
)
"""Packages the commands measured here never need (``serve``, ``db``, ``verify``,
``simulate``, ``ladder`` and the research environments load them)."""

BURRACO_MELD = '{"game":"burraco","op":"meld","cards":["2h","3h","4h"]}\n'
THREE_THIRTEEN_ARRANGE = (
    '{"game":"three-thirteen","op":"arrange","round":6,'
    '"cards":["Ah","2h","4h","5h","7h","8h","Th","Tc"]}\n'
)


def loaded_modules(tmp_path: Path, args: list[str], stdin: str = "") -> tuple[set[str], str]:
    """The modules ``rummykit ARGS`` imported, run in a fresh interpreter, and its output."""
    listing = tmp_path / "modules.json"
    done = subprocess.run(
        [sys.executable, "-c", RUN_AND_LIST_MODULES, str(listing), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(listing.read_text(encoding="utf-8"))), done.stdout


def within(modules: set[str], package: str) -> list[str]:
    """The modules that are ``package`` or inside it."""
    return sorted(name for name in modules if name == package or name.startswith(package + "."))


def assert_none_of(modules: set[str], packages: tuple[str, ...]) -> None:
    loaded = {package: within(modules, package)[:3] for package in packages}
    assert not any(loaded.values()), {k: v for k, v in loaded.items() if v}


def test_help_loads_no_engine_bots_rich_or_server(tmp_path: Path) -> None:
    modules, output = loaded_modules(tmp_path, ["--help"])
    assert "Commands" in output and "play" in output
    assert_none_of(
        modules, (*OTHER_COMMANDS, "rich", "rummykit.games", "rummykit.cards", "rummykit.bots.base")
    )


@pytest.mark.parametrize(
    ("request_line", "answer", "other_game"),
    [
        (BURRACO_MELD, '"kind": "run"', "rummykit.games.three_thirteen"),
        (THREE_THIRTEEN_ARRANGE, '"deadwood": 19', "rummykit.games.burraco"),
    ],
    ids=["burraco", "three-thirteen"],
)
def test_rules_loads_the_requested_game_only(
    tmp_path: Path, request_line: str, answer: str, other_game: str
) -> None:
    modules, output = loaded_modules(tmp_path, ["rules"], request_line)
    assert answer in output
    assert_none_of(modules, (*OTHER_COMMANDS, "rich", "rummykit.bots.base", other_game))


@pytest.mark.parametrize(
    ("game", "other_game"),
    [("burraco", "three_thirteen"), ("three-thirteen", "burraco")],
)
def test_play_loads_its_game_only(tmp_path: Path, game: str, other_game: str) -> None:
    args = ["play", game, "--seed", "1", "--record", str(tmp_path), "--plain"]
    modules, output = loaded_modules(tmp_path, args, "quit\n")
    assert "Record saved" in output
    assert within(modules, "rich") and within(modules, "rummykit.bots.base")
    assert_none_of(
        modules,
        (*OTHER_COMMANDS, f"rummykit.games.{other_game}", f"rummykit.bots.{other_game}"),
    )


def test_the_listing_sees_a_lazy_import_once_it_runs(tmp_path: Path) -> None:
    """The check can fail: a command that does need the simulator is seen loading it."""
    args = ["simulate", "--games", "1", "--bots", "random,random"]
    modules, _ = loaded_modules(tmp_path, args)
    assert within(modules, "rummykit.sim") and within(modules, "rich")
