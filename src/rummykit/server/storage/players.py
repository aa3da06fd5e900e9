"""The players' part of storage: guests and registered players, their names and sessions.

A name is free to a player only if no other player goes by it, whatever its case, or
by a name that looks the same (the key of ``protocol/names.py``, stored with every
player); the check and the write hold the name's lock, so two players cannot take
names alike at once, even through two server processes.  A player read is kept in
memory until it changes.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import Any

from sqlalchemy import func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from rummykit.server.protocol.names import look_alike_key
from rummykit.server.storage.errors import StorageError
from rummykit.server.storage.models import PlayerRow

PLAYERS_KEPT = 10_000


class PlayerStore:
    """Reads and writes of players (a part of :class:`~rummykit.server.storage.store.Storage`)."""

    engine: AsyncEngine
    _sessions: async_sessionmaker[AsyncSession]
    # players by id, least recently asked first; ``_player_changes`` counts the changes
    # to players, so that a read begun before a change is not kept
    _players: OrderedDict[str, PlayerRow]
    _player_changes: int

    async def add_player(self, player: PlayerRow) -> None:
        try:
            async with self._sessions.begin() as session:
                session.add(_keyed(player))
        except IntegrityError as error:
            raise StorageError("name_taken") from error

    async def add_guest(self, player: PlayerRow) -> bool:
        """Store a guest, unless a registered player's login name is the guest's name
        whatever the case, or looks the same (then false).  The check and the insert
        hold the name's lock, so a registration of that name cannot slip in between."""
        async with self._sessions.begin() as session:
            await self._lock_name(session, player.name)
            registered = await session.execute(
                select(PlayerRow.id)
                .where(
                    PlayerRow.login_name.is_not(None),
                    or_(
                        func.lower(PlayerRow.login_name) == player.name.lower(),
                        PlayerRow.name_key == look_alike_key(player.name),
                    ),
                )
                .limit(1)
            )
            if registered.first() is not None:
                return False
            session.add(_keyed(player))
        return True

    async def player(self, player_id: str) -> PlayerRow | None:
        """The player ``player_id`` (asked on every request: kept in memory once read)."""
        known = self._players.get(player_id)
        if known is not None:
            self._players.move_to_end(player_id)
            return known
        changes = self._player_changes
        async with self._sessions() as session:
            found = await session.get(PlayerRow, player_id)
        if found is not None and changes == self._player_changes:
            self._players[player_id] = found
            if len(self._players) > PLAYERS_KEPT:
                self._players.popitem(last=False)
        return found

    async def player_by_login(self, login_name: str) -> PlayerRow | None:
        """The registered player of ``login_name`` in any case (``Alice`` finds ``alice``,
        ``вова`` finds ``Вова``: the case is folded here, not by the database, whose
        ``lower()`` knows ASCII only on SQLite)."""
        async with self._sessions() as session:
            result = await session.execute(
                select(PlayerRow).where(
                    PlayerRow.login_name.is_not(None),
                    PlayerRow.name_key == look_alike_key(login_name),
                )
            )
            folded = login_name.casefold()
            for player in result.scalars():
                if player.login_name is not None and player.login_name.casefold() == folded:
                    return player
            return None

    async def name_taken(self, name: str, *, besides: str | None = None) -> bool:
        """Whether a player other than ``besides`` goes by ``name`` (as a login name or
        as a guest's name) whatever the case, or by a name that looks the same."""
        return await self.name_like(name, besides=besides) is not None

    async def name_like(self, name: str, *, besides: str | None = None) -> str | None:
        """The name of a player other than ``besides`` who goes by ``name`` whatever the
        case, or by a name a reader cannot tell from it (:func:`look_alike_key`)."""
        async with self._sessions() as session:
            return await self._name_like(session, name, besides)

    async def _name_taken(self, session: Any, name: str, besides: str | None) -> bool:
        return await self._name_like(session, name, besides) is not None

    async def _name_like(self, session: Any, name: str, besides: str | None) -> str | None:
        key = name.lower()
        query = select(PlayerRow.name).where(
            or_(
                func.lower(PlayerRow.login_name) == key,
                func.lower(PlayerRow.name) == key,
                PlayerRow.name_key == look_alike_key(name),
            )
        )
        if besides is not None:
            query = query.where(PlayerRow.id != besides)
        found = (await session.execute(query.limit(1))).first()
        return None if found is None else str(found[0])

    async def register(self, player: PlayerRow | str, login_name: str, password_hash: str) -> None:
        """Give a guest (by id) a login name and password, or store a new registered
        ``player``.  ``StorageError("name_taken")`` if another player goes by that name
        whatever the case, a guest included: a name a guest uses is free only to that
        guest.  The check and the write hold the name's lock."""
        player_id = player if isinstance(player, str) else player.id
        self._forget_player(player_id)
        try:
            async with self._sessions.begin() as session:
                await self._lock_name(session, login_name)
                if await self._name_taken(session, login_name, player_id):
                    raise StorageError("name_taken")
                if isinstance(player, str):
                    await session.execute(
                        update(PlayerRow)
                        .where(PlayerRow.id == player_id)
                        .values(
                            login_name=login_name,
                            password_hash=password_hash,
                            name=login_name,
                            name_key=look_alike_key(login_name),
                        )
                    )
                else:
                    session.add(_keyed(player))
        except IntegrityError as error:
            raise StorageError("name_taken") from error
        finally:
            self._forget_player(player_id)

    async def end_sessions(self, player_id: str) -> int:
        """Raise the player's session epoch (revoking every cookie signed before) and
        give the new one."""
        self._forget_player(player_id)
        try:
            async with self._sessions.begin() as session:
                await session.execute(
                    update(PlayerRow)
                    .where(PlayerRow.id == player_id)
                    .values(session_epoch=PlayerRow.session_epoch + 1)
                )
                epoch = await session.scalar(
                    select(PlayerRow.session_epoch).where(PlayerRow.id == player_id)
                )
        finally:
            self._forget_player(player_id)
        return int(epoch or 0)

    async def session_epochs(self) -> dict[str, int]:
        """The session epoch of every player who ever logged out (the others are 0)."""
        async with self._sessions() as session:
            rows = await session.execute(
                select(PlayerRow.id, PlayerRow.session_epoch).where(PlayerRow.session_epoch > 0)
            )
            return dict(rows.all())

    async def _lock_name(self, session: Any, name: str) -> None:
        """Hold ``name``'s lock (whatever its case, and with every name that looks the
        same) until the transaction ends.

        PostgreSQL: a transaction advisory lock, which orders every server process.
        SQLite: nothing to do, the engine's one connection runs one transaction at a time.
        """
        if self.engine.dialect.name != "postgresql":
            return
        # the key of what the name looks like: names alike wait for each other
        digest = hashlib.sha256(b"player-name:" + look_alike_key(name).encode()).digest()
        key = int.from_bytes(digest[:8], "big", signed=True)
        await session.execute(select(func.pg_advisory_xact_lock(key)))

    def _forget_player(self, player_id: str) -> None:
        """Drop the kept row of a player being changed, and any read under way."""
        self._player_changes += 1
        self._players.pop(player_id, None)


def _keyed(player: PlayerRow) -> PlayerRow:
    """``player`` with the key of what its name looks like, as stored."""
    player.name_key = look_alike_key(player.name)
    return player
