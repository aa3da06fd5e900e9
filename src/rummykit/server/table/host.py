"""The table host: the one owner of a live table.

Each table is held by one :class:`TableHost`, an asyncio task reading an inbox of
:mod:`~rummykit.server.table.commands`.  The host orders the commands and hands each to a
collaborator in its own module: :mod:`~rummykit.server.table.seating` (seats and
connections), :mod:`~rummykit.server.table.presence` (connections coming and going, the
grace period), :mod:`~rummykit.server.table.joining` (seats asked for through the
lobby), :mod:`~rummykit.server.table.turn_clock` (the turn timer),
:mod:`~rummykit.server.table.bot_driver` (bots, substitutes, timed-out turns),
:mod:`~rummykit.server.table.talk` (chat and hints),
:mod:`~rummykit.server.table.ending` (the game's end),
:mod:`~rummykit.server.table.abandonment` (a rated game abandoned),
:mod:`~rummykit.server.table.turn_based` (games over days) and
:mod:`~rummykit.server.table.broadcast` (views).  None of them imports the host: each
names the part of it it uses (:mod:`~rummykit.server.table.parts`).  Time comes from an
injected :class:`~rummykit.server.clock.Clock`.

Invariants (each is kept here, in this order of importance):

1. **Who may see which seat.**  A connection's seat is decided by the host, in its own
   task, when it handles the connection's ``Attach`` (the seat its player holds at that
   moment, else a watcher; a private table's watcher needs the invitation token), and
   again for every connection of a player whose seat changes (``Join``, ``Leave``).
   No connection is sent a seat's observation, events, legal actions or hint unless
   that seat's player is the connection's player at the moment of sending
   (:meth:`Seating.may_see`, asked by the views before every send).  A client's
   command names no seat: it acts for the seat its connection is bound to.
2. **Persist, then apply, then broadcast.**  An action is checked, stored with its
   state number (``(table, state number)`` is unique, so a stored game never forks),
   and only then applied and sent.  A refused action is answered with a typed error
   and changes nothing.  Nothing in memory runs ahead of storage: when a write fails
   the host stops, and the table is rebuilt from the database on its next use.
3. **Each transition is one transaction, and recovery finishes what the log
   implies.**  Taking the last free seat stores the seat and the start together; a
   table created full is stored as started.  A game's end follows its last action; if
   the process dies between the two, :meth:`TableHost.settle` (run on every restored
   table) stores the end and reveals the seed, and likewise starts a full table that
   is still marked waiting.
4. **One command at a time.**  Only the host's task changes its table; work done
   elsewhere (bot decisions, hints, timers) comes back as a command and is applied
   only if the table is still at the state it was made for.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from rummykit.games.core import GameState, IllegalAction, NotationError
from rummykit.games.registry import AnyGame, game_named
from rummykit.server.bots.service import BotService
from rummykit.server.clock import Clock, SystemClock, Timer
from rummykit.server.operations.events_log import log_event
from rummykit.server.operations.metrics import action_took
from rummykit.server.protocol.messages import (
    LastAction,
    RematchOffer,
    TurnInfo,
)
from rummykit.server.protocol.refusals import TableError
from rummykit.server.settings import Settings
from rummykit.server.storage.errors import StorageError
from rummykit.server.storage.fencing import Lease
from rummykit.server.storage.models import SeatRow, TableRow
from rummykit.server.storage.store import Storage, StoredTable
from rummykit.server.table.abandonment import Abandonment
from rummykit.server.table.background import Background
from rummykit.server.table.bot_driver import BotDriver
from rummykit.server.table.broadcast import TableViews
from rummykit.server.table.client_moves import refused
from rummykit.server.table.commands import (
    Actor,
    Attach,
    BotDecided,
    BotRetry,
    ClientAction,
    ClientChat,
    ClientClaim,
    ClientFocusLost,
    ClientHint,
    ClientSubstitute,
    Command,
    Detach,
    GraceExpired,
    HintReady,
    Join,
    Leave,
    Linger,
    LowTime,
    PausesRead,
    RematchMade,
    SignedOut,
    Stop,
    TimerFired,
    TurnRanOut,
    turn_away,
)
from rummykit.server.table.connection import Connection
from rummykit.server.table.ending import GameEnd
from rummykit.server.table.fair_play import FocusLosses
from rummykit.server.table.joining import SeatRequests
from rummykit.server.table.parts import Status
from rummykit.server.table.presence import Presence
from rummykit.server.table.seating import Seating
from rummykit.server.table.talk import TableTalk
from rummykit.server.table.turn_based import DAY, TurnBasedPlay, TurnListener
from rummykit.server.table.turn_clock import TurnClock

__all__ = ["TableError", "TableHost"]

# failures after which the host stops (its table is rebuilt from the database)
STORAGE_FAILURES = (StorageError, SQLAlchemyError, OSError)


class TableHost:
    """The owner of one table's game state: a dispatcher for its inbox."""

    def __init__(
        self,
        *,
        row: TableRow,
        seats: list[SeatRow],
        storage: Storage,
        runner: BotService,
        settings: Settings,
        clock: Clock | None = None,
        on_stop: Callable[[TableHost], None] | None = None,
        on_finish: Callable[[TableRow], None] | None = None,
        fencing: Callable[[str], Lease | None] | None = None,
        on_player_back: Callable[[str], Awaitable[None]] | None = None,
        on_turn: TurnListener | None = None,
        on_low_time: TurnListener | None = None,
    ) -> None:
        self.table_id = row.id
        # several server processes: the lease to write each action under (``None`` once
        # this process may no longer act for the table: the action is not stored)
        self.fencing = fencing
        # several server processes: the other lobbies list the table again (they left it
        # out while its players were all away)
        self.on_player_back = on_player_back
        self.row = row
        self.game: AnyGame = game_named(row.game)
        self.rules = self.game.rules_type(**row.rules)
        self.state: GameState[Any, Any, Any, Any] = self.game.new_state(self.rules, row.seed)
        self.status: Status = row.status  # type: ignore[assignment]
        self.storage = storage
        self.runner = runner
        self.settings = settings
        self.clock: Clock = clock or SystemClock()
        self.on_stop = on_stop
        self.on_finish = on_finish
        # a turn-based table's listeners (``turn_based.py``)
        self.on_turn = on_turn
        self.on_low_time = on_low_time
        self.inbox: asyncio.Queue[Command] = asyncio.Queue()
        self.seating = Seating(seats, clock=self.clock, since=row.created_at)
        days = row.days_per_move
        self.turn = TurnClock(
            clock=self.clock,
            turn_seconds=row.turn_seconds if days is None else days * DAY,
            bank_seconds=row.time_bank_seconds,
            turn_based=days is not None,
            players=len(seats),
            # a waiting table's turn begins at its start (no one's bank runs before it)
            mover=self.state.current_player if self.status == "playing" else None,
            started_at=row.started_at or row.created_at,
        )
        self.views = TableViews(self)
        self.bots = BotDriver(self)
        self.talk = TableTalk(self)
        self.presence = Presence(self)
        self.ending = GameEnd(self)
        self.abandonment = Abandonment(self)
        self.focus = FocusLosses(self)
        self.seat_requests = SeatRequests(self)
        self.days = TurnBasedPlay(self)
        self.last_action: LastAction | None = None
        # once the game is over: the rematch a player of this table asked for
        self.rematch: RematchOffer | None = None
        self.stopped = False
        self._applied = 0
        self._linger: Timer | None = None
        self._background = Background()
        self._task: asyncio.Task[None] | None = None

    # -- building and recovery ----------------------------------------------------------

    @classmethod
    def restore(cls, stored: StoredTable, **parts: Any) -> TableHost:
        """The host of a stored table, its state rebuilt from the seed and action log."""
        host = cls(row=stored.table, seats=stored.seats, **parts)
        host.talk.remember(stored.chat)
        made = stored.rematch
        if made is not None:
            by = host.seating.seat_of(made.creator_id or "")
            host.rematch = RematchOffer(
                table_id=made.id, invite_token=made.invite_token, by=0 if by is None else by
            )
        for expected, row in enumerate(stored.actions):
            if row.state_number != expected:
                raise StorageError(f"table {host.table_id} misses state number {expected}")
            before = host._turn_marker()
            host.state.apply(host.game.parse_action(row.action))
            host._applied = row.state_number + 1
            turned = host._note_turn(before, row.at)
            host.last_action = LastAction(seat=row.seat, action=row.action, actor=row.actor)  # type: ignore[arg-type]
            host.abandonment.moved(row.seat, row.actor, turned)  # type: ignore[arg-type]
            if host.days.applies and row.actor == "timeout" and not turned:
                host.turn.hand_over()  # the others chose a stand-in for this turn
        return host

    async def settle(self) -> None:
        """Store a transition the log implies but the table's row does not show yet (a
        process that died between two commits): a full table still marked waiting
        starts; a game whose state is over is finished and its seed revealed."""
        if self.status == "waiting" and self.seating.full:
            at = self.clock.now()
            await self.storage.start_table(self.table_id, at, lease=self.write_lease())
            self.started(at)
            log_event(self.table_id, "settled", to="playing")
        if self.status == "playing" and self.state.game_over:
            at = self.turn.turn_started_at
            await self.ending.finish(at)
            log_event(self.table_id, "settled", to="over")

    def _turn_marker(self) -> tuple[int | None, int]:
        return self.state.current_player, self.state.hand_number

    def _note_turn(self, before: tuple[int | None, int], at: float) -> bool:
        """Begin the next turn if the last action ended one; whether it did."""
        turned = self.state.hand_over or self._turn_marker() != before
        if turned:
            self.turn.begin_turn(self.state_number, at, self.state.current_player)
        return turned

    def write_lease(self) -> Lease | None:
        """The lease every write of this table is made under: ``None`` for a single
        process (it owns every table); ``StorageError`` once this process may no longer
        act for the table, so the write is not even tried and the host stops."""
        if self.fencing is None:
            return None
        lease = self.fencing(self.table_id)
        if lease is None:
            raise StorageError(f"table {self.table_id}: this process no longer holds it")
        return lease

    @property
    def state_number(self) -> int:
        """How many actions the state has applied (counted here: the state's own list
        of actions is copied whenever it is asked for)."""
        return self._applied

    # -- running ------------------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"table-{self.table_id}")
        if self.status == "playing":
            for seat in self.seating:
                if seat.kind == "human" and not seat.connections:
                    self.presence.start_grace(seat)
            self.days.resume()
            self.bots.after_change()
        self.linger_if_idle()

    async def stop(self) -> None:
        """Stop the host: cancel its timers and bot work, close its connections."""
        self.inbox.put_nowait(Stop())
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self._background.finish()

    def submit(self, command: Command) -> None:
        """Queue ``command``; a stopped host turns it away at once (its connections are
        closed and its callers told to try again, which finds the table's new host)."""
        if self.stopped:
            turn_away(command)
        else:
            self.inbox.put_nowait(command)

    def spawn(self, coroutine: Coroutine[Any, Any, None], *, statement: bool = False) -> None:
        """Run work for this table (bot thinking, hints) until the host stops, or storage
        work (a ``statement``), left to finish then."""
        self._background.spawn(coroutine, statement=statement)

    async def _run(self) -> None:
        try:
            while True:
                command = await self.inbox.get()
                if isinstance(command, Stop):
                    break
                try:
                    await self._handle(command)
                except STORAGE_FAILURES as error:
                    log_event(
                        self.table_id, "storage_failed", level=logging.ERROR, error=repr(error)
                    )
                    turn_away(command)
                    break
                except Exception:
                    logging.getLogger("rummykit.server").exception(
                        "table=%s event=host_error", self.table_id
                    )
                    turn_away(command)
        finally:
            self._shutdown()

    def _shutdown(self) -> None:
        self.stopped = True
        self._background.cancel()
        for timer in (self._linger,):
            if timer is not None:
                timer.cancel()
        self.turn.disarm()
        self.days.stop()
        self.bots.cancel()
        if self.on_stop is not None:  # first: a site hands its clients elsewhere on to
            self.on_stop(self)  # the table's next owner, and closes none of them here
        self.seating.close_all()
        while not self.inbox.empty():
            turn_away(self.inbox.get_nowait())

    async def _handle(self, command: Command) -> None:
        match command:
            case Attach(connection):
                await self.presence.attach(connection)
                self.days.refresh()  # someone looks: the mover's vacations as stored
            case Detach(connection):
                self.presence.detach(connection)
            case ClientAction():
                await self._client_action(command)
            case ClientChat(connection, text, client_id):
                await self.talk.chat(connection, text, client_id)
            case ClientHint(connection):
                self.talk.hint(connection)
            case ClientClaim(connection):
                await self.abandonment.claim(connection)
            case ClientSubstitute() | LowTime() | PausesRead() | TurnRanOut():
                self.days.handle(command)
            case ClientFocusLost():
                await self.focus.lost(command)
            case HintReady():
                self.talk.hint_ready(command)
            case BotDecided():
                await self.bots.decided(command)
            case BotRetry():
                self.bots.retry(command)
            case TimerFired(key) if self.days.applies:
                self.days.ring(key)
            case TimerFired(key):
                self.bots.timer_fired(key)
            case GraceExpired(seat):
                await self.presence.grace_expired(seat)
            case Join():
                await self.seat_requests.join(command)
            case Leave():
                await self.seat_requests.leave(command)
            case SignedOut(player_id, result):
                self.presence.signed_out(player_id, result)
            case RematchMade(table_id, invite_token, by):
                self.rematch = RematchOffer(table_id=table_id, invite_token=invite_token, by=by)
                # an invitation: only the seats the rematch keeps are told where it is
                self.views.send_seated(self.rematch)
            case Linger():
                self._linger = None
                if self.seating.has_connections() or not self.inbox.empty():
                    self.linger_if_idle()  # someone came (or is coming): wait again
                else:
                    self.inbox.put_nowait(Stop())

    # -- connections --------------------------------------------------------------------

    def seat_of(self, player_id: str) -> int | None:
        return self.seating.seat_of(player_id)

    def may_watch(self, player_id: str, token: str | None) -> bool:
        return self.presence.may_watch(player_id, token)

    async def player_back(self) -> None:
        """A player came back to this waiting table, which the lobby left out: once this
        returns, the lobby of every process lists it again."""
        if self.on_player_back is not None:
            await self.on_player_back(self.table_id)

    def awaits_players(self, now: float | None = None) -> bool:
        """Whether the lobby lists this table (see :meth:`Seating.awaits_players`)."""
        del now  # the host's clock says
        if self.status == "waiting" and self.days.applies:
            return True  # players of a game over days come and go
        return self.status == "waiting" and self.seating.awaits_players(self.settings.grace_seconds)

    def linger_if_idle(self) -> None:
        """A finished table no one is connected to leaves memory after a while."""
        if self.status != "over" or self.seating.has_connections() or self._linger is not None:
            return
        seconds = self.settings.finished_linger_seconds
        self._linger = self.clock.call_at(self.clock.now() + seconds, lambda: self.submit(Linger()))

    def cancel_linger(self) -> None:
        if self._linger is not None:
            self._linger.cancel()
            self._linger = None

    # -- what the views ask -------------------------------------------------------------

    def seat_rows(self) -> list[SeatRow]:
        return self.seating.rows(self.table_id)

    def mover(self) -> int | None:
        return self.state.current_player if self.status == "playing" else None

    def turn_info(self) -> TurnInfo | None:
        player = self.mover()
        return None if player is None else self.turn.info(player)

    def turn_armed(self) -> None:
        """The turn timer is armed for a person to move (a turn-based table warns them
        when their time runs low)."""
        self.days.arm_low_time()

    # -- play ---------------------------------------------------------------------------

    async def _client_action(self, command: ClientAction) -> None:
        connection = command.connection
        if refused(self, command) or connection.seat is None:
            return
        if await self.play(connection.seat, command.action, "human", None, connection):
            action_took(command.received_at)

    async def play(
        self,
        seat: int,
        text: str,
        actor: Actor,
        reason: str | None,
        connection: Connection | None = None,
    ) -> bool:
        """Check, store, apply and send ``seat``'s action ``text``; whether it was played.
        A refusal goes to ``connection`` (a person's) or the log (a bot's)."""
        try:
            action = self.game.parse_action(text)
        except NotationError as error:
            if connection is not None:
                self.views.refuse(
                    connection, "bad_notation", str(error)[:300], {"action": text[:200]}
                )
            return False
        # the engine checks the turn before anything else, so a refusal never depends
        # on cards the seat cannot see
        refusal = self.state.check(action, player=seat)
        if refusal is not None:
            if connection is not None:
                params = refusal.to_json()["params"]
                self.views.refuse(connection, refusal.code, refusal.message, params)
            else:
                log_event(self.table_id, "bot_refused", seat=seat, code=refusal.code)
            return False
        number = self.state_number
        at = self.clock.now()
        formatted = self.game.format_action(action)
        lease = self.write_lease()
        await self.storage.append_action(
            self.table_id, number, seat, formatted, actor, at, lease=lease
        )
        before = self._turn_marker()
        try:
            self.state.apply(action, player=seat)
        except IllegalAction as error:  # pragma: no cover - check and apply agree
            raise StorageError(f"stored action {number} was refused: {error}") from None
        self._applied = number + 1
        turned = self._note_turn(before, at)
        self.last_action = LastAction(seat=seat, action=formatted, actor=actor, reason=reason)
        log_event(self.table_id, "action", n=number, seat=seat, actor=actor, action=formatted)
        self.abandonment.moved(seat, actor, turned)
        if self.state.game_over:
            await self.ending.finish(at)
        elif not await self.abandonment.abort_if_deserted():
            if turned:
                self.days.turn_passed()
                await self.days.written()  # the lobby shows the turn before anyone
            self.views.broadcast()
            self.bots.after_change()
        return True

    def started(self, at: float) -> None:
        """The table's start is stored: play begins."""
        self.status = "playing"
        self.row.status = "playing"
        self.row.started_at = at
        self.turn.begin_turn(self.state_number, at, self.state.current_player)
        log_event(self.table_id, "started")
        self.days.turn_passed()
        for seat in self.seating:
            if seat.kind == "human" and not seat.connections:
                self.presence.start_grace(seat)
