"""What links the accounts of one person, as a session starts: the browser (a long-lived
id cookie of its own, ``rummykit_browser``, unrelated to any account) and the address.

Both are stored only as keyed hashes (:meth:`Sessions.trace`), and forgotten after
``link_days`` (a setting); which of them decide is ``storage/account_links.py``'s
``DECIDING_KINDS``.
"""

from __future__ import annotations

import re
import secrets
from typing import Final

from fastapi import Request, Response

from rummykit.server.accounts.auth import Sessions

BROWSER_COOKIE: Final = "rummykit_browser"
BROWSER_MAX_AGE: Final = 60 * 60 * 24 * 365 * 2
_BROWSER_ID: Final = re.compile(r"[A-Za-z0-9_-]{16,64}")


def browser_id(request: Request, response: Response, *, secure: bool) -> str:
    """The browser's id: its cookie's, or a new one given to it now."""
    known = request.cookies.get(BROWSER_COOKIE, "")
    if _BROWSER_ID.fullmatch(known):
        return known
    made = secrets.token_urlsafe(18)
    response.set_cookie(
        BROWSER_COOKIE,
        made,
        max_age=BROWSER_MAX_AGE,
        httponly=True,
        samesite="lax",
        secure=secure,
        path="/",
    )
    return made


def traces(sessions: Sessions, browser: str, address: str) -> list[tuple[str, str]]:
    """The traces (kind, keyed hash) of a session opened by ``browser`` from ``address``."""
    return [
        ("browser", sessions.trace("browser", browser)),
        ("address", sessions.trace("address", address)),
    ]
