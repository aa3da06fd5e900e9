"""The live tables of one server: creating them, finding their hosts, recovering them.

The registry holds one :class:`TableHost` per table in memory.  A table that is not in
memory (after a restart, or a finished one asked for again) is rebuilt from the
database on first use; at start every unfinished table is rebuilt at once so that its
bots and timers go on.  This module decides nothing about play.

As a worker of a site of several processes (``cluster``), the registry hosts a table
only under its lease: asked for a table another live worker holds, it answers that
table's :class:`~rummykit.server.table.remote.RemoteTable`; it takes a table nobody
holds; and it leaves recovery to the cluster's takeover of orphaned tables.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from rummykit.games.core import rules_to_json
from rummykit.server.accounts.security import is_table_id
from rummykit.server.bots.limits import clamp_level, level_limits
from rummykit.server.bots.service import BotService
from rummykit.server.clock import Clock, SystemClock
from rummykit.server.operations.events_log import log_event
from rummykit.server.protocol.lobby import SeatRequest
from rummykit.server.protocol.refusals import TableError
from rummykit.server.settings import Settings
from rummykit.server.storage.errors import StorageError
from rummykit.server.storage.fencing import Lease
from rummykit.server.storage.models import SeatRow, TableRow
from rummykit.server.storage.player_locks import holding_player
from rummykit.server.storage.store import Storage, StoredTable
from rummykit.server.table import committed_deal
from rummykit.server.table.commands import SignedOut
from rummykit.server.table.host import TableHost
from rummykit.server.table.remote import RemoteTable
from rummykit.server.table.turn_based import TurnListener


@dataclass(frozen=True, slots=True, kw_only=True)
class NewTable:
    """A table to make, every choice made: its game and rules (the game's ``Rules``), its
    seats, the seat its maker takes (``None``: none), whether it is rated, whether it
    is private, and its turn time and time bank (``None``: none), or for a turn-based
    table its time per move in days (``days_per_move``; ``None``: a live table).  The
    lobby's request is checked and turned into one by
    :mod:`rummykit.server.api.catalog`."""

    game: str
    rules: Any
    seats: tuple[SeatRequest, ...]
    creator_seat: int | None
    rated: bool
    private: bool
    turn_seconds: float | None
    time_bank_seconds: float | None
    days_per_move: int | None = None


class Site(Protocol):
    """What the registry asks of the site its process is a worker of (the cluster's
    :class:`~rummykit.server.cluster.worker.Cluster`): whose table is whose, and the
    stand-in of a table another worker hosts."""

    def fencing(self, table_id: str) -> Lease | None:
        """The lease to write ``table_id``'s actions under (``None``: stop acting)."""
        ...

    async def take(self, table_id: str) -> Lease | None:
        """This worker's lease of ``table_id`` (taken now if nobody holds it), or ``None``."""
        ...

    def host_stopped(self, table_id: str, *, unfinished: bool = False) -> None:
        """A host of this worker stopped: its lease is released (the clients elsewhere
        of an ``unfinished`` table are handed on to its next owner)."""
        ...

    async def remote_table(self, table_id: str, storage: Storage) -> RemoteTable | None:
        """The stand-in for ``table_id`` hosted by another live worker, or ``None``."""
        ...

    async def hidden_elsewhere(self, table_ids: list[str]) -> set[str]:
        """Which of ``table_ids`` (hosted by other workers) their owners mark as away."""
        ...

    async def player_back(self, table_id: str) -> None:
        """A player came back to ``table_id``, a waiting table of this worker's that the
        lobbies left out: every lobby lists it again once this returns."""
        ...

    def signed_out(self, player_id: str) -> None:
        """``player_id`` logged out: every worker closes their clients."""
        ...

    def vacations_changed(self, player_id: str) -> None:
        """``player_id`` declared a vacation: every other worker's tables where they sit
        read their vacations again."""
        ...


class RematchExists(Exception):
    """The finished table (its id the argument) has a rematch already."""


class TableRegistry:
    """Every table host of this server process, by table id."""

    def __init__(
        self,
        *,
        storage: Storage,
        runner: BotService,
        settings: Settings,
        clock: Clock | None = None,
        cluster: Site | None = None,
    ) -> None:
        self.storage = storage
        self.runner = runner
        self.settings = settings
        self.clock: Clock = clock or SystemClock()
        self.cluster = cluster
        self.hosts: dict[str, TableHost] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        # told of every table this process sees end (a tournament moves on)
        self.finish_listeners: list[Callable[[TableRow], None]] = []
        self.turn_listeners: list[TurnListener] = []
        """Told ``(row, seat, player_id)`` each time the turn of a turn-based table of
        this process passes to a person (``seat``, held by ``player_id``; not to a bot,
        nor to a person who left, whose seat a stand-in plays), and when such a table
        starts with a person to move.  Called in the table's task, after the move that
        passed the turn is stored: a listener must not block (start its own task for
        anything slow) and must not raise.  A table restored (a restart, a failover)
        tells again the turn it is at: its last process may have stored the move and
        stopped before its listeners acted, so a listener keys what it keeps by the turn
        (``row.turn_since``).  Never called for live tables."""
        self.low_time_listeners: list[TurnListener] = []
        """Told ``(row, seat, player_id)`` once a turn when the time of the person to
        move at a turn-based table runs low: a quarter of the time per move left, at
        most ``turn_low_hours`` (24) hours (later by the mover's vacation).  A table
        restored past that point tells it at once.  The same rules as
        :attr:`turn_listeners`; never called for live tables."""

    def _parts(self) -> dict[str, Any]:
        return {
            "storage": self.storage,
            "runner": self.runner,
            "settings": self.settings,
            "clock": self.clock,
            "on_stop": self._forget,
            "on_finish": self._finished,
            "fencing": None if self.cluster is None else self.cluster.fencing,
            "on_player_back": None if self.cluster is None else self.cluster.player_back,
            "on_turn": self._turn_passed,
            "on_low_time": self._time_low,
        }

    def _turn_passed(self, row: TableRow, seat: int, player_id: str) -> None:
        for listener in self.turn_listeners:
            listener(row, seat, player_id)

    def _time_low(self, row: TableRow, seat: int, player_id: str) -> None:
        for listener in self.low_time_listeners:
            listener(row, seat, player_id)

    def _finished(self, row: TableRow) -> None:
        for listener in self.finish_listeners:
            listener(row)

    def _forget(self, host: TableHost) -> None:
        if self.hosts.get(host.table_id) is host:
            del self.hosts[host.table_id]
            if self.cluster is not None:
                self.cluster.host_stopped(host.table_id, unfinished=host.status != "over")

    async def create(
        self,
        table: NewTable,
        *,
        creator_id: str,
        creator_name: str,
        rematch_of: str | None = None,
        kept_for: Sequence[str | None] = (),
        admit: Callable[[AsyncSession], Awaitable[None]] | None = None,
    ) -> tuple[TableHost | RemoteTable, int | None]:
        """Store a new table (a fresh secret deal) and start its host; the creator's seat.
        (A worker of a site hosts it unless another worker took it first.)

        ``admit`` checks what the creator has (``bots/admission.py``), raising the
        refusal: it runs in the transaction that stores the table, under the creator's
        lock, so that no other table of theirs is stored in between.

        A rematch names the finished table ``rematch_of`` and keeps each human seat for
        the player of ``kept_for`` at the same index; :class:`RematchExists` when that
        table has a rematch already (made by anyone, in any process)."""
        seats = table.seats
        creator_seat = table.creator_seat
        humans = [i for i, s in enumerate(seats) if s.kind == "human"]
        deal = committed_deal.draw_secret_deal()
        now = self.clock.now()
        # a table with no free human seat is stored as started, in the same transaction
        full = len(humans) <= (1 if creator_seat is not None else 0)
        row = TableRow(
            id=secrets.token_hex(8),
            game=table.game,
            rules=rules_to_json(table.rules),
            private=table.private,
            invite_token=secrets.token_urlsafe(24) if table.private else None,
            seed=deal.seed,
            nonce=deal.nonce,
            commitment=deal.commitment,
            turn_seconds=table.turn_seconds,
            time_bank_seconds=table.time_bank_seconds,
            status="playing" if full else "waiting",
            creator_id=creator_id,
            created_at=now,
            started_at=now if full else None,
            finished_at=None,
            totals=None,
            winners=None,
            rated=table.rated,
            rematch_of=rematch_of,
            days_per_move=table.days_per_move,
        )
        seat_rows = [
            SeatRow(
                table_id=row.id,
                seat=i,
                kind=s.kind,
                level=s.level if s.kind == "bot" else None,
                player_id=creator_id if i == creator_seat else None,
                name=creator_name if i == creator_seat else None,
                kept_for=kept_for[i] if i < len(kept_for) and s.kind == "human" else None,
            )
            for i, s in enumerate(seats)
        ]
        try:
            if admit is None:
                await self.storage.add_table(row, seat_rows)
            else:
                async with holding_player(self.storage, creator_id) as session:
                    await admit(session)
                    await self.storage.add_table(row, seat_rows, session=session)
        except IntegrityError:
            if rematch_of is None:
                raise
            raise RematchExists(rematch_of) from None
        return await self._open(row, seat_rows), creator_seat

    async def _open(self, row: TableRow, seat_rows: list[SeatRow]) -> TableHost | RemoteTable:
        """Start the host of a table just stored (a worker of a site: unless another
        worker took it first, when it was stored and then looked orphaned)."""
        if self.cluster is not None and await self.cluster.take(row.id) is None:
            remote = await self.cluster.remote_table(row.id, self.storage)
            if remote is None:
                raise TableError("table_unavailable", "the table is busy; try again")
            return remote
        host = TableHost(row=row, seats=seat_rows, **self._parts())
        self.hosts[row.id] = host
        host.start()
        log_event(row.id, "created", game=row.game, seats=len(seat_rows), private=row.private)
        return host

    async def open_seated(self, row: TableRow, seat_rows: list[SeatRow]) -> bool:
        """Store and start a table made with every seat given (a tournament's), unless
        a table of that id exists already (made by an earlier try): whether it was
        made here."""
        try:
            await self.storage.add_table(row, seat_rows)
        except IntegrityError:
            return False
        await self._open(row, seat_rows)
        return True

    async def host(self, table_id: str) -> TableHost | RemoteTable | None:
        """The host of ``table_id``, rebuilt from the database if not in memory (a
        worker of a site: if it holds or can take the table's lease; otherwise the
        stand-in of the table at its owner); ``None`` when there is no such table.
        A worker that finds the table but no live owner it can reach raises
        ``TableError("table_unavailable")`` (try again)."""
        host = self.hosts.get(table_id)
        if host is not None and not host.stopped and self._holds(table_id):
            return host
        if not is_table_id(table_id):
            return None
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:
                host = self.hosts.get(table_id)
                if host is not None and not host.stopped and not self._holds(table_id):
                    # a former owner's host (its lease lost, say after a freeze): never
                    # handed out; it stops, and the table is found at its new owner
                    log_event(table_id, "host_not_held", level=logging.WARNING)
                    await host.stop()
                if host is None or host.stopped:
                    if self.cluster is None:
                        return await self._restore(table_id)
                    return await self._take_or_find(table_id)
        finally:
            if not lock.locked():
                self._loading.pop(table_id, None)
        return host

    def _holds(self, table_id: str) -> bool:
        """Whether this process may act for ``table_id``: always, unless it is a worker
        of a site whose lease of the table is lost or no longer safe."""
        return self.cluster is None or self.cluster.fencing(table_id) is not None

    async def _take_or_find(self, table_id: str) -> TableHost | RemoteTable | None:
        """A worker's answer for a table not in its memory: host it if nobody holds it,
        else the stand-in of its owner (asked again if the lease moved meanwhile)."""
        assert self.cluster is not None
        for _ in range(3):
            try:
                lease = await self.cluster.take(table_id)
            except StorageError:  # no such table
                return None
            if lease is not None:
                host = None
                try:
                    host = await self._restore(table_id)
                finally:
                    if host is None:
                        self.cluster.host_stopped(table_id)
                return host
            remote = await self.cluster.remote_table(table_id, self.storage)
            if remote is not None:
                return remote
            await asyncio.sleep(0.05)
        # the table exists, but neither this worker nor a live one it can reach hosts it
        # (cut off from Redis, or the lease is between owners): the caller tries again
        raise TableError("table_unavailable", "the table is busy; try again")

    async def _restore(self, table_id: str) -> TableHost | None:
        """The host of a stored table, with any transition its log implies stored."""
        stored = await self.storage.load_table(table_id)
        if stored is None:
            return None
        await self._hold_bots_to_limits(stored)
        host = TableHost.restore(stored, **self._parts())
        await host.settle()
        self.hosts[table_id] = host
        host.start()
        log_event(table_id, "restored", actions=len(stored.actions), status=host.status)
        return host

    async def _hold_bots_to_limits(self, stored: StoredTable) -> None:
        """Clamp the bot levels of a table stored under older limits (or by hand) to
        the limits its bots have now, so that no search over its budget goes on after a
        restart: a guest's table's to a guest's, a tournament's to a tournament's.  The
        host's seats (and the table's summary) show the clamped level; the stored rows
        stay as they were made."""
        bots = [seat for seat in stored.seats if seat.kind == "bot"]
        if not bots:
            return
        creator_id = stored.table.creator_id
        creator = None if creator_id is None else await self.storage.player(creator_id)
        max_seconds, max_iterations = level_limits(
            guest=creator is not None and creator.login_name is None,
            settings=self.settings,
            tournament=stored.table.tournament_id is not None,
        )
        for seat in bots:
            level = clamp_level(seat.level, max_seconds=max_seconds, max_iterations=max_iterations)
            if level != seat.level:
                log_event(stored.table.id, "bot_level_clamped", seat=seat.seat, to=level)
                seat.level = level

    async def follow_reveals(self, tournament_id: str | None = None) -> None:
        """Make this process's tables whose deal a tournament holds (of
        ``tournament_id``, or of any) follow the database once the hold is lifted: the
        round is over, the tables are public and their seed is told."""
        held = {
            table_id: host
            for table_id, host in self.hosts.items()
            if host.row.reveal_held
            and (tournament_id is None or host.row.tournament_id == tournament_id)
        }
        if not held:
            return
        for row in await self.storage.tables_named(list(held)):
            host = held[row.id]
            if self.hosts.get(row.id) is host:
                host.ending.follow(row)

    async def hidden_from_lobby(self, table_ids: list[str]) -> set[str]:
        """Which of these waiting tables the lobby leaves out: those whose seated players
        have all been away for the grace period (asked of their hosts here, and of the
        other workers of a site through Redis)."""
        hidden = set()
        elsewhere = []
        for table_id in table_ids:
            host = self.hosts.get(table_id)
            if host is None:
                elsewhere.append(table_id)
            elif not host.awaits_players():
                hidden.add(table_id)
        if self.cluster is not None and elsewhere:
            hidden |= await self.cluster.hidden_elsewhere(elsewhere)
        return hidden

    def vacations_changed(self, player_id: str) -> None:
        """``player_id`` declared a vacation: the turn-based tables of this process where
        they sit read their vacations again (the API tells the site, whose other workers
        call this for theirs)."""
        for host in list(self.hosts.values()):
            if host.days.applies and host.seat_of(player_id) is not None:
                host.days.refresh()

    async def sign_out(self, player_id: str) -> None:
        """Close every connection of ``player_id`` at the tables of this process; returns
        once every host has closed them."""
        loop = asyncio.get_running_loop()
        done: list[asyncio.Future[None]] = []
        for host in list(self.hosts.values()):
            result: asyncio.Future[None] = loop.create_future()
            host.submit(SignedOut(player_id, result))
            done.append(result)
        await asyncio.gather(*done)

    async def recover(self) -> int:
        """Rebuild every unfinished table (at start); how many there were.  A worker of
        a site rebuilds none here: it takes over orphaned tables as they appear."""
        if self.cluster is not None:
            return 0
        ids = await self.storage.unfinished_table_ids()
        for table_id in ids:
            await self.host(table_id)
        return len(ids)

    async def close(self) -> None:
        for host in list(self.hosts.values()):
            await host.stop()
        self.hosts.clear()
