"""A worker's requests to the site's bot workers, and their answers.

With the shared bot queue (``bot_stream.py``), a worker puts each call on a Redis
stream with its own channel to answer on; a bot worker publishes the answer there as
a ``bot_reply`` envelope, which settles the request waiting for it.

This module asks and settles; it never runs a bot, reads a stream or chooses a stream
(``bot_stream.py`` does), and a request nobody answers in time is simply ``None``.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from redis.asyncio import Redis

STREAM_LENGTH = 100_000  # bot stream entries kept (the oldest, long answered, trimmed)


class BotRequests:
    """The requests of one worker waiting for a bot worker's answer, by request id."""

    KINDS = frozenset({"bot_reply"})
    """The envelopes a bot worker sends."""

    def __init__(self, redis: Redis, *, reply_channel: str) -> None:
        self.redis = redis
        self.reply_channel = reply_channel
        self.answers: dict[str, asyncio.Future[str]] = {}

    async def ask(self, stream: str, call: str, timeout: float) -> str | None:
        """Put ``call`` on a bot stream and wait for a bot worker's answer; ``None`` if
        none came within ``timeout`` seconds or Redis could not be reached."""
        request_id = secrets.token_hex(8)
        answer: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.answers[request_id] = answer
        entry = {"id": request_id, "reply": self.reply_channel, "call": call}
        try:
            await self.redis.xadd(stream, entry, maxlen=STREAM_LENGTH, approximate=True)  # type: ignore[arg-type]
            return await asyncio.wait_for(answer, timeout)
        except Exception:  # a timeout, or Redis away
            return None
        finally:
            self.answers.pop(request_id, None)

    def receive(self, message: dict[str, Any]) -> None:
        """A bot worker's answer (``bot_reply``) to one of this worker's requests."""
        answer = self.answers.get(str(message.get("id")))
        if answer is not None and not answer.done():
            answer.set_result(str(message.get("a")))
