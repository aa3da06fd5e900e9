"""The queue in front of the bot workers, with small fake calls on threads: table bots
first, a fair share per owner, one pending hint and review per owner, the reserve for
table bots, cancellation, and the limits under many concurrent callers."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pytest

from rummykit.games.core import rules_from_json
from rummykit.games.registry import game_named
from rummykit.server.bots.errors import BotBusy, BotUnavailable
from rummykit.server.bots.queue import BotQueue, Kind
from rummykit.server.bots.service import BotRunner
from rummykit.server.bots.worker_pool import WorkerPool

WAIT = 10.0


class Gates:
    """Fake calls that record when they start and wait for their gate to open."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self._lock = threading.Lock()
        self._gates: dict[str, threading.Event] = {}
        self._changed = threading.Condition(self._lock)

    def call(self, name: str) -> Callable[[], str]:
        gate = self._gates.setdefault(name, threading.Event())

        def work() -> str:
            with self._changed:
                self.started.append(name)
                self._changed.notify_all()
            assert gate.wait(WAIT), f"{name} was never let through"
            return name

        return work

    def open(self, *names: str) -> None:
        for name in names:
            self._gates[name].set()

    def wait_started(self, count: int) -> list[str]:
        with self._changed:
            assert self._changed.wait_for(lambda: len(self.started) >= count, WAIT)
            return list(self.started)


def make_queue(workers: int, **options: int) -> tuple[BotQueue, WorkerPool]:
    # More threads than the queue's workers: the queue alone limits what runs.
    pool = WorkerPool(lambda: ThreadPoolExecutor(workers + 4))
    return BotQueue(pool, workers=workers, **options), pool


@pytest.fixture
def gates() -> Iterator[Gates]:
    gates = Gates()
    yield gates
    for gate in gates._gates.values():
        gate.set()


def test_table_bots_go_before_queued_hints_and_reviews(gates: Gates) -> None:
    queue, pool = make_queue(1)
    first = queue.submit(Kind.HINT, "ann", gates.call("hint ann"))
    gates.wait_started(1)
    later = [
        queue.submit(Kind.REVIEW, "bob", gates.call("review bob")),
        queue.submit(Kind.HINT, "cid", gates.call("hint cid")),
        queue.submit(Kind.HINT, "dan", gates.call("hint dan")),
        queue.submit(Kind.DECISION, "table-1", gates.call("bot table-1")),
        queue.submit(Kind.DECISION, "table-2", gates.call("bot table-2")),
    ]
    assert queue.counts() == {"running": 1, "waiting": 5}
    gates.open("hint ann", "review bob", "hint cid", "hint dan", "bot table-1", "bot table-2")
    assert [f.result(WAIT) for f in [first, *later]]
    assert gates.started == [
        "hint ann",
        "bot table-1",
        "bot table-2",
        "hint cid",
        "hint dan",
        "review bob",
    ]
    pool.close()


def test_one_owner_cannot_hold_every_worker_while_another_waits(gates: Gates) -> None:
    queue, pool = make_queue(2)
    searches = [queue.submit(Kind.DECISION, "greedy", gates.call(f"long {i}")) for i in range(3)]
    # No one else waits: the owner may use both workers.
    assert gates.wait_started(2) == ["long 0", "long 1"]
    other = queue.submit(Kind.DECISION, "other", gates.call("other"))
    # the queue decides at once whom it starts: it started no one more
    assert queue.counts() == {"running": 2, "waiting": 2}
    assert len(gates.started) == 2
    gates.open("long 0")
    # "long 2" was queued first, but its owner already holds half the workers.
    assert gates.wait_started(3)[2] == "other"
    gates.open("other")
    assert other.result(WAIT) == "other"
    assert gates.wait_started(4)[3] == "long 2"
    gates.open("long 1", "long 2")
    assert [f.result(WAIT) for f in searches] == ["long 0", "long 1", "long 2"]
    pool.close()


def test_owners_queued_together_share_the_workers(gates: Gates) -> None:
    queue, pool = make_queue(2)
    blockers = [queue.submit(Kind.DECISION, "zed", gates.call(f"zed {i}")) for i in range(2)]
    gates.wait_started(2)
    searches = [queue.submit(Kind.DECISION, "greedy", gates.call(f"long {i}")) for i in range(3)]
    other = queue.submit(Kind.DECISION, "other", gates.call("other"))
    gates.open("zed 0", "zed 1")
    # Two workers free: one for each owner, although "greedy" queued three first.
    assert sorted(gates.wait_started(4)[2:]) == ["long 0", "other"]
    assert queue.counts() == {"running": 2, "waiting": 2}  # no one more was started
    assert len(gates.started) == 4
    gates.open("other", "long 0", "long 1", "long 2")
    assert other.result(WAIT) == "other"
    assert [f.result(WAIT) for f in blockers + searches]
    pool.close()


