"""The end of a table's game: stored first, then told to everyone with the seed.

The host hands its game's end here once the state says the game is over (after the
last action, or when a restored table's log implies it): the totals, the winners and a
rated table's ratings are stored in one transaction
(:meth:`~rummykit.server.storage.store.Storage.finish_table`), and only then does the
table turn ``over`` and every connection learn the result.  This module never decides
that a game is over (the engine does) and never writes anything but the end.

A tournament's table holds its deal back (``reveal_held``) until every table of its
round is over; the tournament then lifts the hold in the database, and
:meth:`GameEnd.follow` makes the live table follow: public as stored, and the seed told
to everyone still connected.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from rummykit.rating.model import pool_of, turn_based_pool
from rummykit.server.operations.events_log import log_event
from rummykit.server.protocol.messages import EndedBy, GameOverMessage
from rummykit.server.storage.models import TableRow
from rummykit.server.storage.ratings import RatedGame
from rummykit.server.table.bot_driver import BotDriver
from rummykit.server.table.broadcast import TableViews
from rummykit.server.table.parts import TableCore


class EndingTable(TableCore, Protocol):
    """What the end asks of its table: to stop its bots, send, and linger or leave."""

    views: TableViews
    bots: BotDriver
    on_finish: Callable[[TableRow], None] | None

    def linger_if_idle(self) -> None: ...


class GameEnd:
    """Finishes one table's game."""

    def __init__(self, host: EndingTable) -> None:
        self.host = host

    async def finish(
        self,
        at: float,
        *,
        ended_by: EndedBy | None = None,
        winners: list[int] | None = None,
        gone: tuple[int, ...] = (),
    ) -> None:
        """Store the game's end, then tell everyone (the seed is revealed).  A game not
        played to its end says how it ended (``ended_by``), with its ``winners`` and
        the seats ``gone`` (placed last); an aborted one is not rated."""
        host = self.host
        totals = list(host.state.totals)
        winners = list(host.state.winners) if winners is None else winners
        rated = None
        if host.row.rated and ended_by != "aborted":
            game = host.game
            pool = pool_of(
                game.name,
                len(totals),
                player_counts=game.player_counts,
                named_size=game.named_pool_size,
            )
            if host.row.days_per_move is not None:
                pool = turn_based_pool(pool)
            team_of = game.team_of
            rated = RatedGame(
                pool=pool,
                lower_is_better=game.lower_is_better,
                sides=None if team_of is None else tuple(map(team_of, range(len(totals)))),
                pair_limit=host.settings.rated_games_between,
                pair_days=host.settings.rated_games_between_days,
            )
        await host.storage.finish_table(
            host.table_id,
            at,
            totals,
            winners,
            rated=rated,
            lease=host.write_lease(),
            ended_by=ended_by,
            gone=gone,
        )
        host.status = "over"
        host.row.status = "over"
        host.row.totals = totals
        host.row.winners = winners
        host.row.finished_at = at
        host.row.ended_by = ended_by
        for seat in host.seating:
            seat.cancel_grace()
        host.turn.disarm()
        host.bots.cancel()
        log_event(host.table_id, "game_over", totals=totals, winners=winners, ended_by=ended_by)
        host.views.broadcast()
        host.views.send_all(self.message())
        host.linger_if_idle()
        if host.on_finish is not None:
            host.on_finish(host.row)

    def follow(self, stored: TableRow) -> None:
        """Follow the stored row once a tournament has lifted its hold on the deal: the
        table is as private as stored, and everyone connected learns the seed."""
        host = self.host
        if not host.row.reveal_held or stored.reveal_held:
            return
        host.row.reveal_held = False
        host.row.private = stored.private
        log_event(host.table_id, "deal_revealed")
        if host.status == "over":
            host.views.send_all(self.message())

    def message(self) -> GameOverMessage:
        """The result, and the seed unless a tournament holds it until its round ends."""
        host = self.host
        return GameOverMessage(
            table_id=host.table_id,
            totals=list(host.state.totals),
            winners=list(host.state.winners if host.row.winners is None else host.row.winners),
            ended_by=host.row.ended_by,  # type: ignore[arg-type]
            seed=None if host.row.reveal_held else host.row.seed,
            nonce=None if host.row.reveal_held else host.row.nonce,
            commitment=host.row.commitment,
            record_url=f"/api/tables/{host.table_id}/record",
        )
