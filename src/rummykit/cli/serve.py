"""``rummykit serve``: the game server (lobby, tables, bots) on one address."""

import gc
from typing import Annotated

import typer

WS_MAX_FRAME = 64 * 1024
GC_YOUNG_OBJECTS = 10_000
KEEP_ALIVE_SECONDS = 75  # longer than HTTP libraries keep an idle connection (httpx: 5 s)


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
) -> None:
    """Serve the lobby and the tables; open the printed address in a browser."""
    import logging

    import uvicorn

    from rummykit.server.app import create_app
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
    settings = Settings(**overrides)  # type: ignore[arg-type]
    logging.basicConfig(
        level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s %(message)s"
    )
    app = create_app(settings)
    # The cyclic garbage collector pauses every table while it runs.  What was loaded so
    # far (modules, the application) is kept out of its passes, and it runs after 10,000
    # new objects rather than 700 (each table message makes dozens, nearly all freed by
    # reference counting), so that it runs, and walks the long-lived tables, less often.
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG_OBJECTS, *gc.get_threshold()[1:])
    shown = "127.0.0.1" if settings.host in ("0.0.0.0", "") else settings.host
    typer.echo(f"rummykit is serving at http://{shown}:{settings.port}/ (Ctrl-C stops it)")
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        ws_max_size=WS_MAX_FRAME,
        # table messages are small; compressing each costs more CPU than it saves
        ws_per_message_deflate=False,
        log_level=settings.log_level.lower(),
        timeout_graceful_shutdown=5,
        # An idle kept-alive connection is closed by the client before the server: with
        # both at 5 s (uvicorn's and httpx's default), a request sent as the server closed
        # it was lost unanswered and unseen by any log (browsers send such a request
        # again, most HTTP libraries do not).
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
    )


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
) -> None:
    """Work out the bot moves, hints and reviews of a site's server processes (those
    run with RUMMYKIT_BOT_QUEUE=redis), from its Redis; any number may run."""
    import asyncio
    import contextlib
    import logging

    from rummykit.server.bot_stream import BotWorker
    from rummykit.server.settings import Settings

    overrides: dict[str, object] = {} if redis is None else {"redis_url": redis}
    settings = Settings(**overrides)  # type: ignore[arg-type]
    if settings.redis_url is None:
        raise typer.BadParameter("give the site's Redis", param_hint="--redis")
    logging.basicConfig(
        level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s %(message)s"
    )
    worker = BotWorker(
        settings.redis_url, settings.redis_prefix, processes=processes, claim_after=claim_after
    )
    typer.echo(f"rummykit bot worker {worker.name}: {processes} at once (Ctrl-C stops it)")
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(worker.run())
