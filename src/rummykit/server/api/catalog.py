"""The game catalog the lobby offers, and the checks of a new table's request against it.

The catalog (``GET /api/games/catalog``) is read from each game's descriptor and the bot
registry: rule options, player counts, bot levels and their published ratings, and the
point tables a client shows.  A request for a new table (:class:`CreateTable`) is
checked here, in this order, before the table registry stores anything: its rules
(``bad_rules``), its bot seats (``bad_bot``, ``bad_seat``), the seat its maker sits in
(``bad_seat``), whether it is rated (``rated_needs_account``, ``rated_needs_people``) and
its clocks (``bad_turn_seconds``; a turn-based table's days, ``bad_days_per_move``).
What comes out is a :class:`~rummykit.server.table.registry.NewTable`, every choice
made.
"""

from __future__ import annotations

import json
from typing import Any

from rummykit.bots.levels import levels_for
from rummykit.games.registry import GAMES, game_named
from rummykit.server.bots.limits import check_bot_level
from rummykit.server.bots.ratings import published_ratings
from rummykit.server.protocol.lobby import (
    DAYS_PER_MOVE,
    CreateTable,
    GameEntry,
    RuleOption,
    SeatRequest,
)
from rummykit.server.protocol.refusals import TableError
from rummykit.server.settings import Settings
from rummykit.server.table.registry import NewTable

DEFAULT_SEATS = (SeatRequest(kind="human"), SeatRequest(kind="bot", level="greedy"))
"""The seats of a table whose request names none: its maker against the greedy bot."""


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


def point_tables(game: str) -> dict[str, Any] | None:
    """The game's point tables as plain JSON (``None`` for a game without them).

    A browser knows no rules; to show a running Burraco hand score it needs the card
    points and the burraco bonuses, and it takes them from the catalog rather than
    keeping its own copy.

    >>> tables = point_tables("burraco")
    >>> tables["card_points"]["A"], tables["card_points"]["7"], tables["card_points"]["Jk"]
    (15, 5, 30)
    >>> tables["clean_burraco_bonus"], tables["burraco_size"], point_tables("three-thirteen")
    (200, 7, None)
    """
    tables = game_named(game).point_tables
    if tables is None:
        return None
    plain: dict[str, Any] = json.loads(json.dumps(tables, default=dict))
    return plain


def rules_for(request: CreateTable, players: int) -> Any:
    """The game's rules the request asks for, at a table of ``players``; ``bad_rules``
    when the game's descriptor refuses them."""
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


def clock_choice(
    request: CreateTable, humans: int, settings: Settings
) -> tuple[float | None, float | None]:
    """The turn time and time bank of a new table with ``humans`` human seats: as
    asked, else the server's defaults at a table of several people and no clock
    against bots only (nobody waits for a player who plays the computer)."""
    if not humans:
        return None, None
    given = request.model_fields_set
    if "turn_seconds" in given:
        turn_seconds = request.turn_seconds
        if turn_seconds is not None and turn_seconds > settings.max_turn_seconds:
            raise TableError("bad_turn_seconds", "the turn time is too long")
    else:
        turn_seconds = settings.default_turn_seconds if humans > 1 else None
    if turn_seconds is None:
        return None, None
    if "time_bank_seconds" in given:
        bank = request.time_bank_seconds or None
        if bank is not None and bank > settings.max_time_bank_seconds:
            raise TableError("bad_turn_seconds", "the time bank is too long")
    else:
        bank = (settings.default_time_bank_seconds or None) if humans > 1 else None
    return turn_seconds, bank


def days_choice(request: CreateTable, humans: int) -> int | None:
    """A turn-based table's time per move in days (``None``: a live table): one of
    :data:`DAYS_PER_MOVE`, at a table with a person, and with no turn time or bank of a
    live table beside it (``bad_days_per_move``)."""
    days = request.days_per_move
    if days is None:
        return None
    if days not in DAYS_PER_MOVE:
        raise TableError("bad_days_per_move", f"{days} days is not a time per move", {"days": days})
    if not humans:
        raise TableError("bad_days_per_move", "a turn-based table needs a person")
    if request.turn_seconds is not None or request.time_bank_seconds:
        raise TableError("bad_days_per_move", "a turn-based table has no turn time or time bank")
    return days


def new_table(request: CreateTable, *, creator_registered: bool, settings: Settings) -> NewTable:
    """The table ``request`` asks for, every check passed (the first refusal raised as a
    :class:`TableError`) and every default filled in."""
    seats = tuple(request.seats or DEFAULT_SEATS)
    rules = rules_for(request, len(seats))
    for seat in seats:
        if seat.kind == "bot":
            check_bot_level(request.game, seat.level)
    humans = [i for i, s in enumerate(seats) if s.kind == "human"]
    if request.sit and not humans:
        raise TableError("bad_seat", "there is no human seat to sit in")
    rated = rated_choice(request, creator_registered=creator_registered)
    days_per_move = days_choice(request, len(humans))
    if days_per_move is None:
        turn_seconds, time_bank_seconds = clock_choice(request, len(humans), settings)
    else:
        turn_seconds, time_bank_seconds = None, None
    return NewTable(
        game=request.game,
        rules=rules,
        seats=seats,
        creator_seat=humans[0] if request.sit else None,
        rated=rated,
        private=request.private,
        turn_seconds=turn_seconds,
        time_bank_seconds=time_bank_seconds,
        days_per_move=days_per_move,
    )
