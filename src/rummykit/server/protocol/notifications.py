"""Notifications on the wire: the kinds a player is told of, the channels, and the
bodies of ``/api/notifications/*`` (docs/protocol.md, "Notifications").

A kind is what happened (``your_turn``, ``game_ended``, ``invitation``, ``time_low``,
``tournament_round``); a channel is how a player is told: ``page`` (an open page of the
site shows it: always offered, nothing is sent), ``push`` (Web Push to the browsers the
player subscribed) and ``email`` (to the player's verified address).  This module is
data; it sends nothing.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Final, Literal

from pydantic import AfterValidator, BaseModel, Field, field_validator

KINDS: Final = ("your_turn", "game_ended", "invitation", "time_low", "tournament_round")
"""The kinds a player chooses channels for."""
CHANNELS: Final = ("page", "push", "email")
"""Every channel, ``page`` first (the one every host offers)."""
LANGUAGES: Final = ("en", "hu", "ru")
"""The languages of what is sent."""

Channel = Literal["page", "push", "email"]
Language = Literal["en", "hu", "ru"]


def visible(text: str) -> str:
    """``text`` if it holds no control, format, private-use or unassigned character (NUL
    and the right-to-left override among them), which no address, endpoint or token
    holds; else a validation error.

    >>> visible("ann@example.org")
    'ann@example.org'
    >>> visible("ann\\x00@example.org")
    Traceback (most recent call last):
    ...
    ValueError: holds a control or invisible character
    """
    if any(unicodedata.category(character)[0] == "C" for character in text):
        raise ValueError("holds a control or invisible character")
    return text


Visible = Annotated[str, AfterValidator(visible)]


class NotificationChoices(BaseModel):
    """What a player chose: for each kind its channels (a kind left out: the page
    only), the language of what is sent, and whether a game may send more than one
    e-mail a day."""

    channels: dict[str, list[Channel]] = Field(default_factory=dict)
    language: Language = "en"
    mail_more: bool = False

    @field_validator("channels")
    @classmethod
    def _known_kinds(cls, channels: dict[str, list[str]]) -> dict[str, list[str]]:
        """Only the kinds of :data:`KINDS` (a kind is a key of ``channels``)."""
        unknown = sorted(set(channels) - set(KINDS))
        if unknown:
            raise ValueError(f"no notification kind {unknown[0]!r}")
        return channels


class NotificationSettings(NotificationChoices):
    """A player's choices as the server keeps them, with what the host offers: the
    channels (``offered``), the e-mail address and whether it is verified, and the
    public key a browser subscribes to Web Push with (``null`` without push)."""

    offered: list[Channel]
    email: str | None
    email_verified: bool
    push_key: str | None
    push_subscriptions: int


class EmailAddress(BaseModel):
    """An address to send notifications to: a verification link is sent to it."""

    email: Visible = Field(min_length=3, max_length=254, pattern=r"^[^\s@<>,;\"]+@[^\s@<>,;\"]+$")


class SignedLink(BaseModel):
    """The token of a verification or unsubscribe link."""

    token: Visible = Field(min_length=1, max_length=1000)


class PushKeys(BaseModel):
    p256dh: str = Field(min_length=80, max_length=128, pattern=r"^[A-Za-z0-9_-]+=*$")
    auth: str = Field(min_length=16, max_length=64, pattern=r"^[A-Za-z0-9_-]+=*$")


class PushSubscription(BaseModel):
    """A browser's subscription, as ``PushSubscription.toJSON()`` gives it."""

    endpoint: Visible = Field(min_length=9, max_length=1024)
    keys: PushKeys


class PushEndpoint(BaseModel):
    endpoint: Visible = Field(min_length=1, max_length=1024)
