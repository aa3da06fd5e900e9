"""What start-up made leaves the collector's passes only in a process that asked for it."""

from __future__ import annotations

import gc
import subprocess
import sys

from rummykit.server.operations.collector import freeze_start_up


def test_a_process_that_froze_nothing_is_left_alone() -> None:
    assert gc.get_freeze_count() == 0
    assert freeze_start_up() == 0
    assert gc.get_freeze_count() == 0


def test_a_process_that_froze_its_start_freezes_what_start_up_added() -> None:
    script = """
import gc
from rummykit.server.operations.collector import freeze_start_up
gc.freeze()
made = [[index] for index in range(5000)]  # objects start-up keeps
frozen = freeze_start_up()
young = len(gc.get_objects())
print(frozen, young)
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    frozen, tracked = (int(word) for word in done.stdout.split())
    assert frozen >= 5000
    assert tracked < 1000  # nearly nothing left for the collector to walk
