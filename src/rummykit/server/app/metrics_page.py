"""``GET /metrics``: the process's figures (``operations/metrics.py``) and this server's
own, read at the scrape.  Off unless the ``metrics`` setting asks for it (404 then, as
for any path); with ``metrics_token`` a scrape must send ``Authorization: Bearer
<token>`` (401 otherwise, compared in constant time)."""

from __future__ import annotations

import hmac

from fastapi import FastAPI, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest

from rummykit.server.api.context import ApiError, ServerContext
from rummykit.server.operations.loop_lag import BUCKET_BOUNDS_MS, LoopLag
from rummykit.server.operations.metrics import REGISTRY, ServerCollector
from rummykit.server.settings import Settings


class ServerFigures:
    """What a scrape reads of the running server ``server``."""

    def __init__(self, server: ServerContext, loop_lag: LoopLag) -> None:
        self.server = server
        self.lag = loop_lag

    def tables_hosted(self) -> int:
        return len(self.server.tables.hosts)

    def tables_relayed(self) -> int:
        # a worker of a site relays through its cluster's gateway; one process relays none
        gateway = getattr(self.server.tables.cluster, "gateway", None)
        return 0 if gateway is None else len(gateway.tables)

    def bot_calls(self) -> dict[str, int]:
        queue = getattr(self.server.runner, "queue", None)
        return {} if queue is None else dict(queue.counts())

    def loop_lag(self) -> tuple[list[tuple[float, int]], float, float]:
        bounds = [bound / 1000 for bound in BUCKET_BOUNDS_MS] + [float("inf")]
        return list(zip(bounds, self.lag.counts, strict=True)), self.lag.total, self.lag.worst


def install(app: FastAPI, settings: Settings, loop_lag: LoopLag) -> None:
    """Serve ``/metrics`` on ``app`` if the settings ask for it."""
    if not settings.metrics:
        return
    own = CollectorRegistry()
    own.register(
        ServerCollector(
            lambda: (
                ServerFigures(app.state.server, loop_lag) if hasattr(app.state, "server") else None
            )
        )
    )

    @app.get("/metrics", include_in_schema=False)
    async def metrics(request: Request) -> Response:
        token = settings.metrics_token
        if token is not None:
            given = request.headers.get("authorization", "")
            if not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
                raise ApiError(401, "metrics_token", "a scrape needs the metrics token")
        body = generate_latest(REGISTRY) + generate_latest(own)
        return Response(body, media_type=CONTENT_TYPE_LATEST)
