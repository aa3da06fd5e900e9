"""``rummykit db upgrade``: apply the server's database migrations (for hosts)."""

from typing import Annotated

import typer

db_app = typer.Typer(help="The server's database.", no_args_is_help=True)


@db_app.command()
def upgrade(
    database: Annotated[
        str | None, typer.Option(help="Database URL (default: RUMMYKIT_DATABASE_URL or SQLite).")
    ] = None,
) -> None:
    """Bring the database to the newest schema."""
    import asyncio

    from rummykit.server.settings import Settings
    from rummykit.server.storage.engine import make_engine
    from rummykit.server.storage.store import Storage

    settings = Settings() if database is None else Settings(database_url=database)

    async def run() -> None:
        storage = Storage(make_engine(settings.database_url, schema=settings.database_schema))
        try:
            await storage.migrate()
        finally:
            await storage.close()

    asyncio.run(run())
    typer.echo("the database is up to date")
