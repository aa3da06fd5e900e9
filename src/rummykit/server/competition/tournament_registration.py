"""A tournament's registration: the event created (its rules, table size, places and
clock checked), players entered and withdrawn under the tournament's row lock, and the
start that closes registration: entrants numbered in the order they registered, people
first, computer players filling the places still empty (``bot_level``), and the first
round planned, or the event cancelled when too few entered to fill a table.

Nothing here makes a table: a start only plans the first round, and the caller makes
its tables once the session is committed.  No one is ever entered twice, nor past the
tournament's capacity, nor after registration closed.
"""

from __future__ import annotations

import secrets

from sqlalchemy.ext.asyncio import AsyncSession

from rummykit.games.core import rules_to_json
from rummykit.games.registry import game_named
from rummykit.server.bots.admission import admit_tournament, check_levels
from rummykit.server.bots.limits import MAX_ITERATIONS, TOURNAMENT_BOT_SECONDS, clamp_level
from rummykit.server.bots.names import computer_name
from rummykit.server.clock import Clock
from rummykit.server.competition.tournament_rounds import plan_round
from rummykit.server.competition.tournament_rows import (
    TournamentError,
    entries_per_table,
    holds,
    locked,
    pair_size,
)
from rummykit.server.operations.events_log import log_event
from rummykit.server.protocol.tournaments import CreateTournament
from rummykit.server.settings import Settings
from rummykit.server.storage.account_links import linked_in, window_start
from rummykit.server.storage.models import PlayerRow, TournamentEntryRow, TournamentRow
from rummykit.server.storage.moderation import marked_in
from rummykit.server.storage.notifications import queue_notification
from rummykit.server.storage.player_locks import holding_player
from rummykit.server.storage.store import Storage
from rummykit.server.storage.tournaments import (
    add_entry,
    add_tournament,
    entries_of,
    remove_entry,
    write_now,
)


