"""Tournaments on the server: registration, rounds made and started by the server, each
table's result read from the finished game, and the standings.

Pairing and standings are the simulator's (:mod:`rummykit.events.swiss`,
:mod:`rummykit.events.knockout`, :mod:`rummykit.events.standings`), so an event of people
and bots here and one of bots from ``rummykit tournament`` follow the same rules.

A tournament's state lives in the database alone (``tournaments``, their entrants and
the ``tournament_tables`` of their rounds), so that any server process may move an
event on and a crash loses nothing:

- **Moving on** (:meth:`Tournaments.advance`) runs under the tournament's row lock.  It
  stores the result of every table of the round under way that has ended; once all
  have, it shows the round's deal (see below), then plans the next round or ends the
  event.  Planning writes each table's id and deal with the round, and only then are
  the tables made: a table already made (by another process, or before a crash) is
  never made twice, and one planned but not made is made by the next sweep.
- **Duplicate deals, Mitchell style**: every table of a round plays the same deal (one
  secret seed drawn for the round).  A table that ends early would give the deal away
  to the tables still playing it, so the seed of a finished table stays hidden
  (``reveal_held``) until every table of its round is over.  For the same reason a
  round's tables are private while the round is played (only their players see them,
  as the cards they hold tell what is hidden at the others' tables): watching, and the
  records and replays of anyone else, wait for the end of the round.
- **No-shows**: a seat's player who has not come to the table when the grace period
  ends forfeits it (``TableHost``: the seat is counted as left and a substitute plays
  it); a player who leaves a game under way forfeits it too.  A forfeit places the
  player last at that table, whatever the totals.
- **Bots** fill the seats still empty at the start (``bot_level``), entered after the
  people.  Seeding is the order of registration, people first.

The sweep, every ``tournament_sweep_seconds`` in each process, starts the events whose
time has come and moves on any whose tables ended while no process was told (a table
ends in the process that hosts it, which tells this module at once).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Sequence
from typing import Final

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from rummykit.events.knockout import first_round, next_round, winner_of
from rummykit.events.standings import EventRecord, TableResult, points_differences
from rummykit.events.swiss import pair_round
from rummykit.games.core import rules_to_json
from rummykit.games.registry import game_named
from rummykit.server import fairness
from rummykit.server.bot_names import computer_name
from rummykit.server.clock import Clock, SystemClock
from rummykit.server.events_log import log_event
from rummykit.server.host import TableError
from rummykit.server.models import (
    PlayerRow,
    SeatRow,
    TableRow,
    TournamentEntryRow,
    TournamentRow,
    TournamentTableRow,
)
from rummykit.server.settings import Settings
from rummykit.server.storage import Storage
from rummykit.server.tables import TableRegistry, check_bot_level
from rummykit.server.tournament_models import (
    CreateTournament,
    Entrant,
    RoundTable,
    StandingLine,
    TournamentRound,
    TournamentSummary,
    TournamentView,
)

BOT_SECONDS: Final = 1.0
"""A tournament's bots think at most this long a move (many tables play at once)."""
LISTED: Final = 100
"""How many tournaments the list shows: those still to be played first, newest first."""


class TournamentError(TableError):
    """A tournament request refused: a stable code, a message and parameters."""


def _by_entry(rows: Sequence[TournamentEntryRow]) -> dict[int, TournamentEntryRow]:
    """The entrants by seeding number (numbered once the event started)."""
    return {row.entry: row for row in rows if row.entry is not None}


def _result(row: TournamentTableRow) -> TableResult:
    return TableResult(
        players=tuple(row.entries),
        totals=tuple(row.totals or ()),
        forfeits=frozenset(row.forfeits or ()),
    )


def _is_bye(row: TournamentTableRow) -> bool:
    return row.table_id is None


def swiss_record(game: str, entrants: int, rows: Sequence[TournamentTableRow]) -> EventRecord:
    """The Swiss record of every table with a result and every bye."""
    record = EventRecord(game, entrants)
    for row in rows:
        if _is_bye(row):
            record.add_bye(row.entries[0])
        elif row.totals is not None:
            record.add_table(_result(row))
    return record


