"""Every command of the README runs as written.

The README's code blocks are read here: each ``rummykit`` command is run (``play`` is
answered with ``quit``; ``simulate`` plays one deal, with searching bots at a fiftieth
of a second a decision, so the test stays short), each example script is run (the
training example trains for two seconds and measures on two deals), each
``$ command`` transcript must print what the README shows, and the Python example is
run.  What is not run is listed
in ``NOT_RUN`` with the reason, so a new command must be added here one way or the other.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
NOT_RUN = {
    # The test command itself: it runs this test.
    "pip install -e '.[test]' && npm ci && ruff check . && ruff format --check . && mypy"
    " && npm run check && npm test && pytest -n 4",
    # The quick part of it (tests/test_markers.py checks the markers it names).
    'pytest -n 2 -m "not browser and not postgres and not slow"',
    # Speed and strength measurements: minutes to hours of CPU, run by hand.
    "python benchmarks/run_all.py",
    # Installing an extra: the test environment has every extra installed already.
    "pip install 'rummykit[envs]'",
    # The server runs until stopped: tests/server/storage/test_recovery_process.py runs it.
    "pip install . && rummykit serve",
    # A finished game's record fetched from a server: tests/server/table/test_play.py runs both.
    "rummykit verify game.json",
    "rummykit replay game.json",
}
# Arguments that keep an example script short (appended; the script's own defaults
# are what the README runs).
SHORT = {"examples/train_three_thirteen.py": ["--seconds", "2", "--games", "2"]}


def code_blocks() -> list[tuple[str, list[str]]]:
    """(language, lines) of each fenced block of the README."""
    blocks: list[tuple[str, list[str]]] = []
    language: str | None = None
    lines: list[str] = []
    for line in README.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            if language is None:
                language, lines = line[3:].strip(), []
            else:
                blocks.append((language, lines))
                language = None
        elif language is not None:
            lines.append(line)
    return blocks


def commands() -> list[str]:
    """The command lines of the README's shell blocks (comments dropped)."""
    found = []
    for language, lines in code_blocks():
        if language:
            continue
        for line in lines:
            if line.startswith(("rummykit ", "pip ", "python ", "pytest ")):
                found.append(line.split("  #")[0].strip())
            elif line.startswith("$ "):
                continue  # a transcript, see transcripts()
            else:
                assert not line.strip() or line.startswith("{"), f"unknown README line {line!r}"
    return found


def transcripts() -> list[tuple[str, list[str]]]:
    """``$ command`` lines and the output the README shows after each."""
    found: list[tuple[str, list[str]]] = []
    for language, lines in code_blocks():
        if language:
            continue
        for line in lines:
            if line.startswith("$ "):
                found.append((line[2:], []))
            elif found and not line.startswith(("rummykit ", "pip ", "python ")):
                found[-1][1].append(line)
    return found


def environment() -> dict[str, str]:
    """The environment with this interpreter's scripts (``rummykit``) first on PATH."""
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env.pop("COLUMNS", None)
    return env


def bounded(words: list[str]) -> list[str]:
    """``simulate`` made short: one deal, searching bots at 0.02 s a decision."""
    if words[:2] != ["rummykit", "simulate"]:
        return words
    out = []
    for index, word in enumerate(words):
        given = "1" if index and words[index - 1] == "--games" else word
        out.append(re.sub(r"seconds=[0-9.]+", "seconds=0.02", given))
    return out


def run_command(line: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    parts = [part.strip() for part in line.split("&&")]
    for part in parts[:-1]:  # only installation steps may come before
        assert part.startswith("pip install"), line
    words = shlex.split(parts[-1])
    if words[0] == "python":
        script = words[1]
        assert script.startswith("examples/"), line
        words = [sys.executable, str(ROOT / script), *words[2:], *SHORT.get(script, [])]
    else:
        assert words[0] == "rummykit", line
        words = bounded(words)
    return subprocess.run(
        words,
        input="quit\n" if words[1] == "play" else "",
        capture_output=True,
        text=True,
        cwd=cwd,
        env=environment(),
        timeout=300,
        check=False,
    )


def test_the_readme_has_commands_to_run() -> None:
    lines = commands()
    assert set(lines) >= NOT_RUN, NOT_RUN - set(lines)
    assert sum(line.startswith("rummykit play") for line in lines) >= 4
    assert any("hint" in line for line in lines)
    assert len(transcripts()) >= 2


@pytest.mark.parametrize("line", [c for c in commands() if c not in NOT_RUN])
def test_each_readme_command_runs(line: str, tmp_path: Path) -> None:
    if " hint " in f" {line} ":
        # The hint example reads game.json: a game saved after one move.
        made = subprocess.run(
            ["rummykit", "play", "burraco", "--seed", "3", "--record", "game.json"],
            input="draw\nquit\n",
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env=environment(),
            timeout=120,
            check=False,
        )
        assert made.returncode == 0, made.stdout + made.stderr
    done = run_command(line, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    if "rummykit play" in line:
        assert "Record saved to" in done.stdout
        assert len(list(tmp_path.glob("*.json"))) == 1
    if "--json" in line:
        assert (tmp_path / "out.json").exists()


@pytest.mark.parametrize(("command", "expected"), transcripts())
def test_each_readme_transcript_prints_what_it_shows(
    command: str, expected: list[str], tmp_path: Path
) -> None:
    done = subprocess.run(
        ["bash", "-c", command],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=environment(),
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == expected


def test_the_readme_python_example_runs(tmp_path: Path) -> None:
    (code,) = [lines for language, lines in code_blocks() if language == "python"]
    done = subprocess.run(
        [sys.executable, "-c", "\n".join(code)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
