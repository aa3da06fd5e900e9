"""The cyclic garbage collector of a long-running server process, set up once it started.

Every collection pauses every table of the process.  A full one walks every live object
it tracks; what start-up made (the modules imported while migrating and recovering, the
application itself, the recovered tables' first states) lives as long as the process, so
walking it again and again only lengthens the pauses.  :func:`freeze_start_up` moves it
out of the collector's passes, as ``rummykit serve`` does with what it loaded before
starting.  It acts only in a process that froze objects already, so that a test process
running many applications never freezes theirs.
"""

from __future__ import annotations

import gc


def freeze_start_up() -> int:
    """Collect, then keep every object alive now out of later collections, in a process
    that opted in (``gc.freeze`` called before); how many objects were frozen now."""
    if not gc.get_freeze_count():
        return 0
    before = gc.get_freeze_count()
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count() - before
