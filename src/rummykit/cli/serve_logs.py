"""What ``rummykit serve`` shows in its terminal, and what it keeps for a log file.

A newcomer's terminal shows the address once the server is ready, and then only what
needs a look: warnings and errors.  The line per request (uvicorn's access log), the
migrations applied at start and every table's events (lease moves and takeovers
among them) are INFO lines: ``--log-file`` keeps them all whatever the terminal shows,
and a level set with ``RUMMYKIT_LOG_LEVEL`` applies to the terminal and the file alike
(``INFO`` shows them).  ``--verbose`` is ``DEBUG`` for the server's own loggers and
uvicorn's (other libraries stay at ``INFO``: a WebSocket library's debug lines would
print every frame, hands included).  ``--log-format json`` (``RUMMYKIT_LOG_FORMAT``)
writes every line, in the terminal's error stream and the file, as one JSON object
(:mod:`rummykit.server.operations.json_lines`).  The first ``loop_stalled`` warning
comes with a line saying what it means.  The address is printed once start-up has
finished (migrations applied, tables restored), never before: opening it earlier would
find nothing.
"""

from __future__ import annotations

import logging
import socket
from pathlib import Path

import typer
import uvicorn

from rummykit.server.operations.json_lines import JsonLines

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


VERBOSE_LOGGERS = ("rummykit", "uvicorn")
"""The loggers ``--verbose`` opens to ``DEBUG``."""


def levels(level: str | None, *, verbose: bool) -> tuple[int, int]:
    """The levels of the terminal and of a log file: warnings and INFO when no level is
    set, the level set for both, ``DEBUG`` for both when ``verbose``.

    >>> [logging.getLevelName(n) for n in levels(None, verbose=False)]
    ['WARNING', 'INFO']
    >>> [logging.getLevelName(n) for n in levels("INFO", verbose=False)]
    ['INFO', 'INFO']
    >>> [logging.getLevelName(n) for n in levels("ERROR", verbose=True)]
    ['DEBUG', 'DEBUG']
    """
    if verbose:
        return logging.DEBUG, logging.DEBUG
    if level is None:
        return logging.WARNING, logging.INFO
    number = logging.getLevelName(level.upper())
    return number, number


def set_up_logs(
    *,
    level: str | None,
    verbose: bool = False,
    log_file: Path | None = None,
    json_lines: bool = False,
) -> int:
    """Send the process's log lines to the terminal's error stream and, with
    ``log_file``, to that file, at the :func:`levels` of ``level`` and ``verbose``,
    as text or as JSON lines; the lowest level kept anywhere is returned (for uvicorn's
    own loggers)."""
    terminal_level, file_level = levels(level, verbose=verbose)
    lowest = min(terminal_level, file_level if log_file is not None else terminal_level)
    formatter: logging.Formatter = JsonLines() if json_lines else logging.Formatter(LOG_FORMAT)
    root = logging.getLogger()
    root.setLevel(max(lowest, logging.INFO))
    for name in VERBOSE_LOGGERS:
        logging.getLogger(name).setLevel(lowest)
    terminal = logging.StreamHandler()
    terminal.setFormatter(formatter)
    terminal.setLevel(terminal_level)
    if not json_lines:
        terminal.addFilter(FirstStallNote())
    root.addHandler(terminal)
    if log_file is not None:
        kept = logging.FileHandler(log_file, encoding="utf-8")
        kept.setFormatter(formatter)
        kept.setLevel(file_level)
        root.addHandler(kept)
    return lowest


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
