"""HTTP clients for the servers the tests start, all sharing one TLS context.

httpx builds a TLS context for every client it makes (``httpx.get`` makes a client for
each call), and each loads certifi's certificates: 20 ms of the processor on an idle
machine, 150 ms on a busy one.  A wait that asked a starting server for ``/healthz`` ten
times a second spent most of a core that way, on the machine whose cores the server
needed to start.  The tests speak plain HTTP to their own servers; the context is only
there because httpx wants one.
"""

from __future__ import annotations

from typing import Any

import httpx

TLS = httpx.create_ssl_context()
"""The one TLS context of every client made here."""

TIME_LIMIT = 60.0
"""Seconds a client made here waits to connect, to send and for each answer, unless
given a ``timeout`` of its own: httpx's default is 5 s, and a test server sharing two
cores with browsers and other servers was seen leaving its event loop unrun for 5 s (a
``loop_stalled`` line with 11 ms of its own work), so a test that is not about how fast
an answer comes failed on it.  A test about time gives its own limit."""


def client(**options: Any) -> httpx.Client:
    """An ``httpx.Client`` with the shared TLS context and :data:`TIME_LIMIT` (``options``
    as httpx takes them)."""
    options.setdefault("timeout", TIME_LIMIT)
    return httpx.Client(verify=TLS, **options)


def async_client(**options: Any) -> httpx.AsyncClient:
    """An ``httpx.AsyncClient`` with the shared TLS context and :data:`TIME_LIMIT`."""
    options.setdefault("timeout", TIME_LIMIT)
    return httpx.AsyncClient(verify=TLS, **options)


CLIENT_OPTIONS = ("cookies", "timeout", "proxy", "trust_env")
"""The options of :func:`request` that go to its client, as ``httpx.request`` takes them."""


def request(method: str, url: str, **options: Any) -> httpx.Response:
    """One request in a client of its own, as ``httpx.request`` makes it (the client
    takes the cookies and the time limit; httpx warns of cookies given to a request)."""
    made = {name: options.pop(name) for name in CLIENT_OPTIONS if name in options}
    with client(**made) as http:
        return http.request(method, url, **options)


def get(url: str, **options: Any) -> httpx.Response:
    return request("GET", url, **options)


def post(url: str, **options: Any) -> httpx.Response:
    return request("POST", url, **options)
