"""The server's stop, part after part: a part that never ends is logged with where it
waits and left behind, and the parts after it still stop."""

from __future__ import annotations

import asyncio
import logging

import pytest

from rummykit.server.app.stopping import stop_parts


def test_a_part_that_never_ends_is_left_behind_and_the_rest_still_stop(
    caplog: pytest.LogCaptureFixture,
) -> None:
    stopped: list[str] = []
    never = asyncio.Event()

    async def deep_in_a_statement() -> None:
        await never.wait()

    async def host_loop() -> None:
        await deep_in_a_statement()

    async def stop_tables() -> None:
        stopped.append("tables: begun")
        await asyncio.create_task(host_loop())

    async def stop(name: str) -> None:
        stopped.append(name)

    async def main() -> list[str]:
        return await stop_parts(
            [
                ("notifications", lambda: stop("notifications")),
                ("tables", stop_tables),
                ("cluster", lambda: stop("cluster")),
            ],
            seconds=0.01,
        )

    with caplog.at_level(logging.WARNING, logger="rummykit.server"):
        left = asyncio.run(main())
    assert left == ["tables"]
    assert stopped == ["notifications", "tables: begun", "cluster"]
    [slow] = [r for r in caplog.records if getattr(r, "event", None) == "stop_slow"]
    fields = slow.fields  # type: ignore[attr-defined]
    assert fields["part"] == "tables"
    waiting = fields["waiting"].split(" > ")
    # the part's own coroutine, into the task it awaits, down to the wait itself
    assert [place.split(" ")[0] for place in waiting[:3]] == [
        "stop_tables",
        "host_loop",
        "deep_in_a_statement",
    ]
    first_line = stop_tables.__code__.co_firstlineno
    assert waiting[0] == f"stop_tables (test_stopping.py:{first_line + 2})"
    assert waiting[-1].startswith("wait (locks.py:")  # asyncio.Event.wait


def test_the_parts_stop_one_after_another_and_a_failure_stops_the_rest() -> None:
    stopped: list[str] = []

    async def stop(name: str) -> None:
        await asyncio.sleep(0)  # a part that yields to the loop is still waited for
        stopped.append(name)

    async def fail() -> None:
        raise RuntimeError("the database is gone")

    async def main() -> None:
        await stop_parts(
            [
                ("a", lambda: stop("a")),
                ("b", lambda: stop("b")),
                ("c", fail),
                ("d", lambda: stop("d")),
            ]
        )

    with pytest.raises(RuntimeError, match="the database is gone"):
        asyncio.run(main())
    assert stopped == ["a", "b"]
