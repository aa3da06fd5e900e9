"""A player's notifications over HTTP: ``/api/notifications`` (the choices, per kind, of
channels among those the host offers), the e-mail address and its verification, Web
Push subscriptions, and unsubscribing by a mail's link.

The verification and unsubscribe links work without a session: their signed token
names the player and the address (``notify/links.py``), and each acts only while that
address is still the player's.  A channel the host does not offer may not be chosen
(409 ``channel_unavailable``).  Only a registered player gives an address (a guest
could otherwise have the server mail anyone), and a verification message goes to one
address at most once in ten minutes, and to a player's addresses five times a day at
most (429 ``verification_throttled``).  A push endpoint must be an ``https`` address
that is not on this machine's networks (``notify/endpoints.py``; checked again, after
looking up its name, before every post).
"""

from __future__ import annotations

import hashlib
from typing import Annotated, Final

from fastapi import APIRouter, Query

from rummykit.server.api.context import ApiError, Context, Player, ServerContext
from rummykit.server.notify.endpoints import EndpointRefused
from rummykit.server.notify.push import BadSubscription, application_server_key, check_keys
from rummykit.server.operations.events_log import log_event
from rummykit.server.protocol.lobby import ErrorResponse
from rummykit.server.protocol.notifications import (
    EmailAddress,
    NotificationChoices,
    NotificationSettings,
    PushEndpoint,
    PushSubscription,
    SignedLink,
)
from rummykit.server.storage.models import PlayerRow

VERIFY_EVERY_SECONDS: Final = 600.0
"""One verification message per address in this time at most."""

router = APIRouter(
    prefix="/api/notifications",
    tags=["notifications"],
    responses={status: {"model": ErrorResponse} for status in (400, 401, 403, 409, 422, 429)},
)


async def _answer(server: ServerContext, player: PlayerRow) -> NotificationSettings:
    row = await server.storage.notification_settings(player.id)
    offered = server.notifier.offered
    subscriptions = await server.storage.push_subscriptions_of(player.id)
    return NotificationSettings.model_validate(
        {
            "channels": row.channels if row is not None else {},
            "language": row.language if row is not None else "en",
            "mail_more": row.mail_more if row is not None else False,
            "offered": offered,
            "email": row.email if row is not None else None,
            "email_verified": row.email_verified if row is not None else False,
            "push_key": application_server_key(server.notifier.vapid)
            if "push" in offered
            else None,
            "push_subscriptions": len(subscriptions),
        }
    )


def _offers(server: ServerContext, channel: str) -> None:
    if channel not in server.notifier.offered:
        raise ApiError(
            409,
            "channel_unavailable",
            f"this server does not send notifications by {channel}",
            {"channel": channel},
        )


@router.get("", response_model=NotificationSettings)
async def notification_settings(player: Player, server: Context) -> NotificationSettings:
    """Your choices, with the channels this server offers, your address and whether it
    is verified, and the key a browser subscribes to Web Push with."""
    return await _answer(server, player)


@router.put("", response_model=NotificationSettings)
async def choose(
    body: NotificationChoices, player: Player, server: Context
) -> NotificationSettings:
    """Choose the channels of each kind (409 ``channel_unavailable`` for one this server
    does not offer), the language of what is sent, and ``mail_more`` (more than one
    e-mail a game a day)."""
    for channels in body.channels.values():
        for channel in channels:
            _offers(server, channel)
    chosen = {str(kind): sorted(set(map(str, kept))) for kind, kept in body.channels.items()}
    await server.storage.save_notification_choices(player.id, chosen, body.language, body.mail_more)
    return await _answer(server, player)


@router.post("/email", response_model=NotificationSettings)
async def set_email(body: EmailAddress, player: Player, server: Context) -> NotificationSettings:
    """Give the address e-mail goes to: a message with a link to confirm it is sent
    there (again at most once in ten minutes), and nothing else is until it is."""
    _offers(server, "email")
    if player.login_name is None:
        raise ApiError(
            403,
            "email_needs_account",
            "notifications by e-mail are for registered players: log in",
        )
    now = server.tables.clock.now()
    row = await server.storage.notification_settings(player.id)
    language = row.language if row is not None else "en"
    # one verification per address and ten minutes (the address hashed: the key is short)
    address = hashlib.sha256(body.email.encode()).hexdigest()[:24]
    window = f"{address}:{int(now // VERIFY_EVERY_SECONDS)}"
    if not await server.storage.set_email(player.id, body.email, language, at=now, key=window):
        raise ApiError(
            429, "verification_throttled", "too many verification mails today; try tomorrow"
        )
    server.notifier.wake()
    log_event(None, "notify_email_set", player=player.id)
    return await _answer(server, player)


@router.post("/email/verify")
async def verify_email(body: SignedLink, server: Context) -> dict[str, bool]:
    """Confirm an address by the token of its link (no session needed): 400
    ``bad_link`` for a forged or week-old one, 409 ``link_outdated`` when the address is
    no longer the account's."""
    found = server.notifier.links.verified(body.token)
    if found is None:
        raise ApiError(400, "bad_link", "this link is not valid (or too old): ask for a new one")
    if not await server.storage.verify_email(*found):
        raise ApiError(
            409, "link_outdated", "this link is for an address that is no longer the account's"
        )
    return {"ok": True}


@router.post("/unsubscribe")
async def unsubscribe(
    server: Context,
    body: SignedLink | None = None,
    token: Annotated[str | None, Query(max_length=1000)] = None,
) -> dict[str, bool]:
    """Stop every e-mail to the address a mail's link names (no session needed; the
    token in the body, or in the query as mail programs post it in one click): only
    that address, and only while it is the account's (409 ``link_outdated``)."""
    text = body.token if body is not None else token
    found = None if text is None else server.notifier.links.unsubscribed(text)
    if found is None:
        raise ApiError(400, "bad_link", "this link is not valid (or too old): ask for a new one")
    if not await server.storage.unsubscribe_email(*found):
        raise ApiError(
            409, "link_outdated", "this link is for an address that is no longer the account's"
        )
    log_event(None, "notify_unsubscribed", player=found[0])
    return {"ok": True}


@router.post("/push", response_model=NotificationSettings)
async def subscribe(
    body: PushSubscription, player: Player, server: Context
) -> NotificationSettings:
    """Keep this browser's Web Push subscription (422 ``bad_push_endpoint`` for an
    endpoint that is not a public ``https`` address, ``reason`` ``keys`` for keys that
    are not a browser's)."""
    _offers(server, "push")
    try:
        server.notifier.push_client.check_form(body.endpoint)
        check_keys(body.keys.p256dh, body.keys.auth)
    except (EndpointRefused, BadSubscription) as refused:
        reason = refused.reason if isinstance(refused, EndpointRefused) else "keys"
        raise ApiError(
            422,
            "bad_push_endpoint",
            f"this browser's push service cannot be used ({reason})",
            {"reason": reason},
        ) from None
    await server.storage.add_push_subscription(
        player.id,
        body.endpoint,
        body.keys.p256dh,
        body.keys.auth,
        server.tables.clock.now(),
    )
    return await _answer(server, player)


@router.delete("/push", response_model=NotificationSettings)
async def unsubscribe_push(
    body: PushEndpoint, player: Player, server: Context
) -> NotificationSettings:
    """Forget one of your browser's subscriptions."""
    await server.storage.remove_push_subscription(body.endpoint, player.id)
    return await _answer(server, player)
