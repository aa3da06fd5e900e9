"""``rummykit simulate --backend ray`` and ``run_tasks`` on Ray: the same seeds give the
same games, byte for byte, as in this process and in a pool of two worker processes;
``rummykit ladder`` and ``rummykit tournament`` with ``--backend ray`` give the same
ladder and event as with two worker processes.

The tests that need no Ray come first, then the runs without Ray (a process pool is
forked, and a process is better forked before Ray's threads start in it).  One test
starts a local Ray with two CPUs in this process and plays on it, through ``simulate``,
through ``run_tasks`` and from a driver in a process of its own that joins it by its
address; another runs ``simulate`` in a process of its own, which starts a Ray of its
own and must leave none of its processes behind.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rummykit.cli.app import app
from rummykit.games import burraco, three_thirteen
from rummykit.sim.backend_options import open_backend
from rummykit.sim.series import TaskResult, make_tasks, run_tasks
from tests.kit.wait import wait_until

runner = CliRunner()

MATCHES: dict[str, list[str]] = {
    "burraco": ["--game", "burraco", "--bots", "greedy,random", "--games", "2"],
    "three-thirteen": [
        "--game",
        "three-thirteen",
        "--bots",
        "ismcts:iterations=10,greedy,random",
        "--games",
        "1",
        "--last-round",
        "3",
    ],
}
"""Small matches, each deal played from every seat (``--duplicate``), from seed 40 on; a
search bot bounded by iterations is as reproducible as the others."""

RULES: dict[str, Any] = {
    "burraco": burraco.Rules(),
    "three-thirteen": three_thirteen.Rules(players=3, last_round=3),
}

TIMINGS = {"decisions_per_second"}
"""The only part of a summary that depends on the machine rather than the seeds."""


@dataclass(frozen=True)
class Output:
    """What a ``simulate`` run wrote: its JSON summary without timings, and every game
    record's file, as bytes, by name."""

    summary: dict[str, Any]
    records: dict[str, bytes]


def without_timings(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items() if k not in TIMINGS}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


def options(game: str, folder: Path) -> list[str]:
    return [
        "simulate",
        *MATCHES[game],
        "--duplicate",
        "--seed",
        "40",
        "--json",
        str(folder / "summary.json"),
        "--records",
        str(folder / "records"),
    ]


def read_output(folder: Path) -> Output:
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    records = {path.name: path.read_bytes() for path in (folder / "records").iterdir()}
    return Output(without_timings(summary), records)


def simulate_here(folder: Path, game: str, *backend: str) -> Output:
    result = runner.invoke(app, [*options(game, folder), *backend])
    assert result.exit_code == 0, result.output
    return read_output(folder)


def simulate_command(folder: Path, game: str, *backend: str) -> list[str]:
    return [sys.executable, "-m", "rummykit", *options(game, folder), *backend]


def option(game: str, name: str) -> str:
    """The value of option ``name`` in the match of ``game``."""
    return MATCHES[game][MATCHES[game].index(name) + 1]


def played(game: str, **how: Any) -> list[tuple[Any, ...]]:
    """Every game of a match as ``run_tasks`` gives it, timings left out."""
    tasks = make_tasks(
        game=game,
        rules=RULES[game],
        entries=option(game, "--bots").split(","),
        games=int(option(game, "--games")),
        seed=40,
        duplicate=True,
        keep_records=True,
    )
    return [game_of(result) for result in run_tasks(tasks, **how)]


def game_of(result: TaskResult) -> tuple[Any, ...]:
    return (result.task, result.totals, result.winners, result.decisions, result.record)


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        (["--address", "127.0.0.1:{port}"], "cannot reach the Ray cluster at 127.0.0.1:"),
        (["--address", "head:port"], "is not a Ray cluster address"),
        (["--address", "127.0.0.1:6379", "--workers", "2"], "--workers sizes a local Ray"),
        (["--workers", "0"], "--workers must be at least 1"),
    ],
)
def test_a_ray_that_cannot_be_used_is_one_line_and_exit_2(arguments: list[str], words: str) -> None:
    port = closed_port()
    command = ["simulate", "--backend", "ray", *(a.format(port=port) for a in arguments)]
    started = time.monotonic()
    result = runner.invoke(app, command)
    assert result.exit_code == 2, result.output
    assert words in result.output
    assert len(result.output.strip().splitlines()) == 1, result.output
    assert time.monotonic() - started < 45, "Ray retried instead (minutes)"


def test_without_ray_installed_the_ray_backend_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    result = runner.invoke(app, ["simulate", "--backend", "ray", "--games", "1"])
    assert result.exit_code == 2, result.output
    assert result.output.strip() == "--backend ray needs Ray: pip install 'rummykit[ray]'"


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        (["--backend", "cloud"], "no backend named 'cloud'"),
        (["--backend", "local", "--workers", "2"], "it takes no --workers"),
        (["--address", "127.0.0.1:6379"], "it goes with --backend ray"),
        (["--backend", "processes", "--address", "auto"], "it goes with --backend ray"),
    ],
)
def test_backend_options_that_do_not_go_together_are_refused(
    arguments: list[str], words: str
) -> None:
    result = runner.invoke(app, ["simulate", "--games", "1", *arguments])
    assert result.exit_code == 2, result.output
    assert words in result.output and "Traceback" not in result.output


