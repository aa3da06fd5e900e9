"""The FastAPI application: ``create_app(settings)`` wires every room of the server.

It mounts the routes of :mod:`~rummykit.server.api`, the table socket, the security
headers and the request log, answers every refusal as a typed error
(:mod:`rummykit.server.api.errors`), and serves the browser client (``rummykit/web``,
when installed) at ``/``.  The parts that need the event loop (storage, the bot
workers, the tables, the cluster) are built at start-up and closed at shutdown
(:mod:`.start_up`).  Storage, the bot runner and the clock can be passed in (tests do).

May import: api, cluster, competition, table, bots, accounts, notify, storage,
operations, settings, clock, protocol.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

import rummykit
from rummykit.server.accounts import security
from rummykit.server.api import (
    accounts,
    docs_pages,
    errors,
    lobby,
    moderation,
    notifications,
    rematch,
    sockets,
)
from rummykit.server.api import ratings as ratings_api
from rummykit.server.api import replay as replay_api
from rummykit.server.api import review as review_api
from rummykit.server.api import tournaments as tournament_api
from rummykit.server.api import turn_based as turn_based_api
from rummykit.server.api.context import ServerContext
from rummykit.server.app import metrics_page, start_up
from rummykit.server.bots.service import BotRunner
from rummykit.server.clock import Clock
from rummykit.server.notify.endpoints import PushClient
from rummykit.server.operations.loop_lag import LoopLag
from rummykit.server.operations.request_log import RequestLog
from rummykit.server.settings import Settings
from rummykit.server.storage.store import Storage

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
    push_client: PushClient | None = None,
) -> FastAPI:
    """The server application for ``settings`` (read from the environment if omitted);
    ``push_client`` replaces the client Web Push is posted with (a test's, which may
    reach an endpoint of its own on this machine: ``notify/endpoints.py``)."""
    settings = settings or Settings()
    loop_lag = LoopLag()

    app = FastAPI(
        title="rummykit",
        version=rummykit.__version__,
        summary="Burraco and Three-Thirteen tables: lobby over HTTP, play over WebSocket.",
        lifespan=start_up.lifespan(
            settings,
            storage=storage,
            runner=runner,
            clock=clock,
            loop_lag=loop_lag,
            push_client=push_client,
        ),
        docs_url=None,  # the pages of api/docs_pages.py, their viewers pinned
        redoc_url=None,
    )

    errors.install(app)
    metrics_page.install(app, settings, loop_lag)

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
    app.include_router(moderation.router)
    app.include_router(lobby.router)
    app.include_router(turn_based_api.router)
    app.include_router(review_api.router)
    app.include_router(replay_api.router)
    app.include_router(ratings_api.router)
    app.include_router(rematch.router)
    app.include_router(tournament_api.router)
    app.include_router(notifications.router)
    app.add_api_websocket_route("/ws/tables/{table_id}", sockets.table_socket)

    folder = web_folder()
    if folder is not None:
        app.mount("/", StaticFiles(directory=folder, html=True), name="web")
    else:

        @app.get("/", response_class=HTMLResponse, include_in_schema=False)
        async def index() -> str:
            return NO_CLIENT_PAGE

    return app
