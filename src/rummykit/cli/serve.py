"""``rummykit serve``: the game server (lobby, tables, bots) on one address."""

import contextlib
import enum
import gc
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

if TYPE_CHECKING:
    from pydantic_settings import BaseSettings

WS_MAX_FRAME = 64 * 1024
GC_YOUNG_OBJECTS = 10_000
KEEP_ALIVE_SECONDS = 75  # longer than HTTP libraries keep an idle connection (httpx: 5 s)
# open files kept for the rest of the server (database and Redis connections, bot
# worker pipes, logs) below the open-file limit when setting the connection ceiling
FILES_KEPT_BACK = 128
WS_PING_SECONDS = 20.0  # a WebSocket that does not answer a ping within this is closed


def open_file_limit() -> int | None:
    """This process's open-file limit, raised first to the most it may be (its hard
    limit); ``None`` where there is no such limit."""
    try:
        import resource
    except ImportError:  # not on this system
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard not in (resource.RLIM_INFINITY, soft):
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    return None if soft == resource.RLIM_INFINITY else int(soft)


def connection_ceiling(wanted: int, files: int | None) -> int:
    """``wanted`` connections, or fewer if the open-file limit ``files`` leaves less.

    >>> connection_ceiling(4096, 1024), connection_ceiling(4096, 100_000)
    (896, 4096)
    >>> connection_ceiling(4096, None), connection_ceiling(4096, 100)
    (4096, 16)
    """
    if files is None:
        return wanted
    return max(16, min(wanted, files - FILES_KEPT_BACK))


SettingsType = TypeVar("SettingsType", bound="BaseSettings")


class LogFormatOption(enum.StrEnum):
    """The forms of the log lines (``--log-format``)."""

    text = "text"
    json = "json"


def read_settings(kind: type[SettingsType], overrides: dict[str, object]) -> SettingsType:
    """``kind`` read from the environment and ``overrides``; a bad value is one line
    naming the setting and exit status 2, not a traceback."""
    from pydantic import ValidationError

    try:
        return kind.model_validate(overrides)
    except ValidationError as error:
        for problem in error.errors():
            where = ".".join(str(part) for part in problem["loc"])
            name = f"RUMMYKIT_{where.upper()}: " if where else ""
            typer.echo(f"{name}{problem['msg'].removeprefix('Value error, ')}", err=True)
        raise typer.Exit(2) from None


def serve(
    host: Annotated[str | None, typer.Option(help="Address to listen on.")] = None,
    port: Annotated[int | None, typer.Option(help="Port to listen on.")] = None,
    database: Annotated[
        str | None,
        typer.Option(
            help="Database URL (postgresql+asyncpg://... or sqlite+aiosqlite:///file);"
            " default: a SQLite file in your data folder, or RUMMYKIT_DATABASE_URL."
        ),
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option(
            help="Redis URL (redis://host:6379/0) shared by several server processes on"
            " one PostgreSQL database: this process becomes one worker of the site"
            " (docs/scale-out.md); or RUMMYKIT_REDIS_URL."
        ),
    ] = None,
    verbose: Annotated[
        bool,
        typer.Option(
            "--verbose",
            help="Log at DEBUG: every request, migration and table event and the server's"
            " debug lines, not only warnings (RUMMYKIT_LOG_LEVEL=INFO shows all but the"
            " debug lines).",
        ),
    ] = False,
    log_file: Annotated[
        Path | None,
        typer.Option(help="Keep every log line (requests, migrations, table events) in this file."),
    ] = None,
    log_format: Annotated[
        LogFormatOption | None,
        typer.Option(
            help="text, or json: one JSON object a line (with the table, worker and player"
            " ids) for a log collector; or RUMMYKIT_LOG_FORMAT."
        ),
    ] = None,
) -> None:
    """Serve the lobby and the tables; open the printed address in a browser.

    ``--host 0.0.0.0`` serves every network this machine is on, so that a phone on the
    same Wi-Fi can play: anyone who can reach the machine can then open the lobby (plain
    HTTP, no TLS; see the README before serving beyond a home network).

    SIGTERM (or Ctrl-C) stops the server cleanly; a worker of a site is drained: it
    takes no more tables, hands each of its tables to another worker (its players
    follow it there) and then exits, so that workers restart one by one unnoticed
    (docs/scale-out.md, "A rolling restart")."""
    import logging

    import uvicorn

    from rummykit.cli.serve_logs import AnnouncedServer, set_up_logs
    from rummykit.server.accounts.malformed_http import http_protocol
    from rummykit.server.app import create_app
    from rummykit.server.operations.connection_guard import guarded_http
    from rummykit.server.settings import Settings

    overrides: dict[str, object] = {}
    if host is not None:
        overrides["host"] = host
    if port is not None:
        overrides["port"] = port
    if database is not None:
        overrides["database_url"] = database
    if redis is not None:
        overrides["redis_url"] = redis
    if log_format is not None:
        overrides["log_format"] = log_format.value
    settings = read_settings(Settings, overrides)
    logged = set_up_logs(
        level=settings.log_level,
        verbose=verbose,
        log_file=log_file,
        json_lines=settings.log_format == "json",
    )
    app = create_app(settings)
    # The cyclic garbage collector pauses every table while it runs.  What was loaded so
    # far (modules, the application) is kept out of its passes, and it runs after 10,000
    # new objects rather than 700 (each table message makes dozens, nearly all freed by
    # reference counting), so that it runs, and walks the long-lived tables, less often.
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG_OBJECTS, *gc.get_threshold()[1:])
    ceiling = connection_ceiling(settings.max_connections, open_file_limit())
    if ceiling < settings.max_connections:
        logging.getLogger("rummykit.server").warning(
            "at most %d connections at once (the open-file limit), not %d",
            ceiling,
            settings.max_connections,
        )
    config = uvicorn.Config(
        app,
        # the server's own log set-up (serve_logs.py); the access log is INFO lines
        log_config=None,
        access_log=True,
        host=settings.host,
        port=settings.port,
        # request headers must come within header_seconds and max_header_bytes; past
        # the ceiling a new connection is answered 503 (operations/connection_guard.py);
        # uvicorn's own 400 for a malformed request is typed and carries the security
        # headers (accounts/malformed_http.py)
        http=type(
            "ServedHttp",
            (
                guarded_http(
                    header_seconds=settings.header_seconds,
                    max_header_bytes=settings.max_header_bytes,
                    max_connections=ceiling,
                ),
                http_protocol(),
            ),
            {},
        ),
        ws_max_size=WS_MAX_FRAME,
        ws_ping_interval=WS_PING_SECONDS,
        ws_ping_timeout=WS_PING_SECONDS,
        # table messages are small; compressing each costs more CPU than it saves
        ws_per_message_deflate=False,
        log_level=logged,
        timeout_graceful_shutdown=5,
        # An idle kept-alive connection is closed by the client before the server: with
        # both at 5 s (uvicorn's and httpx's default), a request sent as the server closed
        # it was lost unanswered and unseen by any log (browsers send such a request
        # again, most HTTP libraries do not).
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
    )
    AnnouncedServer(config, addresses=addresses(settings.host, settings.port)).run()


