"""``rummykit fairplay assess RECORD...``: the fair-play assessment of recorded games.

The same assessment as the server's (:mod:`rummykit.fairplay`), so anyone can check a
verdict: a server record's seed commitment salts the searches as the server does, and
its decision times are not in the record, so the time figures stay empty here.
"""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from rummykit.fairplay.account import AccountAssessment
    from rummykit.fairplay.seat import SeatAssessment

fairplay_app = typer.Typer(help="Fair-play assessment of played games.", no_args_is_help=True)

DEFAULT_ITERATIONS = 400
VERDICT_WORDS = {
    "nothing": "nothing to see",
    "unclear": "unclear",
    "suspicious": "suspicious",
    "very_likely": "very likely assisted",
}


def _salt(path: Path) -> str:
    """A server record's seed commitment (the server's salt), or nothing."""
    import json

    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return ""
    commitment = data.get("commitment") if isinstance(data, dict) else None
    return commitment if isinstance(commitment, str) and len(commitment) <= 128 else ""


@fairplay_app.command()
def assess(
    records: Annotated[list[Path], typer.Argument(help="Game records (JSON).")],
    iterations: Annotated[
        int, typer.Option(min=1, max=100_000, help="The search's iterations per decision.")
    ] = DEFAULT_ITERATIONS,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON, not tables.")] = False,
) -> None:
    """Assess every seat of each RECORD, then pool the games by player name."""
    import json
    from collections import defaultdict

    from rich.console import Console
    from rich.markup import escape

    from rummykit.cli.record_files import RecordFileError, read_record
    from rummykit.fairplay.account import assess_account
    from rummykit.fairplay.seat import AssessmentError, assess_seat
    from rummykit.games.record import RecordError

    console = Console(highlight=False, stderr=True)
    games: dict[str, list[SeatAssessment]] = defaultdict(list)
    rows: list[dict[str, object]] = []
    failed = False
    for path in records:
        try:
            record = read_record(path)
            salt = _salt(path)
            seats = record.info.new_state(record.rules, record.seed).num_players
            for seat in range(seats):
                assessed = assess_seat(record, seat, iterations=iterations, salt=salt)
                games[assessed.player].append(assessed)
                rows.append({"record": str(path), **assessed.to_json()})
        except (RecordFileError, RecordError, AssessmentError, ValueError) as error:
            console.print(f"[red]{escape(str(path))}: {escape(str(error))}[/]")
            failed = True
    accounts = [assess_account(player, seats) for player, seats in games.items()]
    if as_json:
        typer.echo(
            json.dumps({"games": rows, "players": [account.to_json() for account in accounts]})
        )
    else:
        out = Console(highlight=False)
        out.print(_games_table(rows))
        out.print(_players_table(accounts))
    raise typer.Exit(1 if failed else 0)


def _games_table(rows: list[dict[str, object]]) -> object:
    from rich.table import Table
    from rich.text import Text

    table = Table(title="Games, by seat")
    for column in ("game", "player", "result", "real", "match", "telling", "loss"):
        table.add_column(column, justify="left" if column in ("game", "player") else "right")
    table.add_column("evidence", justify="right")
    at_four = any(row["partner_evidence"] is not None for row in rows)
    if at_four:
        table.add_column("partner", justify="right")
    table.add_column("verdict")
    for row in rows:
        share = row["match_share"]
        partner = [] if not at_four else [_or_blank(row["partner_evidence"])]
        table.add_row(
            Text(f"{Path(str(row['record'])).name} seat {int(str(row['seat'])) + 1}"),
            Text(str(row["player"])),
            str(row["outcome"]),
            str(row["real_choices"]),
            "n/a" if share is None else f"{float(str(share)):.0%}",
            f"{row['telling_matched']}/{row['telling']}",
            f"{row['mean_loss']}",
            f"{row['evidence']}",
            *partner,
            VERDICT_WORDS[str(row["verdict"])],
        )
    return table


def _or_blank(value: object) -> str:
    return "" if value is None else f"{value}"


def _players_table(accounts: "list[AccountAssessment]") -> object:
    from rich.table import Table
    from rich.text import Text

    table = Table(title="Players, all their games pooled")
    at_four = any(account.partner_evidence is not None for account in accounts)
    columns = ["player", "games", "flagged", "telling", "evidence"]
    columns += ["partner"] if at_four else []
    for column in [*columns, "reported"]:
        table.add_column(column, justify="left" if column == "player" else "right")
    for account in accounts:
        pooled = account.partner_evidence
        partner = [] if not at_four else ["" if pooled is None else f"{pooled:.1f}"]
        table.add_row(
            Text(account.player),
            str(account.games),
            f"{account.flagged_games} ({account.flagged_share:.0%})",
            f"{account.telling_matched}/{account.telling}",
            f"{account.evidence:.1f}",
            *partner,
            "yes" if account.reported else "no",
        )
    return table
