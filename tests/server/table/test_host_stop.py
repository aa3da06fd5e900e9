"""A stopping host cancels its bot work but lets its storage work finish: a statement
cancelled half-way makes SQLAlchemy close its connection, and with aiosqlite that close
can wait for good, so that the server's event loop never finishes shutting down (a full
run's restarted-server test hung so at its first server's exit, one time in ten under
load)."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from rummykit.server.clock import FakeClock
from rummykit.server.table.host import TableHost
from tests.kit.databases import make_settings
from tests.kit.storage import human_seats, table_row
from tests.kit.wait import wait_until_async


def test_a_stopping_host_cancels_its_bot_work_and_lets_its_statements_finish() -> None:
    async def run() -> None:
        host = TableHost(
            row=table_row("t1", status="waiting"),
            seats=human_seats("t1", "ann"),
            storage=cast(Any, object()),  # the work below stands for its statements
            runner=cast(Any, object()),
            settings=make_settings("sqlite://"),
            clock=FakeClock(100.0),
        )
        host.start()
        answered = asyncio.Event()
        ends: dict[str, str] = {}

        async def work(name: str) -> None:
            try:
                await answered.wait()
                ends[name] = "finished"
            except asyncio.CancelledError:
                ends[name] = "cancelled"
                raise

        host.spawn(work("thinking"))
        host.spawn(work("statement"), statement=True)
        await asyncio.sleep(0)  # both under way
        stopping = asyncio.create_task(host.stop())
        await wait_until_async(lambda: ends.get("thinking"), 10, what="the bot work's end")
        assert ends == {"thinking": "cancelled"} and not stopping.done()
        answered.set()  # the database answers: the statement ends, and the stop with it
        await asyncio.wait_for(stopping, 10)
        assert ends == {"thinking": "cancelled", "statement": "finished"}

    asyncio.run(run())
