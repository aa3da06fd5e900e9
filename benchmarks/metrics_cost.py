"""What the metrics cost a server: the CPU of writing them per stored action, and of a
scrape, against the server's CPU per stored action from the load benchmark.

python benchmarks/metrics_cost.py                       # against 0.6 ms an action
python benchmarks/metrics_cost.py --server-ms 1.4 --scrape-every 15

The server writes its figures whether or not anyone scrapes them
(``server/operations/metrics.py``), so switching ``/metrics`` off and on in the load
benchmark compares nothing; and the load benchmark's own spread (10 to 20% between two
runs on a shared machine) is far above the 2% asked.  So this measures the writes
themselves: the CPU time of each kind of write (a counter with a label, a histogram),
the writes a stored action makes at most (its event, its latency, and for a bot's move
the queue's wait and outcome: four), and a scrape of a registry holding a busy server's
figures.  ``--server-ms`` is the server's CPU per stored action
(``benchmarks/server_load.py`` prints it: about 0.6 ms at saturation, 1.4 to 1.9 ms under
the human-like load, on the two-core machine), ``--actions-per-second`` the rate a scrape
is spread over.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from prometheus_client import generate_latest

from rummykit.server.operations.metrics import (
    ACTION_SECONDS,
    BOT_CALLS,
    BOT_WAIT_SECONDS,
    EVENTS,
    REGISTRY,
)

WRITES_PER_ACTION = 4
"""The most writes one stored action makes: its event (``action``), a person's move's
latency, or a bot's move's wait in the queue and its outcome."""


def cpu_per_call(work: Callable[[], object], calls: int) -> float:
    """CPU seconds per call of ``work``, the loop's own cost taken off."""
    start = time.process_time()
    for _ in range(calls):
        work()
    spent = time.process_time() - start
    start = time.process_time()
    for _ in range(calls):
        pass
    return max(0.0, spent - (time.process_time() - start)) / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=200_000)
    parser.add_argument("--server-ms", type=float, default=0.6)
    parser.add_argument("--actions-per-second", type=float, default=600.0)
    parser.add_argument("--scrape-every", type=float, default=15.0)
    args = parser.parse_args()

    writes = {
        "event counter (labels + inc)": lambda: EVENTS.labels("action").inc(),
        "latency histogram (observe)": lambda: ACTION_SECONDS.observe(0.004),
        "bot wait histogram (labels + observe)": lambda: BOT_WAIT_SECONDS.labels("table").observe(
            0.02
        ),
        "bot outcome counter (labels + inc)": lambda: BOT_CALLS.labels("table", "done").inc(),
    }
    costs = {name: cpu_per_call(work, args.calls) for name, work in writes.items()}
    for name, cost in costs.items():
        print(f"{name}: {cost * 1e6:.2f} µs")
    for event in ("connected", "disconnected", "taken_over", "game_over", "hint", "login"):
        EVENTS.labels(event).inc()  # a busy server's figures, for the scrape
    scrape = cpu_per_call(lambda: generate_latest(REGISTRY), 2_000)
    print(f"a scrape of the registry: {scrape * 1e3:.3f} ms")

    per_action = WRITES_PER_ACTION * max(costs.values())
    share_writes = per_action / (args.server_ms / 1e3)
    server_cpu_per_second = args.actions_per_second * args.server_ms / 1e3
    share_scrape = scrape / args.scrape_every / server_cpu_per_second
    print(
        f"per stored action, at most {WRITES_PER_ACTION} writes: {per_action * 1e6:.2f} µs,"
        f" {share_writes:.2%} of the server's {args.server_ms} ms"
    )
    print(
        f"a scrape every {args.scrape_every:g} s at {args.actions_per_second:g} actions/s:"
        f" {share_scrape:.3%} of the server's CPU"
    )
    print(f"together: {share_writes + share_scrape:.2%} (the goal: under 2%)")


if __name__ == "__main__":
    main()
