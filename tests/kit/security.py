"""What every answer of the server carries for a browser's safety: the fixed security
headers, and its Content-Security-Policy read as directives."""

from __future__ import annotations

FIXED = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}
"""The security headers every answer carries, with their one value."""


def directives(policy: str) -> dict[str, list[str]]:
    """A Content-Security-Policy as {directive: its sources}.

    >>> directives("default-src 'self'; img-src 'self' data:")
    {'default-src': ["'self'"], 'img-src': ["'self'", 'data:']}
    """
    parts = [p.split() for p in policy.split(";") if p.strip()]
    return {p[0]: p[1:] for p in parts}
