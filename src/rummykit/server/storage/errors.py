"""What storage refuses: a write the database would not take, and a write made under
a lease that no longer holds its table."""

from __future__ import annotations

from rummykit.server.storage.fencing import Lease


class StorageError(RuntimeError):
    """A write the database refused (for example a state number already stored)."""


class LeaseLost(StorageError):
    """An action written under a table lease that no longer holds the table (expired,
    released or taken over by another process): nothing was stored."""

    def __init__(self, lease: Lease) -> None:
        super().__init__(
            f"table {lease.table_id} is no longer held by {lease.owner} under token {lease.token}"
        )
        self.lease = lease