def test_the_processes_backend_defaults_to_one_worker_per_core() -> None:
    backend = open_backend("processes")
    with backend:
        assert sorted(backend.map_unordered(abs, [-3, 1, -2])) == [1, 2, 3]
    assert backend.name == "processes"


def ray_is_initialized() -> bool:
    """Whether this process has started or joined a Ray (Ray is imported only by the
    tests that use it: the import takes seconds)."""
    import ray

    return bool(ray.is_initialized())


@pytest.fixture(scope="module")
def without_ray(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """Every game's output in this process and with ``--workers 2``, made before Ray."""
    assert not ray_is_initialized()
    outputs: dict[str, dict[str, Any]] = {}
    for game in MATCHES:
        folder = tmp_path_factory.mktemp(game)
        outputs[game] = {
            "local": simulate_here(folder / "local", game),
            "processes": simulate_here(folder / "processes", game, "--workers", "2"),
            "tasks_local": played(game),
            "tasks_processes": played(game, workers=2),
        }
    for event in EVENTS:
        outputs[event] = {
            "processes": event_json(tmp_path_factory.mktemp(event), event, "--workers", "2")
        }
    return outputs


EVENTS: dict[str, list[str]] = {
    "ladder": ["--game", "burraco", "--rungs", "random,greedy", "--deals", "2"],
    "tournament": ["--game", "burraco", "--format", "swiss", "--rounds", "2",
                   "--bots", "greedy*2,random*2"],
}  # fmt: skip
"""A small ladder and a small Swiss event, run by their commands."""


def event_json(folder: Path, command: str, *extra: str) -> Any:
    """What ``rummykit <command>`` wrote with ``--json``."""
    out = folder / f"{command}.json"
    result = runner.invoke(app, [command, *EVENTS[command], *extra, "--json", str(out)])
    assert result.exit_code == 0, result.output
    return json.loads(out.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def local_ray(without_ray: dict[str, dict[str, Any]]) -> Iterator[str]:
    """A local Ray with two CPUs; its address.  One test uses it, so that however the
    tests are shared between pytest's workers, only one of them starts it."""
    import ray

    ray.init(
        address="local",
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        logging_level=logging.ERROR,
    )
    try:
        yield str(ray.get_runtime_context().gcs_address)
    finally:
        ray.shutdown()


def test_on_ray_the_games_are_those_of_one_process_and_of_a_pool(
    without_ray: dict[str, dict[str, Any]], local_ray: str, tmp_path: Path
) -> None:
    for game in MATCHES:
        local, processes = without_ray[game]["local"], without_ray[game]["processes"]
        assert local == processes, f"{game}: a pool gives other games than one process"
        seats = len(option(game, "--bots").split(","))
        assert len(local.records) == seats * int(option(game, "--games"))

        on_ray = simulate_here(tmp_path / game, game, "--backend", "ray")
        assert on_ray == local, f"{game}: simulate --backend ray gives other games"

        with open_backend("ray") as backend:
            tasks_on_ray = played(game, backend=backend)
            again = played(game, backend=backend)
        assert ray_is_initialized(), "a backend leaves a Ray it did not start running"
        assert tasks_on_ray == again == without_ray[game]["tasks_local"], game
        assert tasks_on_ray == without_ray[game]["tasks_processes"], game
        assert [task.index for task, *_ in tasks_on_ray] == list(range(len(tasks_on_ray)))

    # The ladder and bot tournaments run on Ray too, with the same results.
    for event in EVENTS:
        on_ray = event_json(tmp_path, event, "--backend", "ray")
        assert on_ray == without_ray[event]["processes"], f"{event} on Ray differs"

    # A driver in a process of its own joins the same Ray by its address.
    joined = tmp_path / "joined"
    address = ["--backend", "ray", "--address", local_ray]
    command = simulate_command(joined, "three-thirteen", *address)
    finished = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert finished.returncode == 0, finished.stdout + finished.stderr
    assert read_output(joined) == without_ray["three-thirteen"]["local"]


def marked_processes(mark: str) -> set[int]:
    """The processes whose environment holds ``mark``."""
    found = set()
    needle = mark.encode()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                environment = (entry / "environ").read_bytes()
            except OSError:
                continue
            if needle in environment:
                found.add(int(entry.name))
    return found


def test_simulate_starts_a_ray_of_its_own_and_leaves_none_of_its_processes(
    without_ray: dict[str, dict[str, Any]], tmp_path: Path
) -> None:
    mark = f"rummykit-test-{uuid.uuid4()}"
    command = simulate_command(tmp_path, "burraco", "--backend", "ray", "--workers", "2")
    environment = {**os.environ, "RUMMYKIT_TEST_MARK": mark}
    ray_processes: set[int] = set()
    with subprocess.Popen(
        command, env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    ) as driver:

        def over() -> bool:
            ray_processes.update(marked_processes(mark) - {driver.pid})
            return driver.poll() is not None

        wait_until(over, 600, what="the simulation's end", interval=0.2)
        output = driver.stdout.read() if driver.stdout is not None else ""
    assert driver.returncode == 0, output
    assert len(ray_processes) >= 2, "the run's Ray processes were not seen"
    wait_until(
        lambda: not marked_processes(mark),
        15,
        what="the end of the run's Ray processes",
        interval=0.2,
    )
    assert read_output(tmp_path) == without_ray["burraco"]["processes"]
