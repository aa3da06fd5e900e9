"""The options that choose where many games run, shared by ``simulate``, ``ladder`` and
``tournament`` (read by :func:`rummykit.sim.backend_options.open_backend`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from contextlib import ExitStack

    from rich.console import Console

    from rummykit.sim.backends import Backend

Workers = Annotated[
    int | None,
    typer.Option(
        help="Worker processes (default 1: this process); with --backend processes or a"
        " local Ray, default one per core.",
        metavar="N",
        show_default=False,
    ),
]
BackendName = Annotated[
    str | None,
    typer.Option(
        "--backend",
        help="Where the games run: local (this process), processes (a pool of --workers)"
        " or ray (a Ray cluster, pip install 'rummykit[ray]'). Same seeds, same results"
        " on every backend.",
        metavar="local|processes|ray",
        show_default=False,
    ),
]
Address = Annotated[
    str | None,
    typer.Option(
        help="With --backend ray: a running cluster, by its head's host:port."
        " Default: start a Ray here with --workers CPUs and stop it afterwards.",
        metavar="ADDRESS",
        show_default=False,
    ),
]


def enter_backend(stack: ExitStack, backend: Backend, console: Console) -> Backend:
    """Start ``backend`` in ``stack`` (saying so while it starts, a Ray takes seconds);
    one red line and exit status 2 if it cannot be used."""
    from rummykit.sim.backends import BackendError

    try:
        with console.status(f"starting the {backend.name} backend"):
            return stack.enter_context(backend)
    except BackendError as error:
        console.print(str(error), style="red", markup=False, soft_wrap=True)
        raise typer.Exit(2) from None
