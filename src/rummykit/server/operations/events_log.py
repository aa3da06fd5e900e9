"""One log line per server event, always naming the table: ``table=<id> event=<name> k=v``."""

from __future__ import annotations

import logging
from typing import Any

from rummykit.server.operations.metrics import EVENTS

LOGGER = logging.getLogger("rummykit.server")


def log_event(
    table_id: str | None, event: str, *, level: int = logging.INFO, **fields: Any
) -> None:
    """Log ``event`` for ``table_id`` (``-`` when none) with ``fields`` as ``key=value``;
    counted for ``/metrics`` whatever the level."""
    EVENTS.labels(event).inc()
    if not LOGGER.isEnabledFor(level):
        return
    parts = " ".join(
        f"{key}={value!r}" if isinstance(value, str) else f"{key}={value}"
        for key, value in fields.items()
    )
    LOGGER.log(level, "table=%s event=%s%s", table_id or "-", event, f" {parts}" if parts else "")
