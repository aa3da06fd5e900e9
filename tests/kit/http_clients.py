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


def client(**options: Any) -> httpx.Client:
    """An ``httpx.Client`` with the shared TLS context (``options`` as httpx takes them)."""
    return httpx.Client(verify=TLS, **options)


def async_client(**options: Any) -> httpx.AsyncClient:
    """An ``httpx.AsyncClient`` with the shared TLS context."""
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
