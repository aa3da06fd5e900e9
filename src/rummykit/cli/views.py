"""How a table looks in the terminal: one renderer per game, from an observation only.

Renderers read the observation a player is entitled to and return Rich markup; they
never see a game state, so the terminal cannot show more than the player may know.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rummykit.cards import JOKER, RANKS, SUIT_OF, Card, format_card, sorted_cards
from rummykit.games import burraco, three_thirteen
from rummykit.games.three_thirteen import arrange

_SUIT_STYLE = ("green", "blue", "red", "white")


def card_markup(card: Card) -> str:
    """A card coloured by suit (jokers magenta)."""
    style = "magenta" if card == JOKER else _SUIT_STYLE[SUIT_OF[card]]
    return f"[bold {style}]{format_card(card)}[/]"


def cards_markup(cards: Sequence[Card]) -> str:
    return " ".join(card_markup(c) for c in cards) if cards else "[dim]none[/]"


def hand_markup(cards: Sequence[Card]) -> str:
    """A hand sorted and grouped by suit."""
    groups: list[list[Card]] = []
    for card in sorted_cards(cards):
        if groups and SUIT_OF[groups[-1][0]] == SUIT_OF[card]:
            groups[-1].append(card)
        else:
            groups.append([card])
    return "  ".join(cards_markup(group) for group in groups) if groups else "[dim]empty[/]"


def _pile_markup(pile: Sequence[Card], shown: int = 12) -> str:
    if not pile:
        return "[dim]empty[/]"
    hidden = len(pile) - shown
    lead = f"[dim]({hidden} more)[/] " if hidden > 0 else ""
    return lead + cards_markup(pile[-shown:]) + " [dim]← top[/]"


# ---------------------------------------------------------------------------------------
# Burraco


def burraco_table(observation: burraco.Observation, names: Sequence[str]) -> list[str]:
    """The lines that show a Burraco table to ``observation.player``."""
    me = observation.player
    lines = [
        f"[bold]Hand {observation.hand_number + 1}[/] · turn {observation.turn + 1}"
        f" · dealer {names[observation.dealer]} · stock {observation.stock_count}"
        f" · pozzetti left {len(observation.pozzetti_left)}",
        f"Discard pile ({len(observation.discard_pile)}): {_pile_markup(observation.discard_pile)}",
    ]
    for player, name in enumerate(names):
        if player == me:
            continue
        pozzetto = "taken" if observation.took_pozzetto[player] else "not taken"
        line = f"{name}: {observation.hand_sizes[player]} cards · pozzetto {pozzetto}"
        if observation.known_cards[player]:
            line += f" · holds {cards_markup(observation.known_cards[player])}"
        lines.append(line)
    if observation.melds:
        lines.append("Melds:")
        for table_meld in observation.melds:
            meld = table_meld.meld
            quality = "clean" if meld.clean else "dirty"
            burraco_mark = " [bold yellow]BURRACO[/]" if meld.is_burraco else ""
            lines.append(
                f"  [{table_meld.meld_id}] {names[table_meld.owner]:>10}: {meld.describe()}"
                f"  [dim]({meld.kind}, {quality}, {meld.points} pts)[/]{burraco_mark}"
            )
    else:
        lines.append("Melds: [dim]none yet[/]")
    pozzetto = "taken" if observation.took_pozzetto[me] else "not taken"
    lines.append(
        f"Your hand ({len(observation.hand)}, pozzetto {pozzetto}): {hand_markup(observation.hand)}"
    )
    if observation.forbidden_discard is not None:
        lines.append(
            f"[yellow]You may not discard {format_card(observation.forbidden_discard)} this turn"
            " (the one card you took from the pile).[/]"
        )
    lines.append(_totals_line(observation.totals, names))
    return lines


def burraco_hand_result(result: burraco.HandResult, names: Sequence[str]) -> list[str]:
    """The score breakdown of a finished Burraco hand."""
    how = {
        "closed": f"{names[result.closer]} closed" if result.closer is not None else "closed",
        "stock_exhausted": "the stock ran out",
        "stalemate": "the turn limit was reached",
    }[result.reason]
    lines = [f"[bold]Hand {result.hand_number + 1} is over[/]: {how}."]
    for player, score in enumerate(result.breakdown):
        lines.append(
            f"  {names[player]:>10}: melded {score.melded:+d}, in hand {-score.in_hand:+d},"
            f" burracos {score.burraco_bonus:+d} ({score.clean_burracos} clean,"
            f" {score.dirty_burracos} dirty), closing {score.closing_bonus:+d},"
            f" pozzetto {-score.pozzetto_penalty:+d} = [bold]{score.total:+d}[/]"
        )
    lines.append(_totals_line(result.totals, names))
    return lines


# ---------------------------------------------------------------------------------------
# Three-Thirteen


def three_thirteen_table(
    observation: three_thirteen.Observation, names: Sequence[str]
) -> list[str]:
    """The lines that show a Three-Thirteen table to ``observation.player``."""
    me = observation.player
    wild = RANKS[observation.wild_rank - 1]
    lines = [
        f"[bold]Round {observation.round_number}[/] · wild rank [bold]{wild}[/]"
        f" · dealer {names[observation.dealer]} · stock {observation.stock_count}"
        + (" · reshuffled" if observation.reshuffled else ""),
        f"Discard pile ({len(observation.discard_pile)}):"
        f" {_pile_markup(observation.discard_pile, 6)}",
    ]
    for player, name in enumerate(names):
        if player == me:
            continue
        line = f"{name}: {observation.hand_sizes[player]} cards"
        if observation.known_cards[player]:
            line += f" · took {cards_markup(observation.known_cards[player])}"
        lines.append(line)
    if observation.went_out is not None:
        lines.append(
            f"[bold yellow]{names[observation.went_out]} went out[/]"
            f" · last turns left: {observation.last_turns_remaining}"
        )
        for meld in observation.melds:
            lines.append(f"  [{meld.meld_id}] {names[meld.owner]}: {cards_markup(meld.cards)}")
    lines.append(f"Your hand ({len(observation.hand)}): {hand_markup(observation.hand)}")
    if observation.hand:
        best = _arrangement(observation)
        melds = "  ".join(cards_markup(m) for m in best.melds) or "[dim]no melds[/]"
        lines.append(f"Best arrangement: {melds} · deadwood [bold]{best.deadwood}[/]")
    lines.append(_totals_line(observation.totals, names))
    return lines


def _arrangement(observation: three_thirteen.Observation) -> arrange.Arrangement:
    rules = observation.rules
    return arrange.arrange(
        observation.hand,
        wild_rank=observation.wild_rank,
        ace_high=rules.ace_high,
        wild_only_melds=rules.wild_only_melds,
    )


def three_thirteen_round_result(
    result: three_thirteen.RoundResult, names: Sequence[str]
) -> list[str]:
    """What everyone laid down at the end of a round and the deadwood it left."""
    lines = [
        f"[bold]Round {result.round_number} is over[/]"
        + (f": {names[result.went_out]} went out." if result.went_out is not None else ".")
    ]
    for player_result in result.players:
        melds = "  ".join(cards_markup(m) for m in player_result.melds) or "[dim]no melds[/]"
        lines.append(
            f"  {names[player_result.player]:>10}: {melds} · unmelded"
            f" {cards_markup(player_result.unmelded)} · deadwood [bold]{player_result.deadwood}[/]"
        )
    return lines


def _totals_line(totals: Sequence[int], names: Sequence[str]) -> str:
    return "Totals: " + " · ".join(
        f"{name} {total}" for name, total in zip(names, totals, strict=True)
    )


def table_lines(game: str, observation: Any, names: Sequence[str]) -> list[str]:
    if game == "burraco":
        return burraco_table(observation, names)
    return three_thirteen_table(observation, names)


def result_lines(game: str, result: Any, names: Sequence[str]) -> list[str]:
    if game == "burraco":
        return burraco_hand_result(result, names)
    return three_thirteen_round_result(result, names)
