"""The worker pool outlives its workers: spawned processes killed with SIGKILL (by the
call itself, or from outside) are replaced and the calls they broke run again."""

from __future__ import annotations

import multiprocessing
import os
import signal
import site
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

import pytest

from rummykit.server.bots.errors import BotUnavailable
from rummykit.server.bots.worker_pool import WorkerPool

WAIT = 60.0


ROOT = Path(__file__).resolve().parents[3]


def spawned(workers: int) -> ProcessPoolExecutor:
    """Spawned workers that can import this module (for its calls)."""
    return ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=site.addsitedir,
        initargs=(str(ROOT),),
    )


def double_after_dying_once(marker: str, value: int) -> int:
    """Twice ``value``; the first call for ``marker`` kills its own process instead."""
    path = Path(marker)
    if not path.exists():
        path.write_text("died")
        os.kill(os.getpid(), signal.SIGKILL)
    return value * 2


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def slow_square(value: int, seconds: float) -> int:
    time.sleep(seconds)  # the call's own work, in wall time: it is in flight meanwhile
    return value * value


def refuse(value: int) -> None:
    raise ValueError(f"no {value}")


@pytest.fixture
def pool() -> Iterator[WorkerPool]:
    pool = WorkerPool(lambda: spawned(2), retries=2)
    yield pool
    pool.close()


def test_a_call_whose_worker_dies_runs_again_on_a_new_pool(
    pool: WorkerPool, tmp_path: Path
) -> None:
    first = pool.executor
    assert pool.submit(partial(double_after_dying_once, str(tmp_path / "m"), 21)).result(WAIT) == 42
    assert pool.generation == 1 and pool.executor is not first
    assert pool.submit(partial(slow_square, 5, 0.0)).result(WAIT) == 25


def test_every_call_in_flight_is_run_again(pool: WorkerPool, tmp_path: Path) -> None:
    # five calls in flight at once, in the order the executor takes them: the squares,
    # then the call that kills its worker
    squares = [pool.submit(partial(slow_square, i, 0.3)) for i in range(4)]
    dying = pool.submit(partial(double_after_dying_once, str(tmp_path / "m"), 4))
    assert [f.result(WAIT) for f in squares] == [0, 1, 4, 9]
    assert dying.result(WAIT) == 8
    assert pool.generation == 1  # replaced once, by the first call that saw it broken


def test_a_call_that_always_kills_its_worker_gives_up(pool: WorkerPool) -> None:
    with pytest.raises(BotUnavailable) as failed:
        pool.submit(die).result(WAIT)
    assert failed.value.code == "bot_unavailable"
    assert failed.value.params == {"attempts": 3}
    assert pool.generation == 3
    assert pool.submit(partial(slow_square, 3, 0.0)).result(WAIT) == 9


def test_an_idle_worker_killed_from_outside_is_replaced(pool: WorkerPool) -> None:
    assert pool.submit(partial(slow_square, 2, 0.0)).result(WAIT) == 4
    executor = pool.executor
    assert isinstance(executor, ProcessPoolExecutor)
    for pid in list(executor._processes):
        os.kill(pid, signal.SIGKILL)
    assert pool.submit(partial(slow_square, 6, 0.0)).result(WAIT) == 36
    assert pool.generation == 1


def test_an_exception_of_the_call_is_its_answer(pool: WorkerPool) -> None:
    with pytest.raises(ValueError, match="no 7"):
        pool.submit(partial(refuse, 7)).result(WAIT)
    assert pool.generation == 0


def test_after_close_calls_fail_as_unavailable() -> None:
    pool = WorkerPool(lambda: spawned(1))
    pool.close()
    with pytest.raises(BotUnavailable):
        pool.submit(partial(slow_square, 1, 0.0)).result(WAIT)
