"""How strong the bots are: the duplicate matches whose tables are in the README.

python benchmarks/strength.py                  # every match (CPU-hours on two cores)
python benchmarks/strength.py ismcts-burraco   # the matches whose name holds a word
python benchmarks/strength.py four             # Burraco for four: pairs of bots, each
                                               # deal played with the teams swapped

Each match is a ``rummykit simulate`` command, run as it is written in the README, so
the figures there can be produced again.  ``run_all.py`` leaves this script out: the
``ismcts`` matches take long.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
import time
from typing import Final

MATCHES: Final = {
    "greedy-random-burraco": (
        "simulate --game burraco --bots greedy,random --games 100 --duplicate --seed 1000"
    ),
    "greedy-random-three-thirteen": (
        "simulate --game three-thirteen --bots greedy,random --games 50 --duplicate --seed 1000"
    ),
    "ismcts-greedy-burraco": (
        "simulate --game burraco --bots ismcts:seconds=0.25,greedy --games 100 --duplicate"
        " --seed 1000 --workers 2"
    ),
    "greedy-random-burraco-four": (
        "simulate --game burraco --players 4 --bots greedy,random --games 100 --duplicate"
        " --seed 1000"
    ),
    "ismcts-greedy-burraco-four": (
        "simulate --game burraco --players 4 --bots ismcts,greedy --games 100"
        " --duplicate --seed 1000 --workers 2"
    ),
    "ismcts-greedy-three-thirteen": (
        "simulate --game three-thirteen --bots ismcts:seconds=0.25,greedy --games 50"
        " --duplicate --seed 1000 --workers 2"
    ),
}
"""The matches by name: the arguments of ``rummykit``."""


def main(words: list[str]) -> int:
    chosen = [name for name in MATCHES if not words or any(word in name for word in words)]
    if not chosen:
        print(f"no match is named by {' '.join(words)!r}; matches: {', '.join(MATCHES)}")
        return 2
    failures = 0
    for name in chosen:
        arguments = shlex.split(MATCHES[name])
        print(f"== {name}: rummykit {MATCHES[name]}", flush=True)
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "rummykit", *arguments], check=False)
        print(f"   {time.perf_counter() - started:.0f} s", flush=True)
        failures += done.returncode != 0
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
