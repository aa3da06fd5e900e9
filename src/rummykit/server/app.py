"""The FastAPI application: ``create_app(settings)`` wires storage, bots and tables.

Start-up applies the database migrations, makes (or reads) the cookie signing key and
rebuilds every unfinished table; shutdown stops the tables, the bot workers and the
database engine.  Storage, the bot runner and the clock can be passed in (tests do).
The browser client (``rummykit/web``, when installed) is served at ``/``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

import rummykit
from rummykit.server.accounts import security
from rummykit.server.accounts.auth import Passwords, Sessions
from rummykit.server.accounts.socket_caps import LocalSockets
from rummykit.server.accounts.throttles import AccountLimits
from rummykit.server.api import accounts, docs_pages, lobby, rematch, sockets
from rummykit.server.api import ratings as ratings_api
from rummykit.server.api import replay as replay_api
from rummykit.server.api import review as review_api
from rummykit.server.api import tournaments as tournament_api
from rummykit.server.api.context import ApiError, ServerContext
from rummykit.server.bots.service import BotRunner, BotService
from rummykit.server.clock import Clock
from rummykit.server.competition.review_jobs import ReviewJobs
from rummykit.server.competition.tournaments import Tournaments
from rummykit.server.operations import collector
from rummykit.server.operations.events_log import log_event
from rummykit.server.operations.loop_lag import LoopLag
from rummykit.server.operations.request_log import RequestLog
from rummykit.server.protocol.lobby import NAMED_VALIDATION_ERRORS
from rummykit.server.settings import Settings
from rummykit.server.storage.engine import make_engine
from rummykit.server.storage.store import Storage
from rummykit.server.table.registry import TableRegistry

NO_CLIENT_PAGE = """<!doctype html><meta charset="utf-8"><title>rummykit</title>
<h1>rummykit server</h1><p>The browser client is not installed.
The API is documented at <a href="/docs">/docs</a>.</p>"""


def web_folder() -> Path | None:
    """The browser client's folder inside the package, if it is there."""
    try:
        folder = Path(str(resources.files("rummykit") / "web"))
    except (ModuleNotFoundError, TypeError):
        return None
    return folder if (folder / "index.html").is_file() else None


def create_app(
    settings: Settings | None = None,
    *,
    storage: Storage | None = None,
    runner: BotRunner | None = None,
    clock: Clock | None = None,
) -> FastAPI:
    """The server application for ``settings`` (read from the environment if omitted)."""
    settings = settings or Settings()
    loop_lag = LoopLag()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        loop_lag.start()
        store = storage or Storage(
            make_engine(
                settings.database_url,
                schema=settings.database_schema,
                pool_size=settings.database_pool_size,
                max_overflow=settings.database_max_overflow,
                # a worker of a site bounds every wait on the database (engine.limits)
                time_limit=settings.lease_seconds if settings.redis_url is not None else None,
            )
        )
        await store.migrate()
        key = settings.secret_key or await store.secret("session_key")
        sessions = Sessions(key)
        sessions.remember(await store.session_epochs())
        cluster = None
        if settings.redis_url is not None:  # one worker of a site of several
            from rummykit.server.cluster.worker import Cluster

            cluster = Cluster(settings, store.engine)
        bots: BotService
        if runner is not None:
            bots = runner
        elif cluster is not None and settings.bot_queue == "redis":
            from rummykit.server.cluster.bot_stream import StreamBotRunner

            bots = StreamBotRunner(cluster)  # the site's bot workers
        else:
            bots = BotRunner(settings.bot_workers)
        tables = TableRegistry(
            storage=store, runner=bots, settings=settings, clock=clock, cluster=cluster
        )
        reviews = ReviewJobs(bots, settings)
        tournaments = Tournaments(storage=store, tables=tables, settings=settings, clock=clock)
        app.state.server = ServerContext(
            settings=settings,
            storage=store,
            runner=bots,
            tables=tables,
            sessions=sessions,
            passwords=Passwords(settings.password_hashes_at_once),
            limits=(
                AccountLimits.from_settings(settings)
                if cluster is None
                else cluster.shared_limits(settings)
            ),
            reviews=reviews,
            tournaments=tournaments,
            sockets=(
                LocalSockets(settings.sockets_per_player) if cluster is None else cluster.sockets
            ),
        )
        recovered = await tables.recover()
        if cluster is not None:
            await cluster.start(tables)
        tournaments.start()
        frozen = collector.freeze_start_up()
        log_event(None, "server_started", recovered=recovered, frozen=frozen)
        try:
            yield
        finally:
            await reviews.close()
            await tournaments.close()
            if cluster is not None:
                await cluster.stop_taking()
            await tables.close()
            if cluster is not None:
                await cluster.close()
            if runner is None:
                bots.close()
            if storage is None:
                await store.close()
            log_event(None, "server_stopped")
            await loop_lag.stop()

    app = FastAPI(
        title="rummykit",
        version=rummykit.__version__,
        summary="Burraco and Three-Thirteen tables: lobby over HTTP, play over WebSocket.",
        lifespan=lifespan,
        docs_url=None,  # the pages of api/docs_pages.py, their viewers pinned
        redoc_url=None,
    )

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, error: ApiError) -> JSONResponse:
        body = {"code": error.code, "message": error.message, "params": error.params}
        return JSONResponse({"error": body}, status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, error: RequestValidationError) -> JSONResponse:
        first: dict[str, Any] = dict(error.errors()[0]) if error.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ())[1:]) or "body"
        code = first.get("type")
        body = {
            "code": code if code in NAMED_VALIDATION_ERRORS else "invalid_request",
            "message": f"{where}: {first.get('msg', 'invalid')}",
            "params": {**_plain(first.get("ctx")), "field": where},
        }
        return JSONResponse({"error": body}, status_code=422)

    @app.exception_handler(HTTPException)
    async def http_error(_request: Request, error: HTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "http_error")
        body = {"code": code, "message": str(error.detail), "params": {}}
        return JSONResponse({"error": body}, status_code=error.status_code)

    @app.get("/healthz")
    async def healthz(
        lag_since: Annotated[float | None, Query(allow_inf_nan=False)] = None,
    ) -> dict[str, Any]:
        """Liveness, the live tables, and how late the event loop has run (``loop_lag``;
        ``lag_since``, a Unix time, adds the worst lag since then; ``nan``, ``inf`` or a
        number too large for a float is a typed 422, not a failure)."""
        server: ServerContext = app.state.server
        return {
            "ok": True,
            "tables": len(server.tables.hosts),
            "version": rummykit.__version__,
            "loop_lag": loop_lag.snapshot(lag_since),
        }

    security.install(app, settings)
    app.add_middleware(RequestLog)  # outermost: it sees every request and every answer
    docs_pages.install(app)
    app.include_router(accounts.router)
    app.include_router(lobby.router)
    app.include_router(review_api.router)
    app.include_router(replay_api.router)
    app.include_router(ratings_api.router)
    app.include_router(rematch.router)
    app.include_router(tournament_api.router)
    app.add_api_websocket_route("/ws/tables/{table_id}", sockets.table_socket)

    folder = web_folder()
    if folder is not None:
        app.mount("/", StaticFiles(directory=folder, html=True), name="web")
    else:

        @app.get("/", response_class=HTMLResponse, include_in_schema=False)
        async def index() -> str:
            return NO_CLIENT_PAGE

    return app


def _plain(context: object) -> dict[str, object]:
    """A validation error's context as JSON parameters (numbers and text only)."""
    if not isinstance(context, dict):
        return {}
    return {k: v for k, v in context.items() if isinstance(v, str | int | float | bool)}
