"""``rummykit admin grant NAME ROLE``: give a registered player a role (for hosts)."""

from typing import Annotated

import typer

admin_app = typer.Typer(help="Roles of the server's players.", no_args_is_help=True)

ROLES = ("moderator",)


@admin_app.command()
def grant(
    name: Annotated[str, typer.Argument(help="The registered player's login name.")],
    role: Annotated[str, typer.Argument(help="The role: moderator.")],
    database: Annotated[
        str | None, typer.Option(help="Database URL (default: RUMMYKIT_DATABASE_URL or SQLite).")
    ] = None,
) -> None:
    """Give the registered player NAME the ROLE (moderator: the report queue, the
    players' cases, and marks, mutes and closures, each logged)."""
    import asyncio
    import time

    from rummykit.server.settings import Settings
    from rummykit.server.storage.engine import make_engine
    from rummykit.server.storage.store import Storage

    if role not in ROLES:
        typer.echo(f"no such role {role!r}: the roles are {', '.join(ROLES)}", err=True)
        raise typer.Exit(2)
    settings = Settings() if database is None else Settings(database_url=database)

    async def run() -> str | None:
        storage = Storage(make_engine(settings.database_url, schema=settings.database_schema))
        try:
            await storage.migrate()
            player = await storage.player_by_login(name)
            if player is None:
                return None
            await storage.grant_role(player.id, role, time.time())
            return player.name
        finally:
            await storage.close()

    granted = asyncio.run(run())
    if granted is None:
        typer.echo(f"no registered player is called {name!r}", err=True)
        raise typer.Exit(1)
    typer.echo(f"{granted} is a {role} now")
