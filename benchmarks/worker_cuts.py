"""How long a willing player is stranded by a partition or a freeze of a server process:
the figures of docs/scale-out.md's failure analysis, against the goal of the lease's
ttl + 2 s.

python benchmarks/worker_cuts.py            # 5 runs of every cut (about 6 minutes)
python benchmarks/worker_cuts.py --runs 20

Each run is ``tests/server/cluster/test_worker_cuts.py`` (two ``rummykit serve`` processes on
the machine's PostgreSQL at 127.0.0.1:5432 and Redis at 127.0.0.1:6379, a relay the
test controls, ``SIGSTOP``), run from a checkout with its test dependencies.  The test
holds each run to a looser bound (room for a machine busy with other work); this
prints every run's stranded seconds, the median and the worst of each cut, and the
substitute moves, which must be 0.  Run it on a machine doing nothing else.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL_SECONDS = 4.0  # the test's lease ttl (2 s) + 2 s


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args(argv).runs
    with tempfile.TemporaryDirectory() as folder:
        figures_path = Path(folder) / "cuts.jsonl"
        env = dict(os.environ, RUMMYKIT_CUT_FIGURES=str(figures_path))
        failures = 0
        for run in range(1, runs + 1):
            print(f"run {run} of {runs}", flush=True)
            done = subprocess.run(
                [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                 "tests/server/cluster/test_worker_cuts.py"],
                cwd=ROOT, env=env, check=False, capture_output=True, text=True,
            )  # fmt: skip
            failures += done.returncode != 0
            if done.returncode != 0:
                print(done.stdout[-2000:], flush=True)
        lines = figures_path.read_text().splitlines() if figures_path.exists() else []
    by_cut: dict[str, list[dict[str, float]]] = defaultdict(list)
    for line in lines:
        figures = json.loads(line)
        by_cut[figures.pop("cut")].append(figures)
    print(f"\ngoal: stranded within {GOAL_SECONDS:g} s, no substitute move")
    print(f"{'cut':34} {'runs':>4} {'p50 s':>6} {'max s':>6} {'subst':>5}  every run")
    for cut, runs_of_cut in by_cut.items():
        stranded = [r["stranded"] for r in runs_of_cut]
        substituted = sum(int(r.get("substitute_moves", 0)) for r in runs_of_cut)
        every = ", ".join(f"{s:.2f}" for s in stranded)
        print(
            f"{cut:34} {len(stranded):4} {statistics.median(stranded):6.2f}"
            f" {max(stranded):6.2f} {substituted:5}  {every}"
        )
        joins = [r["join_waited"] for r in runs_of_cut if "join_waited" in r]
        if joins:  # the frozen owner's locked seat, joined at the other worker
            every = ", ".join(f"{s:.2f}" for s in joins)
            print(f"{'  the join of its locked seat':34} {len(joins):4} {'':6} {max(joins):6.2f}"
                  f" {'':5}  {every}")  # fmt: skip
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
