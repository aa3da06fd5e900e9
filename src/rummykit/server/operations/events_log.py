"""One log line per server event, always naming the table: ``table=<id> event=<name> k=v``.

Each record also carries the event as data (``record.event``, ``record.table``,
``record.fields``), and the process's worker id once it has one (:func:`set_worker`),
for :mod:`.json_lines` to write one JSON object a line without parsing the text.
"""

from __future__ import annotations

import logging
from typing import Any

from rummykit.server.operations.metrics import EVENTS

LOGGER = logging.getLogger("rummykit.server")

_WORKER: dict[str, str | None] = {"id": None}


def set_worker(worker_id: str | None) -> None:
    """Name this process's worker (a site's server process or a bot worker) in every
    structured log line from now on."""
    _WORKER["id"] = worker_id


def current_worker() -> str | None:
    """The worker id given to :func:`set_worker`, if any."""
    return _WORKER["id"]


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
    LOGGER.log(
        level,
        "table=%s event=%s%s",
        table_id or "-",
        event,
        f" {parts}" if parts else "",
        extra={"event": event, "table": table_id, "fields": fields},
    )
