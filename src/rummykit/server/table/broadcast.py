"""Views and broadcast: what each connection of a table is sent, and when.

A seat's connections receive that seat's observation and its own view of the events;
watchers receive the common view (``server/table/views.py``).  Observations and legal
actions are made once per state number and shared by every message of that state.
Before any seat's view leaves, :meth:`Seating.may_see` is asked: a connection whose
player does not hold that seat at that moment is never sent it (the host keeps this
from happening; the check makes a mistake a closed connection, not a leak).
"""

from __future__ import annotations

import logging
from typing import Any

from pydantic import BaseModel

from rummykit.server.operations.events_log import log_event
from rummykit.server.protocol.messages import (
    ErrorMessage,
    HandArrangement,
    PlayerInfo,
    StateMessage,
    TurnInfo,
)
from rummykit.server.table.connection import Connection
from rummykit.server.table.fair_play import hints_allowed, last_action_for
from rummykit.server.table.parts import TableCore
from rummykit.server.table.views import watcher_events, watcher_observation

RECENT_EVENTS = 30


class TableViews:
    """Builds and sends the views of one table's state."""

    def __init__(self, host: TableCore) -> None:
        self.host = host
        # the legal actions and observations of the state numbered ``_views_at``
        self._views_at = -1
        self._legal: list[str] | None = None
        self._observations: dict[int, dict[str, Any]] = {}
        self._seen: dict[int, Any] = {}  # the observations themselves, by seat
        self._arrangements: dict[int, HandArrangement | None] = {}

    def _fresh(self) -> None:
        """Forget the legal actions and observations kept for an earlier state."""
        if self._views_at != self.host.state_number:
            self._views_at = self.host.state_number
            self._legal = None
            self._observations = {}
            self._seen = {}
            self._arrangements = {}

    def legal_texts(self) -> list[str]:
        """The legal actions now, as text (made once per state)."""
        self._fresh()
        if self._legal is None:
            host = self.host
            self._legal = [host.game.format_action(a) for a in host.state.legal_actions()]
        return self._legal

    def observation(self, seat: int) -> dict[str, Any]:
        """``seat``'s observation now, as JSON (made once per state and seat)."""
        self._fresh()
        observation = self._observations.get(seat)
        if observation is None:
            seen = self.host.state.observation(seat)
            observation = seen.to_json()
            self._observations[seat] = observation
            self._seen[seat] = seen
        return observation

    def arrangement(self, seat: int) -> HandArrangement | None:
        """``seat``'s own hand as its game scores it now, made from that seat's
        observation alone (once per state and seat); ``None`` in a game that shows none."""
        self.observation(seat)
        if seat not in self._arrangements:
            make = self.host.game.own_arrangement
            shown = None if make is None else make(self._seen[seat])
            self._arrangements[seat] = (
                None if shown is None else HandArrangement.model_validate(shown)
            )
        return self._arrangements[seat]

    def _seat_view(self, seat: int, start: int) -> tuple[dict[str, Any], list[dict[str, Any]], int]:
        events = [event.to_json() for event in self.host.state.events_for(seat, start)]
        return self.observation(seat), events, start + len(events)

    def _watcher_view(self, start: int) -> tuple[dict[str, Any], list[dict[str, Any]], int]:
        state = self.host.state
        observations = [self.observation(p) for p in range(state.num_players)]
        per_seat = [
            [event.to_json() for event in state.events_for(p, start)]
            for p in range(state.num_players)
        ]
        events = watcher_events(per_seat)
        return watcher_observation(observations), events, start + len(events)

    def _message(
        self,
        seat: int | None,
        view: tuple[dict[str, Any], list[dict[str, Any]], int],
        start: int,
        players: list[PlayerInfo],
        turn: TurnInfo | None,
    ) -> StateMessage:
        host = self.host
        mover = host.mover()
        return StateMessage(
            table_id=host.table_id,
            game=host.game.name,
            status=host.status,
            state_number=host.state_number,
            seat=seat,
            observation=view[0],
            events_start=start,
            events=view[1],
            legal_actions=self.legal_texts() if seat is not None and seat == mover else [],
            players=players,
            turn=turn,
            last_action=last_action_for(host.last_action, seat),
            hints=hints_allowed(host.row),
            arrangement=None if seat is None else self.arrangement(seat),
            days_per_move=host.row.days_per_move,
        )

    def _allowed(self, connection: Connection) -> bool:
        seat = connection.seat
        if seat is None or self.host.seating.may_see(connection, seat):
            return True
        log_event(
            self.host.table_id,
            "view_withheld",
            level=logging.ERROR,
            seat=seat,
            player=connection.player_id,
        )
        connection.close()
        return False

    def send_state(self, connection: Connection, *, recent: bool = False) -> None:
        """Send ``connection`` its view now: the events it was not sent yet, or (with
        ``recent``) the last few, as for a new connection."""
        if not self._allowed(connection):
            return
        total = len(self.host.state.events)
        start = max(0, total - RECENT_EVENTS) if recent else connection.events_sent
        seat = connection.seat
        view = self._watcher_view(start) if seat is None else self._seat_view(seat, start)
        connection.events_sent = view[2]
        connection.send(
            self._message(seat, view, start, self.host.seating.players(), self.host.turn_info())
        )

    def broadcast(self) -> None:
        """Send every connection its own view of the table as it is now: one message
        (built and serialised once) for the connections of a seat (or the watchers)
        that were sent the same events so far."""
        seating = self.host.seating
        if not seating.has_connections():
            return
        players = seating.players()
        turn = self.host.turn_info()
        audiences: list[tuple[int | None, list[Connection]]] = [
            (seat.index, [c for c in seat.connections if self._allowed(c)])
            for seat in seating
            if seat.connections
        ]
        audiences.append((None, list(seating.watchers)))
        for seat, connections in audiences:
            groups: dict[int, list[Connection]] = {}
            for connection in connections:
                groups.setdefault(connection.events_sent, []).append(connection)
            for start, group in groups.items():
                view = self._watcher_view(start) if seat is None else self._seat_view(seat, start)
                text = self._message(seat, view, start, players, turn).model_dump_json()
                for connection in group:
                    connection.events_sent = view[2]
                    connection.send_text(text)

    def send_seated(self, message: BaseModel) -> None:
        """Send one message to the seated players' connections only (not watchers)."""
        text = message.model_dump_json()
        for seat in self.host.seating:
            for connection in seat.connections:
                if self._allowed(connection):
                    connection.send_text(text)

    def send_all(self, message: BaseModel) -> None:
        """Send one message that is the same for everyone (chat, the game's end)."""
        text = message.model_dump_json()
        for connection in self.host.seating.connections():
            connection.send_text(text)

    def refuse(
        self,
        connection: Connection,
        code: str,
        message: str,
        params: dict[str, Any] | None = None,
    ) -> None:
        """Answer ``connection`` with a typed error about the table as it is now."""
        log_event(self.host.table_id, "refused", seat=connection.seat, code=code)
        connection.send(
            ErrorMessage(
                code=code,
                params=params or {},
                message=message,
                state_number=self.host.state_number,
            )
        )
