"""The review endpoints (``/api/tables/{id}/review``): start a finished game's review
for the caller's own seat (one review under way per player), then poll its progress and
items."""

from __future__ import annotations

from fastapi import APIRouter

from rummykit.server.api.context import ApiError, ServerContext
from rummykit.server.api.lobby import ERRORS, Context, Player
from rummykit.server.api.table_access import TableId, check_read
from rummykit.server.bots.errors import BotBusy
from rummykit.server.competition.review_jobs import ReviewJob
from rummykit.server.protocol.lobby import Review, ReviewItem, ReviewRequest
from rummykit.server.storage.models import PlayerRow
from rummykit.server.storage.store import StoredTable

router = APIRouter(prefix="/api", responses=ERRORS)


async def _finished_seat(
    server: ServerContext,
    table_id: str,
    player: PlayerRow,
    asked: int | None,
    token: str | None,
) -> tuple[StoredTable, int]:
    """The finished table and the caller's seat at it, or the typed refusal (a private
    table's first: ``private_table`` without a seat or its ``token``)."""
    stored = await server.storage.load_table(table_id)
    if stored is None:
        raise ApiError(404, "not_found", "there is no such table")
    seat = check_read(stored.table, stored.seats, player.id, token)
    if seat is None:
        raise ApiError(403, "not_a_player", "only the players of a game can review it")
    if asked is not None and asked != seat:
        raise ApiError(403, "not_your_seat", "you can review only your own seat", {"seat": seat})
    if not stored.table.revealed:
        raise ApiError(
            409, "game_not_over", "a game can be reviewed once it is over and its deal shown"
        )
    return stored, seat


def _review(job: ReviewJob) -> Review:
    return Review(
        table_id=job.table_id,
        seat=job.seat,
        status=job.status,
        done=job.done,
        total=job.total,
        items=[ReviewItem(**item) for item in job.items],
    )


@router.post("/tables/{table_id}/review", response_model=Review)
async def start_review(
    table_id: TableId,
    player: Player,
    server: Context,
    body: ReviewRequest | None = None,
    token: str | None = None,
) -> Review:
    """Start the review of your decisions in a finished game (or see the one under way):
    for each, the strongest bot's move and what it was worth in its simulations."""
    asked = None if body is None else body.seat
    stored, seat = await _finished_seat(server, table_id, player, asked, token)
    try:
        job = server.reviews.start(stored, seat, player_id=player.id)
    except BotBusy:
        raise ApiError(
            429, "review_pending", "a review of yours is already being worked out"
        ) from None
    return _review(job)


@router.get("/tables/{table_id}/review", response_model=Review)
async def get_review(
    table_id: TableId,
    player: Player,
    server: Context,
    seat: int | None = None,
    token: str | None = None,
) -> Review:
    """The review's progress (``done`` of ``total``) and its items so far."""
    stored, own = await _finished_seat(server, table_id, player, seat, token)
    job = server.reviews.get(stored.table.id, own)
    if job is None:
        raise ApiError(404, "no_review", "this game has no review yet: start one")
    return _review(job)
