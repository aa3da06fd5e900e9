"""``rummykit verify``: check a server game's fair deal and every action."""

from pathlib import Path
from typing import Annotated

import typer


def verify(
    record: Annotated[Path, typer.Argument(help="A finished game's record from the server.")],
) -> None:
    """Check RECORD: the seed's commitment, every deal and every action."""
    from rich.console import Console
    from rich.markup import escape

    from rummykit.server.table.verify import verify_record

    console = Console(highlight=False)
    try:
        text = record.read_bytes()
    except OSError as error:
        console.print(f"[red]cannot read {escape(str(record))}: {error.strerror or error}[/]")
        raise typer.Exit(2) from None
    verdict = verify_record(text)
    for line in verdict.lines:
        console.print(escape(line), style=None if verdict.ok else "red")
    console.print("[bold green]verified[/]" if verdict.ok else "[bold red]NOT verified[/]")
    raise typer.Exit(0 if verdict.ok else 1)
