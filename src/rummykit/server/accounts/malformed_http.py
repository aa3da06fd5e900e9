"""The answer to a request too malformed to reach the application.

uvicorn answers bytes that are not HTTP (a broken request line, a bad header) with its
own 400 before any ASGI middleware runs, so :class:`~.security.SecurityHeaders` never
sees it: that answer came as plain text without the security headers.  The protocols
here are uvicorn's own (h11's and httptools') with only that answer replaced: a typed
JSON error (``bad_request``) that carries the client policy and the fixed headers
every other answer has.  ``rummykit serve`` runs uvicorn with :func:`http_protocol`;
behind a reverse proxy that answers malformed requests itself, the proxy must add the
same headers (docs/protocol.md, "Request bodies and headers").
"""

from __future__ import annotations

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from rummykit.server.accounts.security import FIXED_HEADERS, client_policy, error_answer

BAD_REQUEST = "the request is not well-formed HTTP"


def bad_request_answer() -> tuple[list[tuple[bytes, bytes]], bytes]:
    """The headers and body of the 400 for a malformed request (no Host header is
    trusted: the policy names no WebSocket address)."""
    body = error_answer("bad_request", BAD_REQUEST, {})
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
        (b"content-security-policy", client_policy(None).encode()),
        *FIXED_HEADERS,
    ]
    return headers, body


class SecuredH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, its 400 for a malformed request typed and secured."""

    def send_400_response(self, msg: str) -> None:
        headers, body = bad_request_answer()
        for event in (
            h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
            h11.Data(data=body),
            h11.EndOfMessage(),
        ):
            self.transport.write(self.conn.send(event) or b"")
        self.transport.close()


def _httptools_protocol() -> type | None:
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # httptools is optional: h11 serves then
        return None

    class SecuredHttpToolsProtocol(HttpToolsProtocol):
        """uvicorn's httptools protocol, its 400 for a malformed request typed and
        secured."""

        def send_400_response(self, msg: str) -> None:
            headers, body = bad_request_answer()
            head = b"HTTP/1.1 400 Bad Request\r\n" + b"".join(
                name + b": " + value + b"\r\n" for name, value in headers
            )
            self.transport.write(head + b"\r\n" + body)
            self.transport.close()

    return SecuredHttpToolsProtocol


def http_protocol() -> type:
    """The protocol class for ``uvicorn.run(http=...)``: httptools' if it is installed
    (as uvicorn's ``auto`` picks), else h11's."""
    return _httptools_protocol() or SecuredH11Protocol
