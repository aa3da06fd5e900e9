"""The live tables of one server: creating them, finding their hosts, recovering them.

The registry holds one :class:`TableHost` per table in memory.  A table that is not in
memory (after a restart, or a finished one asked for again) is rebuilt from the
database on first use; at start every unfinished table is rebuilt at once so that its
bots and timers go on.  This module decides nothing about play.

As a worker of a site of several processes (``cluster``), the registry hosts a table
only under its lease: asked for a table another live worker holds, it answers that
table's :class:`~rummykit.server.remote_table.RemoteTable`; it takes a table nobody
holds; and it leaves recovery to the cluster's takeover of orphaned tables.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError

from rummykit.bots.registry import levels_for, make_bot, parse_spec
from rummykit.games.core import rules_to_json
from rummykit.games.registry import GAMES, game_named
from rummykit.server import fairness
from rummykit.server.bot_ratings import published_ratings
from rummykit.server.bots import BotService
from rummykit.server.clock import Clock, SystemClock
from rummykit.server.commands import SignedOut
from rummykit.server.events_log import log_event
from rummykit.server.host import TableError, TableHost
from rummykit.server.lobby_models import CreateTable, GameEntry, RuleOption, SeatRequest
from rummykit.server.models import SeatRow, TableRow
from rummykit.server.point_tables import point_tables
from rummykit.server.remote_table import RemoteTable
from rummykit.server.security import is_table_id
from rummykit.server.settings import Settings
from rummykit.server.storage import Storage, StorageError

if TYPE_CHECKING:
    from rummykit.server.cluster import Cluster

MAX_BOT_SECONDS = 10.0


def catalog_entries() -> list[GameEntry]:
    """Each game with its rule options (name, type, default, choices) and bot levels, read
    from the game's descriptor; the seats option is left out (the seats say it)."""
    return [
        GameEntry(
            name=game.name,
            title=game.title,
            player_counts=list(game.player_counts),
            options=[
                RuleOption(
                    name=option.name,
                    type=option.kind,
                    default=option.default,
                    choices=None if option.choices is None else list(option.choices),
                )
                for option in game.options
                if not option.seats
            ],
            bot_levels=list(levels_for(game.name)),
            points=point_tables(game.name),
            bot_ratings=published_ratings(game.name),
        )
        for game in GAMES.values()
    ]


def check_bot_level(
    game: str,
    level: str | None,
    *,
    max_seconds: float = MAX_BOT_SECONDS,
    max_iterations: int = 100_000,
) -> str:
    """``level`` if it names a bot for ``game`` that thinks at most ``max_seconds`` and
    searches at most ``max_iterations`` a move (a guest's limits are lower); otherwise
    ``bad_bot``, whatever the text (``nan``, ``inf``, garbage)."""
    if level is None:
        raise TableError("bad_seat", "a bot seat needs a level")
    try:
        make_bot(game, level)
        _, options = parse_spec(level)
    except ValueError as error:  # BotSpecError, or a bot's own check of its options
        raise TableError("bad_bot", str(error), {"level": level}) from None
    if options.get("seconds", 0.0) > max_seconds:
        raise TableError(
            "bad_bot", f"a bot thinks at most {max_seconds:g} s a move here", {"level": level}
        )
    if options.get("iterations", 0.0) > max_iterations:
        raise TableError(
            "bad_bot",
            f"a bot searches at most {max_iterations} iterations a move here",
            {"level": level},
        )
    return level


def rules_for(request: CreateTable, players: int) -> Any:
    game = game_named(request.game)
    try:
        return game.rules_for(request.rules, seats=players)
    except ValueError as error:
        raise TableError("bad_rules", str(error)) from None


