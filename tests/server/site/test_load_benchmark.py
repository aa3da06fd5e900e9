"""The load benchmark, run at a tiny size on PostgreSQL (one server process, and two
workers of a site sharing Redis) so that it cannot rot: it finishes without a failure,
prints every figure, and drops its schema."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from tests.kit.databases import POSTGRES_DSN, POSTGRES_URL

BENCHMARK = Path(__file__).resolve().parents[3] / "benchmarks" / "server_load.py"


async def _schema_exists(schema: str) -> bool:
    connection = await asyncpg.connect(POSTGRES_DSN)
    try:
        found = await connection.fetchval(
            "SELECT count(*) FROM pg_namespace WHERE nspname = $1", schema
        )
    finally:
        await connection.close()
    return bool(found)


@pytest.mark.parametrize(
    "site", [[], ["--workers", "2", "--redis", "redis://127.0.0.1:6379/0"]], ids=["one", "two"]
)
def test_the_load_benchmark_runs_on_postgresql(site: list[str]) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(BENCHMARK),
            "--database",
            POSTGRES_URL,
            "--tables",
            "2",
            "--bot-tables",
            "2",
            "--seconds",
            "4",
            "--think",
            "0.2",
            "--saturation",
            "2",
            *site,
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    report = done.stdout
    assert done.returncode == 0, report + done.stderr
    assert "FAILED" not in done.stderr
    for event in ("request_failed", "request_dropped", "socket_failed", "socket_dropped"):
        assert event not in done.stderr
    assert "on postgresql+asyncpg" in report
    for title in ("load", "saturation"):
        line = next(line for line in report.splitlines() if line.startswith(f"{title}: "))
        stored = re.match(rf"{title}: (\d+) actions/s stored", line)
        assert stored is not None and int(stored.group(1)) > 0, line
        for figure in ("p50", "p99", "p99.9", "max"):
            assert re.search(rf" {re.escape(figure)} \d+\.\d ms", line), (figure, line)
    assert len(re.findall(r"server event loop: worst lag \d+\.\d ms", report)) == 2
    assert len(re.findall(r"clients' event loop: worst lag \d+\.\d ms", report)) == 2
    assert len(re.findall(r"CPU per stored action: server \d+\.\d\d ms", report)) == 2
    schemas = re.findall(r"PostgreSQL schema (load_[0-9a-f]{12}) \(dropped afterwards\)", report)
    assert len(schemas) == 2 and schemas[0] != schemas[1]
    for schema in schemas:
        assert not asyncio.run(_schema_exists(schema))
