"""The table host: the one owner of a live table.

Each table is held by one :class:`TableHost`, an asyncio task reading an inbox.  Client
actions, bot moves, timers, joins, chat and hints for that table all pass through the
inbox in order, so a game state is never touched by two coroutines at once.

Persist, then broadcast: an action is checked, stored with its state number (the number
of actions before it), and only then applied and sent to each connection as that
connection's own view.  A refused action is answered with a typed error and nothing is
stored.  A host rebuilt from the database (:meth:`TableHost.restore`) replays the stored
actions from the seed and derives the turn timer from the stored times, so a restarted
server resumes each table where it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel

from rummykit.games.core import IllegalAction, NotationError, Refusal
from rummykit.games.registry import AnyGame, game_named
from rummykit.server import fairness
from rummykit.server.bots import BotRunner
from rummykit.server.events_log import log_event
from rummykit.server.models import ChatRow, SeatRow, TableRow
from rummykit.server.protocol import (
    ChatBroadcast,
    ErrorMessage,
    GameOverMessage,
    HintMessage,
    LastAction,
    PlayerInfo,
    ReasonPhrase,
    StateMessage,
    TurnInfo,
)
from rummykit.server.settings import Settings
from rummykit.server.storage import Storage, StorageError, StoredTable
from rummykit.server.views import watcher_events, watcher_observation

Actor = Literal["human", "bot", "timeout", "substitute"]
Status = Literal["waiting", "playing", "over"]
RECENT_EVENTS = 30
OUTBOX_LIMIT = 512
TIMEOUT_LEVEL = "greedy"


class TableError(Exception):
    """A lobby request the table refuses (``code`` as in docs/protocol.md)."""

    def __init__(self, code: str, message: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params or {}


class Connection:
    """One client connection at a table: a seat (``None`` for a watcher) and an outbox.

    The host never awaits a client: messages go into the outbox, which the transport
    drains.  A connection whose outbox overflows is closed (``closed`` is set and a
    ``None`` is queued for the transport).
    """

    def __init__(self, *, player_id: str, name: str, seat: int | None) -> None:
        self.player_id = player_id
        self.name = name
        self.seat = seat
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.events_sent = 0
        self.hint_pending = False
        self.chat_times: deque[float] = deque()
        self.closed = False

    def send(self, message: BaseModel) -> None:
        if not self.closed:
            self.send_text(message.model_dump_json())

    def send_text(self, text: str) -> None:
        """Queue a message already serialised."""
        if self.closed:
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            self.close()
            return
        self.outbox.put_nowait(text)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.outbox.put_nowait(None)


@dataclass
class SeatState:
    """A seat at a live table."""

    index: int
    kind: Literal["human", "bot"]
    level: str | None
    player_id: str | None
    name: str
    connections: set[Connection] = field(default_factory=set)
    away: bool = False
    grace: asyncio.Task[None] | None = None

    @property
    def occupied(self) -> bool:
        return self.kind == "bot" or self.player_id is not None


# -- inbox commands -------------------------------------------------------------------


@dataclass(frozen=True)
class Attach:
    connection: Connection


@dataclass(frozen=True)
class Detach:
    connection: Connection


@dataclass(frozen=True)
class ClientAction:
    connection: Connection
    state_number: int
    action: str


@dataclass(frozen=True)
class ClientChat:
    connection: Connection
    text: str


@dataclass(frozen=True)
class ClientHint:
    connection: Connection


@dataclass(frozen=True)
class BotDecided:
    state_number: int
    seat: int
    action: str | None
    reason: str
    actor: Actor


@dataclass(frozen=True)
class TimerFired:
    turn_key: int


@dataclass(frozen=True)
class GraceExpired:
    seat: int


@dataclass(frozen=True)
class Join:
    player_id: str
    name: str
    seat: int | None
    result: asyncio.Future[int]


@dataclass(frozen=True)
class Leave:
    player_id: str
    result: asyncio.Future[None]


@dataclass(frozen=True)
class Stop:
    pass


Command = (
    Attach
    | Detach
    | ClientAction
    | ClientChat
    | ClientHint
    | BotDecided
    | TimerFired
    | GraceExpired
    | Join
    | Leave
    | Stop
)


def _seat_name(row: SeatRow) -> str:
    if row.kind == "bot":
        return f"{row.level or 'bot'} bot"
    return row.name or ""


def refusal_for(state: Any, action: Any, seat: int) -> Refusal | None:
    """Why ``seat`` may not play ``action`` now: the engine checks the turn before
    anything else, so a refusal never depends on cards the seat cannot see."""
    refusal: Refusal | None = state.check(action, player=seat)
    return refusal


class TableHost:
    """The owner of one table's game state, seats, connections and timers."""

    def __init__(
        self,
        *,
        row: TableRow,
        seats: list[SeatRow],
        storage: Storage,
        runner: BotRunner,
        settings: Settings,
        clock: Callable[[], float] = time.time,
        on_stop: Callable[[TableHost], None] | None = None,
    ) -> None:
        self.table_id = row.id
        self.row = row
        self.game: AnyGame = game_named(row.game)
        self.rules = self.game.rules_type(**row.rules)
        self.state: Any = self.game.new_state(self.rules, row.seed)
        self.status: Status = row.status  # type: ignore[assignment]
        self.seats = [
            SeatState(
                index=s.seat,
                kind="bot" if s.kind == "bot" else "human",
                level=s.level,
                player_id=s.player_id,
                name=_seat_name(s),
            )
            for s in seats
        ]
        self.storage = storage
        self.runner = runner
        self.settings = settings
        self.clock = clock
        self.on_stop = on_stop
        self.inbox: asyncio.Queue[Command] = asyncio.Queue()
        self.watchers: set[Connection] = set()
        self.turn_key = 0
        self.turn_started_at = row.started_at or row.created_at
        # When a seated player was last known to be at the table: its creation, a seat
        # taken or left, a seat's last connection closed (see awaits_players).
        self.present_at = row.created_at
        self.timeout_turn: int | None = None
        self.last_action: LastAction | None = None
        self._bot_pending: int | None = None
        self._applied = len(self.state.actions)
        # the legal actions and observations of the state numbered ``_views_at``
        self._views_at = -1
        self._legal: list[str] | None = None
        self._observations: dict[int, dict[str, Any]] = {}
        self._timer: asyncio.Task[None] | None = None
        self._timer_key: int | None = None
        self._linger: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._task: asyncio.Task[None] | None = None

    # -- building and recovery ----------------------------------------------------------

    @classmethod
    def restore(cls, stored: StoredTable, **parts: Any) -> TableHost:
        """The host of a stored table, its state rebuilt from the seed and action log."""
        host = cls(row=stored.table, seats=stored.seats, **parts)
        state = host.state
        for expected, row in enumerate(stored.actions):
            if row.state_number != expected:
                raise StorageError(f"table {host.table_id} misses state number {expected}")
            before = (state.current_player, state.hand_number)
            state.apply(host.game.parse_action(row.action))
            host._applied = row.state_number + 1
            host._note_turn(before, row.state_number + 1, row.at)
            host.last_action = LastAction(seat=row.seat, action=row.action, actor=row.actor)  # type: ignore[arg-type]
        return host

    def _note_turn(self, before: tuple[int | None, int], state_number: int, at: float) -> None:
        state = self.state
        if state.hand_over or (state.current_player, state.hand_number) != before:
            self.turn_key = state_number
            self.turn_started_at = at
            self.timeout_turn = None

    @property
    def state_number(self) -> int:
        """How many actions the state has applied (counted here: the state's own list
        of actions is copied whenever it is asked for)."""
        return self._applied

    # -- running ------------------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"table-{self.table_id}")
        if self.status == "playing":
            for seat in self.seats:
                if seat.kind == "human" and not seat.connections:
                    self._start_grace(seat)
            self._after_change()

    async def stop(self) -> None:
        """Stop the host: cancel its timers and bot work, close its connections."""
        self.inbox.put_nowait(Stop())
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def submit(self, command: Command) -> None:
        self.inbox.put_nowait(command)

    async def _run(self) -> None:
        try:
            while True:
                command = await self.inbox.get()
                if isinstance(command, Stop):
                    break
                try:
                    await self._handle(command)
                except StorageError as error:
                    log_event(
                        self.table_id, "storage_failed", level=logging.ERROR, error=str(error)
                    )
                    break
                except Exception:
                    logging.getLogger("rummykit.server").exception(
                        "table=%s event=host_error", self.table_id
                    )
        finally:
            self._shutdown()

    def _shutdown(self) -> None:
        for task in [*self._tasks, self._timer, self._linger]:
            if task is not None:
                task.cancel()
        for seat in self.seats:
            if seat.grace is not None:
                seat.grace.cancel()
            for connection in seat.connections:
                connection.close()
        for connection in self.watchers:
            connection.close()
        if self.on_stop is not None:
            self.on_stop(self)

    def _spawn(self, coroutine: Any) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _handle(self, command: Command) -> None:
        if isinstance(command, Attach):
            self._attach(command.connection)
        elif isinstance(command, Detach):
            self._detach(command.connection)
        elif isinstance(command, ClientAction):
            await self._client_action(command)
        elif isinstance(command, ClientChat):
            await self._chat(command.connection, command.text)
        elif isinstance(command, ClientHint):
            self._hint(command.connection)
        elif isinstance(command, BotDecided):
            await self._bot_decided(command)
        elif isinstance(command, TimerFired):
            self._timer_fired(command.turn_key)
        elif isinstance(command, GraceExpired):
            self._grace_expired(command.seat)
        elif isinstance(command, Join):
            await self._join(command)
        elif isinstance(command, Leave):
            await self._leave(command)

    # -- connections --------------------------------------------------------------------

    def seat_of(self, player_id: str) -> int | None:
        for seat in self.seats:
            if seat.kind == "human" and seat.player_id == player_id:
                return seat.index
        return None

    def _attach(self, connection: Connection) -> None:
        if self._linger is not None:
            self._linger.cancel()
            self._linger = None
        if connection.seat is None:
            self.watchers.add(connection)
            log_event(self.table_id, "watcher_joined", player=connection.player_id)
        else:
            seat = self.seats[connection.seat]
            was_present = bool(seat.connections) and not seat.away
            seat.connections.add(connection)
            if seat.grace is not None:
                seat.grace.cancel()
                seat.grace = None
            seat.away = False
            log_event(self.table_id, "connected", seat=seat.index, player=connection.player_id)
            if not was_present:
                connection.events_sent = max(0, len(self.state.events) - RECENT_EVENTS)
                self._broadcast()
                self._after_change()
                return
        self._send_state(connection, recent=True)

    def _detach(self, connection: Connection) -> None:
        connection.close()
        if connection.seat is None:
            self.watchers.discard(connection)
        else:
            seat = self.seats[connection.seat]
            seat.connections.discard(connection)
            log_event(self.table_id, "disconnected", seat=seat.index)
            if not seat.connections:
                self.present_at = self.clock()
            if not seat.connections and self.status == "playing":
                self._start_grace(seat)
                self._broadcast()
        if self.status == "over" and not self._has_connections():
            self._linger = self._spawn(self._linger_then_stop())

    def awaits_players(self, now: float) -> bool:
        """Whether the lobby lists this table: it is waiting for players, and whoever
        holds a seat is at it, or was within the grace period. A table whose seated
        players closed their pages drops from the list until one of them returns; one
        with no one seated (made for others, or left by all) is open to anyone."""
        if self.status != "waiting":
            return False
        seated = [seat for seat in self.seats if seat.kind == "human" and seat.player_id]
        if not seated or any(seat.connections for seat in seated):
            return True
        return now - self.present_at < self.settings.grace_seconds

    def _has_connections(self) -> bool:
        return bool(self.watchers) or any(seat.connections for seat in self.seats)

    async def _linger_then_stop(self) -> None:
        await asyncio.sleep(self.settings.finished_linger_seconds)
        self.submit(Stop())

    def _start_grace(self, seat: SeatState) -> None:
        if seat.grace is not None or seat.away:
            return

        async def expire() -> None:
            await asyncio.sleep(self.settings.grace_seconds)
            self.submit(GraceExpired(seat.index))

        seat.grace = self._spawn(expire())

    def _grace_expired(self, index: int) -> None:
        seat = self.seats[index]
        seat.grace = None
        if seat.connections or self.status != "playing":
            return
        seat.away = True
        log_event(self.table_id, "substitute_on", seat=index)
        self._broadcast()
        self._after_change()

    # -- views --------------------------------------------------------------------------

    def seat_rows(self) -> list[SeatRow]:
        """The seats as the database holds them now (each seat change is stored first)."""
        return [
            SeatRow(
                table_id=self.table_id,
                seat=seat.index,
                kind=seat.kind,
                level=seat.level,
                player_id=seat.player_id,
                name=seat.name if seat.kind == "human" and seat.player_id is not None else None,
            )
            for seat in self.seats
        ]

    def _players(self) -> list[PlayerInfo]:
        return [
            PlayerInfo(
                seat=seat.index,
                name=seat.name,
                kind=seat.kind,
                level=seat.level,
                connected=seat.kind == "bot" or bool(seat.connections),
                substitute=seat.kind == "human" and seat.away,
            )
            for seat in self.seats
        ]

    def _turn(self) -> TurnInfo | None:
        player = self.state.current_player
        if player is None or self.status != "playing":
            return None
        deadline = self._deadline()
        if deadline is None:
            return TurnInfo(player=player)
        left = max(0.0, deadline - self.clock())
        return TurnInfo(player=player, deadline=round(deadline, 3), seconds_left=round(left, 3))

    def _deadline(self) -> float | None:
        seconds = self.row.turn_seconds
        if seconds is None or self.status != "playing":
            return None
        return self.turn_started_at + seconds

    def _fresh_views(self) -> None:
        """Forget the legal actions and observations kept for an earlier state."""
        if self._views_at != self.state_number:
            self._views_at = self.state_number
            self._legal = None
            self._observations = {}

    def _legal_texts(self) -> list[str]:
        """The legal actions now, as text (made once per state)."""
        self._fresh_views()
        if self._legal is None:
            self._legal = [self.game.format_action(a) for a in self.state.legal_actions()]
        return self._legal

    def _observation(self, seat: int) -> dict[str, Any]:
        """``seat``'s observation now, as JSON (made once per state and seat)."""
        self._fresh_views()
        observation = self._observations.get(seat)
        if observation is None:
            observation = self.state.observation(seat).to_json()
            self._observations[seat] = observation
        return observation

    def _events_since(self, start: int) -> list[list[dict[str, Any]]]:
        """Each seat's view of the events from index ``start`` on, as JSON (made anew for
        each message: only the events a connection has not been sent yet)."""
        return [
            [event.to_json() for event in self.state.events_for(p, start)]
            for p in range(self.state.num_players)
        ]

    def _state_message(
        self,
        seat: int | None,
        observation: dict[str, Any],
        events: list[dict[str, Any]],
        events_start: int,
        legal: list[str],
        players: list[PlayerInfo],
        turn: TurnInfo | None,
    ) -> StateMessage:
        return StateMessage(
            table_id=self.table_id,
            game=self.game.name,
            status=self.status,
            state_number=self.state_number,
            seat=seat,
            observation=observation,
            events_start=events_start,
            events=events,
            legal_actions=legal if seat is not None and seat == self._mover() else [],
            players=players,
            turn=turn,
            last_action=self.last_action,
        )

    def _mover(self) -> int | None:
        return self.state.current_player if self.status == "playing" else None

    def _seat_view(self, seat: int, start: int) -> tuple[dict[str, Any], list[dict[str, Any]], int]:
        events = [event.to_json() for event in self.state.events_for(seat, start)]
        return self._observation(seat), events, start + len(events)

    def _watcher_view(self, start: int) -> tuple[dict[str, Any], list[dict[str, Any]], int]:
        observations = [self._observation(p) for p in range(self.state.num_players)]
        events = watcher_events(self._events_since(start))
        return watcher_observation(observations), events, start + len(events)

    def _send_state(self, connection: Connection, *, recent: bool = False) -> None:
        total = len(self.state.events)
        start = max(0, total - RECENT_EVENTS) if recent else connection.events_sent
        legal = self._legal_texts() if connection.seat == self._mover() else []
        if connection.seat is None:
            observation, events, total = self._watcher_view(start)
        else:
            observation, events, total = self._seat_view(connection.seat, start)
        connection.events_sent = total
        connection.send(
            self._state_message(
                connection.seat, observation, events, start, legal, self._players(), self._turn()
            )
        )

    def _broadcast(self) -> None:
        """Send every connection its own view of the table as it is now: one message
        (built and serialised once) for the connections of a seat that were sent the
        same events so far."""
        if not self._has_connections():
            return
        players = self._players()
        turn = self._turn()
        mover = self._mover()
        for seat in self.seats:
            if not seat.connections:
                continue
            legal = self._legal_texts() if seat.index == mover else []
            groups: dict[int, list[Connection]] = {}
            for connection in seat.connections:
                groups.setdefault(connection.events_sent, []).append(connection)
            for start, connections in groups.items():
                observation, events, total = self._seat_view(seat.index, start)
                text = self._state_message(
                    seat.index, observation, events, start, legal, players, turn
                ).model_dump_json()
                for connection in connections:
                    connection.events_sent = total
                    connection.send_text(text)
        if self.watchers:
            groups = {}
            for connection in self.watchers:
                groups.setdefault(connection.events_sent, []).append(connection)
            for start, connections in groups.items():
                observation, events, total = self._watcher_view(start)
                text = self._state_message(
                    None, observation, events, start, [], players, turn
                ).model_dump_json()
                for connection in connections:
                    connection.events_sent = total
                    connection.send_text(text)

    def _all_connections(self) -> list[Connection]:
        found = list(self.watchers)
        for seat in self.seats:
            found.extend(seat.connections)
        return found

    def _error(
        self, connection: Connection, code: str, message: str, params: dict[str, Any] | None = None
    ) -> None:
        log_event(self.table_id, "refused", seat=connection.seat, code=code)
        connection.send(
            ErrorMessage(
                code=code, params=params or {}, message=message, state_number=self.state_number
            )
        )

    # -- play ---------------------------------------------------------------------------

    async def _client_action(self, command: ClientAction) -> None:
        connection = command.connection
        if connection.seat is None:
            self._error(connection, "not_seated", "watchers cannot play")
            return
        if self.status == "waiting":
            self._error(connection, "table_not_started", "the table is waiting for players")
            return
        if self.status == "over":
            self._error(connection, "game_over", "the game is over")
            return
        if command.state_number != self.state_number:
            self._error(
                connection,
                "stale_state",
                f"the table is at state {self.state_number}, not {command.state_number}",
                {"state_number": self.state_number, "sent": command.state_number},
            )
            return
        if self.timeout_turn == self.turn_key and self.state.current_player == connection.seat:
            self._error(
                connection, "turn_timed_out", "the turn timer ran out: greedy plays this turn"
            )
            return
        await self._play(connection.seat, command.action, "human", None, connection)

    async def _play(
        self,
        seat: int,
        text: str,
        actor: Actor,
        reason: str | None,
        connection: Connection | None = None,
    ) -> bool:
        try:
            action = self.game.parse_action(text)
        except NotationError as error:
            if connection is not None:
                self._error(connection, "bad_notation", str(error)[:300], {"action": text[:200]})
            return False
        refusal = refusal_for(self.state, action, seat)
        if refusal is not None:
            if connection is not None:
                self._error(connection, refusal.code, refusal.message, refusal.to_json()["params"])
            else:
                log_event(self.table_id, "bot_refused", seat=seat, code=refusal.code)
            return False
        number = self.state_number
        at = self.clock()
        formatted = self.game.format_action(action)
        await self.storage.append_action(self.table_id, number, seat, formatted, actor, at)
        before = (self.state.current_player, self.state.hand_number)
        try:
            self.state.apply(action, player=seat)
        except IllegalAction as error:  # pragma: no cover - check and apply agree
            raise StorageError(f"stored action {number} was refused: {error}") from None
        self._applied = number + 1
        self._note_turn(before, number + 1, at)
        self.last_action = LastAction(seat=seat, action=formatted, actor=actor, reason=reason)
        log_event(self.table_id, "action", n=number, seat=seat, actor=actor, action=formatted)
        if self.state.game_over:
            await self._finish(at)
        self._broadcast()
        if self.status == "over":
            self._announce_game_over()
        self._after_change()
        return True

    async def _finish(self, at: float) -> None:
        totals = list(self.state.totals)
        winners = list(self.state.winners)
        await self.storage.finish_table(self.table_id, at, totals, winners)
        self.status = "over"
        self.row.status = "over"
        self.row.totals = totals
        self.row.winners = winners
        self.row.finished_at = at
        for seat in self.seats:
            if seat.grace is not None:
                seat.grace.cancel()
                seat.grace = None
        log_event(self.table_id, "game_over", totals=totals, winners=winners)

    def game_over_message(self) -> GameOverMessage:
        return GameOverMessage(
            table_id=self.table_id,
            totals=list(self.state.totals),
            winners=list(self.state.winners),
            seed=self.row.seed,
            nonce=self.row.nonce,
            commitment=self.row.commitment,
            record_url=f"/api/tables/{self.table_id}/record",
        )

    def _announce_game_over(self) -> None:
        message = self.game_over_message()
        for connection in self._all_connections():
            connection.send(message)

    # -- bots and timers ----------------------------------------------------------------

    def _controller(self, index: int) -> tuple[Actor, str] | None:
        """Who plays for seat ``index`` now when not its human: ``None`` for the human."""
        seat = self.seats[index]
        if seat.kind == "bot":
            return "bot", seat.level or TIMEOUT_LEVEL
        if seat.away:
            return "substitute", TIMEOUT_LEVEL
        if self.timeout_turn == self.turn_key:
            return "timeout", TIMEOUT_LEVEL
        return None

    def _after_change(self) -> None:
        if self.status != "playing":
            self._cancel_timer()
            return
        mover = self.state.current_player
        if mover is None:
            return
        controller = self._controller(mover)
        if controller is None:
            self._schedule_timer()
            return
        self._cancel_timer()
        number = self.state_number
        if self._bot_pending == number:
            return
        self._bot_pending = number
        actor, spec = controller
        observation = self._observation(mover)
        legal = self._legal_texts()
        seed = fairness.bot_seed(self.row.nonce, number, mover)
        pause = self.settings.bot_pause_seconds if actor == "bot" else 0.0

        async def think() -> None:
            if pause:
                await asyncio.sleep(pause)
            try:
                action, reason = await self.runner.decide(
                    self.game.name, spec, observation, legal, seed
                )
            except Exception as error:
                log_event(self.table_id, "bot_failed", level=logging.ERROR, error=repr(error))
                action, reason = None, "bot failed"
            self.submit(BotDecided(number, mover, action, reason, actor))

        self._spawn(think())

    async def _bot_decided(self, command: BotDecided) -> None:
        if self._bot_pending == command.state_number:
            self._bot_pending = None
        if command.state_number != self.state_number or self.status != "playing":
            return
        controller = self._controller(command.seat)
        if controller is None or self.state.current_player != command.seat:
            self._after_change()
            return
        action = command.action
        if action is None:
            legal = self._legal_texts()
            action = legal[0] if legal else None
        if action is None or not await self._play(
            command.seat, action, controller[0], command.reason
        ):
            log_event(self.table_id, "bot_move_dropped", seat=command.seat)
            self._after_change()

    def _schedule_timer(self) -> None:
        deadline = self._deadline()
        if deadline is None or self._timer_key == self.turn_key:
            return
        self._cancel_timer()
        key = self.turn_key
        self._timer_key = key

        async def ring() -> None:
            await asyncio.sleep(max(0.0, deadline - self.clock()))
            self.submit(TimerFired(key))

        self._timer = self._spawn(ring())

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None
        self._timer_key = None

    def _timer_fired(self, key: int) -> None:
        if key != self.turn_key or self.status != "playing":
            return
        self._timer = None
        mover = self.state.current_player
        log_event(self.table_id, "turn_timed_out", seat=mover)
        self.timeout_turn = key
        self._after_change()

    # -- chat and hints -----------------------------------------------------------------

    async def _chat(self, connection: Connection, text: str) -> None:
        now = self.clock()
        times = connection.chat_times
        while times and times[0] < now - 60:
            times.popleft()
        if len(times) >= self.settings.chat_per_minute:
            self._error(
                connection,
                "chat_rate",
                "too many chat messages; wait a little",
                {"per_minute": self.settings.chat_per_minute},
            )
            return
        clean = "".join(ch for ch in text if ch.isprintable()).strip()
        if not clean:
            self._error(connection, "chat_empty", "the chat message is empty")
            return
        times.append(now)
        await self.storage.add_chat(
            ChatRow(
                table_id=self.table_id,
                seat=connection.seat,
                player_id=connection.player_id,
                name=connection.name,
                text=clean,
                at=now,
            )
        )
        log_event(self.table_id, "chat", seat=connection.seat, length=len(clean))
        message = ChatBroadcast(seat=connection.seat, name=connection.name, text=clean, at=now)
        for other in self._all_connections():
            other.send(message)

    def _hint(self, connection: Connection) -> None:
        if connection.seat is None or connection.seat != self._mover():
            self._error(connection, "hint_not_your_turn", "hints are for the player to move")
            return
        if connection.hint_pending:
            self._error(connection, "hint_pending", "a hint is already being worked out")
            return
        connection.hint_pending = True
        number = self.state_number
        observation = self._observation(connection.seat)
        legal = self._legal_texts()
        seconds = self.settings.hint_seconds

        async def work() -> None:
            try:
                action, reason = await self.runner.hint(self.game.name, observation, legal, seconds)
            except Exception as error:
                log_event(self.table_id, "hint_failed", level=logging.ERROR, error=repr(error))
                connection.send(
                    ErrorMessage(
                        code="hint_failed", message="no hint could be made", state_number=number
                    )
                )
            else:
                connection.send(
                    HintMessage(
                        state_number=number,
                        action=action,
                        reason=reason.text,
                        reason_phrases=[ReasonPhrase.model_validate(p) for p in reason.to_json()],
                    )
                )
            finally:
                connection.hint_pending = False

        log_event(self.table_id, "hint", seat=connection.seat, n=number)
        self._spawn(work())

    # -- seats --------------------------------------------------------------------------

    async def _join(self, command: Join) -> None:
        if command.result.done():
            return
        try:
            seat = await self._take_seat(command)
        except TableError as error:
            command.result.set_exception(error)
            return
        command.result.set_result(seat)

    async def _take_seat(self, command: Join) -> int:
        existing = self.seat_of(command.player_id)
        if existing is not None:
            return existing
        if self.status != "waiting":
            raise TableError("table_started", "the game has started; you can watch it")
        free = [s for s in self.seats if s.kind == "human" and s.player_id is None]
        if command.seat is not None:
            if not 0 <= command.seat < len(self.seats):
                raise TableError("no_such_seat", "there is no such seat", {"seat": command.seat})
            chosen = [s for s in free if s.index == command.seat]
            if not chosen:
                raise TableError("seat_taken", "that seat is not free", {"seat": command.seat})
            seat = chosen[0]
        elif free:
            seat = free[0]
        else:
            raise TableError("table_full", "every seat is taken")
        if not await self.storage.take_seat(
            self.table_id, seat.index, command.player_id, command.name
        ):
            raise TableError("seat_taken", "that seat is not free", {"seat": seat.index})
        seat.player_id = command.player_id
        seat.name = command.name
        self.present_at = self.clock()
        log_event(self.table_id, "seat_taken", seat=seat.index, player=command.player_id)
        if all(s.occupied for s in self.seats):
            await self._start()
        self._broadcast()
        self._after_change()
        return seat.index

    async def _start(self) -> None:
        at = self.clock()
        await self.storage.start_table(self.table_id, at)
        self.status = "playing"
        self.row.status = "playing"
        self.row.started_at = at
        self.turn_started_at = at
        self.turn_key = self.state_number
        log_event(self.table_id, "started")
        for seat in self.seats:
            if seat.kind == "human" and not seat.connections:
                self._start_grace(seat)

    async def start_if_ready(self) -> None:
        """Start a table created with no free human seat (bots, or the creator alone)."""
        if self.status == "waiting" and all(s.occupied for s in self.seats):
            await self._start()

    async def _leave(self, command: Leave) -> None:
        index = self.seat_of(command.player_id)
        if index is None:
            command.result.set_exception(TableError("not_seated", "you have no seat here"))
            return
        seat = self.seats[index]
        if self.status == "waiting":
            await self.storage.free_seat(self.table_id, index)
            seat.player_id = None
            seat.name = ""
            for connection in list(seat.connections):
                connection.close()
            seat.connections.clear()
            self.present_at = self.clock()
        elif self.status == "playing":
            seat.away = True
            if seat.grace is not None:
                seat.grace.cancel()
                seat.grace = None
        log_event(self.table_id, "left", seat=index)
        command.result.set_result(None)
        self._broadcast()
        self._after_change()
