"""The middle of the full-screen table for each game: opponents, pile, stock, your melds
and hand, as the person's observation shows them.

:mod:`screen` lays out the whole screen and asks the game's entry in
:mod:`game_views` for these parts.  Like every renderer here they read an observation
only; names go through :func:`text.safe`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.text import Text

from rummykit.cli import views
from rummykit.cli.text import plural, safe

if TYPE_CHECKING:
    from rummykit.cli.scene import Lines, Scene


def _pile(pile: Sequence[Any], width: int) -> str:
    shown = max(1, (width - 12) // 3)
    return views.pile_markup(pile, shown)


def burraco_mode(obs: Any) -> str:
    """The mode in the title: ``quick`` or ``target``."""
    mode: str = obs.rules.mode
    return mode


def burraco_where(obs: Any) -> str:
    """Where the game stands, for the title: the hand and the turn."""
    return f"hand {obs.hand_number + 1} · turn {obs.turn + 1}"


def three_thirteen_where(obs: Any) -> str:
    """Where the game stands, for the title: the round of the rounds played, its wild."""
    return (
        f"round {obs.round_number} ({obs.rules.first_round}-{obs.rules.last_round})"
        f" · wild [bold]{views.wild_name(obs)}[/]"
    )


def no_mode(obs: Any) -> str:
    return ""


def burraco_screen(scene: Scene, out: Lines) -> None:
    obs = scene.observation
    if obs.partner is not None:
        _burraco_four(scene, out)
        return
    me = scene.seat
    names = scene.names
    for player, name in enumerate(names):
        if player == me:
            continue
        standing = views.burraco_standing(obs, player)
        out.add(
            f"[bold cyan]{safe(name)}[/] · {plural(obs.hand_sizes[player], 'card')}"
            f" · pozzetto {views.pozzetto_word(obs, player)} · {standing.markup()}"
        )
        if obs.known_cards[player]:
            out.add(f"  holds {views.cards_markup(obs.known_cards[player])} (taken with the pile)")
        out.items("  melds: ", views.burraco_melds_of(obs, player, scene.numbers))
    out.rule()
    _burraco_middle(scene, out)
    out.rule()
    out.items("[bold]Your melds:[/] ", views.burraco_melds_of(obs, me, scene.numbers))
    out.add(f"[bold]You[/]: {views.burraco_standing(obs, me).markup()}")
    out.add(f"[bold]Your cards[/] ({len(obs.hand)}, pozzetto {views.pozzetto_word(obs, me)}):")
    _burraco_hand(scene, out)


def _burraco_middle(scene: Scene, out: Lines) -> None:
    obs = scene.observation
    out.add(f"Pile ({len(obs.discard_pile)}): {_pile(obs.discard_pile, out.width - 12)}")
    out.add(
        f"Stock {obs.stock_count} · pozzetti left {len(obs.pozzetti_left)}"
        + (
            f" · {views.burraco_totals_line(obs.totals, scene.names)}"
            if obs.rules.mode == "target"
            else ""
        )
    )


def _burraco_hand(scene: Scene, out: Lines) -> None:
    obs = scene.observation
    out.items("  ", [views.cards_markup(g) for g in views.suit_groups(obs.hand)], empty="empty")
    if obs.forbidden_discard is not None:
        out.add(
            f"[yellow]You may not discard {views.card_markup(obs.forbidden_discard)}"
            " this turn (the one card you took).[/]"
        )


def _burraco_four(scene: Scene, out: Lines) -> None:
    """A table of four: the other team at the top (each opponent's cards, then the
    team's pozzetto, score and melds), whose turn it is, the pile and stock, then the
    partner, the team's melds and score, and the person's cards."""
    obs = scene.observation
    names = scene.names
    sides = views.team_names(names)
    partner = obs.partner
    opponents = [p for p in range(len(names)) if obs.team_of(p) != obs.team]
    for player in opponents:
        line = f"[bold cyan]{safe(names[player])}[/] · {plural(obs.hand_sizes[player], 'card')}"
        if obs.known_cards[player]:
            line += f" · holds {views.cards_markup(obs.known_cards[player])}"
        out.add(line)
    them = opponents[0]
    out.add(
        f"[bold cyan]{safe(sides[obs.team_of(them)])}[/] · pozzetto"
        f" {views.pozzetto_word(obs, them)} · {views.burraco_standing(obs, them).markup()}"
    )
    out.items("  melds: ", views.burraco_melds_of(obs, them, scene.numbers))
    out.rule()
    out.add(views.turn_order_line(obs, names))
    _burraco_middle(scene, out)
    out.rule()
    line = f"[bold green]{safe(names[partner])}[/] (your partner) · "
    line += plural(obs.hand_sizes[partner], "card")
    if obs.known_cards[partner]:
        line += f" · holds {views.cards_markup(obs.known_cards[partner])}"
    out.add(line)
    out.items(
        "[bold]Your team's melds:[/] ", views.burraco_melds_of(obs, obs.player, scene.numbers)
    )
    out.add(
        f"[bold]Your team[/]: pozzetto {views.pozzetto_word(obs, obs.player)}"
        f" · {views.burraco_standing(obs, obs.player).markup()}"
    )
    out.add(f"[bold]Your cards[/] ({len(obs.hand)}):")
    _burraco_hand(scene, out)


def three_thirteen_screen(scene: Scene, out: Lines) -> None:
    obs = scene.observation
    me = scene.seat
    names = scene.names
    for player, name in enumerate(names):
        if player == me:
            continue
        line = f"[bold cyan]{safe(name)}[/] · {plural(obs.hand_sizes[player], 'card')}"
        if obs.known_cards[player]:
            line += f" · took {views.cards_markup(obs.known_cards[player])}"
        out.add(line)
    for line in views.went_out_lines(obs, names):
        out.add(line)
    out.rule()
    out.add(f"Pile ({len(obs.discard_pile)}): {_pile(obs.discard_pile, out.width - 12)}")
    out.add(f"Stock {obs.stock_count}" + (" · reshuffled once" if obs.reshuffled else ""))
    out.rule()
    out.add(f"[bold]Your hand[/] ({len(obs.hand)}):")
    out.items("  ", [views.cards_markup(g) for g in views.suit_groups(obs.hand)], empty="empty")
    if obs.hand:
        best = views.arrangement(obs)
        out.items(
            "Best melds: ",
            [views.cards_markup(m) for m in best.melds or [()]]
            + [f"deadwood [bold]{best.deadwood}[/]"],
        )
    out.rule()
    for line in views.score_table_lines(obs, names):
        out.lines.append(Text.from_markup(line))
