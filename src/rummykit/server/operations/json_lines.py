"""Log records as JSON lines, one object a line, for a log collector.

Every line has ``time`` (UTC, ISO 8601), ``level``, ``logger`` and ``worker`` (this
process's worker id on a site, else ``null``).  A server event
(:func:`~.events_log.log_event`) adds ``event``, ``table`` (``null`` when none) and its
fields under their own names (``player``, ``seat``, ...), so a collector can filter by
table, worker or player without parsing text; any other record adds ``message``.  A
traceback is one string (``exception``), never lines of its own.

This module only formats; it never chooses where the lines go or which are kept.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any

from rummykit.server.operations.events_log import current_worker

RESERVED = frozenset({"time", "level", "logger", "event", "table", "message"})
"""Names an event's field cannot take: such a field is written with ``_`` after it (an
event's own ``worker`` field names the same worker, and stands)."""


class JsonLines(logging.Formatter):
    """Formats a record as one JSON object (see the module's docstring).

    >>> record = logging.makeLogRecord({"name": "x", "levelname": "INFO", "msg": "hi",
    ...     "created": 0.0})
    >>> json.loads(JsonLines().format(record))["time"]
    '1970-01-01T00:00:00.000Z'
    """

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC)
            .isoformat(timespec="milliseconds")
            .replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "worker": current_worker(),
        }
        event = getattr(record, "event", None)
        if isinstance(event, str):
            line["event"] = event
            line["table"] = getattr(record, "table", None)
            fields = getattr(record, "fields", {})
            for key, value in fields.items():
                line[f"{key}_" if key in RESERVED else key] = value
        else:
            line["message"] = record.getMessage()
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        return json.dumps(line, default=str, ensure_ascii=False)
