"""The outbox: a notification recorded with its cause is sent after a restart, by one
process of two sharing PostgreSQL, once; a claim of a process that died is taken over
after the lease; a message that cannot be sent is tried again, then given up."""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any

from rummykit.server.bots.service import BotRunner
from rummykit.server.clock import FakeClock
from rummykit.server.storage.store import Storage
from tests.kit.apps import OpenClient, app_client, serving
from tests.kit.databases import POSTGRES_URL, make_settings
from tests.kit.mail import MailServer, mail_server
from tests.kit.storage import human_seats, table_row
from tests.kit.wait import wait_until, wait_until_async

__all__ = ["mail_server"]

QUIET = 1e9
"""A poll period the fake clock never reaches: only the test's calls send."""
MAIL_SETTINGS = {"mail_from": "rummykit@example.org", "public_url": "http://rummykit.test"}


async def verified(storage: Storage, player_id: str, *kinds: str) -> None:
    """``player_id`` with a verified address, told of ``kinds`` by e-mail."""
    await storage.set_email(player_id, f"{player_id}@example.org", "en", at=0.0, key="0")
    assert await storage.verify_email(player_id, f"{player_id}@example.org")
    await storage.save_notification_choices(
        player_id, {kind: ["email"] for kind in kinds}, "en", mail_more=True
    )


async def ended(storage: Storage, table_id: str, *players: str, at: float = 1.0) -> None:
    """A table of ``players`` whose end is stored (and with it their notifications)."""
    await storage.add_table(table_row(table_id), human_seats(table_id, *players))
    await storage.finish_table(table_id, at, [10, 0], [0])


def statuses(rows: Any) -> list[tuple[str, str, int]]:
    return [(r.kind, r.status, r.attempts) for r in rows]


def test_a_notification_recorded_before_a_restart_is_sent_after_it(
    sqlite_url: str, bot_runner: BotRunner, clock: FakeClock
) -> None:
    mail = MailServer()  # not listening yet: the first server cannot send
    settings = make_settings(sqlite_url, smtp_url=mail.url, **MAIL_SETTINGS)
    with app_client(settings, runner=bot_runner, clock=clock) as first:
        storage = first.app.state.server.storage  # type: ignore[attr-defined]
        first.portal.call(verified, storage, "ann", "game_ended")  # type: ignore[union-attr]
        first.portal.call(ended, storage, "t-restart", "ann")  # type: ignore[union-attr]
        rows = first.portal.call(storage.outbox_of, "ann")  # type: ignore[union-attr]
        # (pending, tried once or not at all: the server stops before it could send it)
        assert [(r.kind, r.status) for r in rows if r.kind == "game_ended"] == [
            ("game_ended", "pending")
        ]
    mail.start()
    try:
        clock.advance(3600.0)  # past any wait for a second try
        with app_client(settings, runner=bot_runner, clock=clock) as second:
            delivered = mail.wait_for(1)  # sent by the new server's start, unasked
            assert delivered[0].recipients == ("ann@example.org",)
            assert delivered[0].mail["Subject"] == "Your game has ended"
            storage = second.app.state.server.storage  # type: ignore[attr-defined]

            def sent() -> bool:
                rows = second.portal.call(storage.outbox_of, "ann")  # type: ignore[union-attr]
                return [r.status for r in rows if r.kind == "game_ended"] == ["sent"]

            wait_until(sent, what="the message marked sent")
        assert len(mail.messages()) == 1
    finally:
        mail.stop()


def test_a_claim_of_a_process_that_died_is_taken_over_after_the_lease(
    open_client: OpenClient, mail_server: MailServer, clock: FakeClock
) -> None:
    client = open_client(
        smtp_url=mail_server.url,
        notify_lease_seconds=60.0,
        notify_poll_seconds=QUIET,
        **MAIL_SETTINGS,
    )
    server = client.app.state.server  # type: ignore[attr-defined]
    storage, notifier = server.storage, server.notifier
    call = client.portal.call  # type: ignore[union-attr]
    call(verified, storage, "ann", "game_ended")
    call(partial(ended, storage, "t-lease", "ann", at=clock.now()))
    row = next(r for r in call(storage.outbox_of, "ann") if r.kind == "game_ended")
    assert call(storage.claim_notification, row, "a-process-that-died", clock.now())
    assert not call(storage.claim_notification, row, "another", clock.now())  # claimed once
    call(notifier.work_once)
    assert [r.status for r in call(storage.outbox_of, "ann") if r.kind == "game_ended"] == [
        "sending"
    ]
    clock.advance(61.0)
    call(notifier.work_once)
    assert mail_server.wait_for(1)[0].mail["Subject"] == "Your game has ended"
    row = next(r for r in call(storage.outbox_of, "ann") if r.kind == "game_ended")
    assert (row.status, row.attempts, row.claimed_by) == ("sent", 2, notifier.worker)


