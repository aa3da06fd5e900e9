"""What the HTTP and WebSocket handlers share: the server's parts and typed API errors."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rummykit.server.auth import LoginThrottle, Sessions
from rummykit.server.bots import BotRunner
from rummykit.server.review_jobs import ReviewJobs
from rummykit.server.settings import Settings
from rummykit.server.storage import Storage
from rummykit.server.tables import TableRegistry


class ApiError(Exception):
    """An HTTP error answered as ``{"error": {"code", "message", "params"}}``."""

    def __init__(
        self, status: int, code: str, message: str, params: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.params = params or {}


@dataclass
class ServerContext:
    settings: Settings
    storage: Storage
    runner: BotRunner
    tables: TableRegistry
    sessions: Sessions
    throttle: LoginThrottle
    reviews: ReviewJobs