def test_owners_take_turns_within_a_kind(gates: Gates) -> None:
    queue, pool = make_queue(1)
    queue.submit(Kind.DECISION, "gate", gates.call("gate"))
    gates.wait_started(1)
    names = ["a 0", "a 1", "a 2", "b 0", "c 0", "b 1"]
    futures = [queue.submit(Kind.DECISION, name.split()[0], gates.call(name)) for name in names]
    gates.open("gate", *names)
    for future in futures:
        future.result(WAIT)
    assert gates.started[1:] == ["a 0", "b 0", "c 0", "a 1", "b 1", "a 2"]
    pool.close()


@pytest.mark.parametrize(
    ("kind", "code"), [(Kind.HINT, "hint_pending"), (Kind.REVIEW, "review_pending")]
)
def test_a_second_pending_hint_or_review_of_an_owner_is_refused(
    gates: Gates, kind: Kind, code: str
) -> None:
    queue, pool = make_queue(1)
    running = queue.submit(kind, "ann", gates.call("first"))
    gates.wait_started(1)
    with pytest.raises(BotBusy) as refused:
        queue.submit(kind, "ann", gates.call("second"))
    assert refused.value.code == code
    # Another owner, another kind, and a table bot are not refused (they queue).
    queued = queue.submit(kind, "bob", gates.call("bob"))
    with pytest.raises(BotBusy):  # queued counts as pending too
        queue.submit(kind, "bob", gates.call("bob again"))
    other_kind = Kind.REVIEW if kind == Kind.HINT else Kind.HINT
    third = queue.submit(other_kind, "ann", gates.call("ann other kind"))
    gates.open("first", "bob", "ann other kind")
    assert running.result(WAIT) == "first" and queued.result(WAIT) == "bob"
    third.result(WAIT)
    # Once answered, the owner may ask again.
    again = queue.submit(kind, "ann", gates.call("again"))
    gates.open("again")
    assert again.result(WAIT) == "again"
    assert "second" not in gates.started and "bob again" not in gates.started
    pool.close()


def test_owner_none_is_an_owner_of_its_own(gates: Gates) -> None:
    queue, pool = make_queue(2)
    futures = [queue.submit(Kind.HINT, None, gates.call(f"h{i}")) for i in range(3)]
    gates.open("h0", "h1", "h2")
    assert [f.result(WAIT) for f in futures] == ["h0", "h1", "h2"]
    pool.close()


def test_hints_and_reviews_leave_a_worker_to_table_bots(gates: Gates) -> None:
    queue, pool = make_queue(2)
    hints = [queue.submit(Kind.HINT, f"p{i}", gates.call(f"hint {i}")) for i in range(3)]
    gates.wait_started(1)
    assert queue.counts() == {"running": 1, "waiting": 2}  # the queue started no other
    assert gates.started == ["hint 0"]  # the second worker is kept for table bots
    bot = queue.submit(Kind.DECISION, "table", gates.call("bot"))
    assert gates.wait_started(2)[1] == "bot"
    gates.open("bot")
    assert bot.result(WAIT) == "bot"
    gates.open("hint 0", "hint 1", "hint 2")
    assert [f.result(WAIT) for f in hints] == ["hint 0", "hint 1", "hint 2"]
    pool.close()


def test_a_cancelled_waiting_call_leaves_the_queue(gates: Gates) -> None:
    queue, pool = make_queue(1)
    busy = queue.submit(Kind.DECISION, "table", gates.call("busy"))
    gates.wait_started(1)
    waiting = queue.submit(Kind.HINT, "ann", gates.call("dropped"))
    assert waiting.cancel()
    assert queue.counts() == {"running": 1, "waiting": 0}
    fresh = queue.submit(Kind.HINT, "ann", gates.call("fresh"))  # no longer pending
    gates.open("busy", "fresh")
    assert busy.result(WAIT) == "busy" and fresh.result(WAIT) == "fresh"
    assert "dropped" not in gates.started
    pool.close()


def test_errors_of_a_call_are_its_answer() -> None:
    queue, pool = make_queue(1)

    def fails() -> None:
        raise KeyError("no such card")

    with pytest.raises(KeyError):
        queue.submit(Kind.DECISION, "t", fails).result(WAIT)
    assert queue.submit(Kind.DECISION, "t", int, "7").result(WAIT) == 7
    pool.close()


def test_close_fails_waiting_calls_and_refuses_new_ones(gates: Gates) -> None:
    queue, pool = make_queue(1)
    running = queue.submit(Kind.DECISION, "t", gates.call("running"))
    gates.wait_started(1)
    waiting = queue.submit(Kind.DECISION, "u", gates.call("waiting"))
    queue.close()
    with pytest.raises(BotUnavailable):
        waiting.result(WAIT)
    with pytest.raises(BotUnavailable):
        queue.submit(Kind.DECISION, "v", gates.call("late"))
    gates.open("running")
    assert running.result(WAIT) == "running"
    pool.close()


