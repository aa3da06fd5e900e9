"""The typed refusals and failures of the bot workers, for the table host and the API.

Each carries a stable ``code``, an English ``message`` and ``params``, like the engine's
refusals, so that a caller passes them on without rewording.
"""

from __future__ import annotations

from typing import Any


class BotError(Exception):
    """A bot call that was refused or could not be carried out."""

    code = "bot_error"

    def __init__(self, message: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.params = params or {}


class BotBusy(BotError):
    """A hint or review asked for by an owner who already has one pending: the caller
    should wait for the first (``code`` is ``hint_pending`` or ``review_pending``)."""

    def __init__(self, code: str, message: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(message, params)
        self.code = code


class BotUnavailable(BotError):
    """The workers failed the call every time it was tried (each time a worker died and
    the pool was rebuilt), or the runner is closed.  No move was made: the caller may ask
    again later; it must not stand in a move of its own."""

    code = "bot_unavailable"
