"""What the tournament pages show: the list of tournaments and one tournament's view
(its entrants, every round's tables with their totals, points and forfeits, the
standings, and the caller's table of the round under way).

A round's results are shown only once every table of the round is over: until then
its tables play the same deal, and a finished table's totals (or its forfeits, or the
standings they move) would tell the players still at the others about it.

Read only: nothing here writes a row, moves an event on or makes a table.  The view
gives a round's table ids, never a table's cards or seed (the tables themselves keep
those private while their round is played).
"""

from __future__ import annotations

from typing import Any, Final

from rummykit.server.competition.tournament_rows import (
    TournamentError,
    by_entry,
    holds,
    shown_name,
)
from rummykit.server.competition.tournament_standings import (
    knockout_standings,
    round_over,
    swiss_standings,
    table_result,
)
from rummykit.server.protocol.tournaments import (
    Entrant,
    RoundTable,
    TournamentRound,
    TournamentSummary,
    TournamentView,
)
from rummykit.server.storage.models import TournamentEntryRow, TournamentRow, TournamentTableRow
from rummykit.server.storage.store import Storage
from rummykit.server.storage.tournaments import (
    entries_of,
    entry_counts,
    listed_tournaments,
    tables_of,
)
from rummykit.server.storage.tournaments import tournament as stored_tournament

LISTED: Final = 100
"""How many tournaments the list shows: those still to be played first, newest first."""


class TournamentPages:
    """Reads the tournaments for their pages."""

    def __init__(self, *, storage: Storage) -> None:
        self.storage = storage

    async def listing(self) -> list[TournamentSummary]:
        """The tournaments still to be played (newest first), then the latest ones over."""
        async with self.storage.reading() as session:
            rows = await listed_tournaments(session, LISTED)
            counts = await entry_counts(session, [r.id for r in rows])
        return [summary(row, counts.get(row.id, 0)) for row in rows]

    async def view(self, tournament_id: str, player_id: str | None) -> TournamentView:
        """One tournament as ``player_id`` (``None``: someone without a session) sees it."""
        async with self.storage.reading() as session:
            tournament = await stored_tournament(session, tournament_id)
            if tournament is None:
                raise TournamentError("unknown_tournament", "there is no such tournament")
            entries = await entries_of(session, tournament_id)
            played = await tables_of(session, tournament_id)
        mine = next((e.entry for e in entries if holds(e, player_id)), None)
        under_way = [row for row in played if row.round == tournament.round]
        your_table = next(
            (
                row.table_id
                for row in under_way
                if mine in row.entries and row.table_id and row.totals is None
            ),
            None,
        )
        if tournament.status == "running" and not round_over(under_way):
            played = [hide_result(row) if row in under_way else row for row in played]
        entrants = by_entry(entries)
        rounds: list[TournamentRound] = []
        for number in range(tournament.round + 1):
            rows = [row for row in played if row.round == number]
            tables = []
            for row in rows:
                result = None if row.totals is None else table_result(row)
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
            rounds.append(TournamentRound(number=number, tables=tables, over=round_over(rows)))
        names = {number: shown_name(entry) for number, entry in entrants.items()}
        if tournament.format == "swiss":
            standings = swiss_standings(tournament.game, names, played)
        else:
            standings = knockout_standings(tournament.game, names, played)
        return TournamentView(
            **summary(tournament, len(entries)).model_dump(),
            rules=tournament.rules,
            turn_seconds=tournament.turn_seconds,
            time_bank_seconds=tournament.time_bank_seconds,
            creator=player_id == tournament.creator_id,
            registered=any(holds(e, player_id) for e in entries),
            entries=[
                Entrant(
                    entry=e.entry,
                    name=e.name,
                    kind="human" if e.player_id is not None else "bot",
                    level=e.bot_level,
                    you=holds(e, player_id),
                    player_id=e.player_id,
                    partner=e.partner_name,
                    partner_kind=None
                    if e.partner_name is None
                    else ("bot" if e.partner_bot_level is not None else "human"),
                    partner_level=e.partner_bot_level,
                    **_pair_secrets(e, player_id),
                )
                for e in entries
            ],
            round_list=rounds,
            standings=standings,
            your_table=your_table,
        )


def _pair_secrets(entry: TournamentEntryRow, player_id: str | None) -> dict[str, Any]:
    """What of a pair's forming only its first player sees (its link's token, whom it
    invited, who left it), and what the invited player sees (that they are invited)."""
    if player_id is None:
        return {}
    if entry.player_id == player_id:
        return {
            "pair_token": entry.pair_token if entry.partner_id is None else None,
            "invited": entry.invited_name,
            "partner_left": entry.partner_left,
        }
    return {"invites_you": entry.invited_id == player_id and entry.partner_id is None}


def hide_result(row: TournamentTableRow) -> TournamentTableRow:
    """A copy of a round table's row without its result (a detached row: nothing is
    written)."""
    return TournamentTableRow(
        tournament_id=row.tournament_id,
        round=row.round,
        number=row.number,
        table_id=row.table_id,
        entries=list(row.entries),
        totals=None,
        forfeits=None,
        seed=row.seed,
        nonce=row.nonce,
    )


def summary(row: TournamentRow, entrants: int) -> TournamentSummary:
    """A tournament's line in the list (and the head of its view)."""
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
