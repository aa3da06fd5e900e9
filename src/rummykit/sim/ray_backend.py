"""Playing a match's games on a Ray cluster: ``rummykit simulate --backend ray``.

The one module of rummykit that uses Ray, an optional extra (``rummykit[ray]``): it is
imported only when the Ray backend is chosen, and imports Ray itself only when a
:class:`RayBackend` is made, so a missing Ray is a :class:`BackendError` with an install
hint, never an ``ImportError`` at start-up.

The games are sent as chunks of tasks, each one remote call of
:func:`~rummykit.sim.backends.play_chunk`; a chunk's results come back as soon as it
finishes and the caller puts them in task order, so a match gives the same results as
in this process or in a process pool.  Without an address the backend starts a Ray of
its own on this machine and shuts it down, with all its processes, when it is left; with
an address it connects to that cluster, ships this very rummykit package to its workers
(so they play the driver's code, whatever rummykit they have installed) and only
disconnects when it is left.
"""

from __future__ import annotations

import logging
import re
import socket
from collections.abc import Callable, Generator, Sequence
from pathlib import Path
from types import ModuleType, TracebackType
from typing import Any, Final, Self
from urllib.parse import urlsplit

import rummykit
from rummykit.sim.backends import Backend, BackendError, Item, Result, play_chunk

CONNECT_SECONDS: Final = 5.0
"""How long a cluster's address may take to accept a connection before it is refused
(Ray itself would keep retrying for many minutes)."""

CHUNKS_PER_CPU: Final = 16
"""About how many chunks each of the cluster's CPUs gets: enough to even out slow
games, few enough that one remote call costs little beside the games it plays."""

QUIET: Final[dict[str, Any]] = {"log_to_driver": False, "logging_level": logging.ERROR}
"""Ray's options for a command-line driver: its workers' output and its own notices are
not printed among the results."""


def import_ray() -> ModuleType:
    """The ``ray`` module, or a :class:`BackendError` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise BackendError(
            "ray_missing", "--backend ray needs Ray: pip install 'rummykit[ray]'"
        ) from None
    return ray


def check_reachable(address: str, *, timeout: float = CONNECT_SECONDS) -> None:
    """Refuse a cluster address (``host:port``, or Ray Client's ``ray://host:port``,
    which needs ``ray[client]``) whose host takes no connection on that port within
    ``timeout`` seconds.  Addresses without a port (``auto``, ``local``) are left to Ray.

    >>> check_reachable("auto")
    >>> check_reachable("head:port")
    Traceback (most recent call last):
    ...
    rummykit.sim.backends.BackendError: 'head:port' is not a Ray cluster address (host:port)
    """
    parts = urlsplit(address if "://" in address else f"//{address}")
    try:
        port = parts.port
    except ValueError:
        raise _bad_address(address) from None
    if port is None:
        return
    if not parts.hostname:
        raise _bad_address(address)
    try:
        with socket.create_connection((parts.hostname, port), timeout=timeout):
            pass
    except OSError as error:
        raise BackendError(
            "ray_unreachable",
            f"cannot reach the Ray cluster at {address}: {error.strerror or error}",
            address=address,
        ) from None


def _bad_address(address: str) -> BackendError:
    return BackendError(
        "bad_address", f"{address!r} is not a Ray cluster address (host:port)", address=address
    )


def shipped_code() -> dict[str, Any]:
    """The runtime environment that gives a cluster's workers this rummykit package."""
    return {
        "py_modules": [str(Path(rummykit.__file__).parent)],
        "excludes": ["__pycache__/", "*.pyc"],
    }


_ERROR_LINE = re.compile(r"^(?:\w+\.)*(\w+(?:Error|Exception)): (.+)$")


def why_not(error: BaseException) -> str:
    r"""One line saying why Ray could not start or connect: the first line of ``error``,
    followed by the deepest error named in its causes (Ray wraps an authentication
    failure in a connection error whose own message names only the address).

    >>> cause = RuntimeError("Failed.\nTraceback:\nray.exceptions.AuthError: bad token")
    >>> try:
    ...     raise ConnectionError("Failed to connect to 10.0.0.1:6379") from cause
    ... except ConnectionError as error:
    ...     why_not(error)
    'Failed to connect to 10.0.0.1:6379 (AuthError: bad token)'
    """
    lines = str(error).strip().splitlines()
    said = lines[0] if lines else type(error).__name__
    deepest = None
    cause = error.__cause__
    while cause is not None:
        for line in str(cause).splitlines():
            found = _ERROR_LINE.match(line.strip())
            if found:
                deepest = f"{found[1]}: {found[2]}"
        cause = cause.__cause__
    return said if deepest is None else f"{said} ({deepest})"


class RayBackend(Backend):
    """Games played by Ray tasks, one CPU each.

    ``workers`` is the CPU count of a Ray started here (all the machine's when
    ``None``); ``address`` is a running cluster to use instead.  When Ray is already
    initialized in this process (by the caller's own ``ray.init``), that connection is
    used and left as it was.
    """

    name = "ray"

    def __init__(self, *, workers: int | None = None, address: str | None = None) -> None:
        self.workers = workers
        self.address = address
        self._ray = import_ray()
        if address is not None:
            check_reachable(address)
        self._started_here = False
        self._remote_chunk: Any = None
        self._cpus = 1

    def __enter__(self) -> Self:
        ray = self._ray
        if not ray.is_initialized():
            try:
                if self.address is None:
                    # "local" starts a new Ray even when one started by `ray start` runs.
                    ray.init(
                        address="local", num_cpus=self.workers, include_dashboard=False, **QUIET
                    )
                else:
                    ray.init(address=self.address, runtime_env=shipped_code(), **QUIET)
            except (ConnectionError, RuntimeError, ValueError, TimeoutError) as error:
                ray.shutdown()
                where = "start Ray here" if self.address is None else f"join {self.address}"
                raise BackendError(
                    "ray_unreachable",
                    f"could not {where}: {why_not(error)}",
                    address=self.address,
                ) from None
            self._started_here = True
        self._remote_chunk = ray.remote(num_cpus=1)(play_chunk)
        self._cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._started_here:
            self._ray.shutdown()
            self._started_here = False
        self._remote_chunk = None

    def map_unordered(
        self, function: Callable[[Item], Result], items: Sequence[Item]
    ) -> Generator[Result, None, None]:
        """``function(item)`` for every item, chunk by chunk as the cluster finishes
        them; only inside ``with``.  Chunks not yet finished when the caller stops
        reading are cancelled."""
        if self._remote_chunk is None:
            raise RuntimeError("a Ray backend runs only inside 'with'")
        ray = self._ray
        size = max(1, len(items) // (self._cpus * CHUNKS_PER_CPU))
        pending = [
            self._remote_chunk.remote(function, list(items[start : start + size]))
            for start in range(0, len(items), size)
        ]
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                for chunk in done:
                    yield from ray.get(chunk)
        finally:
            for chunk in pending:
                ray.cancel(chunk)
