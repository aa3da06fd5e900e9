"""The one way the server talks to a push service, kept from being a request proxy.

A push subscription's endpoint comes from a browser, so from anyone: the server must
not post to whatever it names.  :class:`PushClient` posts only

- to an ``https`` URL with a host name or address and no user name or password;
- to addresses that are public (:func:`public_address`): after the name is resolved,
  every address it resolves to must be public, and the connection is made to those
  checked addresses only (a second lookup cannot swap in a private one);
- within a time limit, without following redirects, without the environment's
  proxies, reading at most :data:`MAX_ANSWER_BYTES` of the answer.

Tests reach a push endpoint of their own on this machine by handing a client their
own resolver, address check and TLS context (``PushClient(resolve=..., allowed=...,
ssl_context=...)``); no setting widens what a server's own client accepts.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import ssl
from collections.abc import Awaitable, Callable
from typing import Any, Final
from urllib.parse import urlsplit

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult

MAX_ANSWER_BYTES: Final = 16_384
"""The most of a push service's answer read."""
TIMEOUT_SECONDS: Final = 10.0
"""The most a post to a push service may take, from the lookup to the answer."""

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolve = Callable[[str, int], Awaitable[list[str]]]
"""A lookup: a host name and port to the addresses (as text) it names."""


class EndpointRefused(Exception):
    """The endpoint is not one the server posts to: ``reason`` says why (``scheme``,
    ``host``, ``address``, ``lookup``)."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"push endpoint refused: {reason}")
        self.reason = reason


def public_address(address: Address) -> bool:
    """Whether ``address`` is on the public internet: not loopback, private, link-local,
    shared, reserved, multicast or unspecified (an IPv4 address inside IPv6 is judged
    as itself).

    >>> [public_address(ipaddress.ip_address(a)) for a in
    ...  ("93.184.216.34", "127.0.0.1", "10.1.2.3", "169.254.169.254", "::ffff:10.0.0.1")]
    [True, False, False, False, False]
    """
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_global and not address.is_multicast


def endpoint_host(url: str, allowed: Callable[[Address], bool] = public_address) -> tuple[str, int]:
    """The host and port of an endpoint the server may post to, by its form alone
    (``EndpointRefused`` otherwise); a literal address must be ``allowed`` (public)."""
    try:
        parts = urlsplit(url)
        port = parts.port or 443
    except ValueError:
        raise EndpointRefused("host") from None
    if parts.scheme != "https":
        raise EndpointRefused("scheme")
    host = parts.hostname
    if not host or parts.username is not None or parts.password is not None:
        raise EndpointRefused("host")
    try:
        literal: Address | None = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None and not allowed(literal):
        raise EndpointRefused("address")
    return host, port


async def system_lookup(host: str, port: int) -> list[str]:
    """The addresses the system's resolver gives ``host``."""
    found = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in found]


class _Pinned(AbstractResolver):
    """A resolver that answers only the addresses checked before the connection."""

    def __init__(self, host: str, addresses: list[Address]) -> None:
        self._host = host
        self._addresses = addresses

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        if host != self._host:
            raise OSError(f"no lookup of {host}")
        return [
            ResolveResult(
                hostname=host,
                host=str(address),
                port=port,
                family=socket.AF_INET6 if address.version == 6 else socket.AF_INET,
                proto=0,
                flags=socket.AI_NUMERICHOST,
            )
            for address in self._addresses
        ]

    async def close(self) -> None:
        pass


class PushClient:
    """Posts to push services, and nowhere else (see the module's docstring)."""

    def __init__(
        self,
        *,
        resolve: Resolve = system_lookup,
        allowed: Callable[[Address], bool] = public_address,
        ssl_context: ssl.SSLContext | None = None,
        timeout: float = TIMEOUT_SECONDS,
    ) -> None:
        self._resolve = resolve
        self._allowed = allowed
        self._ssl: ssl.SSLContext | bool = ssl_context if ssl_context is not None else True
        self._timeout = timeout

    def check_form(self, url: str) -> None:
        """Refuse (``EndpointRefused``) an endpoint this client never posts to, by its
        form alone: what a subscription is checked with before it is kept."""
        endpoint_host(url, self._allowed)

    async def addresses(self, url: str) -> tuple[str, list[Address]]:
        """The host of ``url`` and the addresses to connect to, every one allowed."""
        host, port = endpoint_host(url, self._allowed)
        try:
            literal: Address | None = ipaddress.ip_address(host)
        except ValueError:
            literal = None
        if literal is not None:
            found = [literal]
        else:
            try:
                found = [
                    ipaddress.ip_address(a.split("%")[0]) for a in await self._resolve(host, port)
                ]
            except (OSError, ValueError):
                raise EndpointRefused("lookup") from None
        if not found or not all(self._allowed(address) for address in found):
            raise EndpointRefused("address")
        return host, found

    async def post(self, url: str, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
        """Post ``body`` to ``url``: the answer's status and at most
        :data:`MAX_ANSWER_BYTES` of its body (``EndpointRefused`` for an endpoint the
        server does not post to, ``aiohttp.ClientError`` or ``TimeoutError`` when the
        post fails)."""
        async with asyncio.timeout(self._timeout):
            host, found = await self.addresses(url)
            connector = aiohttp.TCPConnector(resolver=_Pinned(host, found), ssl=self._ssl)
            timeout = aiohttp.ClientTimeout(total=self._timeout)
            async with (
                aiohttp.ClientSession(
                    connector=connector, timeout=timeout, trust_env=False
                ) as session,
                session.post(url, data=body, headers=headers, allow_redirects=False) as answer,
            ):
                return answer.status, await answer.content.read(MAX_ANSWER_BYTES)


def describe(error: BaseException) -> str:
    """A short text of a failed post, for the outbox's ``error``."""
    text: Any = getattr(error, "reason", None) or type(error).__name__
    return str(text)[:200]