def test_a_message_that_cannot_be_sent_is_tried_again_then_given_up(
    open_client: OpenClient, clock: FakeClock
) -> None:
    dead = MailServer()  # nobody listens at its port
    client = open_client(
        smtp_url=dead.url, notify_attempts=3, notify_poll_seconds=QUIET, **MAIL_SETTINGS
    )
    server = client.app.state.server  # type: ignore[attr-defined]
    storage, notifier = server.storage, server.notifier
    call = client.portal.call  # type: ignore[union-attr]
    call(verified, storage, "ann", "game_ended")
    call(partial(ended, storage, "t-retry", "ann", at=clock.now()))

    def game_end() -> Any:
        return next(r for r in call(storage.outbox_of, "ann") if r.kind == "game_ended")

    call(notifier.work_once)
    first = game_end()
    assert (first.status, first.attempts) == ("pending", 1)
    assert first.error.startswith("smtp: ")
    assert first.due_at == clock.now() + 30.0
    call(notifier.work_once)  # not due yet: not tried
    assert game_end().attempts == 1
    clock.advance(30.0)
    call(notifier.work_once)
    second = game_end()
    assert (second.status, second.attempts, second.due_at) == ("pending", 2, clock.now() + 60.0)
    clock.advance(60.0)
    call(notifier.work_once)
    assert (game_end().status, game_end().attempts) == ("failed", 3)
    clock.advance(3600.0)
    call(notifier.work_once)
    assert game_end().attempts == 3  # given up: never tried again


def test_a_message_whose_claimers_keep_dying_is_given_up(
    open_client: OpenClient, mail_server: MailServer, clock: FakeClock
) -> None:
    client = open_client(
        smtp_url=mail_server.url,
        notify_lease_seconds=60.0,
        notify_attempts=2,
        notify_poll_seconds=QUIET,
        **MAIL_SETTINGS,
    )
    server = client.app.state.server  # type: ignore[attr-defined]
    storage, notifier = server.storage, server.notifier
    call = client.portal.call  # type: ignore[union-attr]
    call(verified, storage, "ann", "game_ended")
    call(partial(ended, storage, "t-poison", "ann", at=clock.now()))

    def game_end() -> Any:
        return next(r for r in call(storage.outbox_of, "ann") if r.kind == "game_ended")

    for process in ("first", "second"):  # each claims it and dies before marking it
        assert call(storage.claim_notification, game_end(), process, clock.now())
        clock.advance(61.0)
    call(notifier.work_once)
    row = game_end()
    assert (row.status, row.error, row.attempts) == ("failed", "attempts", 3)
    assert [m.mail["Subject"] for m in mail_server.messages()] == []


def test_two_workers_on_one_postgresql_schema_send_each_notification_once(
    postgres_schema: str, bot_runner: BotRunner, mail_server: MailServer
) -> None:
    settings = make_settings(
        POSTGRES_URL, database_schema=postgres_schema, smtp_url=mail_server.url, **MAIL_SETTINGS
    )
    games = 24

    async def run() -> list[int]:
        async with serving(settings, bot_runner) as one, serving(settings, bot_runner) as two:
            storage = one.state.server.storage
            await verified(storage, "ann", "game_ended")
            for number in range(games):
                await ended(storage, f"t-{number:02}", "ann")
            done = await asyncio.gather(
                one.state.server.notifier.work_once(), two.state.server.notifier.work_once()
            )

            async def all_sent() -> bool:
                rows = await storage.outbox_of("ann")
                return all(r.status == "sent" for r in rows if r.kind == "game_ended")

            await wait_until_async(all_sent, what="every game's end sent")
            rows = await storage.outbox_of("ann")
            assert sorted(r.attempts for r in rows if r.kind == "game_ended") == [1] * games
            return list(done)

    done = asyncio.run(run())
    delivered = mail_server.wait_for(games)
    assert len(mail_server.messages()) == games
    links = sorted(next(w for w in m.text.split() if "/#/table/" in w) for m in delivered)
    assert links == [f"http://rummykit.test/#/table/t-{n:02}" for n in range(games)]
    # every row (the games' ends and the address's verification) finished once at most
    assert sum(done) <= games + 1
