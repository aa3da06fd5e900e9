"""The sending of the outbox's messages, by every process of a site, each once.

A process looks for due messages (``storage/notifications.py``) when it starts, when one
is queued here (:meth:`Notifier.wake`: a game of this process ended, a player asked for
a verification) and every ``notify_poll_seconds``; it claims one at a time and sends it.
A claim lets one process send a message; a process that dies holding one leaves it to
be taken over once ``notify_lease_seconds`` have passed, so a message is sent at least
once and, unless a process dies between sending and marking it sent, exactly once.
A message that cannot be sent now is tried again later, ``notify_attempts`` times in all.

A message is **skipped** (kept, marked, never sent) when its channel is not offered, the
player has no verified address (e-mail) or no subscription (push), or the player was
sent an e-mail about its game that day already and did not ask for more.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from dataclasses import dataclass
from typing import Final

import aiohttp
import aiosmtplib

from rummykit.games.registry import game_named
from rummykit.server.cancelling import cancel
from rummykit.server.clock import Clock, Timer
from rummykit.server.notify import mail
from rummykit.server.notify.channels import offered
from rummykit.server.notify.endpoints import EndpointRefused, PushClient, describe
from rummykit.server.notify.links import Links, path_of
from rummykit.server.notify.push import (
    BadSubscription,
    PushSender,
    Subscription,
    payload,
    vapid_key,
)
from rummykit.server.notify.words import say
from rummykit.server.operations.events_log import log_event
from rummykit.server.settings import Settings
from rummykit.server.storage.notification_rows import NotificationSettingsRow, OutboxRow
from rummykit.server.storage.notifications import VERIFY_EMAIL
from rummykit.server.storage.store import Storage

BATCH: Final = 20
"""Messages read at once when looking for work."""
DAY: Final = 86_400


class TryLater(Exception):
    """The message could not be sent now (the server or service failed)."""


@dataclass(frozen=True, slots=True)
class Done:
    """How a message ended: ``sent`` or ``skipped``, and why when skipped."""

    status: str
    reason: str | None = None


class Notifier:
    """This process's share of the site's notifications."""

    def __init__(
        self,
        *,
        storage: Storage,
        settings: Settings,
        clock: Clock,
        key: str,
        vapid_secret: str,
        push_client: PushClient | None = None,
    ) -> None:
        self._storage = storage
        self._settings = settings
        self._clock = clock
        self.offered = offered(settings)
        self.links = Links(key, settings.public_url or "")
        self.vapid = vapid_key(vapid_secret)
        self.push_client = push_client or PushClient()
        self._push = PushSender(self.vapid, settings.push_contact or "", self.push_client)
        self._smtp = mail.smtp_server(settings.smtp_url) if settings.smtp_url else None
        self.worker = f"notify-{uuid.uuid4().hex[:12]}"
        self._wake = asyncio.Event()
        self._timer: Timer | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    def wake(self, *_: object) -> None:
        """Look for messages now (a finish listener of the table registry)."""
        self._wake.set()

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            try:
                await self.work_once()
            except Exception as error:  # the database failed: try later
                log_event(None, "notify_failed", level=logging.WARNING, error=repr(error))
            self._timer = self._clock.call_at(
                self._clock.now() + self._settings.notify_poll_seconds, self._wake.set
            )
            await self._wake.wait()
            self._timer.cancel()

    async def work_once(self) -> int:
        """Send every message due now, claiming one at a time; how many this process
        finished (sent or skipped)."""
        done = 0
        tried: set[int] = set()
        while True:
            now = self._clock.now()
            due = await self._storage.notifications_due(
                now, self._settings.notify_lease_seconds, BATCH
            )
            for row in due:
                if row.id in tried:
                    continue
                if await self._storage.claim_notification(row, self.worker, now):
                    tried.add(row.id)
                    done += await self._deliver(row)
                    break
            else:  # nothing due, or every message taken by other processes
                return done

    async def _deliver(self, row: OutboxRow) -> int:
        if row.attempts >= self._settings.notify_attempts:  # its claimers kept dying
            return int(
                await self._storage.finish_notification(
                    row.id, self.worker, "failed", self._clock.now(), "attempts"
                )
            )
        try:
            outcome = await self._send(row)
        except Exception as error:  # TryLater, or a failure not foreseen: tried again later
            reason = str(error) if isinstance(error, TryLater) else repr(error)
            status = await self._storage.retry_notification(
                row.id, self.worker, self._clock.now(), reason, self._settings.notify_attempts
            )
            log_event(
                row.table_id, "notify_retry", kind=row.kind, channel=row.channel, status=status
            )
            return 0
        finished = await self._storage.finish_notification(
            row.id, self.worker, outcome.status, self._clock.now(), outcome.reason
        )
        log_event(
            row.table_id, "notified", kind=row.kind, channel=row.channel, status=outcome.status
        )
        return int(finished)

    async def _send(self, row: OutboxRow) -> Done:
        if row.channel not in self.offered:
            return Done("skipped", "not_offered")
        choices = await self._storage.notification_settings(row.player_id)
        if choices is None:
            return Done("skipped", "no_settings")
        if row.channel == "email":
            return await self._mail(row, choices)
        if row.channel == "push":
            return await self._push_to(row, choices)
        return Done("skipped", "not_offered")

    def _params(self, row: OutboxRow) -> dict[str, object]:
        params = dict(row.params)
        if params.get("game"):
            with contextlib.suppress(KeyError, ValueError):
                params["game"] = game_named(str(params["game"])).title
        return params

    async def _mail(self, row: OutboxRow, choices: NotificationSettingsRow) -> Done:
        assert self._smtp is not None and self._settings.mail_from is not None
        language = choices.language
        if row.kind == VERIFY_EMAIL:
            address = str(row.params.get("email", ""))
            if address != choices.email or choices.email_verified:
                return Done("skipped", "address_changed")
            token = self.links.verify_token(row.player_id, address)
            words = say(VERIFY_EMAIL, language, {})
            message = mail.message(
                sender=self._settings.mail_from, to=address, words=words, language=language,
                link=self.links.verify_page(token), unsubscribe=None,
            )  # fmt: skip
        else:
            if not choices.email or not choices.email_verified:
                return Done("skipped", "no_address")
            if "email" not in choices.channels.get(row.kind, []):
                return Done("skipped", "unsubscribed")
            address = choices.email
            if row.table_id is not None and not choices.mail_more:
                day = int(self._clock.now() // DAY)
                if not await self._storage.reserve_mail_day(
                    row.player_id, row.table_id, day, row.id
                ):
                    return Done("skipped", "daily_limit")
            token = self.links.unsubscribe_token(row.player_id, address)
            message = mail.message(
                sender=self._settings.mail_from, to=address,
                words=say(row.kind, language, self._params(row)), language=language,
                link=self.links.page(row.params, row.table_id),
                unsubscribe=(
                    self.links.unsubscribe_page(token), self.links.one_click_unsubscribe(token)
                ),
            )  # fmt: skip
        try:
            await mail.send_mail(self._smtp, message)
        except (aiosmtplib.SMTPException, OSError, TimeoutError) as error:
            raise TryLater(f"smtp: {type(error).__name__}") from None
        return Done("sent")

    async def _push_to(self, row: OutboxRow, choices: NotificationSettingsRow) -> Done:
        if "push" not in choices.channels.get(row.kind, []):
            return Done("skipped", "unsubscribed")
        subscriptions = await self._storage.push_subscriptions_of(row.player_id)
        if not subscriptions:
            return Done("skipped", "no_subscription")
        words = say(row.kind, choices.language, self._params(row))
        message = payload(
            title=words.title,
            body=words.line,
            path="/" + path_of(row.params, row.table_id),
            kind=row.kind,
            tag=f"{row.kind}:{row.table_id or ''}",
        )
        delivered = 0
        failed: str | None = None
        for found in subscriptions:
            subscription = Subscription(found.endpoint, found.p256dh, found.auth)
            try:
                status = await self._push.send(subscription, message)
            except (EndpointRefused, BadSubscription):
                await self._storage.remove_push_subscription(found.endpoint)
                continue
            except (aiohttp.ClientError, OSError, TimeoutError, ValueError) as error:
                failed = f"push: {describe(error)}"
                continue
            if status in (404, 410):  # the browser's subscription is gone
                await self._storage.remove_push_subscription(found.endpoint)
            elif 200 <= status < 300:
                delivered += 1
            else:
                failed = f"push: status {status}"
        if delivered:
            return Done("sent")
        if failed is not None:
            raise TryLater(failed)
        return Done("skipped", "no_subscription")

    async def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if self._task is not None:
            await cancel({self._task})
