"""Web Push (RFC 8030, 8291, 8292) with ``pywebpush`` and ``py_vapid``.

The server's VAPID key pair is derived from a secret kept in the database (made at the
first start by whichever process comes first), so every process of a site signs with
the same key and a browser's subscription survives restarts.  A message is JSON
(:func:`payload`) encrypted for the subscription's keys (``aes128gcm``) and signed for
its push service's origin; it is posted by :class:`~.endpoints.PushClient`, nowhere but
a public ``https`` address.

>>> key = vapid_key("a secret")
>>> len(application_server_key(key))
87
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02
from pywebpush import WebPusher

from rummykit.server.notify.endpoints import PushClient

MAX_PAYLOAD_BYTES: Final = 3000
"""The most a message's JSON may hold (push services take about 4 KiB, encrypted)."""
TTL_SECONDS: Final = 24 * 3600
"""How long a push service keeps a message for a browser that is away."""
# the order of the P-256 group: a private key is a number from 1 to it less one
_ORDER: Final = int("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551", 16)


def vapid_key(secret: str) -> ec.EllipticCurvePrivateKey:
    """The site's VAPID private key, derived from its stored ``secret``."""
    number = int.from_bytes(hashlib.sha256(b"rummykit-vapid:" + secret.encode()).digest(), "big")
    return ec.derive_private_key(number % (_ORDER - 1) + 1, ec.SECP256R1())


def application_server_key(key: ec.EllipticCurvePrivateKey) -> str:
    """The public key a browser subscribes with (``applicationServerKey``), base64url."""
    raw = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def payload(*, title: str, body: str, path: str, kind: str, tag: str) -> bytes:
    """The JSON the service worker (``web/service-worker.js``) shows: a title, a line,
    the page to open (from the site's root) and a tag (one notification per tag)."""
    data = {"title": title, "body": body, "path": path, "kind": kind, "tag": tag}
    encoded = json.dumps(data, ensure_ascii=False).encode()
    if len(encoded) > MAX_PAYLOAD_BYTES:
        data["body"] = body[:200]
        encoded = json.dumps(data, ensure_ascii=False).encode()
    return encoded


class BadSubscription(Exception):
    """A subscription's keys cannot encrypt a message (not a P-256 point, a short auth
    secret)."""


def check_keys(p256dh: str, auth: str) -> None:
    """Refuse (``BadSubscription``) keys no browser makes: ``p256dh`` an uncompressed
    P-256 point, ``auth`` 16 bytes (both base64url).

    >>> check_keys(application_server_key(vapid_key("x")), "A" * 22)
    >>> check_keys("BAAA", "A" * 22)
    Traceback (most recent call last):
    ...
    rummykit.server.notify.push.BadSubscription: the subscription's keys are not a browser's
    """
    try:
        point = base64.urlsafe_b64decode(p256dh + "=" * (-len(p256dh) % 4))
        secret = base64.urlsafe_b64decode(auth + "=" * (-len(auth) % 4))
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise BadSubscription("the subscription's keys are not a browser's") from None
    if len(point) != 65 or len(secret) != 16:
        raise BadSubscription("the subscription's keys are not a browser's")


@dataclass(frozen=True, slots=True)
class Subscription:
    endpoint: str
    p256dh: str
    auth: str


class PushSender:
    """Encrypts, signs and posts one message to one subscription."""

    def __init__(self, key: ec.EllipticCurvePrivateKey, contact: str, client: PushClient) -> None:
        self._vapid: Any = Vapid02(private_key=key)
        self._contact = contact
        self.client = client

    async def send(self, subscription: Subscription, message: bytes) -> int:
        """Post ``message``: the push service's status (201 taken, 404 or 410: the
        subscription is gone); ``BadSubscription`` when its keys cannot be used."""
        check_keys(subscription.p256dh, subscription.auth)
        pusher: Any = WebPusher(
            {
                "endpoint": subscription.endpoint,
                "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
            }
        )
        try:
            body = pusher.encode(message, "aes128gcm")["body"]
        except Exception as error:  # pywebpush's and cryptography's errors of bad keys
            raise BadSubscription(str(error)) from None
        parts = urlsplit(subscription.endpoint)
        origin = f"{parts.scheme}://{parts.netloc}"
        headers = {
            str(k): str(v)
            for k, v in self._vapid.sign({"aud": origin, "sub": self._contact}).items()
        }
        headers |= {
            "Content-Encoding": "aes128gcm",
            "Content-Type": "application/octet-stream",
            "TTL": str(TTL_SECONDS),
            "Urgency": "normal",
        }
        status, _ = await self.client.post(subscription.endpoint, body, headers)
        return status
