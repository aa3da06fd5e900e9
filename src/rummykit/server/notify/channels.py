"""Which channels a host offers, from its settings: the page always, e-mail with an SMTP
server, a sender's address and the site's public address (for the links), Web Push
with a contact for the push services."""

from __future__ import annotations

from rummykit.server.settings import Settings


def offered(settings: Settings) -> list[str]:
    """The channels of ``settings``, in the protocol's order.

    >>> offered(Settings(database_url="sqlite+aiosqlite://"))
    ['page']
    >>> offered(Settings(database_url="sqlite+aiosqlite://", push_contact="mailto:a@b.org"))
    ['page', 'push']
    """
    channels = ["page"]
    if settings.push_contact:
        channels.append("push")
    if settings.smtp_url and settings.mail_from and settings.public_url:
        channels.append("email")
    return channels
