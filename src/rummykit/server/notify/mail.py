"""E-mail through the host's SMTP server (``RUMMYKIT_SMTP_URL``), with ``aiosmtplib``.

``smtp://user:password@host:587`` sends with STARTTLS when the server offers it (port
587 when none is given), ``smtps://`` over TLS from the start (port 465); the user and
password are optional and may be percent-encoded.  Every message is plain text in the
player's language and carries its unsubscribe link, in its text and in the
``List-Unsubscribe`` headers (RFC 8058: a mail program may unsubscribe in one click),
except the verification message, which is sent only because its reader asked.

>>> server = smtp_server("smtp://mailer:s%40cret@mail.example.org")
>>> (server.hostname, server.port, server.username, server.password, server.use_tls)
('mail.example.org', 587, 'mailer', 's@cret', False)
"""

from __future__ import annotations

from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from urllib.parse import unquote, urlsplit

import aiosmtplib

from rummykit.server.notify.words import Words, phrase

TIMEOUT_SECONDS = 30.0
"""The most one talk with the SMTP server may take."""


@dataclass(frozen=True, slots=True)
class SmtpServer:
    hostname: str
    port: int
    username: str | None
    password: str | None
    use_tls: bool


def smtp_server(url: str) -> SmtpServer:
    """The server an ``smtp://`` or ``smtps://`` URL names."""
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise ValueError("RUMMYKIT_SMTP_URL is smtp://[user:password@]host[:port] or smtps://")
    tls = parts.scheme == "smtps"
    return SmtpServer(
        hostname=parts.hostname,
        port=parts.port or (465 if tls else 587),
        username=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password else None,
        use_tls=tls,
    )


def message(
    *,
    sender: str,
    to: str,
    words: Words,
    language: str,
    link: str,
    unsubscribe: tuple[str, str] | None,
) -> EmailMessage:
    """A notification's mail: its line and link, then (but for a verification) the
    unsubscribe line; ``unsubscribe`` is the page's and the one-click address."""
    mail = EmailMessage()
    mail["From"] = sender
    mail["To"] = to
    mail["Subject"] = words.title
    mail["Date"] = formatdate(usegmt=True)
    mail["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2])
    lines = [words.line, ""]
    if unsubscribe is None:
        lines += [link, "", phrase("ignore", language)]
    else:
        page, one_click = unsubscribe
        lines += [
            phrase("open", language, link=link),
            "",
            "-- ",
            phrase("footer", language, link=page),
        ]
        mail["List-Unsubscribe"] = f"<{one_click}>"
        mail["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    mail.set_content("\n".join(lines) + "\n", charset="utf-8")
    mail["Content-Language"] = language  # after the content, which clears Content-*
    return mail


async def send_mail(server: SmtpServer, mail: EmailMessage) -> None:
    """Hand ``mail`` to the SMTP server (raises ``aiosmtplib.SMTPException`` or
    ``OSError`` when it cannot)."""
    await aiosmtplib.send(
        mail,
        hostname=server.hostname,
        port=server.port,
        username=server.username,
        password=server.password,
        use_tls=server.use_tls,
        start_tls=None if not server.use_tls else False,
        timeout=TIMEOUT_SECONDS,
    )
