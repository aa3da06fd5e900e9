"""One server process's table leases: taken, kept alive, given up, and the stop rule.

The rule (``docs/scale-out.md``): a process acts for a table only while its own clock
(:func:`~rummykit.server.cluster.leases.lease_clock`) reads less than ``sent + ttl - margin``,
where ``sent`` is the moment it sent the last acquiring or renewing statement that
succeeded.  The database set the expiry to its ``now() + ttl`` after that moment, so
the process stops at least ``margin`` seconds before anyone else can take the table
over, whatever happens to its connection meanwhile: a renewal that fails, hangs or
never arrives simply does not move the moment.  ``margin`` covers the drift between
the two clocks over one ``ttl`` and the time between asking :meth:`LeaseKeeper.lease_for`
and the act it allows; the fencing token at the write covers the rest.

The keeper never cancels a statement under way (cancelling one can wait on the very
connection that hangs); it waits for a renewal at most until the first lease lapses,
and starts none while one is still out.  A renewal does not wait for the leases whose
rows its own process's writes hold locked: it renews the others, and renews those in a
task of their own, waiting for the writes to end (at most one such task at a time).
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Callable
from dataclasses import dataclass

from rummykit.server.cluster.leases import Leases
from rummykit.server.storage.fencing import Lease, lease_clock

log = logging.getLogger(__name__)


@dataclass(slots=True, eq=False)
class _Hold:
    """A lease the process holds, and when it must stop acting under it."""

    lease: Lease
    safe_until: float


class LeaseKeeper:
    """The leases of one owner (one server process), renewed together.

    ``on_lost(table_id)`` is called once for each table the process must let go: its
    lease lapsed by the stop rule or a renewal found it taken over.  ``clock`` must be
    the one ``leases`` read: they say when each statement was sent by it.
    """

    def __init__(
        self,
        leases: Leases,
        *,
        owner: str,
        ttl: float = 4.0,
        margin: float = 1.0,
        renew_every: float = 1.0,
        clock: Callable[[], float] = lease_clock,
        on_lost: Callable[[str], None] | None = None,
    ) -> None:
        if not all(math.isfinite(x) for x in (ttl, margin, renew_every)):
            raise ValueError("ttl, margin and renew_every must be finite")
        if not 0 < margin < ttl:
            raise ValueError(f"the margin ({margin} s) must be above 0 and below the ttl ({ttl} s)")
        if not 0 < renew_every <= (ttl - margin) / 2:
            raise ValueError(
                f"renewing every {renew_every} s leaves no second try within ttl - margin"
                f" ({ttl - margin} s)"
            )
        self.leases = leases
        self.owner = owner
        self.ttl = ttl
        self.margin = margin
        self.renew_every = renew_every
        self._clock = clock
        self._on_lost = on_lost
        self._held: dict[str, _Hold] = {}
        self._renewal: asyncio.Task[None] | None = None
        self._waiting: asyncio.Task[list[_Hold]] | None = None  # renewing the busy holds
        self._failed_at: float | None = None  # the last renewal that failed or came late

    def lease_for(self, table_id: str) -> Lease | None:
        """The lease to act (and write) under for ``table_id``, or ``None`` when the
        process must not act for it: never taken, given up, or past the stop rule."""
        hold = self._held.get(table_id)
        if hold is None or self._clock() >= hold.safe_until:
            return None
        return hold.lease

    def failing(self) -> bool:
        """Whether a renewal failed (or a lease lapsed waiting for one) within the last
        two ``ttl``s, none having succeeded since: the database is likely out of reach."""
        return self._failed_at is not None and self._clock() - self._failed_at < 2 * self.ttl

    def failed(self) -> None:
        """Another statement of this process failed on the database: :meth:`failing`
        until a renewal succeeds."""
        self._failed_at = self._clock()

    def tables(self) -> list[str]:
        """The tables held (some may be past the stop rule until the next round)."""
        return list(self._held)

    async def take(self, table_id: str) -> Lease | None:
        """Acquire ``table_id`` unless someone holds it (``None``); the lease kept if
        this process still may act under it."""
        kept = self.lease_for(table_id)
        if kept is not None:
            return kept
        lease = await self.leases.acquire(table_id, self.owner, self.ttl)
        if lease is not None:
            self._held[table_id] = _Hold(lease, lease.safe_until(self.margin))
        return lease

    async def give_up(self, table_id: str) -> None:
        """Stop holding ``table_id`` and end its lease at once (another process may take
        it without waiting for it to expire)."""
        lease = self.let_go(table_id)
        if lease is not None:
            await self.leases.release(lease)

    def let_go(self, table_id: str) -> Lease | None:
        """Stop holding ``table_id`` now (``lease_for`` answers ``None`` from here on);
        the lease to release, if it was held."""
        hold = self._held.pop(table_id, None)
        return None if hold is None else hold.lease

    async def close(self) -> None:
        """Give up every table (at shutdown); a renewal still out is cancelled."""
        for task in (self._renewal, self._waiting):
            if task is not None:
                task.cancel()
        for table_id in list(self._held):
            await self.give_up(table_id)

    async def renew_round(self) -> None:
        """Let go of the tables past the stop rule, renew the others in one statement
        (unless the last renewal is still out), and wait for it at most until the first
        lease lapses."""
        self._drop_lapsed()
        if not self._held:
            return
        if self._renewal is None or self._renewal.done():
            self._renewal = asyncio.create_task(self._renew(list(self._held.values())))
        time_left = min(hold.safe_until for hold in self._held.values()) - self._clock()
        await asyncio.wait({self._renewal}, timeout=max(0.0, time_left))
        self._drop_lapsed()

    async def run(self) -> None:
        """Renew every ``renew_every`` seconds until cancelled."""
        while True:
            await self.renew_round()
            await asyncio.sleep(self.renew_every)

    async def _renew(self, holds: list[_Hold]) -> None:
        """Renew ``holds`` without waiting on any row lock; then, in a task of its own
        (unless the last such is still out), the busy ones, locked by a write of this
        process under way, waiting for that write to end.  One slow write holds up
        neither another table's renewal nor the next rounds, which renew the tables
        taken meanwhile."""
        busy = await self._renew_now(holds, wait=False)
        if busy and (self._waiting is None or self._waiting.done()):
            self._waiting = asyncio.create_task(self._renew_now(busy, wait=True))

    async def _renew_now(self, holds: list[_Hold], *, wait: bool) -> list[_Hold]:
        """One renewal statement for ``holds``; the holds found busy."""
        try:
            renewal = await self.leases.renew_many((hold.lease for hold in holds), wait=wait)
        except Exception:  # a failed renewal is one that did not happen
            log.warning("renewing %d table leases failed", len(holds), exc_info=True)
            self._failed_at = self._clock()
            return []
        self._failed_at = None
        busy = []
        for hold in holds:
            table_id = hold.lease.table_id
            if self._held.get(table_id) is not hold:
                continue  # given up, lapsed or taken anew meanwhile
            if table_id in renewal.renewed:
                hold.safe_until = max(hold.safe_until, renewal.sent_at + self.ttl - self.margin)
            elif table_id in renewal.busy:
                busy.append(hold)
            else:
                self._lose(table_id)
        return busy

    def _drop_lapsed(self) -> None:
        now = self._clock()
        for table_id in [t for t, hold in self._held.items() if now >= hold.safe_until]:
            self._failed_at = now  # no renewal came in time
            self._lose(table_id)

    def _lose(self, table_id: str) -> None:
        del self._held[table_id]
        log.warning("table %s: lease lost, no longer acting for it", table_id)
        if self._on_lost is not None:
            self._on_lost(table_id)
