"""Run every speed benchmark in this folder, one after another, and print their figures.

python benchmarks/run_all.py            # from a checkout, with rummykit installed

``strength.py``, ``cycles.py``, ``fairplay.py`` and ``worker_cuts.py`` are left out:
their matches and populations (CPU-hours, a quarter of an hour) and partitions
(minutes, on PostgreSQL and Redis) are run by hand.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BY_HAND = {"run_all.py", "strength.py", "cycles.py", "fairplay.py", "worker_cuts.py", "__init__.py"}


def main() -> int:
    env = dict(os.environ)
    source = HERE.parent / "src"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(source), env.get("PYTHONPATH", "")]))
    failures = 0
    for script in sorted(HERE.glob("*.py")):
        if script.name in BY_HAND:
            continue
        print(f"== {script.stem}", flush=True)
        done = subprocess.run([sys.executable, str(script)], env=env, check=False)
        failures += done.returncode != 0
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
