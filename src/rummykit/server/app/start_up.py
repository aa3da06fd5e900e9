"""The server's start and stop: the parts that need the event loop, built and closed.

Start-up opens the database (unless storage is passed in) and applies its migrations,
makes (or reads) the cookie signing key, joins the site's cluster when Redis is
configured, picks the bot runner (the one passed in, the site's bot workers over Redis,
or a local process pool), builds the table registry, the review jobs, the fair-play
assessments, the tournaments and the notifications' sender (woken by every game's
end) into the
:class:`~rummykit.server.api.context.ServerContext` every handler is given
(``app.state.server``), rebuilds every unfinished table and starts the tournaments and
the assessments and the sending of notifications.  Shutdown stops them in the reverse
order: notifications, assessments, reviews,
tournaments, the cluster's taking of tables, the tables, the cluster, the bot workers
and the database (the last two only when made here), each for a bounded time
(:mod:`.stopping`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI

from rummykit.server.accounts.auth import Passwords, Sessions
from rummykit.server.accounts.socket_caps import LocalSockets
from rummykit.server.accounts.throttles import AccountLimits
from rummykit.server.api.context import ServerContext
from rummykit.server.app.stopping import Part, stop_parts
from rummykit.server.bots.service import BotRunner, BotService
from rummykit.server.clock import Clock
from rummykit.server.competition.assessment_jobs import AssessmentJobs
from rummykit.server.competition.review_jobs import ReviewJobs
from rummykit.server.competition.tournaments import Tournaments
from rummykit.server.notify.endpoints import PushClient
from rummykit.server.notify.sender import Notifier
from rummykit.server.notify.turns import TurnNotices
from rummykit.server.operations import collector
from rummykit.server.operations.events_log import log_event
from rummykit.server.operations.loop_lag import LoopLag
from rummykit.server.settings import Settings
from rummykit.server.storage.engine import make_engine
from rummykit.server.storage.store import Storage
from rummykit.server.table.registry import TableRegistry

if TYPE_CHECKING:
    from rummykit.server.cluster.worker import Cluster

Lifespan = Callable[[FastAPI], AbstractAsyncContextManager[None]]


def lifespan(
    settings: Settings,
    *,
    storage: Storage | None,
    runner: BotRunner | None,
    clock: Clock | None,
    loop_lag: LoopLag,
    push_client: PushClient | None = None,
) -> Lifespan:
    """The lifespan of an app serving ``settings``: its parts built at start and closed
    at stop; ``storage`` and ``runner`` when passed in are used, and left open; a
    ``push_client`` passed in posts Web Push (tests reach their own endpoint with it)."""

    @asynccontextmanager
    async def serving(app: FastAPI) -> AsyncIterator[None]:
        loop_lag.start()
        store = storage or _open_storage(settings)
        await store.migrate()
        key = settings.secret_key or await store.secret("session_key")
        sessions = Sessions(key)
        sessions.remember(await store.session_epochs())
        cluster = None
        if settings.redis_url is not None:  # one worker of a site of several
            from rummykit.server.cluster.worker import Cluster

            cluster = Cluster(settings)
        bots = runner if runner is not None else _bot_service(settings, cluster)
        tables = TableRegistry(
            storage=store, runner=bots, settings=settings, clock=clock, cluster=cluster
        )
        reviews = ReviewJobs(bots, settings)
        assessments = AssessmentJobs(store, bots, settings, tables.clock)
        tables.finish_listeners.append(assessments.game_over)
        tournaments = Tournaments(storage=store, tables=tables, settings=settings, clock=clock)
        notifier = Notifier(
            storage=store,
            settings=settings,
            clock=tables.clock,
            key=key,
            vapid_secret=await store.secret("vapid_key"),
            push_client=push_client,
        )
        tables.finish_listeners.append(notifier.wake)
        turn_notices = TurnNotices(store, tables.clock, notifier.wake)
        tables.turn_listeners.append(turn_notices.your_turn)
        tables.low_time_listeners.append(turn_notices.time_low)
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
            notifier=notifier,
        )
        recovered = await tables.recover()
        if cluster is not None:
            await cluster.start(tables)
        tournaments.start()
        assessments.start()
        notifier.start()
        frozen = collector.freeze_start_up()
        log_event(None, "server_started", recovered=recovered, frozen=frozen)
        try:
            yield
        finally:
            parts: list[Part] = [
                ("turn notices", turn_notices.close),
                ("notifications", notifier.close),
                ("assessments", assessments.close),
                ("reviews", reviews.close),
                ("tournaments", tournaments.close),
            ]
            if cluster is not None:
                parts.append(("taking tables", cluster.stop_taking))
            parts.append(("tables", tables.close))
            if cluster is not None:
                parts.append(("cluster", cluster.close))
            if runner is None:
                parts.append(("bots", _closing(bots)))
            if storage is None:
                parts.append(("database", store.close))
            await stop_parts(parts)
            log_event(None, "server_stopped")
            await loop_lag.stop()

    return serving


def _closing(bots: BotService) -> Callable[[], Coroutine[Any, Any, None]]:
    """The stop of ``bots`` (a plain call) as a part of the server's stop."""

    async def close() -> None:
        bots.close()

    return close


def _open_storage(settings: Settings) -> Storage:
    """The database of ``settings``, its pool sized by them."""
    return Storage(
        make_engine(
            settings.database_url,
            schema=settings.database_schema,
            pool_size=settings.database_pool_size,
            max_overflow=settings.database_max_overflow,
            # a worker of a site bounds every wait on the database (engine.limits)
            time_limit=settings.lease_seconds if settings.redis_url is not None else None,
        )
    )


def _bot_service(settings: Settings, cluster: Cluster | None) -> BotService:
    """Where the bots think: the site's bot workers when a worker of a site is told to
    use them, else a pool of worker processes of this server."""
    if cluster is not None and settings.bot_queue == "redis":
        from rummykit.server.cluster.bot_stream import StreamBotRunner

        return StreamBotRunner(cluster)  # the site's bot workers
    return BotRunner(settings.bot_workers)
