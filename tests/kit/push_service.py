"""A push service of the test's own: an HTTPS server on 127.0.0.1 (a certificate made for
the test, for ``127.0.0.1`` and ``push.test``) that keeps every message posted to it,
and a browser's subscription to it with a key pair and auth secret of the test's own,
so that a test decrypts what the server sent (``http_ece``) and checks its VAPID
signature.

The server's own push client refuses this endpoint (a loopback address);
:meth:`PushService.client` is a client that trusts the certificate and allows this
machine's loopback addresses, which a test hands the app (``push_client=``).
"""

from __future__ import annotations

import base64
import datetime
import ipaddress
import json
import os
import ssl
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from rummykit.server.notify.endpoints import PushClient
from tests.kit.wait import wait_until


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True, slots=True)
class Posted:
    """One post: its path, headers (lower-case names) and body."""

    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Subscriber:
    """A browser's keys: what it subscribes with, and what decrypts its messages."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self) -> dict[str, Any]:
        """The subscription as ``PushSubscription.toJSON()`` gives it."""
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64(public), "auth": b64(self.auth)}}

    def decrypt(self, posted: Posted) -> dict[str, Any]:
        """The JSON a message carries, decrypted with this browser's keys."""
        assert posted.headers["content-encoding"] == "aes128gcm"
        plain = http_ece.decrypt(
            posted.body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        found: dict[str, Any] = json.loads(plain)
        return found


def _certificate() -> tuple[bytes, bytes]:
    """A self-signed certificate for 127.0.0.1 and push.test, and its key (PEM)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "push.test")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("push.test"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    return (
        certificate.public_bytes(serialization.Encoding.PEM),
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ),
    )


class PushService:
    """The HTTPS server; ``status``, ``answer_body`` and ``headers_out`` are its answer
    to every post."""

    def __init__(self) -> None:
        self.posted: list[Posted] = []
        self.status = 201
        self.answer_body = b""
        self.headers_out: dict[str, str] = {}
        self._lock = threading.Lock()
        self.certificate, key = _certificate()
        with tempfile.TemporaryDirectory() as folder:
            paths = [os.path.join(folder, n) for n in ("cert.pem", "key.pem")]
            for path, data in zip(paths, (self.certificate, key), strict=True):
                with open(path, "wb") as out:
                    out.write(data)
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(*paths)
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                body = self.rfile.read(length)
                headers = {k.lower(): v for k, v in self.headers.items()}
                with service._lock:
                    service.posted.append(Posted(self.path, headers, body))
                self.send_response(service.status)
                for name, value in service.headers_out.items():
                    self.send_header(name, value)
                self.send_header("content-length", str(len(service.answer_body)))
                self.end_headers()
                self.wfile.write(service.answer_body)

            def log_message(self, *_: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.socket = context.wrap_socket(self._server.socket, server_side=True)
        self.port = self._server.server_address[1]
        # ``shutdown`` waits for the server's loop to look at its flag, every half second
        # by default: a test's end would wait that long
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    def start(self) -> PushService:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def endpoint(self, name: str, host: str = "127.0.0.1") -> str:
        return f"https://{host}:{self.port}/push/{name}"

    def subscriber(self, name: str) -> Subscriber:
        return Subscriber(self.endpoint(name))

    def trusting(self) -> ssl.SSLContext:
        """A client's TLS context that trusts this server's certificate."""
        return ssl.create_default_context(cadata=self.certificate.decode())

    def client(self, **options: Any) -> PushClient:
        """A push client that reaches this server: loopback allowed, its certificate
        trusted (``options``: a resolver...)."""
        return PushClient(
            allowed=lambda address: address.is_loopback, ssl_context=self.trusting(), **options
        )

    def messages(self) -> list[Posted]:
        with self._lock:
            return list(self.posted)

    def wait_for(self, count: int) -> list[Posted]:
        def arrived() -> list[Posted] | None:
            found = self.messages()
            return found[:count] if len(found) >= count else None

        return wait_until(arrived, what=f"{count} push messages")


@pytest.fixture
def push_service() -> Iterator[PushService]:
    """A push service for this test, stopped at its end."""
    service = PushService().start()
    yield service
    service.stop()
