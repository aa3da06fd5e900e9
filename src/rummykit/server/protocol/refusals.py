"""The error a table, or a request to make or join one, is refused with.

Its ``code`` is one of the catalogue's (:mod:`~rummykit.server.protocol.error_codes`);
the lobby answers it as ``{"detail": ..., "code": ..., "params": ...}``.  Raised by the
table's host and registry and by the checks that run before a table exists (a bot's
level, a player's limits), so it lives below all of them.
"""

from __future__ import annotations

from typing import Any


class TableError(Exception):
    """A lobby request the table refuses (``code`` as in docs/protocol.md)."""

    def __init__(self, code: str, message: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params or {}
