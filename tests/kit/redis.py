"""The test Redis on 127.0.0.1:6379: its URL and a fresh key prefix for each test, so
that the workers, streams and counts of one test never meet another's."""

from __future__ import annotations

import uuid

REDIS_URL = "redis://127.0.0.1:6379/0"
"""The test Redis (database 0); each test keeps to a prefix of its own."""


def new_prefix() -> str:
    """A key prefix no other test uses (the settings' ``redis_prefix``).

    >>> new_prefix().startswith("test-"), new_prefix() != new_prefix()
    (True, True)
    """
    return f"test-{uuid.uuid4().hex[:12]}"