def addresses(host: str, port: int) -> list[str]:
    """The addresses to open the server at: this machine's, and on every network too
    (the machine's name and its address there) when it serves them all.

    >>> addresses("127.0.0.1", 8000)
    ['http://127.0.0.1:8000/']
    """
    import socket

    if host not in ("0.0.0.0", "", "::"):
        return [f"http://{host}:{port}/"]
    shown = [f"http://127.0.0.1:{port}/"]
    name = socket.gethostname()
    with contextlib.suppress(OSError):
        shown.append(f"http://{socket.gethostbyname(name)}:{port}/ (from other devices)")
    return shown


def bot_worker(
    redis: Annotated[
        str | None,
        typer.Option(help="The site's Redis (redis://host:6379/0); or RUMMYKIT_REDIS_URL."),
    ] = None,
    processes: Annotated[
        int, typer.Option(min=1, max=64, help="Bot decisions worked out at once.")
    ] = 2,
    claim_after: Annotated[
        float,
        typer.Option(
            min=0.5,
            help="Seconds after which a call another bot worker took and never answered"
            " (it died) is taken over.",
        ),
    ] = 20.0,
    forget_after: Annotated[
        float,
        typer.Option(
            min=1.0,
            help="Seconds after which a bot worker that reads nothing and holds nothing"
            " (it died and its calls were taken over) is removed from the streams' group.",
        ),
    ] = 120.0,
    log_format: Annotated[
        LogFormatOption | None,
        typer.Option(
            help="text, or json: one JSON object a line (with the worker's id) for a log"
            " collector; or RUMMYKIT_LOG_FORMAT."
        ),
    ] = None,
) -> None:
    """Work out the bot moves, hints and reviews of a site's server processes (those
    run with RUMMYKIT_BOT_QUEUE=redis), from its Redis; any number may run."""
    import asyncio
    import contextlib
    import signal

    from rummykit.cli.serve_logs import set_up_logs
    from rummykit.server.cluster.bot_stream import BotWorker
    from rummykit.server.operations.events_log import set_worker
    from rummykit.server.settings import BotWorkerSettings

    overrides: dict[str, object] = {} if redis is None else {"redis_url": redis}
    if log_format is not None:
        overrides["log_format"] = log_format.value
    settings = read_settings(BotWorkerSettings, overrides)
    if settings.redis_url is None:
        raise typer.BadParameter("give the site's Redis", param_hint="--redis")
    set_up_logs(level=settings.log_level, json_lines=settings.log_format == "json")
    worker = BotWorker(
        settings.redis_url,
        settings.redis_prefix,
        processes=processes,
        claim_after=claim_after,
        forget_after=forget_after,
    )
    set_worker(worker.name)
    # Ctrl-C stops the worker from now on: this handler until the event loop runs, then
    # the loop's own (run_until_ctrl_c)
    signal.signal(signal.SIGINT, lambda *_: worker.stop())
    typer.echo(f"rummykit bot worker {worker.name}: {processes} at once (Ctrl-C stops it)")
    with contextlib.suppress(KeyboardInterrupt):  # a second Ctrl-C
        asyncio.run(worker.run_until_ctrl_c())
