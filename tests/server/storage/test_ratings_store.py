"""Rating finished tables in storage: the stored ratings are the rating package's, an early
leaver is rated last, a substitute's game is marked, a table is rated once, and two
tables finishing at once for one player both count (on SQLite and on PostgreSQL)."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import pytest
from sqlalchemy import select

from rummykit.rating.book import RatingBook
from rummykit.rating.model import POINTS_PER_MU, Rating, new_model, rate_table
from rummykit.server.settings import Settings
from rummykit.server.storage.engine import make_engine
from rummykit.server.storage.models import PlayerRatingRow, RatingHistoryRow, SeatRow
from rummykit.server.storage.ratings import RatedGame, display_rating
from rummykit.server.storage.store import Storage
from tests.kit.storage import open_storage, table_row

BURRACO = RatedGame(pool="burraco", lower_is_better=False)
BURRACO_FOUR = RatedGame(pool="burraco/4", lower_is_better=False, sides=(0, 1, 0, 1))
THREE = RatedGame(pool="three-thirteen/3", lower_is_better=True)

StorageMaker = Callable[[], Awaitable[Storage]]


@asynccontextmanager
async def storages(settings: Settings, count: int) -> AsyncIterator[list[Storage]]:
    """``count`` storages on the migrated database of ``settings`` (each its own engine,
    as several server processes have; SQLite gets one, shared)."""
    url, schema = settings.database_url, settings.database_schema
    made = [await open_storage(url, schema)]
    for _ in range(count - 1):
        made.append(made[0] if schema is None else Storage(make_engine(url, schema=schema)))
    try:
        yield made
    finally:
        for storage in {id(s): s for s in made}.values():
            await storage.close()


async def add_table(
    storage: Storage,
    players: list[str],
    *,
    rated: bool = True,
    actors: dict[int, list[str]] | None = None,
    left: tuple[int, ...] = (),
) -> str:
    """A started table of ``players`` (ids), with each seat's actions by ``actors``."""
    table_id = secrets.token_hex(8)
    row = table_row(table_id, creator_id=players[0], created_at=1.0, started_at=1.0, rated=rated)
    seats = [
        SeatRow(table_id=table_id, seat=i, kind="human", player_id=p, name=p)
        for i, p in enumerate(players)
    ]
    await storage.add_table(row, seats)
    number = 0
    for seat, kinds in (actors or {}).items():
        for actor in kinds:
            await storage.append_action(table_id, number, seat, f"a{number}", actor, 2.0)
            number += 1
    for seat in left:
        await storage.mark_left(table_id, seat, 3.0)
    return table_id


async def ratings(storage: Storage, pool: str) -> dict[str, PlayerRatingRow]:
    async with storage.reading() as session:
        rows = await session.execute(select(PlayerRatingRow).where(PlayerRatingRow.pool == pool))
        return {row.player_id: row for row in rows.scalars()}


async def history(storage: Storage, table_id: str) -> dict[str, RatingHistoryRow]:
    async with storage.reading() as session:
        rows = await session.execute(
            select(RatingHistoryRow).where(RatingHistoryRow.table_id == table_id)
        )
        return {row.player_id: row for row in rows.scalars()}


def test_a_rated_table_stores_the_rating_packages_ratings(
    settings: Settings,
) -> None:
    async def run() -> None:
        async with storages(settings, 1) as (storage,):
            first = await add_table(storage, ["ann", "bob"])
            await storage.finish_table(first, 10.0, [620, 340], [0], rated=BURRACO)
            second = await add_table(storage, ["bob", "ann"])
            await storage.finish_table(second, 20.0, [900, 100], [0], rated=BURRACO)
            book = RatingBook(drift=True)
            book.rate("burraco", ["ann", "bob"], [1, 2])
            after_first = {p: book.rating("burraco", p) for p in ("ann", "bob")}
            book.rate("burraco", ["bob", "ann"], [1, 2])
            stored = await ratings(storage, "burraco")
            for player in ("ann", "bob"):
                expected = book.rating("burraco", player)
                assert stored[player].mu == pytest.approx(expected.mu, abs=1e-12)
                assert stored[player].sigma == pytest.approx(expected.sigma, abs=1e-12)
                assert stored[player].games == 2
            rows = await history(storage, second)
            assert rows["bob"].place == 1 and rows["ann"].place == 2
            bob = book.rating("burraco", "bob")
            assert rows["bob"].rating == pytest.approx(1500 + (bob.mu - 25) * POINTS_PER_MU)
            change = (bob.mu - after_first["bob"].mu) * POINTS_PER_MU
            assert rows["bob"].change == pytest.approx(change)
            assert rows["bob"].at == 20.0 and not rows["bob"].left_early

    asyncio.run(run())


