"""A server worker's share of the site's bot workers (``bot_queue = "redis"``): its calls
go through the fair queue before they reach the streams, so a player with many bot
tables cannot keep another player's bot waiting behind all of theirs, and the
one-pending-hint rule holds.  The streams are stood in for by a site that records what
was put on them and answers when the test says so."""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any

import pytest

from rummykit.server.bots.errors import BotBusy, BotUnavailable
from rummykit.server.bots.queue import Kind
from rummykit.server.cluster.bot_stream import StreamBotRunner, pack, unpack


class Site:
    """The streams as a server worker sees them: each entry waits for :meth:`answer`."""

    prefix = "share"

    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []
        self.answers: dict[str, asyncio.Future[str | None]] = {}

    async def ask_bots(self, stream: str, call: str, timeout: float) -> str | None:
        label = unpack(call)()
        self.sent.append((stream.rsplit(":", 1)[1], label))
        answer: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()
        self.answers[label] = answer
        return await answer

    def answer(self, label: str, value: Any = None, *, ok: bool = True) -> None:
        self.answers[label].set_result(pack((ok, label if value is None else value)))

    def labels(self) -> list[str]:
        return [label for _, label in self.sent]


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)  # yields once to the loop, no wall time


def ask(runner: StreamBotRunner, kind: Kind, owner: str, label: str) -> asyncio.Task[Any]:
    return asyncio.ensure_future(runner.call(kind, owner, partial(str, label)))


def runner_of(site: Site, in_flight: int) -> StreamBotRunner:
    return StreamBotRunner(site, in_flight=in_flight)  # type: ignore[arg-type]


def test_a_player_with_many_tables_leaves_room_for_another_players_bot() -> None:
    async def scenario() -> None:
        site = Site()
        runner = runner_of(site, in_flight=2)
        ann = [ask(runner, Kind.DECISION, "ann", f"ann-{n}") for n in range(6)]
        await settle()
        # no more than the worker's share reaches the streams at once
        assert site.labels() == ["ann-0", "ann-1"]
        bob = ask(runner, Kind.DECISION, "bob", "bob-0")
        await settle()
        assert site.labels() == ["ann-0", "ann-1"]
        site.answer("ann-0")
        await settle()
        # bob's bot goes next, ahead of ann's four other tables
        assert site.labels() == ["ann-0", "ann-1", "bob-0"]
        assert await ann[0] == "ann-0"
        site.answer("bob-0")
        assert await bob == "bob-0"
        for n in range(1, 6):
            await settle()
            site.answer(f"ann-{n}")
            assert await ann[n] == f"ann-{n}"
        assert site.labels() == ["ann-0", "ann-1", "bob-0", *(f"ann-{n}" for n in range(2, 6))]
        runner.close()

    asyncio.run(scenario())


def test_hints_leave_a_place_to_table_bots_and_a_second_hint_is_refused() -> None:
    async def scenario() -> None:
        site = Site()
        runner = runner_of(site, in_flight=2)
        bob_hint = ask(runner, Kind.HINT, "bob", "hint-bob")
        cid_hint = ask(runner, Kind.HINT, "cid", "hint-cid")
        await settle()
        # hints never take the last place on the streams: it is kept for table bots
        assert site.labels() == ["hint-bob"]
        with pytest.raises(BotBusy) as refused:
            await runner.call(Kind.HINT, "bob", partial(str, "hint-bob-again"))
        assert refused.value.code == "hint_pending"
        table = ask(runner, Kind.DECISION, "ann", "table-0")
        await settle()
        assert site.labels() == ["hint-bob", "table-0"]
        site.answer("hint-bob")
        assert await bob_hint == "hint-bob"
        await settle()
        assert site.labels() == ["hint-bob", "table-0", "hint-cid"]
        site.answer("table-0")
        site.answer("hint-cid")
        assert [await table, await cid_hint] == ["table-0", "hint-cid"]
        # bob's hint answered, he may ask again
        again = ask(runner, Kind.HINT, "bob", "hint-bob-2")
        await settle()
        site.answer("hint-bob-2")
        assert await again == "hint-bob-2"
        runner.close()

    asyncio.run(scenario())


def test_a_calls_error_and_no_answer_come_back_to_the_asker() -> None:
    async def scenario() -> None:
        site = Site()
        runner = runner_of(site, in_flight=2)
        failing = ask(runner, Kind.DECISION, "ann", "bad")
        silent = ask(runner, Kind.DECISION, "bob", "late")
        await settle()
        site.answer("bad", ValueError("no such bot"), ok=False)
        with pytest.raises(ValueError, match="no such bot"):
            await failing
        site.answers["late"].set_result(None)  # no bot worker answered in time
        with pytest.raises(BotUnavailable):
            await silent
        # both places are free again
        after = [ask(runner, Kind.DECISION, "ann", f"next-{n}") for n in range(2)]
        await settle()
        assert site.labels()[-2:] == ["next-0", "next-1"]
        for n, task in enumerate(after):
            site.answer(f"next-{n}")
            assert await task == f"next-{n}"
        runner.close()
        with pytest.raises(BotUnavailable):
            await runner.call(Kind.DECISION, "ann", partial(str, "closed"))

    asyncio.run(scenario())
