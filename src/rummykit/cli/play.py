"""``rummykit play``: a whole game in the terminal against computer opponents.

The session keeps the authoritative state; the person and the bots are each shown only
their own observation.  The record is saved when the game ends and when it is left
early (Ctrl-C, end of input, ``quit``).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from rummykit.bots.base import Bot
from rummykit.bots.registry import BotSpecError, make_bot
from rummykit.cli import views
from rummykit.cli.options import rules_from_options
from rummykit.games.core import IllegalAction, NotationError
from rummykit.games.randomness import MAX_SEED
from rummykit.games.record import dumps, record_of
from rummykit.games.registry import AnyGame, game_named

HELP = {
    "burraco": (
        "Moves: 'draw' (top of the stock) or 'take' (the whole discard pile); then any\n"
        "number of 'meld 3h 4h 5h' and 'extend 2 5h' (add to your meld number 2; this also\n"
        "replaces a wild by its natural card); end with 'discard Qh'.\n"
        "Cards: rank A 2-9 T J Q K (10 for T), suit c d h s, joker Jk."
    ),
    "three-thirteen": (
        "Moves: 'draw' (top of the stock) or 'take' (the top discard); then 'discard Qh',\n"
        "or 'out Qh' to go out: every other card in melds, Qh discarded.\n"
        "Cards: rank A 2-9 T J Q K (10 for T), suit c d h s, joker Jk."
    ),
}
COMMANDS = "Also: 'moves' lists your legal moves, 'help' shows this, 'quit' saves and leaves."

Reader = Callable[[str], str]


@dataclass
class Session:
    """One game at the terminal: the state, who sits where, and the bots."""

    game: AnyGame
    state: Any
    seat: int
    names: list[str]
    bots: dict[int, Bot]
    rng: random.Random
    console: Console
    record_path: Path
    shown_results: int = field(default=0)

    def run(self, read: Reader) -> None:
        """Play until the game is over or the person leaves; always save the record."""
        try:
            while not self.state.game_over:
                player = self.state.current_player
                if player == self.seat:
                    if not self._human_turn(read):
                        self.console.print("You left the game.")
                        return
                else:
                    self._bot_turn(player)
                self._show_results()
            self._show_end()
        except (KeyboardInterrupt, EOFError):
            self.console.print("\nGame interrupted.")
        finally:
            self.save()

    def save(self) -> None:
        record = record_of(self.game, self.state, players=self.names)
        try:
            self.record_path.write_text(dumps(record), encoding="utf-8")
        except OSError as error:
            self.console.print(f"[red]Could not save the record to {self.record_path}: {error}[/]")
            return
        self.console.print(
            f"Record saved to {self.record_path} (rummykit replay {self.record_path})."
        )

    def _human_turn(self, read: Reader) -> bool:
        observation = self.state.observation(self.seat)
        self.console.print()
        for line in views.table_lines(self.game.name, observation, self.names):
            self.console.print(line)
        while True:
            text = read(f"Your move ({self.state.phase}): ").strip()
            if not text:
                continue
            word = text.lower()
            if word in {"quit", "exit", "q"}:
                return False
            if word in {"help", "?", "h"}:
                self.console.print(HELP[self.game.name] + "\n" + COMMANDS)
                continue
            if word in {"moves", "m"}:
                moves = [self.game.format_action(a) for a in self.state.legal_actions()]
                self.console.print("Legal moves: " + ", ".join(moves))
                continue
            try:
                action = self.game.parse_action(text)
            except NotationError as error:
                self.console.print(f"[red]{error}[/] (type 'help')")
                continue
            try:
                events = self.state.apply(action)
            except IllegalAction as error:
                self.console.print(f"[red]Not allowed: {error.refusal.message}[/]")
                continue
            self._after_move(self.seat, action, events)
            return True

    def _bot_turn(self, player: int) -> None:
        observation = self.state.observation(player)
        actions = list(self.state.legal_actions())
        action = self.bots[player].decide(observation, actions, self.rng).action
        events = self.state.apply(action)
        self._after_move(player, action, events)

    def _after_move(self, player: int, action: Any, events: Sequence[Any]) -> None:
        if player != self.seat:
            self.console.print(f"[cyan]{self.names[player]}[/]: {self.game.format_action(action)}")
        for event in self.state.events_for(self.seat)[-len(events) :]:
            note = _event_note(event, self.seat)
            if note:
                self.console.print(note)

    def _show_results(self) -> None:
        results = self.state.hand_results
        while self.shown_results < len(results):
            self.console.print()
            for line in views.result_lines(self.game.name, results[self.shown_results], self.names):
                self.console.print(line)
            self.shown_results += 1

    def _show_end(self) -> None:
        winners = [self.names[w] for w in self.state.winners]
        totals = ", ".join(f"{n} {t}" for n, t in zip(self.names, self.state.totals, strict=True))
        verb = "win" if len(winners) > 1 else "wins"
        self.console.print(
            f"\n[bold]Game over[/]: {' and '.join(winners)} {verb}. Totals: {totals}."
        )


def _event_note(event: Any, seat: int) -> str | None:
    """A line for the events a person wants pointed out (pozzetto, a drawn card)."""
    name = type(event).__name__
    if name == "PozzettoTaken" and event.player == seat and getattr(event, "cards", None):
        return f"[yellow]You take a pozzetto: {views.cards_markup(event.cards)}[/]"
    if name == "PozzettoTaken":
        return "[yellow]Your opponent takes a pozzetto.[/]"
    if name in {"StockDrawn", "DrewStock"} and event.player == seat and event.card is not None:
        return f"You draw {views.card_markup(event.card)}."
    return None


def play(
    game: Annotated[str, typer.Argument(help="burraco or three-thirteen")],
    seed: Annotated[int | None, typer.Option(help="Deal seed (random if omitted).")] = None,
    players: Annotated[int, typer.Option(help="Seats (Three-Thirteen: 2-4).")] = 2,
    mode: Annotated[str, typer.Option(help="Burraco: quick (one hand) or target.")] = "quick",
    target: Annotated[int, typer.Option(help="Burraco target score (505, 1005, 2005).")] = 2005,
    jokers: Annotated[
        int, typer.Option(help="Burraco: 2 or 4 jokers; Three-Thirteen: 1 adds 2 jokers a deck.")
    ] = 0,
    ace_high: Annotated[bool, typer.Option(help="Three-Thirteen: ace high or low.")] = False,
    wild_only_melds: Annotated[
        bool, typer.Option(help="Three-Thirteen: allow melds of wild cards alone.")
    ] = False,
    bot: Annotated[
        str, typer.Option(help="Computer level: random, greedy or ismcts (ismcts:seconds=2).")
    ] = "greedy",
    seat: Annotated[int, typer.Option(help="Your seat (0 = first).")] = 0,
    record: Annotated[Path | None, typer.Option(help="Where to save the game record.")] = None,
) -> None:
    """Play a whole game in the terminal against the computer."""
    console = Console(highlight=False)
    try:
        info = game_named(game)
        rules = rules_from_options(
            info.name,
            seats=players,
            mode=mode,
            target=target,
            jokers=jokers,
            ace_high=ace_high,
            wild_only_melds=wild_only_melds,
        )
        make_bot(info.name, bot)
        deal_seed = secrets.randbelow(MAX_SEED) if seed is None else seed
        state = info.new_state(rules, deal_seed)
        if not 0 <= seat < state.num_players:
            raise ValueError(f"seat must be from 0 to {state.num_players - 1}")
    except (ValueError, BotSpecError) as error:
        console.print(f"[red]{error}[/]")
        raise typer.Exit(2) from None
    names = [
        "You" if p == seat else f"Computer {p + 1 - (p > seat)}" for p in range(state.num_players)
    ]
    if state.num_players == 2:
        names = ["You" if p == seat else "Computer" for p in range(2)]
    path = record or Path(f"rummykit-{info.name}-{deal_seed}.json")
    session = Session(
        game=info,
        state=state,
        seat=seat,
        names=names,
        bots={p: make_bot(info.name, bot) for p in range(state.num_players) if p != seat},
        rng=random.Random(deal_seed),
        console=console,
        record_path=path,
    )
    console.print(f"[bold]{info.title}[/] · seed {deal_seed} · type 'help' for the moves")
    session.run(console.input)