def test_a_table_is_rated_once_however_often_its_end_is_stored(
    settings: Settings,
) -> None:
    async def run() -> None:
        async with storages(settings, 1) as (storage,):
            table = await add_table(storage, ["ann", "bob"])
            await storage.finish_table(table, 10.0, [620, 340], [0], rated=BURRACO)
            once = {
                p: (r.mu, r.sigma, r.games) for p, r in (await ratings(storage, "burraco")).items()
            }
            await storage.finish_table(table, 11.0, [620, 340], [0], rated=BURRACO)
            again = {
                p: (r.mu, r.sigma, r.games) for p, r in (await ratings(storage, "burraco")).items()
            }
            assert once == again and once["ann"][2] == 1
            assert len(await history(storage, table)) == 2

    asyncio.run(run())


def test_a_casual_table_changes_no_rating(settings: Settings) -> None:
    async def run() -> None:
        async with storages(settings, 1) as (storage,):
            table = await add_table(storage, ["ann", "bob"], rated=False)
            await storage.finish_table(table, 10.0, [620, 340], [0])
            assert await ratings(storage, "burraco") == {}
            assert await history(storage, table) == {}

    asyncio.run(run())


def test_an_early_leaver_is_rated_last_and_a_substitutes_game_is_marked(
    settings: Settings,
) -> None:
    async def run() -> None:
        async with storages(settings, 1) as (storage,):
            # cy had the lowest (best) total but left; bob's seat was played mostly by
            # the substitute, ann's mostly by ann (a timed-out turn or two)
            actors = {
                0: ["human"] * 5 + ["timeout"] * 2,
                1: ["human"] * 3 + ["substitute"] * 4,
                2: ["human"] * 4,
            }
            table = await add_table(storage, ["ann", "bob", "cy"], actors=actors, left=(2,))
            await storage.finish_table(table, 10.0, [40, 25, 5], [2], rated=THREE)
            rows = await history(storage, table)
            assert {p: r.place for p, r in rows.items()} == {"ann": 2, "bob": 1, "cy": 3}
            assert [rows[p].left_early for p in ("ann", "bob", "cy")] == [False, False, True]
            assert [rows[p].substituted for p in ("ann", "bob", "cy")] == [False, True, False]
            book = RatingBook(drift=True)
            book.rate("three-thirteen/3", ["ann", "bob", "cy"], [2, 1, 3])
            stored = await ratings(storage, "three-thirteen/3")
            for player in ("ann", "bob", "cy"):
                assert stored[player].mu == pytest.approx(
                    book.rating("three-thirteen/3", player).mu
                )
            assert rows["cy"].rating == pytest.approx(display_rating(stored["cy"].mu))
            assert rows["cy"].rating < 1500 < rows["bob"].rating

    asyncio.run(run())


def test_partners_are_rated_as_one_team_in_their_own_pool(
    settings: Settings,
) -> None:
    async def run() -> None:
        async with storages(settings, 1) as (storage,):
            # ann and cy (seats 0 and 2) beat bob and dee; the seats' totals are their team's
            table = await add_table(storage, ["ann", "bob", "cy", "dee"])
            await storage.finish_table(
                table, 10.0, [900, 300, 900, 300], [0, 2], rated=BURRACO_FOUR
            )
            stored = await ratings(storage, "burraco/4")
            expected = rate_table(
                new_model(drift=True), [Rating()] * 4, [1, 3, 1, 3], sides=[0, 1, 0, 1]
            )
            for player, rating in zip(("ann", "bob", "cy", "dee"), expected, strict=True):
                assert stored[player].mu == pytest.approx(rating.mu, abs=1e-12)
                assert stored[player].sigma == pytest.approx(rating.sigma, abs=1e-12)
            # one team of two, not four players ranked: the winners gain less than a
            # lone first among four would
            alone = rate_table(new_model(drift=True), [Rating()] * 4, [1, 3, 1, 3])
            assert stored["ann"].mu != pytest.approx(alone[0].mu)
            rows = await history(storage, table)
            assert rows["ann"].change == rows["cy"].change > 0 > rows["bob"].change
            assert await ratings(storage, "burraco") == {}
            # dee leaves a game her side was winning: she and bob place last
            second = await add_table(storage, ["ann", "bob", "cy", "dee"], left=(3,))
            await storage.finish_table(second, 20.0, [100, 700, 100, 700], [1], rated=BURRACO_FOUR)
            rows = await history(storage, second)
            assert {p: r.place for p, r in rows.items()} == {"ann": 1, "bob": 3, "cy": 1, "dee": 3}
            assert rows["bob"].change < 0 and not rows["bob"].left_early and rows["dee"].left_early

    asyncio.run(run())