def test_a_call_its_runner_cancels_fails_and_frees_its_place() -> None:
    class Holds:
        """A runner whose calls wait until the test cancels or answers them."""

        def __init__(self) -> None:
            self.started: list[Future[Any]] = []

        def submit(self, call: Callable[[], Any]) -> Future[Any]:
            started: Future[Any] = Future()
            self.started.append(started)
            return started

    runner = Holds()
    queue = BotQueue(runner, workers=1)
    first = queue.submit(Kind.DECISION, "t", int)
    second = queue.submit(Kind.DECISION, "u", int)
    assert len(runner.started) == 1
    runner.started[0].cancel()  # an event loop closing under a sent call
    with pytest.raises(BotUnavailable):
        first.result(WAIT)
    assert len(runner.started) == 2  # the place went to the next call
    runner.started[1].set_result(7)
    assert second.result(WAIT) == 7
    assert queue.counts() == {"running": 0, "waiting": 0}


class Meter:
    """Counts the calls running at once: overall, background, per owner."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.now: Counter[str] = Counter()
        self.most: Counter[str] = Counter()

    def call(self, kind: Kind, owner: str, seconds: float) -> Callable[[], str]:
        keys = ["all", f"owner {owner}"] + (["background"] if kind != Kind.DECISION else [])

        def work() -> str:
            with self.lock:
                for key in keys:
                    self.now[key] += 1
                    self.most[key] = max(self.most[key], self.now[key])
            time.sleep(seconds)  # the call's own work, in wall time: calls overlap
            with self.lock:
                for key in keys:
                    self.now[key] -= 1
            return owner

        return work


def test_the_limits_hold_with_many_threads_submitting_at_once() -> None:
    queue, pool = make_queue(3)
    meter = Meter()
    accepted: list[Future[str]] = []
    refused: Counter[str] = Counter()
    lock = threading.Lock()
    start = threading.Barrier(12)

    def caller(index: int) -> None:
        rng = random.Random(index)
        start.wait()
        for _ in range(40):
            kind = rng.choice(list(Kind))
            owner = rng.choice(["ann", "bob", "cid", "t1", "t2"])
            try:
                future = queue.submit(kind, owner, meter.call(kind, owner, rng.random() / 200))
            except BotBusy as busy:
                with lock:
                    refused[busy.code] += 1
            else:
                with lock:
                    accepted.append(future)

    threads = [threading.Thread(target=caller, args=(i,)) for i in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for future in accepted:
        future.result(WAIT)
    assert len(accepted) + sum(refused.values()) == 12 * 40
    assert refused["hint_pending"] > 0 and refused["review_pending"] > 0
    assert meter.most["all"] == 3  # busy, never beyond the workers
    assert meter.most["background"] == 2  # one worker kept for table bots
    assert queue.counts() == {"running": 0, "waiting": 0}
    pool.close()


def position() -> tuple[dict[str, Any], list[str]]:
    """A Three-Thirteen observation (JSON) and its legal actions (text)."""
    game = game_named("three-thirteen")
    state = game.new_state(rules_from_json(game.rules_type, {}), 5)
    seat = state.current_player
    assert seat is not None
    legal = [game.format_action(a) for a in state.legal_actions()]
    return state.observation(seat).to_json(), legal


def test_one_pending_hint_and_review_per_player_among_many_coroutines() -> None:
    """100 coroutines at once ask hints for 10 players through the runner, then 100
    ask reviews: one of each per player is computed, the other 90 refused."""
    meter = Meter()
    observation, legal = position()

    def fake_review(player: str) -> str:
        return meter.call(Kind.REVIEW, player, 0.02)()

    async def main() -> tuple[list[Any], list[Any]]:
        runner = BotRunner(2, make_executor=lambda: ThreadPoolExecutor(6))
        players = [f"p{i}" for i in range(10)]
        hints = await asyncio.gather(
            *(
                runner.hint("three-thirteen", observation, legal, 100, owner=p)
                for p in players
                for _ in range(10)
            ),
            return_exceptions=True,
        )
        reviews = await asyncio.gather(
            *(runner.run(fake_review, p, owner=p) for p in players for _ in range(10)),
            return_exceptions=True,
        )
        runner.close()
        return hints, reviews

    hints, reviews = asyncio.run(main())
    hint_codes = Counter(getattr(a, "code", "answered") for a in hints)
    assert hint_codes == {"answered": 10, "hint_pending": 90}
    assert all(a[0] in legal for a in hints if isinstance(a, tuple))
    review_codes = Counter(getattr(a, "code", a) for a in reviews)
    assert review_codes == {**{f"p{i}": 1 for i in range(10)}, "review_pending": 90}
    assert meter.most["background"] == 1  # two workers: one kept for table bots
