"""What ``rummykit serve`` shows in its terminal, and what it keeps for a log file.

A newcomer's terminal shows the address once the server is ready, and then only what
needs a look: warnings and errors.  The line per request (uvicorn's access log), the
migrations applied at start and every table's events are INFO lines: ``--verbose``
shows them too, and ``--log-file`` keeps them all whatever the terminal shows.  The
first ``loop_stalled`` warning comes with a line saying what it means.  The address
is printed once start-up has finished (migrations applied, tables restored), never
before: opening it earlier would find nothing.
"""

from __future__ import annotations

import logging
import socket
from pathlib import Path

import typer
import uvicorn

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"
STALL_NOTE = (
    "(loop_stalled: the server could not run for the time shown, busy with other work or"
    " paused by the machine, so players saw moves arrive that much late; now and then it"
    " is harmless, often it means the machine is too slow for its load)"
)


class FirstStallNote(logging.Filter):
    """Adds :data:`STALL_NOTE` under the first ``loop_stalled`` warning it passes."""

    def __init__(self) -> None:
        super().__init__()
        self.noted = False

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.noted and "event=loop_stalled" in record.getMessage():
            self.noted = True
            record.msg = f"{record.getMessage()}\n  {STALL_NOTE}"
            record.args = ()
        return True


def set_up_logs(*, level: str, verbose: bool, log_file: Path | None) -> None:
    """Send the server's log lines to the terminal (warnings and worse, or everything
    at ``level`` when ``verbose``) and, with ``log_file``, everything at ``level`` there."""
    root = logging.getLogger()
    root.setLevel(level.upper())
    formatter = logging.Formatter(LOG_FORMAT)
    terminal = logging.StreamHandler()
    terminal.setFormatter(formatter)
    terminal.setLevel(level.upper() if verbose else logging.WARNING)
    terminal.addFilter(FirstStallNote())
    root.addHandler(terminal)
    if log_file is not None:
        kept = logging.FileHandler(log_file, encoding="utf-8")
        kept.setFormatter(formatter)
        root.addHandler(kept)


class AnnouncedServer(uvicorn.Server):
    """uvicorn's server, printing where to open it once it listens."""

    def __init__(self, config: uvicorn.Config, *, addresses: list[str]) -> None:
        super().__init__(config)
        self.addresses = addresses

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        if self.should_exit:  # start-up failed: uvicorn said why
            return
        first, *others = self.addresses
        typer.echo(f"rummykit is serving at {first} (Ctrl-C stops it)")
        for other in others:
            typer.echo(f"  also at {other}")