def rated_choice(request: CreateTable, *, creator_registered: bool) -> bool:
    """Whether a new table is rated: as asked, else when a registered player creates a
    table of people.  Only registered players play rated tables, and only against
    people (``rated_needs_account``, ``rated_needs_people``)."""
    people_only = request.seats is not None and all(s.kind == "human" for s in request.seats)
    if request.rated is None:
        return creator_registered and people_only
    if request.rated and not creator_registered:
        raise TableError("rated_needs_account", "rated tables are for registered players")
    if request.rated and not people_only:
        raise TableError("rated_needs_people", "a rated table seats people only, no bots")
    return request.rated


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
        cluster: Cluster | None = None,
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

    def _parts(self) -> dict[str, Any]:
        return {
            "storage": self.storage,
            "runner": self.runner,
            "settings": self.settings,
            "clock": self.clock,
            "on_stop": self._forget,
            "on_finish": self._finished,
            "fencing": None if self.cluster is None else self.cluster.fencing,
        }

    def _finished(self, row: TableRow) -> None:
        for listener in self.finish_listeners:
            listener(row)

    def _forget(self, host: TableHost) -> None:
        if self.hosts.get(host.table_id) is host:
            del self.hosts[host.table_id]
            if self.cluster is not None:
                self.cluster.host_stopped(host.table_id)

    def _clock_options(
        self, request: CreateTable, humans: int
    ) -> tuple[float | None, float | None]:
        """The turn time and time bank of a new table with ``humans`` human seats: as
        asked, else the server's defaults at a table of several people and no clock
        against bots only (nobody waits for a player who plays the computer)."""
        if not humans:
            return None, None
        given = request.model_fields_set
        if "turn_seconds" in given:
            turn_seconds = request.turn_seconds
            if turn_seconds is not None and turn_seconds > self.settings.max_turn_seconds:
                raise TableError("bad_turn_seconds", "the turn time is too long")
        else:
            turn_seconds = self.settings.default_turn_seconds if humans > 1 else None
        if turn_seconds is None:
            return None, None
        if "time_bank_seconds" in given:
            bank = request.time_bank_seconds or None
            if bank is not None and bank > self.settings.max_time_bank_seconds:
                raise TableError("bad_turn_seconds", "the time bank is too long")
        else:
            bank = (self.settings.default_time_bank_seconds or None) if humans > 1 else None
        return turn_seconds, bank

    async def create(
        self,
        request: CreateTable,
        *,
        creator_id: str,
        creator_name: str,
        creator_registered: bool = False,
        rematch_of: str | None = None,
        kept_for: Sequence[str | None] = (),
    ) -> tuple[TableHost | RemoteTable, int | None]:
        """Store a new table (a fresh secret deal) and start its host; the creator's seat.
        (A worker of a site hosts it unless another worker took it first.)

        A rematch names the finished table ``rematch_of`` and keeps each human seat for
        the player of ``kept_for`` at the same index; :class:`RematchExists` when that
        table has a rematch already (made by anyone, in any process)."""
        seats = request.seats or [
            SeatRequest(kind="human"),
            SeatRequest(kind="bot", level="greedy"),
        ]
        rules = rules_for(request, len(seats))
        for seat in seats:
            if seat.kind == "bot":
                check_bot_level(request.game, seat.level)
        humans = [i for i, s in enumerate(seats) if s.kind == "human"]
        if request.sit and not humans:
            raise TableError("bad_seat", "there is no human seat to sit in")
        creator_seat = humans[0] if request.sit else None
        rated = rated_choice(request, creator_registered=creator_registered)
        turn_seconds, time_bank_seconds = self._clock_options(request, len(humans))
        deal = fairness.draw_secret_deal()
        now = self.clock.now()
        # a table with no free human seat is stored as started, in the same transaction
        full = len(humans) <= (1 if creator_seat is not None else 0)
        row = TableRow(
            id=secrets.token_hex(8),
            game=request.game,
            rules=rules_to_json(rules),
            private=request.private,
            invite_token=secrets.token_urlsafe(24) if request.private else None,
            seed=deal.seed,
            nonce=deal.nonce,
            commitment=deal.commitment,
            turn_seconds=turn_seconds,
            time_bank_seconds=time_bank_seconds,
            status="playing" if full else "waiting",
            creator_id=creator_id,
            created_at=now,
            started_at=now if full else None,
            finished_at=None,
            totals=None,
            winners=None,
            rated=rated,
            rematch_of=rematch_of,
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
            await self.storage.add_table(row, seat_rows)
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
        stand-in of the table at its owner, or ``None`` when no live worker has it)."""
        host = self.hosts.get(table_id)
        if host is not None and not host.stopped:
            return host
        if not is_table_id(table_id):
            return None
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:
                host = self.hosts.get(table_id)
                if host is None or host.stopped:
                    if self.cluster is None:
                        return await self._restore(table_id)
                    return await self._take_or_find(table_id)
        finally:
            if not lock.locked():
                self._loading.pop(table_id, None)
        return host

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
        return None

    async def _restore(self, table_id: str) -> TableHost | None:
        """The host of a stored table, with any transition its log implies stored."""
        stored = await self.storage.load_table(table_id)
        if stored is None:
            return None
        host = TableHost.restore(stored, **self._parts())
        await host.settle()
        self.hosts[table_id] = host
        host.start()
        log_event(table_id, "restored", actions=len(stored.actions), status=host.status)
        return host

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
