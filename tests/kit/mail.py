"""A real SMTP server for the tests (``aiosmtpd``, on 127.0.0.1 in a thread of its own),
which offers a login (each good one noted in ``logins``, so a test sees the URL's user
and password used) and keeps every message it is handed, parsed.

>>> server = MailServer()
>>> server.url.startswith("smtp://mailer:s%40cret@127.0.0.1:")
True
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from tests.kit.threaded import free_port
from tests.kit.wait import wait_until

USER = "mailer"
PASSWORD = "s@cret"


@dataclass(frozen=True, slots=True)
class Delivered:
    """One message as the server received it: the envelope's recipients and the mail."""

    recipients: tuple[str, ...]
    mail: EmailMessage

    @property
    def text(self) -> str:
        body = self.mail.get_body(preferencelist=("plain",))
        assert body is not None
        return str(body.get_content())


class MailServer:
    """The server and the messages it took (``delivered``), in order."""

    def __init__(self) -> None:
        self.port = free_port()
        self.delivered: list[Delivered] = []
        self.logins: list[str] = []
        self._lock = threading.Lock()
        self._controller: Controller | None = None

    @property
    def url(self) -> str:
        """The server's URL as ``RUMMYKIT_SMTP_URL`` names it (the password encoded)."""
        return f"smtp://{USER}:s%40cret@127.0.0.1:{self.port}"

    def start(self) -> MailServer:
        self._controller = Controller(
            self,
            hostname="127.0.0.1",
            port=self.port,
            authenticator=self._authenticate,
            auth_required=False,  # (with TLS not required, aiosmtpd warns of it)
            auth_require_tls=False,
        )
        self._controller.start()
        return self

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()

    def _authenticate(
        self, server: Any, session: Any, envelope: Any, mechanism: str, data: Any
    ) -> AuthResult:
        if isinstance(data, LoginPassword) and (data.login, data.password) == (
            USER.encode(),
            PASSWORD.encode(),
        ):
            with self._lock:
                self.logins.append(USER)
            return AuthResult(success=True)
        return AuthResult(success=False, handled=False)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        mail = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(mail, EmailMessage)
        with self._lock:
            self.delivered.append(Delivered(tuple(envelope.rcpt_tos), mail))
        return "250 Message accepted"

    def messages(self) -> list[Delivered]:
        with self._lock:
            return list(self.delivered)

    def wait_for(self, count: int, timeout: float = 30.0) -> list[Delivered]:
        """The first ``count`` messages, once they have come."""

        def arrived() -> list[Delivered] | None:
            found = self.messages()
            return found[:count] if len(found) >= count else None

        return wait_until(arrived, timeout, what=f"{count} messages")


@pytest.fixture
def mail_server() -> Iterator[MailServer]:
    """An SMTP server for this test, stopped at its end."""
    server = MailServer().start()
    yield server
    server.stop()
