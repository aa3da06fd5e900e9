"""The options that choose where many games run, shared by ``simulate``, ``ladder`` and
``tournament`` (read by :func:`rummykit.sim.backend_options.open_backend`)."""

from typing import Annotated

import typer

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
