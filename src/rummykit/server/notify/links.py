"""The links a notification carries: the page it is about, and the signed links that
confirm an address or stop e-mail to it without logging in.

A link's token is signed with the server's key and names one player and one address:
it confirms (for a week) or unsubscribes only that address, and only while it is the
player's address; a token made for another address, or forged, is refused.

>>> links = Links("key", "https://cards.example.org")
>>> token = links.unsubscribe_token("p1", "ann@example.org")
>>> links.unsubscribed(token)
('p1', 'ann@example.org')
>>> links.unsubscribed(token + "x") is None
True
>>> links.page({"invite_token": "T"}, "t1")
'https://cards.example.org/#/table/t1?token=T'
"""

from __future__ import annotations

from typing import Any, Final
from urllib.parse import quote

from itsdangerous import BadSignature, URLSafeSerializer, URLSafeTimedSerializer

VERIFY_SECONDS: Final = 7 * 24 * 3600
"""How long a verification link works."""


class Links:
    """Signed tokens and the site's addresses."""

    def __init__(self, key: str, public_url: str) -> None:
        self._verify = URLSafeTimedSerializer(key, salt="rummykit-verify-email")
        self._unsubscribe = URLSafeSerializer(key, salt="rummykit-unsubscribe")
        self.base = public_url.rstrip("/")

    def verify_token(self, player_id: str, email: str) -> str:
        return str(self._verify.dumps([player_id, email]))

    def verified(self, token: str, *, max_age: int = VERIFY_SECONDS) -> tuple[str, str] | None:
        """The player and address a verification token names, unless it is forged or
        older than ``max_age``."""
        try:
            return _pair(self._verify.loads(token, max_age=max_age))
        except BadSignature:
            return None

    def unsubscribe_token(self, player_id: str, email: str) -> str:
        return str(self._unsubscribe.dumps([player_id, email]))

    def unsubscribed(self, token: str) -> tuple[str, str] | None:
        """The player and address an unsubscribe token names, unless it is forged."""
        try:
            return _pair(self._unsubscribe.loads(token))
        except BadSignature:
            return None

    def verify_page(self, token: str) -> str:
        return f"{self.base}/#/verify-email?token={quote(token)}"

    def unsubscribe_page(self, token: str) -> str:
        return f"{self.base}/#/unsubscribe?token={quote(token)}"

    def one_click_unsubscribe(self, token: str) -> str:
        """The address a mail program posts to (RFC 8058) to unsubscribe in one click."""
        return f"{self.base}/api/notifications/unsubscribe?token={quote(token)}"

    def page(self, params: dict[str, Any], table_id: str | None) -> str:
        """The page a message is about: its table (with a rematch's invitation token),
        or its tournament."""
        return self.base + "/" + path_of(params, table_id)


def path_of(params: dict[str, Any], table_id: str | None) -> str:
    """The page's address on the site, from ``/`` on (``#/table/ID``...)."""
    if table_id is not None:
        token = params.get("invite_token")
        suffix = f"?token={quote(str(token))}" if token else ""
        return f"#/table/{quote(table_id)}{suffix}"
    if params.get("tournament_id"):
        return f"#/tournament/{quote(str(params['tournament_id']))}"
    return "#/"


def _pair(value: Any) -> tuple[str, str] | None:
    if isinstance(value, list) and len(value) == 2 and all(isinstance(part, str) for part in value):
        return value[0], value[1]
    return None
