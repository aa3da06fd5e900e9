"""Persistence and recovery in-process, on SQLite and on PostgreSQL.

The PostgreSQL tests use the server at 127.0.0.1:5432 (database ``test``) in a fresh
schema each; they fail, never skip, when it cannot be reached.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

import pytest

from rummykit.server.bots.service import BotRunner
from rummykit.server.settings import Settings
from rummykit.server.storage.errors import StorageError
from rummykit.server.storage.models import SeatRow
from tests.kit.apps import app_client
from tests.kit.players import guest
from tests.kit.scripted import play_to_end
from tests.kit.storage import bot_seat, open_storage, table_row
from tests.kit.wait import wait_until_async


def test_actions_have_unique_state_numbers(database: dict[str, Any]) -> None:
    async def run() -> None:
        storage = await open_storage(**database)
        await storage.migrate()  # applying migrations twice is harmless
        await storage.add_table(table_row("t1", started_at=0.0), bot_seat("t1"))
        await storage.append_action("t1", 0, 1, "draw", "bot", 1.0)
        with pytest.raises(StorageError):
            await storage.append_action("t1", 0, 1, "take", "bot", 2.0)
        stored = await storage.load_table("t1")
        assert stored is not None
        assert [(a.state_number, a.action) for a in stored.actions] == [(0, "draw")]
        assert await storage.unfinished_table_ids() == ["t1"]
        await storage.close()

    asyncio.run(run())


def test_actions_appended_together_are_each_stored_or_refused(
    database: dict[str, Any],
) -> None:
    """Actions of several tables appended at once share commits; a duplicate state number
    among them is refused alone, and every other action is stored."""

    async def run() -> None:
        storage = await open_storage(**database)
        ids = [f"t{i}" for i in range(6)]
        for table_id in ids:
            row = table_row(table_id, started_at=0.0)
            await storage.add_table(row, [SeatRow(table_id=table_id, seat=0, kind="bot")])
        await storage.append_action("t0", 0, 0, "draw", "bot", 1.0)
        appends = [
            storage.append_action(t, n, 0, f"{t}-{n}", "bot", 2.0) for t in ids for n in (0, 1, 2)
        ]
        outcomes = await asyncio.gather(*appends, return_exceptions=True)
        refused = [i for i, outcome in enumerate(outcomes) if outcome is not None]
        assert refused == [0]
        assert isinstance(outcomes[0], StorageError)
        for table_id in ids:
            stored = await storage.load_table(table_id)
            assert stored is not None
            expected = ["draw" if table_id == "t0" else f"{table_id}-0"]
            expected += [f"{table_id}-1", f"{table_id}-2"]
            assert [a.action for a in stored.actions] == expected
        await storage.close()

    asyncio.run(run())


def test_a_restarted_server_resumes_the_table(settings: Settings, bot_runner: BotRunner) -> None:
    with app_client(settings, runner=bot_runner) as client:
        guest(client)
        created = client.post(
            "/api/tables",
            json={
                "game": "burraco",
                "rules": {"mode": "quick"},
                "seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}],
                "turn_seconds": 600,
            },
        ).json()
        cookie = client.cookies.get("rummykit_session")
        with client.websocket_connect(created["ws_url"]) as ws:
            state = ws.receive_json()
            while not state["legal_actions"]:
                state = ws.receive_json()
            ws.send_json(
                {"type": "action", "state_number": state["state_number"], "action": "draw"}
            )
            after = ws.receive_json()
            assert after["state_number"] == state["state_number"] + 1
        before_turn = after["turn"]
        before_observation = after["observation"]
    with app_client(settings, runner=bot_runner) as client:
        assert client.get("/healthz").json()["tables"] == 1  # recovered at start
        client.cookies.set("rummykit_session", cookie)
        with client.websocket_connect(created["ws_url"]) as ws:
            resumed = ws.receive_json()
            assert resumed["state_number"] == after["state_number"]
            assert resumed["observation"] == before_observation
            assert resumed["turn"]["deadline"] == before_turn["deadline"]  # the timer too
            assert resumed["legal_actions"]
            ws.send_json(
                {
                    "type": "action",
                    "state_number": resumed["state_number"],
                    "action": resumed["legal_actions"][-1],
                }
            )
            play_to_end(ws)
        record = client.get(f"/api/tables/{created['table_id']}/record").json()
        assert record["actions"][state["state_number"]] == "draw"
        assert client.get("/api/history").json()[0]["status"] == "over"


def test_stored_actions_reach_the_sqlite_file_itself(tmp_path: Path) -> None:
    """Commits leave the checkpoint to the storage's checkpointer, which copies the log
    into the database file while the server runs."""
    import sqlite3

    path = tmp_path / "db.sqlite3"

    def in_file(table_id: str) -> int:
        # immutable=1 reads the database file alone, never the log
        with contextlib.closing(sqlite3.connect(f"file:{path}?immutable=1", uri=True)) as db:
            try:
                row = db.execute("SELECT COUNT(*) FROM actions WHERE table_id = ?", (table_id,))
                return int(row.fetchone()[0])
            except sqlite3.OperationalError:  # the tables themselves are still in the log
                return 0
            except sqlite3.DatabaseError:  # "malformed": read while a checkpoint wrote
                return -1  # (immutable=1 takes no lock), so the file is read again

    async def checkpointed() -> bool:
        return await asyncio.to_thread(in_file, "t1") == 5

    async def run() -> None:
        storage = await open_storage(f"sqlite+aiosqlite:///{path}")
        row = table_row("t1", started_at=0.0)
        await storage.add_table(row, [SeatRow(table_id="t1", seat=0, kind="bot")])
        for number in range(5):
            await storage.append_action("t1", number, 0, "draw", "bot", 1.0)
        await wait_until_async(checkpointed, 10, what="the actions in the file itself")
        assert await asyncio.to_thread(in_file, "t1") == 5
        await storage.close()

    asyncio.run(run())
