"""A server killed at any commit boundary comes back with every table playable.

The fault is injected in storage: from its n-th commit on, the database refuses every
commit (as if the process had died just before it).  The boundaries chosen are each of
a table's transitions: created, seated and started, its first, a middle and its last
action, and its end.  A new server on the same database must then find each table in a
state from which the game goes on, or over with its seed revealed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from rummykit.server.bots.service import BotRunner
from rummykit.server.clock import FakeClock
from rummykit.server.settings import Settings
from rummykit.server.storage.store import Storage
from rummykit.server.table import committed_deal
from rummykit.server.table.verify import verify_record
from tests.kit.apps import app_client
from tests.kit.databases import make_settings, run_sql
from tests.kit.players import connect, new_player
from tests.kit.scripted import play_to_end, random_policy

SEATS = [{"kind": "human"}, {"kind": "human"}]
RULES = {"last_round": 3}
DEAL = committed_deal.SecretDeal(20_261_201, "ab" * 16)


class Killed(ConnectionError):
    """The database went away with the process."""


@dataclass
class CommitLog:
    """Names each commit by what its transaction wrote; from commit ``kill_at`` on
    (counting from 1), every commit fails."""

    kill_at: int | None = None
    kinds: list[str] = field(default_factory=list)
    _writes: list[str] = field(default_factory=list)

    @property
    def dead(self) -> bool:
        return self.kill_at is not None and len(self.kinds) >= self.kill_at

    def attach(self, storage: Storage) -> None:
        engine = storage.engine.sync_engine
        event.listen(engine, "before_cursor_execute", self._statement)
        event.listen(engine, "commit", self._commit)

    def _statement(self, _conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        words = statement.split()
        if words and words[0].upper() in ("INSERT", "UPDATE", "DELETE"):
            self._writes.append(statement.upper())

    def _commit(self, _conn: Any) -> None:
        writes, self._writes = self._writes, []
        if not writes:
            return
        self.kinds.append(_kind(writes))
        if self.kill_at is not None and len(self.kinds) >= self.kill_at:
            raise Killed("killed before this commit")


def _kind(writes: list[str]) -> str:
    text = " ".join(writes)
    if "INSERT INTO GAME_TABLES" in text:
        return "create"
    if "UPDATE SEATS" in text:
        return "seat+start" if "UPDATE GAME_TABLES" in text else "seat"
    if "INSERT INTO ACTIONS" in text:
        return "act"
    if "UPDATE GAME_TABLES" in text:
        return "finish"
    return "other"


@pytest.fixture(autouse=True)
def fixed_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same deal every run, so the same commits happen in the same order."""
    monkeypatch.setattr(committed_deal, "draw_secret_deal", lambda: DEAL)


def _play(client: TestClient, ws_url: str, cookies: list[str]) -> list[BaseException]:
    """Both players play their seats to the end (or until the server fails them)."""
    errors: list[BaseException] = []

    def seat(index: int) -> None:
        try:
            with connect(client, ws_url, cookies[index]) as ws:
                play_to_end(ws, random_policy(index))
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=seat, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    if any(thread.is_alive() for thread in threads):
        errors.append(TimeoutError("a player is still waiting"))
    return errors


def _scenario(client: TestClient, log: CommitLog) -> tuple[list[str], str | None]:
    """Two guests, a table, a join, a whole game (until the process is killed): the
    cookies and the table id."""
    cookies = [new_player(client, "ann"), new_player(client, "bob")]
    client.cookies.set("rummykit_session", cookies[0])
    created = client.post(
        "/api/tables",
        json={"game": "three-thirteen", "rules": RULES, "seats": SEATS, "turn_seconds": None},
    )
    if created.status_code != 200:
        return cookies, None
    table_id = str(created.json()["table_id"])
    client.cookies.set("rummykit_session", cookies[1])
    client.post(f"/api/tables/{table_id}/join", json={})
    client.cookies.clear()
    if not log.dead:
        _play(client, created.json()["ws_url"], cookies)
    return cookies, table_id


