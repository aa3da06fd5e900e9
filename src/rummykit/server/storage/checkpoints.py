"""SQLite's checkpoints, taken off the path of a commit.

In WAL mode SQLite copies its log back into the database file (a checkpoint) once the
log passes 1,000 pages, inside the commit that passed it; with ``synchronous=NORMAL``
that copy ends with an fsync, which on a busy disk can take a second, and every table
waiting for that commit waits as long.  The server's own connections therefore never
checkpoint (``wal_autocheckpoint=0``, see ``storage.make_engine``): a
:class:`Checkpointer` does it every second, on a connection of its own in a thread, in
PASSIVE mode, which neither waits for nor blocks a writer.  What is committed is in the
log either way, so a killed server loses nothing it had stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3

from rummykit.server.operations.events_log import log_event

CHECKPOINT_SECONDS = 1.0


def checkpoint(path: str) -> None:
    """Copy what the log of the database at ``path`` holds into the database file."""
    with contextlib.closing(sqlite3.connect(path, timeout=30)) as connection:
        connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()


class Checkpointer:
    """Checkpoints one SQLite database every ``seconds`` while it runs."""

    def __init__(self, path: str, seconds: float = CHECKPOINT_SECONDS) -> None:
        self.path = path
        self.seconds = seconds
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Run in the current event loop (if not running there already)."""
        task = self._task
        if task is None or task.done() or task.get_loop() is not asyncio.get_running_loop():
            self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        """Stop (the last connection to close checkpoints what is left)."""
        task, self._task = self._task, None
        if task is None or task.get_loop() is not asyncio.get_running_loop():
            return
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.seconds)
            try:
                await asyncio.to_thread(checkpoint, self.path)
            except sqlite3.Error as error:
                log_event(None, "checkpoint_failed", level=logging.WARNING, error=str(error))