def test_two_tables_finishing_at_once_for_one_player_both_count(
    settings: Settings,
) -> None:
    async def run() -> None:
        async with storages(settings, 2) as (one, two):
            tables = []
            for opponent in ("bob", "cy") * 4:
                tables.append(await add_table(one, ["ann", opponent]))
            finishes = [
                storage.finish_table(table, 10.0 + i, [600, 100], [0], rated=BURRACO)
                for i, (storage, table) in enumerate(zip((one, two) * 4, tables, strict=True))
            ]
            await asyncio.gather(*finishes)
            stored = await ratings(one, "burraco")
            assert stored["ann"].games == 8
            assert stored["bob"].games == stored["cy"].games == 4
            # the same wins rated one after the other in any order give the same mu to
            # within what the order changes; a lost update would leave ann a win short
            book = RatingBook(drift=True)
            for opponent in ("bob", "cy") * 4:
                book.rate("burraco", ["ann", opponent], [1, 2])
            assert stored["ann"].mu == pytest.approx(book.rating("burraco", "ann").mu, abs=0.2)
            seven = RatingBook(drift=True)
            for opponent in ("bob", "cy") * 3 + ("bob",):
                seven.rate("burraco", ["ann", opponent], [1, 2])
            assert stored["ann"].mu > seven.rating("burraco", "ann").mu + 0.2
            async with one.reading() as session:
                count = len(
                    list(
                        (
                            await session.execute(
                                select(RatingHistoryRow).where(RatingHistoryRow.player_id == "ann")
                            )
                        ).scalars()
                    )
                )
            assert count == 8

    asyncio.run(run())


def test_opponents_who_meet_too_often_play_unrated(settings: Settings) -> None:
    farmed = RatedGame(pool="burraco", lower_is_better=False, pair_limit=2, pair_days=7.0)
    day = 86_400.0

    async def run() -> None:
        async with storages(settings, 1) as (storage,):
            rated = []
            for at in (10.0, 20.0, 30.0, 30.0 + 8 * day):
                table = await add_table(storage, ["ann", "bob"])
                await storage.finish_table(table, at, [620, 340], [0], rated=farmed)
                rated.append(bool(await history(storage, table)))
            # the third table in a week is not rated; a week later they count again
            assert rated == [True, True, False, True]
            other = await add_table(storage, ["ann", "cyd"])
            await storage.finish_table(other, 40.0, [620, 340], [0], rated=farmed)
            assert await history(storage, other)  # another opponent is another pair
            assert (await ratings(storage, "burraco"))["bob"].games == 3

    asyncio.run(run())


def test_marking_an_account_gives_its_opponents_back_what_they_lost(settings: Settings) -> None:
    async def run() -> None:
        async with storages(settings, 1) as (storage,):
            start = (await ratings(storage, "burraco")).get("bob")
            assert start is None
            for at in (10.0, 20.0):
                table = await add_table(storage, ["ann", "bob"])
                await storage.finish_table(table, at, [620, 340], [0], rated=BURRACO)
            won = await add_table(storage, ["bob", "ann"])
            await storage.finish_table(won, 30.0, [900, 100], [0], rated=BURRACO)
            before = await ratings(storage, "burraco")
            lost = sum(
                row.change
                for table_rows in [await history(storage, t) for t in await _tables(storage)]
                for player, row in table_rows.items()
                if player == "bob" and row.change < 0
            )
            assert lost < 0
            await storage.moderate("mod", "ann", "mark_engine", "assessed", 40.0, sanction="engine")
            after = await ratings(storage, "burraco")
            assert after["bob"].mu == pytest.approx(before["bob"].mu - lost / POINTS_PER_MU)
            assert after["ann"].mu == before["ann"].mu  # the marked account keeps its own
            # a second mark refunds nothing more
            await storage.moderate("mod", "ann", "mark_booster", "also", 50.0, sanction="booster")
            assert (await ratings(storage, "burraco"))["bob"].mu == after["bob"].mu

    asyncio.run(run())


async def _tables(storage: Storage) -> list[str]:
    async with storage.reading() as session:
        rows = await session.execute(select(RatingHistoryRow.table_id).distinct())
        return [str(table_id) for table_id in rows.scalars()]