def knockout_winner(game: str, row: TournamentTableRow) -> int | None:
    """Who goes through from this table: its only player for a bye, else the winner
    once it has a result."""
    if _is_bye(row):
        return row.entries[0]
    if row.totals is None:
        return None
    return winner_of(game, _result(row))


class Tournaments:
    """Every tournament of a server (the same in each of a site's processes)."""

    def __init__(
        self,
        *,
        storage: Storage,
        tables: TableRegistry,
        settings: Settings,
        clock: Clock | None = None,
    ) -> None:
        self.storage = storage
        self.tables = tables
        self.settings = settings
        self.clock: Clock = clock or SystemClock()
        self._sweeper: asyncio.Task[None] | None = None
        self._moving: set[asyncio.Task[None]] = set()
        tables.finish_listeners.append(self._table_over)

    # -- running in the background ------------------------------------------------------

    def start(self) -> None:
        self._sweeper = asyncio.create_task(self._sweep_forever(), name="tournaments")

    async def close(self) -> None:
        tasks = [t for t in [self._sweeper, *self._moving] if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def _table_over(self, row: TableRow) -> None:
        if row.tournament_id is not None:
            task = asyncio.create_task(self._advance_logged(row.tournament_id))
            self._moving.add(task)
            task.add_done_callback(self._moving.discard)

    async def _advance_logged(self, tournament_id: str) -> None:
        try:
            await self.advance(tournament_id)
        except Exception:  # the sweep tries again
            logging.getLogger("rummykit.server").exception(
                "tournament=%s event=advance_failed", tournament_id
            )

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.tournament_sweep_seconds)
            try:
                await self.sweep()
            except Exception:
                logging.getLogger("rummykit.server").exception("event=tournament_sweep_failed")

    async def sweep(self) -> None:
        """Start the events whose start time has come; move on every running one."""
        now = self.clock.now()
        async with self.storage.reading() as session:
            due = (
                await session.scalars(
                    select(TournamentRow.id).where(
                        TournamentRow.status == "registering",
                        TournamentRow.starts_at.is_not(None),
                        TournamentRow.starts_at <= now,
                    )
                )
            ).all()
            running = (
                await session.scalars(
                    select(TournamentRow.id).where(TournamentRow.status == "running")
                )
            ).all()
        for tournament_id in due:
            with contextlib.suppress(TournamentError):
                await self.start_event(tournament_id, by=None)
        for tournament_id in running:
            await self.advance(tournament_id)

    # -- requests -------------------------------------------------------------------------

    async def create(self, request: CreateTournament, creator: PlayerRow) -> str:
        """Store a new tournament (its creator entered unless ``enter`` is false)."""
        game = game_named(request.game)
        sizes = [n for n in game.player_counts if n == request.table_size]
        if not sizes:
            counts = " or ".join(map(str, game.player_counts))
            raise TournamentError("bad_rules", f"{game.title} is for {counts} players")
        if request.capacity < request.table_size:
            raise TournamentError(
                "bad_rules",
                f"{request.capacity} entrants cannot fill a table of {request.table_size}",
            )
        try:
            rules = game.rules_for(request.rules, seats=request.table_size)
        except ValueError as error:
            raise TournamentError("bad_rules", str(error)) from None
        if request.bot_level is not None:
            check_bot_level(request.game, request.bot_level, max_seconds=BOT_SECONDS)
        given = request.model_fields_set
        turn = (
            request.turn_seconds if "turn_seconds" in given else self.settings.default_turn_seconds
        )
        if turn is not None and turn > self.settings.max_turn_seconds:
            raise TournamentError("bad_turn_seconds", "the turn time is too long")
        bank = (
            request.time_bank_seconds
            if "time_bank_seconds" in given
            else self.settings.default_time_bank_seconds
        ) or None
        if bank is not None and bank > self.settings.max_time_bank_seconds:
            raise TournamentError("bad_turn_seconds", "the time bank is too long")
        now = self.clock.now()
        row = TournamentRow(
            id=secrets.token_hex(8),
            name=request.name,
            game=request.game,
            rules=rules_to_json(rules),
            format=request.format,
            rounds=request.rounds,
            table_size=request.table_size,
            capacity=request.capacity,
            bot_level=request.bot_level,
            turn_seconds=turn,
            time_bank_seconds=None if turn is None else bank,
            starts_at=request.starts_at,
            status="registering",
            round=-1,
            creator_id=creator.id,
            created_at=now,
            finished_at=None,
        )
        async with self.storage.writing() as session:
            open_ones = await session.scalar(
                select(func.count())
                .select_from(TournamentRow)
                .where(
                    TournamentRow.creator_id == creator.id,
                    TournamentRow.status.in_(("registering", "running")),
                )
            )
            if (open_ones or 0) >= self.settings.max_tournaments_per_player:
                raise TournamentError(
                    "too_many_tournaments",
                    "wait until one of your tournaments is over",
                    {"limit": self.settings.max_tournaments_per_player},
                )
            session.add(row)
        log_event(None, "tournament_created", tournament=row.id, game=row.game)
        if request.enter:
            await self.register(row.id, creator)
        return row.id

    async def register(self, tournament_id: str, player: PlayerRow) -> None:
        """Enter ``player``; the event starts when this fills it."""
        async with self.storage.writing() as session:
            tournament = await self._locked(session, tournament_id)
            if tournament.status != "registering":
                raise TournamentError("tournament_started", "registration is closed")
            entries = await self._entries(session, tournament_id)
            if any(e.player_id == player.id for e in entries):
                return
            if len(entries) >= tournament.capacity:
                raise TournamentError(
                    "tournament_full", "every place is taken", {"capacity": tournament.capacity}
                )
            session.add(
                TournamentEntryRow(
                    tournament_id=tournament_id,
                    entry=None,
                    player_id=player.id,
                    bot_level=None,
                    name=player.name,
                    registered_at=self.clock.now(),
                )
            )
            await session.flush()
            full = len(entries) + 1 == tournament.capacity
            if full:
                await self._start_locked(session, tournament)
        if full:
            await self._open_tables(tournament_id)

    async def withdraw(self, tournament_id: str, player: PlayerRow) -> None:
        async with self.storage.writing() as session:
            tournament = await self._locked(session, tournament_id)
            if tournament.status != "registering":
                raise TournamentError("tournament_started", "registration is closed")
            entries = await self._entries(session, tournament_id)
            mine = [e for e in entries if e.player_id == player.id]
            if not mine:
                raise TournamentError("not_registered", "you are not entered")
            await session.delete(mine[0])

    async def start_event(self, tournament_id: str, *, by: PlayerRow | None) -> None:
        """Start now (``by`` its creator; ``None``: its start time has come)."""
        async with self.storage.writing() as session:
            tournament = await self._locked(session, tournament_id)
            if by is not None and by.id != tournament.creator_id:
                raise TournamentError("not_creator", "only the tournament's creator starts it")
            if tournament.status != "registering":
                raise TournamentError("tournament_started", "the tournament has started")
            await self._start_locked(session, tournament)
        await self._open_tables(tournament_id)

    # -- moving on ------------------------------------------------------------------------

    async def _locked(self, session: AsyncSession, tournament_id: str) -> TournamentRow:
        query = select(TournamentRow).where(TournamentRow.id == tournament_id)
        if session.get_bind().dialect.name == "postgresql":
            query = query.with_for_update()
        row = (await session.scalars(query.execution_options(populate_existing=True))).first()
        if row is None:
            raise TournamentError("unknown_tournament", "there is no such tournament")
        return row

    @staticmethod
    async def _entries(session: AsyncSession, tournament_id: str) -> list[TournamentEntryRow]:
        query = (
            select(TournamentEntryRow)
            .where(TournamentEntryRow.tournament_id == tournament_id)
            .order_by(TournamentEntryRow.registered_at, TournamentEntryRow.id)
        )
        return list((await session.scalars(query)).all())

    @staticmethod
    async def _tables_of(
        session: AsyncSession, tournament_id: str, round_: int | None = None
    ) -> list[TournamentTableRow]:
        query = select(TournamentTableRow).where(TournamentTableRow.tournament_id == tournament_id)
        if round_ is not None:
            query = query.where(TournamentTableRow.round == round_)
        query = query.order_by(TournamentTableRow.round, TournamentTableRow.number)
        return list((await session.scalars(query)).all())

    async def _start_locked(self, session: AsyncSession, tournament: TournamentRow) -> None:
        """Number the entrants (people first, then bots filling the empty places) and
        plan the first round; too few entrants cancel the event."""
        entries = await self._entries(session, tournament.id)
        if tournament.bot_level is not None:
            for _ in range(tournament.capacity - len(entries)):
                bot = TournamentEntryRow(
                    tournament_id=tournament.id,
                    entry=None,
                    player_id=None,
                    bot_level=tournament.bot_level,
                    name="",
                    registered_at=self.clock.now(),
                )
                session.add(bot)
                entries.append(bot)
        if len(entries) < tournament.table_size:
            tournament.status = "cancelled"
            tournament.finished_at = self.clock.now()
            log_event(None, "tournament_cancelled", tournament=tournament.id)
            return
        for number, entry in enumerate(entries):
            entry.entry = number
            if entry.bot_level is not None:
                entry.name = computer_name(entry.bot_level, number)
        tournament.status = "running"
        await self._plan(session, tournament, 0, [])
        log_event(None, "tournament_started", tournament=tournament.id, entrants=len(entries))

    async def _plan(
        self,
        session: AsyncSession,
        tournament: TournamentRow,
        number: int,
        played: list[TournamentTableRow],
    ) -> None:
        """Store round ``number``'s tables (ids and the round's deal chosen now)."""
        entrants = len(await self._entries(session, tournament.id))
        if tournament.format == "swiss":
            record = swiss_record(tournament.game, entrants, played)
            lines = record.standings()
            pairing = pair_round(
                [line.player for line in lines],
                table_size=tournament.table_size,
                points={line.player: line.points for line in lines},
                met=record.met(),
                byes=record.byes(),
            )
            seatings = list(pairing.tables) + [(p,) for p in pairing.byes]
        elif number == 0:
            seatings = first_round(entrants, tournament.table_size)
        else:
            last = [row for row in played if row.round == number - 1]
            winners = [knockout_winner(tournament.game, row) for row in last]
            seatings = next_round([w for w in winners if w is not None], tournament.table_size)
        deal = fairness.draw_secret_deal()
        for index, seating in enumerate(seatings):
            alone = len(seating) == 1
            session.add(
                TournamentTableRow(
                    tournament_id=tournament.id,
                    round=number,
                    number=index,
                    table_id=None if alone else secrets.token_hex(8),
                    entries=list(seating),
                    totals=None,
                    forfeits=None,
                    seed=None if alone else deal.seed,
                    nonce=None if alone else deal.nonce,
                )
            )
        tournament.round = number

    async def advance(self, tournament_id: str) -> None:
        """Store the results of the round's finished tables; when the round is over,
        show its deal and plan the next round or end the event; then make any table
        planned and not made yet."""
        async with self.storage.writing() as session:
            tournament = await self._locked(session, tournament_id)
            if tournament.status != "running":
                return
            played = await self._tables_of(session, tournament_id)
            current = [row for row in played if row.round == tournament.round]
            await self._store_results(session, current)
            if all(_is_bye(row) or row.totals is not None for row in current):
                await session.execute(
                    update(TableRow)
                    .where(TableRow.tournament_id == tournament_id, TableRow.reveal_held)
                    .values(reveal_held=False, private=False)
                )
                if self._last_round(tournament, current):
                    tournament.status = "over"
                    tournament.finished_at = self.clock.now()
                    log_event(None, "tournament_over", tournament=tournament_id)
                else:
                    await self._plan(session, tournament, tournament.round + 1, played)
                    log_event(None, "tournament_round", tournament=tournament_id)
        await self._open_tables(tournament_id)

    @staticmethod
    def _last_round(tournament: TournamentRow, current: list[TournamentTableRow]) -> bool:
        if tournament.format == "swiss":
            return tournament.round + 1 >= tournament.rounds
        return len(current) == 1

    @staticmethod
    async def _store_results(session: AsyncSession, rows: list[TournamentTableRow]) -> None:
        waiting = {row.table_id: row for row in rows if row.table_id and row.totals is None}
        if not waiting:
            return
        over = (
            await session.scalars(
                select(TableRow).where(TableRow.id.in_(list(waiting)), TableRow.status == "over")
            )
        ).all()
        for table in over:
            row = waiting[table.id]
            seats = (
                await session.scalars(select(SeatRow).where(SeatRow.table_id == table.id))
            ).all()
            row.totals = [float(t) for t in table.totals or ()]
            row.forfeits = sorted(row.entries[s.seat] for s in seats if s.left_at is not None)

    async def _open_tables(self, tournament_id: str) -> None:
        """Make the round's planned tables that do not exist yet."""
        async with self.storage.reading() as session:
            tournament = await session.get(TournamentRow, tournament_id)
            if tournament is None or tournament.status != "running":
                return
            rows = [
                row
                for row in await self._tables_of(session, tournament_id, tournament.round)
                if row.table_id is not None
            ]
            made = set(
                (
                    await session.scalars(
                        select(TableRow.id).where(TableRow.id.in_([row.table_id for row in rows]))
                    )
                ).all()
            )
            by_entry = _by_entry(await self._entries(session, tournament_id))
        for row in rows:
            if row.table_id in made:
                continue
            table, seats = self._table_rows(tournament, row, by_entry)
            if await self.tables.open_seated(table, seats):
                log_event(table.id, "tournament_table", tournament=tournament_id)

    def _table_rows(
        self,
        tournament: TournamentRow,
        row: TournamentTableRow,
        by_entry: dict[int, TournamentEntryRow],
    ) -> tuple[TableRow, list[SeatRow]]:
        assert row.table_id is not None and row.seed is not None and row.nonce is not None
        entrants = [by_entry[number] for number in row.entries]
        people = any(e.player_id is not None for e in entrants)
        now = self.clock.now()
        game = game_named(tournament.game)
        options = {k: v for k, v in tournament.rules.items() if k != game.seats_option}
        table = TableRow(
            id=row.table_id,
            game=tournament.game,
            # an elimination event's table may seat fewer than its table size
            rules=rules_to_json(game.rules_for(options, seats=len(entrants))),
            private=True,  # until the round is over: the deal is the same everywhere
            invite_token=None,
            seed=row.seed,
            nonce=row.nonce,
            commitment=fairness.commitment_of(row.seed, row.nonce),
            turn_seconds=tournament.turn_seconds if people else None,
            time_bank_seconds=tournament.time_bank_seconds if people else None,
            status="playing",
            creator_id=tournament.creator_id,
            created_at=now,
            started_at=now,
            finished_at=None,
            totals=None,
            winners=None,
            rated=False,
            tournament_id=tournament.id,
            reveal_held=True,
        )
        seats = [
            SeatRow(
                table_id=table.id,
                seat=seat,
                kind="human" if entrant.player_id is not None else "bot",
                level=entrant.bot_level,
                player_id=entrant.player_id,
                name=entrant.name,
            )
            for seat, entrant in enumerate(entrants)
        ]
        return table, seats

    # -- what the pages show ---------------------------------------------------------------

    async def listing(self) -> list[TournamentSummary]:
        """The tournaments still to be played (newest first), then the latest ones over."""
        async with self.storage.reading() as session:
            rows = (
                await session.scalars(
                    select(TournamentRow)
                    .order_by(
                        TournamentRow.status.in_(("over", "cancelled")),
                        TournamentRow.created_at.desc(),
                    )
                    .limit(LISTED)
                )
            ).all()
            found = await session.execute(
                select(TournamentEntryRow.tournament_id, func.count())
                .where(TournamentEntryRow.tournament_id.in_([r.id for r in rows]))
                .group_by(TournamentEntryRow.tournament_id)
            )
            counts = {str(tournament_id): int(count) for tournament_id, count in found}
        return [_summary(row, counts.get(row.id, 0)) for row in rows]

    async def view(self, tournament_id: str, player_id: str | None) -> TournamentView:
        async with self.storage.reading() as session:
            tournament = await session.get(TournamentRow, tournament_id)
            if tournament is None:
                raise TournamentError("unknown_tournament", "there is no such tournament")
            entries = await self._entries(session, tournament_id)
            played = await self._tables_of(session, tournament_id)
        by_entry = _by_entry(entries)
        mine = next((e.entry for e in entries if e.player_id == player_id), None)
        rounds: list[TournamentRound] = []
        your_table = None
        for number in range(tournament.round + 1):
            rows = [row for row in played if row.round == number]
            tables = []
            for row in rows:
                result = None if row.totals is None else _result(row)
                tables.append(
                    RoundTable(
                        number=row.number,
                        table_id=row.table_id,
                        entries=list(row.entries),
                        totals=None if result is None else list(result.totals),
                        points=None if result is None else result.points(tournament.game),
                        forfeits=list(row.forfeits or ()),
                    )
                )
                if mine in row.entries and row.table_id and row.totals is None:
                    your_table = row.table_id
            over = all(_is_bye(row) or row.totals is not None for row in rows)
            rounds.append(TournamentRound(number=number, tables=tables, over=over))
        names = {number: entry.name for number, entry in by_entry.items()}
        if tournament.format == "swiss":
            standings = _swiss_standings(tournament.game, names, played)
        else:
            standings = _knockout_standings(tournament.game, names, played)
        return TournamentView(
            **_summary(tournament, len(entries)).model_dump(),
            rules=tournament.rules,
            turn_seconds=tournament.turn_seconds,
            time_bank_seconds=tournament.time_bank_seconds,
            creator=player_id == tournament.creator_id,
            registered=any(e.player_id == player_id for e in entries),
            entries=[
                Entrant(
                    entry=e.entry,
                    name=e.name,
                    kind="human" if e.player_id is not None else "bot",
                    level=e.bot_level,
                    you=player_id is not None and e.player_id == player_id,
                )
                for e in entries
            ],
            round_list=rounds,
            standings=standings,
            your_table=your_table,
        )


