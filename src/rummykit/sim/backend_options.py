"""The backend that ``rummykit simulate``'s ``--backend``, ``--workers`` and
``--address`` ask for, refused with a :class:`~rummykit.sim.backends.BackendError` when
they do not go together.  Ray's module is imported only when ``ray`` is chosen.
"""

from __future__ import annotations

from typing import Final

from rummykit.sim.backends import Backend, BackendError, ProcessBackend

BACKEND_NAMES: Final = ("local", "processes", "ray")
"""The backends ``rummykit simulate --backend`` offers."""


def open_backend(
    name: str | None = None, *, workers: int | None = None, address: str | None = None
) -> Backend:
    """The backend of ``rummykit simulate``'s options, not yet entered.

    Without a name, one worker (or none given) plays in this process and more play in a
    process pool, as ``--workers`` always did.  ``local`` takes no workers; ``processes``
    and a local ``ray`` default to one worker per core; ``address`` (a Ray cluster) goes
    only with ``ray``, whose CPUs the cluster decides.

    >>> open_backend(workers=3).name, open_backend().name
    ('processes', 'local')
    >>> open_backend("local", workers=2)
    Traceback (most recent call last):
    ...
    rummykit.sim.backends.BackendError: --backend local plays in this process: it takes no --workers
    """
    if workers is not None and workers < 1:
        raise BackendError("bad_workers", "--workers must be at least 1", workers=workers)
    if name is not None and name not in BACKEND_NAMES:
        raise BackendError(
            "bad_backend",
            f"no backend named {name!r}: choose {', '.join(BACKEND_NAMES)}",
            name=name,
        )
    if address is not None and name != "ray":
        raise BackendError(
            "address_without_ray", "--address names a Ray cluster: it goes with --backend ray"
        )
    if name is None:
        return Backend() if workers is None or workers == 1 else ProcessBackend(workers)
    if name == "local":
        if workers not in (None, 1):
            raise BackendError(
                "local_workers",
                "--backend local plays in this process: it takes no --workers",
                workers=workers,
            )
        return Backend()
    if name == "processes":
        return ProcessBackend(workers)
    if address is not None and workers is not None:
        raise BackendError(
            "cluster_workers",
            "--workers sizes a local Ray; a cluster at --address uses all its CPUs",
            workers=workers,
        )
    from rummykit.sim.ray_backend import RayBackend

    return RayBackend(workers=workers, address=address)
