"""The making of a tournament round's tables: each table planned with its round (its
id and the round's deal already stored) and not made yet is made, seated and started
by the server (:meth:`TableRegistry.open_seated
<rummykit.server.table.registry.TableRegistry.open_seated>`), every seat given to its
entrant.

A table is private and holds the reveal of its deal (``reveal_held``) from the start:
its round's other tables play the same deal.  Nothing here plans a round, stores a
result or writes a tournament's rows; a table that exists already (made by another
process, or before a crash) is never made twice.
"""

from __future__ import annotations

from rummykit.games.core import rules_to_json
from rummykit.games.registry import game_named
from rummykit.server.bots.limits import MAX_ITERATIONS, TOURNAMENT_BOT_SECONDS, clamp_level
from rummykit.server.clock import Clock
from rummykit.server.competition.tournament_rows import by_entry, pair_size
from rummykit.server.operations.events_log import log_event
from rummykit.server.storage.models import (
    SeatRow,
    TableRow,
    TournamentEntryRow,
    TournamentRow,
    TournamentTableRow,
)
from rummykit.server.storage.store import Storage
from rummykit.server.storage.tournaments import entries_of, stored_table_ids, tables_of
from rummykit.server.storage.tournaments import tournament as stored_tournament
from rummykit.server.table import committed_deal
from rummykit.server.table.registry import TableRegistry


class TableMaker:
    """Makes the planned tables of the round under way."""

    def __init__(self, *, storage: Storage, tables: TableRegistry, clock: Clock) -> None:
        self.storage = storage
        self.tables = tables
        self.clock = clock

    async def open_tables(self, tournament_id: str) -> None:
        """Make the round's planned tables that do not exist yet."""
        async with self.storage.reading() as session:
            tournament = await stored_tournament(session, tournament_id)
            if tournament is None or tournament.status != "running":
                return
            rows = [
                row
                for row in await tables_of(session, tournament_id, tournament.round)
                if row.table_id is not None
            ]
            made = await stored_table_ids(session, [row.table_id for row in rows])
            entrants = by_entry(await entries_of(session, tournament_id))
        for row in rows:
            if row.table_id in made:
                continue
            table, seats = self.table_rows(tournament, row, entrants)
            if await self.tables.open_seated(table, seats):
                log_event(table.id, "tournament_table", tournament=tournament_id)

    def table_rows(
        self,
        tournament: TournamentRow,
        row: TournamentTableRow,
        entrants_by_entry: dict[int, TournamentEntryRow],
    ) -> tuple[TableRow, list[SeatRow]]:
        """The table and seats of one planned table: the tournament's rules for the
        players it seats, the round's deal, and a turn clock only if a person plays."""
        assert row.table_id is not None and row.seed is not None and row.nonce is not None
        entrants = [entrants_by_entry[number] for number in row.entries]
        # each seat's player (person id, bot level, name): at a table of pairs, entry i
        # at seats i and i + pairs, partners opposite
        players = [(e.player_id, e.bot_level, e.name) for e in entrants]
        if pair_size(tournament) > 1:
            players += [(e.partner_id, e.partner_bot_level, e.partner_name or "") for e in entrants]
        people = any(player_id is not None for player_id, _, _ in players)
        now = self.clock.now()
        game = game_named(tournament.game)
        options = {k: v for k, v in tournament.rules.items() if k != game.seats_option}
        table = TableRow(
            id=row.table_id,
            game=tournament.game,
            # an elimination event's table may seat fewer than its table size
            rules=rules_to_json(game.rules_for(options, seats=len(players))),
            private=True,  # until the round is over: the deal is the same everywhere
            invite_token=None,
            seed=row.seed,
            nonce=row.nonce,
            commitment=committed_deal.commitment_of(row.seed, row.nonce),
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
                kind="human" if player_id is not None else "bot",
                # an entrant stored under older limits is held to a tournament's now
                level=clamp_level(
                    level, max_seconds=TOURNAMENT_BOT_SECONDS, max_iterations=MAX_ITERATIONS
                ),
                player_id=player_id,
                name=name,
            )
            for seat, (player_id, level, name) in enumerate(players)
        ]
        return table, seats