def _summary(row: TournamentRow, entrants: int) -> TournamentSummary:
    return TournamentSummary(
        id=row.id,
        name=row.name,
        game=row.game,
        format=row.format,  # type: ignore[arg-type]
        rounds=row.rounds,
        table_size=row.table_size,
        capacity=row.capacity,
        entrants=entrants,
        status=row.status,  # type: ignore[arg-type]
        round=row.round,
        starts_at=row.starts_at,
        bot_level=row.bot_level,
    )


def _swiss_standings(
    game: str, names: dict[int, str], played: Sequence[TournamentTableRow]
) -> list[StandingLine]:
    if not names:
        return []
    record = swiss_record(game, len(names), played)
    return [
        StandingLine(
            place=line.place,
            entry=line.player,
            name=names[line.player],
            points=line.points,
            buchholz=line.buchholz,
            points_difference=line.points_difference,
            out=None,
        )
        for line in record.standings()
    ]


def _knockout_standings(
    game: str, names: dict[int, str], played: Sequence[TournamentTableRow]
) -> list[StandingLine]:
    """Players still in (or the champion) first, then by the round they went out in,
    latest first; then by rounds won, points difference and seed."""
    won = dict.fromkeys(names, 0)
    out: dict[int, int] = {}
    difference = dict.fromkeys(names, 0.0)
    for row in played:
        winner = knockout_winner(game, row)
        if winner is None:
            continue
        won[winner] += 1
        if _is_bye(row):
            continue
        result = _result(row)
        for player, diff in zip(row.entries, points_differences(game, result.totals), strict=True):
            difference[player] += diff
            if player != winner:
                out[player] = row.round

    def key(player: int) -> tuple[int, int, float, int]:
        return (-out.get(player, 1_000_000), -won[player], -difference[player], player)

    ordered = sorted(names, key=key)
    lines: list[StandingLine] = []
    for index, player in enumerate(ordered):
        tied = index > 0 and key(ordered[index - 1])[:3] == key(player)[:3]
        lines.append(
            StandingLine(
                place=lines[-1].place if tied else index + 1,
                entry=player,
                name=names[player],
                points=float(won[player]),
                buchholz=None,
                points_difference=difference[player],
                out=out.get(player),
            )
        )
    return lines