class Registration:
    """Creates tournaments, enters and withdraws players, and starts events."""

    def __init__(self, *, storage: Storage, settings: Settings, clock: Clock) -> None:
        self.storage = storage
        self.settings = settings
        self.clock = clock

    async def create(self, request: CreateTournament, creator: PlayerRow) -> str:
        """Store a new tournament (nobody entered yet) and give its id."""
        game = game_named(request.game)
        sizes = [n for n in game.player_counts if n == request.table_size]
        if not sizes:
            counts = " or ".join(map(str, game.player_counts))
            raise TournamentError("bad_rules", f"{game.title} is for {counts} players")
        # a tournament of pairs (Burraco for four) counts its places in pairs
        team_of = game.team_of
        sides = request.table_size
        if team_of is not None:
            sides = len(set(map(team_of, range(request.table_size))))
        if request.capacity < sides:
            raise TournamentError(
                "bad_rules",
                f"{request.capacity} entrants cannot fill a table of {sides}",
            )
        try:
            rules = game.rules_for(request.rules, seats=request.table_size)
        except ValueError as error:
            raise TournamentError("bad_rules", str(error)) from None
        if request.bot_level is not None:
            check_levels(request.game, [request.bot_level], creator, self.settings, tournament=True)
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
        async with holding_player(self.storage, creator.id) as session:
            # the computers as if they filled every place (two a pair)
            players = request.capacity * (request.table_size // sides)
            await admit_tournament(session, creator, request.bot_level, players, self.settings)
            add_tournament(session, row)
        log_event(None, "tournament_created", tournament=row.id, game=row.game)
        return row.id

    async def register(
        self,
        tournament_id: str,
        player: PlayerRow,
        partner: str | None = None,
        pair_token: str | None = None,
    ) -> bool:
        """Enter ``player``: alone, or in a tournament of pairs as a new pair awaiting a
        partner, or as a pair's partner with its consent: the pair of ``partner`` (its
        first player's id) that invited ``player``, or the pair whose link holds
        ``pair_token``.  The event starts when this fills it.  True: this entry filled it
        and started it (its first round's tables are to be made)."""
        async with self.storage.writing() as session:
            tournament = await locked(session, tournament_id)
            if tournament.status != "registering":
                raise TournamentError("tournament_started", "registration is closed")
            entries = await entries_of(session, tournament_id)
            if any(holds(e, player.id) for e in entries):
                return False
            pairs = pair_size(tournament) > 1
            await self._refuse_linked(session, player.id, entries)
            if partner is not None or pair_token is not None:
                if not pairs:
                    raise TournamentError("bad_rules", "this tournament is not played by pairs")
                pair = _consenting_pair(entries, player.id, partner, pair_token)
                pair.partner_id = player.id
                pair.partner_name = player.name
                pair.invited_id = pair.invited_name = pair.partner_left = None
                await write_now(session)
                full = len(entries) == tournament.capacity and all(e.partner_id for e in entries)
                if full:
                    await self._close(session, tournament)
                return full
            if len(entries) >= tournament.capacity:
                raise TournamentError(
                    "tournament_full", "every place is taken", {"capacity": tournament.capacity}
                )
            add_entry(
                session,
                TournamentEntryRow(
                    tournament_id=tournament_id,
                    entry=None,
                    player_id=player.id,
                    bot_level=None,
                    name=player.name,
                    registered_at=self.clock.now(),
                    pair_token=secrets.token_urlsafe(12) if pairs else None,
                ),
            )
            await write_now(session)
            full = len(entries) + 1 == tournament.capacity and not pairs
            if full:
                await self._close(session, tournament)
        return full

    async def _refuse_linked(
        self, session: AsyncSession, player_id: str, entries: list[TournamentEntryRow]
    ) -> None:
        """Refuse a place (or a pair) to an account linked to one entered already (one
        browser's: ``accounts/links.py``); read under the tournament's row lock, so two
        linked accounts registering at once cannot both enter."""
        if await marked_in(session, [player_id], self.clock.now()):
            raise TournamentError("marked_account", "a marked account takes no part in tournaments")
        entered = [p for e in entries for p in (e.player_id, e.partner_id) if p is not None]
        since = window_start(self.clock.now(), self.settings.link_days)
        if await linked_in(session, player_id, entered, since=since):
            raise TournamentError("linked_account", "an account linked to yours is entered already")

    async def invite(self, tournament_id: str, player: PlayerRow, invited: PlayerRow) -> None:
        """Invite ``invited`` to be the partner of ``player``'s pair (one invitation at a
        time: a new one replaces it), while registration is open and the place is free;
        ``invited`` is notified (``storage/notifications.py``) in the same transaction."""
        async with self.storage.writing() as session:
            tournament = await locked(session, tournament_id)
            if tournament.status != "registering":
                raise TournamentError("tournament_started", "registration is closed")
            entries = await entries_of(session, tournament_id)
            pair = next((e for e in entries if e.player_id == player.id), None)
            if pair is None:
                raise TournamentError("not_registered", "you are not entered")
            if pair_size(tournament) == 1 or pair.partner_id is not None:
                raise TournamentError(
                    "not_pair_leader", "only a pair awaiting a partner invites one"
                )
            if invited.id == player.id or any(holds(e, invited.id) for e in entries):
                raise TournamentError("already_entered", "that player is entered already")
            pair.invited_id = invited.id
            pair.invited_name = invited.name
            # told once per pair and player (an invitation repeated sends nothing more)
            await queue_notification(
                session,
                invited.id,
                "invitation",
                at=self.clock.now(),
                params={
                    "source": "pair",
                    "tournament_id": tournament_id,
                    "game": tournament.game,
                    "name": player.name,
                },
                key=f"pair:{tournament_id}:{player.id}",
            )

    async def withdraw(self, tournament_id: str, player: PlayerRow) -> None:
        """Take ``player``'s entry back while registration is open.  A pair's first
        player who withdraws leaves the pair to its partner, who is told so
        (``partner_left``) and may take a new partner by a new link."""
        async with self.storage.writing() as session:
            tournament = await locked(session, tournament_id)
            if tournament.status != "registering":
                raise TournamentError("tournament_started", "registration is closed")
            entries = await entries_of(session, tournament_id)
            mine = [e for e in entries if holds(e, player.id)]
            if not mine:
                raise TournamentError("not_registered", "you are not entered")
            pair = mine[0]
            if pair.partner_id == player.id:
                # a partner leaves the pair, whose first player awaits another
                pair.partner_id = None
                pair.partner_name = None
                pair.partner_left = player.name
            elif pair.partner_id is not None:
                # the first player leaves: the partner leads the pair now, told why
                pair.player_id, pair.name = pair.partner_id, pair.partner_name or ""
                pair.partner_id = pair.partner_name = None
                pair.partner_left = player.name
                pair.pair_token = secrets.token_urlsafe(12)
                pair.invited_id = pair.invited_name = None
            else:
                await remove_entry(session, pair)

    async def start(self, tournament_id: str, *, by: PlayerRow | None) -> None:
        """Close registration now (``by`` its creator; ``None``: its start time has
        come) and plan the first round."""
        async with self.storage.writing() as session:
            tournament = await locked(session, tournament_id)
            if by is not None and by.id != tournament.creator_id:
                raise TournamentError("not_creator", "only the tournament's creator starts it")
            if tournament.status != "registering":
                raise TournamentError("tournament_started", "the tournament has started")
            await self._close(session, tournament)

    async def _close(self, session: AsyncSession, tournament: TournamentRow) -> None:
        """Number the entrants (people first, then bots filling the empty places) and
        plan the first round; too few entrants cancel the event."""
        entries = await entries_of(session, tournament.id)
        # a level stored under older limits is held to a tournament's now
        level = clamp_level(
            tournament.bot_level,
            max_seconds=TOURNAMENT_BOT_SECONDS,
            max_iterations=MAX_ITERATIONS,
        )
        pairs = pair_size(tournament) > 1
        if pairs:
            # a pair still without a partner plays with a computer, or without computers
            # does not play
            for entry in [e for e in entries if e.partner_id is None]:
                if level is None:
                    entries.remove(entry)
                    await remove_entry(session, entry)
                else:
                    entry.partner_bot_level = level
        if level is not None:
            for _ in range(tournament.capacity - len(entries)):
                bot = TournamentEntryRow(
                    tournament_id=tournament.id,
                    entry=None,
                    player_id=None,
                    bot_level=level,
                    name="",
                    registered_at=self.clock.now(),
                    partner_bot_level=level if pairs else None,
                )
                add_entry(session, bot)
                entries.append(bot)
        if len(entries) < entries_per_table(tournament):
            tournament.status = "cancelled"
            tournament.finished_at = self.clock.now()
            log_event(None, "tournament_cancelled", tournament=tournament.id)
            return
        for number, entry in enumerate(entries):
            entry.entry = number
            if entry.bot_level is not None:
                entry.name = computer_name(entry.bot_level, number)
            if entry.partner_bot_level is not None:
                # numbered after every entry, so no two computers share a name
                entry.partner_name = computer_name(entry.partner_bot_level, len(entries) + number)
        tournament.status = "running"
        await plan_round(session, tournament, 0, [])
        log_event(None, "tournament_started", tournament=tournament.id, entrants=len(entries))


def _consenting_pair(
    entries: list[TournamentEntryRow],
    player_id: str,
    partner: str | None,
    pair_token: str | None,
) -> TournamentEntryRow:
    """The pair awaiting a partner that consents to ``player_id``: it invited them (its
    first player is ``partner``), or its link's token is ``pair_token``."""
    waiting = [e for e in entries if e.player_id is not None and e.partner_id is None]
    if pair_token is not None:
        pair = next(
            (
                e
                for e in waiting
                if e.pair_token is not None and secrets.compare_digest(e.pair_token, pair_token)
            ),
            None,
        )
    else:
        pair = next((e for e in waiting if e.player_id == partner), None)
        if pair is not None and pair.invited_id != player_id:
            raise TournamentError("not_invited", "that pair has not invited you")
    if pair is None:
        raise TournamentError("not_registered", "no pair awaits a partner there")
    return pair
