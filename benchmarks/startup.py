"""How fast the ``rummykit`` command starts: ``--help``, the rules service's first answer
and ``rummykit play burraco`` up to its first screen.

python benchmarks/startup.py            # 15 runs of each, interleaved
python benchmarks/startup.py --runs 31

Each figure is the wall time from starting the process to the moment its output is
there: the end of the help page, the rules service's first answer line (its input still
open), and the prompt under the first table of ``play`` on an 80 x 24 pseudo-terminal
(a deal where you play first; then ``quit`` is typed and the record goes to a temporary
folder).  The package is compiled to bytecode first (``compileall``) and each command is
run once before timing, as an installed copy would be.  The commands are run in turn, so
a change of load on the machine touches them alike; the median, the quietest run and the
median CPU time of each are printed, with ``python -c pass`` for scale and the load
average around the runs.
"""

from __future__ import annotations

import argparse
import fcntl
import importlib.util
import os
import pty
import resource
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Callable
from pathlib import Path

RULES_REQUEST = b'{"game":"burraco","op":"meld","cards":["2h","3h","4h"]}\n'
FIRST_SCREEN_PROMPT = b"Your move"
FIRST_TO_PLAY_SEED = "3"
"""A Burraco deal where you play first: the first screen comes before any computer's turn."""
TIMEOUT = 30.0


def rummykit_command() -> list[str]:
    """The installed console script beside this Python, else ``python -m rummykit``."""
    script = Path(sys.executable).with_name("rummykit")
    return [str(script)] if script.exists() else [sys.executable, "-m", "rummykit"]


def child_environment() -> dict[str, str]:
    """This environment, with bytecode allowed and a terminal type for the table."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if env.get("TERM", "dumb") == "dumb":
        env["TERM"] = "xterm-256color"
    for name in ("COLUMNS", "LINES", "NO_COLOR"):
        env.pop(name, None)
    return env


def compile_package(env: dict[str, str]) -> None:
    spec = importlib.util.find_spec("rummykit")
    assert spec is not None and spec.submodule_search_locations is not None
    for folder in spec.submodule_search_locations:
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", folder],
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )


def python_pass(env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], env=env, check=True)
    return time.perf_counter() - started


def help_page(env: dict[str, str]) -> float:
    started = time.perf_counter()
    done = subprocess.run([*rummykit_command(), "--help"], env=env, check=True, capture_output=True)
    elapsed = time.perf_counter() - started
    if b"Commands" not in done.stdout:
        raise RuntimeError(f"unexpected help page: {done.stdout[:200]!r}")
    return elapsed


def rules_first_answer(env: dict[str, str]) -> float:
    started = time.perf_counter()
    service = subprocess.Popen(
        [*rummykit_command(), "rules"],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert service.stdin is not None and service.stdout is not None
    service.stdin.write(RULES_REQUEST)
    service.stdin.flush()
    answer = service.stdout.readline()
    elapsed = time.perf_counter() - started
    service.stdin.close()
    service.wait(TIMEOUT)
    service.stdout.close()
    if not answer.startswith(b'{"ok": true'):
        raise RuntimeError(f"unexpected answer: {answer!r}")
    return elapsed


def play_first_screen(env: dict[str, str]) -> float:
    """Time to the prompt under the first table, on an 80 x 24 pseudo-terminal."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        game = subprocess.Popen(
            [
                *rummykit_command(),
                "play",
                "burraco",
                "--seed",
                FIRST_TO_PLAY_SEED,
                "--record",
                folder,
            ],
            env=env,
            stdin=follower,
            stdout=follower,
            stderr=follower,
            start_new_session=True,
        )
        os.close(follower)
        seen = b""
        elapsed: float | None = None
        deadline = started + TIMEOUT
        while time.perf_counter() < deadline:
            ready, _, _ = select.select([leader], [], [], 0.5)
            if not ready:
                if game.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the game closed the terminal
                break
            if not chunk:
                break
            if elapsed is None:
                seen += chunk
                if FIRST_SCREEN_PROMPT in seen:
                    elapsed = time.perf_counter() - started
                    os.write(leader, b"quit\n")
        game.wait(TIMEOUT)
        os.close(leader)
    if elapsed is None:
        raise RuntimeError(f"no first screen; the output ended with {seen[-300:]!r}")
    return elapsed


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each command")
    runs = parser.parse_args().runs
    env = child_environment()
    compile_package(env)
    measures: dict[str, Callable[[dict[str, str]], float]] = {
        "python -c pass": python_pass,
        "rummykit --help": help_page,
        "rummykit rules, first answer": rules_first_answer,
        "rummykit play burraco, first screen": play_first_screen,
    }
    for measure in measures.values():  # write any missing bytecode of the libraries
        measure(env)
    walls: dict[str, list[float]] = {name: [] for name in measures}
    cpus: dict[str, list[float]] = {name: [] for name in measures}
    load_before = os.getloadavg()[0]
    for _ in range(runs):
        for name, measure in measures.items():
            cpu = children_cpu()
            walls[name].append(measure(env))
            cpus[name].append(children_cpu() - cpu)
    load_after = os.getloadavg()[0]
    print(
        f"{runs} runs each, {os.cpu_count()} CPUs, load average"
        f" {load_before:.2f} before and {load_after:.2f} after; {sys.version.split()[0]}"
    )
    print(f"{'':38s} {'median':>8s} {'quietest':>9s} {'CPU':>8s}")
    for name in measures:
        median = statistics.median(walls[name]) * 1000
        quietest = min(walls[name]) * 1000
        cpu = statistics.median(cpus[name]) * 1000
        print(f"{name:38s} {median:6.0f} ms {quietest:6.0f} ms {cpu:5.0f} ms")


if __name__ == "__main__":
    main()
