"""What every HTTP answer of the server carries, and what no request may bring.

Two pure ASGI middlewares (pure, so they also cover the static client, error answers and
the documentation pages, which no FastAPI dependency sees), installed by
:func:`install`:

- :class:`SecurityHeaders` adds a strict Content-Security-Policy (no inline script, no
  inline style attribute, nothing from another origin; ``connect-src`` allows this
  server's own WebSocket address), ``X-Content-Type-Options: nosniff``,
  ``Referrer-Policy: no-referrer`` and ``X-Frame-Options: DENY`` to every answer.  An
  exception that escapes the application before it answered becomes a typed 500
  (``internal_error``) carrying the same headers, then goes on to the server's own error
  handling (which logs it).
- :class:`BodyLimit` refuses a request body over ``max_body_bytes`` with 413
  ``body_too_large`` before reading it: at once by ``Content-Length``, and for a chunked
  body as soon as the chunks received pass the limit (nothing past it is read, and the
  connection is closed so that the sender stops).

**The documentation pages** (``/docs``, ``/redoc``, ``/docs/oauth2-redirect``) are
FastAPI's own, their viewers served by the server itself (:mod:`.docs_assets`), and
Swagger UI starts with an inline script.  These paths get a policy of their own that
still names no other host: scripts from the server and, for inline scripts, only those
whose SHA-256 is computed here from the very page being sent (``'sha256-…'``), so no
other inline script can run on them; styles may also be inline (ReDoc writes its styles
at run time), images may be ``data:`` URLs (Swagger UI's icons) and ReDoc may start its
search worker from a ``blob:``.  Everything else on these pages stays as strict as on
the client's (``object-src 'none'``, ``frame-ancestors 'none'``, ``base-uri 'self'``).

This module never reads a body past the limit and never lets an answer leave without
its headers; it knows nothing of games, tables or sessions (:func:`is_table_id` only
checks the shape of an id).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Collection, Iterable
from typing import TYPE_CHECKING

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rummykit.server.accounts.docs_assets import DOCS_PATHS

if TYPE_CHECKING:
    from fastapi import FastAPI

    from rummykit.server.settings import Settings

# A table id is ``secrets.token_hex(8)``: 16 lower-case hex digits.
TABLE_ID = re.compile(r"[0-9a-f]{16}")

# A Host header fit to be written into the policy (a name or an address, and a port).
SAFE_HOST = re.compile(r"(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?")

COMMON_DIRECTIVES = (
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
)
FIXED_HEADERS = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
)
SET_HEADERS = {name for name, _ in FIXED_HEADERS} | {b"content-security-policy"}
INLINE_SCRIPT = re.compile(rb"<script(\s[^>]*)?>(.*?)</script\s*>", re.DOTALL | re.IGNORECASE)


def is_table_id(value: str) -> bool:
    """Whether ``value`` has the shape of a table id (16 lower-case hex digits).

    Routes answer anything else with ``not_found`` before asking the database; the
    table WebSocket handler calls this before looking the table up.

    >>> is_table_id("0123456789abcdef")
    True
    >>> [is_table_id(v) for v in ("0123456789ABCDEF", "0123456789abcde\\x00", "../api", "")]
    [False, False, False, False]
    """
    return TABLE_ID.fullmatch(value) is not None


def client_policy(host: str | None) -> str:
    """The policy of the browser client, the API and every other answer.

    ``connect-src`` names the WebSocket addresses of ``host`` (the request's Host header)
    besides ``'self'``, which older browsers do not stretch to ``ws:``/``wss:``; a Host
    header that is not a plain host name and port is left out.

    >>> client_policy("example.org:8000").split("; ")[4]
    "connect-src 'self' ws://example.org:8000 wss://example.org:8000"
    >>> "evil" in client_policy("x; script-src evil")
    False
    """
    connect = "connect-src 'self'"
    if host is not None and SAFE_HOST.fullmatch(host):
        connect += f" ws://{host} wss://{host}"
    return "; ".join(
        (
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self'",
            connect,
            *COMMON_DIRECTIVES,
        )
    )


def docs_policy(script_hashes: Iterable[str]) -> str:
    """The policy of the documentation pages (see the module's docstring)."""
    hashes = "".join(f" 'sha256-{h}'" for h in script_hashes)
    return "; ".join(
        (
            "default-src 'self'",
            f"script-src 'self'{hashes}",
            "style-src 'self' 'unsafe-inline'",
            "font-src 'self'",
            "img-src 'self' data:",
            "connect-src 'self'",
            "worker-src 'self' blob:",
            *COMMON_DIRECTIVES,
        )
    )


def inline_script_hashes(page: bytes) -> list[str]:
    """The base64 SHA-256 of each inline ``<script>`` of ``page``, as CSP hashes them.

    >>> inline_script_hashes(b'<script src="a.js"></script><script>go()</script>')
    ['5KYv+PUboo5h+0+YAtGRPbwv5d/QxzHslP4YGnUaxRw=']
    """
    return [
        base64.b64encode(hashlib.sha256(body).digest()).decode()
        for attributes, body in INLINE_SCRIPT.findall(page)
        if b"src=" not in attributes.lower()
    ]


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


def _with_security(
    headers: Iterable[tuple[bytes, bytes]], policy: str
) -> list[tuple[bytes, bytes]]:
    kept = [(k, v) for k, v in headers if bytes(k).lower() not in SET_HEADERS]
    return [*kept, (b"content-security-policy", policy.encode()), *FIXED_HEADERS]


def error_answer(code: str, message: str, params: dict[str, object]) -> bytes:
    """The typed error body every HTTP error of the server has."""
    body = {"error": {"code": code, "message": message, "params": params}}
    return json.dumps(body, separators=(",", ":")).encode()


async def send_error(
    send: Send,
    status: int,
    code: str,
    message: str,
    params: dict[str, object],
    *,
    close: bool = False,
) -> None:
    """Answer ``status`` with the typed error body; ``close`` asks the server to close the
    connection afterwards (the rest of the request is not worth reading)."""
    body = error_answer(code, message, params)
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class SecurityHeaders:
    """Adds the security headers to every HTTP answer (see the module's docstring)."""

    def __init__(self, app: ASGIApp, *, docs_paths: Collection[str] = ()) -> None:
        self.app = app
        self.docs_paths = frozenset(docs_paths)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["path"] in self.docs_paths:
            await self._docs_page(scope, receive, send)
            return
        policy = client_policy(_header(scope, b"host"))
        started = False

        async def send_secured(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = _with_security(message.get("headers", ()), policy)
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, send_secured)
        except Exception:
            if not started:
                await send_error(
                    send_secured, 500, "internal_error", "the server failed on this request", {}
                )
            raise

    async def _docs_page(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Send a documentation page whole, its policy naming the hashes of its inline
        scripts (the page is small and made by the server, so it is held until its end)."""
        start: Message | None = None
        chunks: list[bytes] = []

        async def send_whole(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
                return
            if message["type"] != "http.response.body" or start is None:
                await send(message)
                return
            chunks.append(message.get("body", b""))
            if message.get("more_body", False):
                return
            page = b"".join(chunks)
            policy = docs_policy(inline_script_hashes(page))
            await send({**start, "headers": _with_security(start.get("headers", ()), policy)})
            await send({"type": "http.response.body", "body": page})

        await self.app(scope, receive, send_whole)


class BodyLimit:
    """Refuses request bodies over ``max_bytes`` with 413 ``body_too_large``."""

    def __init__(self, app: ASGIApp, *, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def _refuse(self, send: Send) -> None:
        await send_error(
            send,
            413,
            "body_too_large",
            f"the request body is over {self.max_bytes} bytes",
            {"max_bytes": self.max_bytes},
            close=True,
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _header(scope, b"content-length")
        if declared is not None and declared.strip().isdigit() and int(declared) > self.max_bytes:
            await self._refuse(send)
            return
        received = 0
        refused = False  # the limit was passed: nothing more is read
        answered = False  # ... and the 413 was sent in place of the application's answer
        started = False

        async def limited_receive() -> Message:
            nonlocal received, refused, answered
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    # stop here: the application sees a client that left, and its own
                    # answer to that is dropped in favour of the 413
                    refused = True
                    if not started:
                        answered = True
                        await self._refuse(send)
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if answered:
                return
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        await self.app(scope, limited_receive, guarded_send)


def install(app: FastAPI, settings: Settings) -> None:
    """Add both middlewares to ``app``, the headers outermost so that the 413 has them."""
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(SecurityHeaders, docs_paths=DOCS_PATHS)