def _app(
    url: str, schema: str | None, runner: BotRunner
) -> contextlib.AbstractContextManager[TestClient]:
    """A server on the database; like a killed process, it answers a failed request
    with a 500 and goes on."""
    settings = make_settings(url, database_schema=schema)
    return app_client(settings, runner=runner, clock=FakeClock(), raise_server_exceptions=False)


def _run(
    url: str, schema: str | None, runner: BotRunner, log: CommitLog
) -> tuple[list[str], str | None]:
    with _app(url, schema, runner) as client:
        log.attach(client.app.state.server.storage)  # type: ignore[attr-defined]
        return _scenario(client, log)


def _boundaries(kinds: list[str]) -> dict[str, int]:
    """The commit (counted from 1) of each transition worth killing before."""
    acts = [i + 1 for i, kind in enumerate(kinds) if kind == "act"]
    return {
        "create": kinds.index("create") + 1,
        "seat+start": kinds.index("seat+start") + 1,
        "first action": acts[0],
        "middle action": acts[len(acts) // 2],
        "last action": acts[-1],
        "finish": kinds.index("finish") + 1,
    }


def test_a_kill_at_every_transition_leaves_every_table_playable(
    settings: Settings, bot_runner: BotRunner, tmp_path: Any
) -> None:
    url, schema = settings.database_url, settings.database_schema
    clean = CommitLog()
    cookies, table_id = _run(url, schema, bot_runner, clean)
    assert table_id is not None and clean.kinds[-1] == "finish", clean.kinds
    boundaries = _boundaries(clean.kinds)
    assert boundaries["last action"] == boundaries["finish"] - 1  # two commits, in turn
    for name, kill_at in boundaries.items():
        if schema is None:
            file = tmp_path / (name.replace(" ", "-") + ".sqlite3")
            url = f"sqlite+aiosqlite:///{file}"
        else:
            asyncio.run(run_sql(f"DROP SCHEMA {schema} CASCADE; CREATE SCHEMA {schema}"))
        killed = CommitLog(kill_at=kill_at)
        cookies, table_id = _run(url, schema, bot_runner, killed)
        assert killed.kinds[kill_at - 1] == clean.kinds[kill_at - 1], name
        _check_recovered(url, schema, bot_runner, cookies, table_id, name)


def _check_recovered(
    url: str,
    schema: str | None,
    runner: BotRunner,
    cookies: list[str],
    table_id: str | None,
    name: str,
) -> None:
    """A new server on the database: the table goes on to its end, or is over with its
    seed revealed (and the record verifies)."""
    with _app(url, schema, runner) as client:
        client.cookies.set("rummykit_session", cookies[0])
        if table_id is None:  # killed before the table was stored
            assert client.get("/api/history").json() == [], name
            return
        summary = client.get(f"/api/tables/{table_id}").json()
        if summary["status"] == "waiting":
            assert not all(seat["taken"] for seat in summary["seats"]), name
            client.cookies.set("rummykit_session", cookies[1])
            joined = client.post(f"/api/tables/{table_id}/join", json={})
            assert joined.status_code == 200, (name, joined.text)
            summary = client.get(f"/api/tables/{table_id}").json()
            assert summary["status"] == "playing", name
        if summary["status"] == "playing":
            errors = _play(client, f"/ws/tables/{table_id}", cookies)
            assert not errors, (name, errors)
        client.cookies.set("rummykit_session", cookies[0])
        summary = client.get(f"/api/tables/{table_id}").json()
        assert summary["status"] == "over", name
        record = client.get(f"/api/tables/{table_id}/record")
        assert record.status_code == 200, name
        assert str(record.json()["seed"]) == str(DEAL.seed), name
        verdict = verify_record(json.dumps(record.json()))
        assert verdict.ok, (name, verdict.lines)
