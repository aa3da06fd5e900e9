"""How a table looks in the terminal: renderers from an observation only.

Renderers read the observation a player is entitled to and return lines of Rich markup;
they never see a game state, so the terminal cannot show more than the player may know.
Names and other outside text go through :func:`text.safe`.  Each player's melds are
numbered from 1 as that player sees them (:mod:`numbering`).  The plain output of
``rummykit play`` and ``rummykit replay`` prints these lines; the full-screen table
(:mod:`screen`) lays out the same pieces.  Each game's modules are imported by its own
renderers, so a game of one loads nothing of the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rummykit.cards import JOKER, RANKS, SUIT_OF, Card, format_card, sorted_cards
from rummykit.cli.numbering import MeldNumbers, numbers_for
from rummykit.cli.text import joined, plural, safe, verb
from rummykit.games.core import rules_to_json

if TYPE_CHECKING:  # a game's own functions are imported where they are used
    from rummykit.games import burraco, three_thirteen
    from rummykit.games.three_thirteen import arrange

_SUIT_STYLE = ("green", "blue", "red", "white")


def card_markup(card: Card) -> str:
    """A card coloured by suit (jokers magenta)."""
    style = "magenta" if card == JOKER else _SUIT_STYLE[SUIT_OF[card]]
    return f"[bold {style}]{format_card(card)}[/]"


def cards_markup(cards: Sequence[Card]) -> str:
    return " ".join(card_markup(c) for c in cards) if cards else "[dim]none[/]"


def suit_groups(cards: Sequence[Card]) -> list[list[Card]]:
    """A hand sorted and split by suit (jokers last)."""
    groups: list[list[Card]] = []
    for card in sorted_cards(cards):
        if groups and SUIT_OF[groups[-1][0]] == SUIT_OF[card]:
            groups[-1].append(card)
        else:
            groups.append([card])
    return groups


def hand_markup(cards: Sequence[Card]) -> str:
    """A hand sorted and grouped by suit."""
    groups = suit_groups(cards)
    return "  ".join(cards_markup(group) for group in groups) if groups else "[dim]empty[/]"


def pile_markup(pile: Sequence[Card], shown: int = 12) -> str:
    if not pile:
        return "[dim]empty[/]"
    hidden = len(pile) - shown
    lead = f"[dim]({hidden} more)[/] " if hidden > 0 else ""
    return lead + cards_markup(pile[-shown:]) + " [dim]← top[/]"


def totals_line(totals: Sequence[int], names: Sequence[str]) -> str:
    """``Totals: You: 120 · Computer: 85`` (a colon after each name, so numbers in
    names never run into the scores)."""
    return "Totals: " + " · ".join(
        f"{safe(name)}: {total}" for name, total in zip(names, totals, strict=True)
    )


def game_over_line(winners: Sequence[int], totals: Sequence[int], names: Sequence[str]) -> str:
    winner_names = [names[w] for w in winners]
    if len(winner_names) == len(names) and len(names) > 1:
        outcome = "a draw"
    else:
        outcome = f"{safe(joined(winner_names))} {verb(winner_names, 'wins', 'win')}"
    return f"[bold]Game over[/]: {outcome}. {totals_line(totals, names)}."


def rules_line(rules: Any) -> str:
    """The rule options as ``name value`` pairs."""
    options = rules_to_json(rules)
    return "Rules: " + ", ".join(
        f"{name.replace('_', ' ')} {_option_value(value)}" for name, value in options.items()
    )


def _option_value(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return safe(value)


# ---------------------------------------------------------------------------------------
# Burraco


@dataclass(frozen=True, slots=True)
class BurracoStanding:
    """One player's hand so far: melded points, burracos, and (for the viewer) what the
    hand would score if it ended now without anyone closing."""

    melded: int
    clean_burracos: int
    dirty_burracos: int
    if_ended_now: int | None

    def markup(self) -> str:
        burracos = self.clean_burracos + self.dirty_burracos
        kinds = []
        if self.clean_burracos:
            kinds.append(f"{self.clean_burracos} clean")
        if self.dirty_burracos:
            kinds.append(f"{self.dirty_burracos} dirty")
        text = f"melded {self.melded} · burracos {burracos}"
        if kinds:
            text += f" ({', '.join(kinds)})"
        if self.if_ended_now is not None:
            text += f" · if the hand ended now [bold]{self.if_ended_now:+d}[/]"
        return text


def burraco_standing(observation: burraco.Observation, player: int) -> BurracoStanding:
    from rummykit.games.burraco.scoring import score_hand

    melds = [m.meld for m in observation.melds if m.owner == player]
    melded = sum(m.points for m in melds)
    clean = sum(1 for m in melds if m.is_burraco and m.clean)
    dirty = sum(1 for m in melds if m.is_burraco and not m.clean)
    now = None
    if player == observation.player:
        now = score_hand(
            melds=melds,
            hand=observation.hand,
            took_pozzetto=observation.took_pozzetto[player],
            closed=False,
        ).total
    return BurracoStanding(melded, clean, dirty, now)


def meld_markup(meld: Any) -> str:
    """A Burraco meld's cards in order, a wild followed by what it stands for."""
    parts = [card_markup(c) for c in meld.cards]
    if meld.wild_index is not None:
        stands_for = meld.stands_for
        meaning = RANKS[meld.rank - 1] if stands_for is None else format_card(stands_for)
        parts[meld.wild_index] += f"[dim](={meaning})[/]"
    return " ".join(parts)


def meld_item(number: int, meld: Any) -> str:
    """One meld as ``2: 3h 4h 2c(=5h)``, a burraco marked."""
    mark = " [bold yellow]burraco[/]" if meld.is_burraco else ""
    return f"[dim]{number}:[/] {meld_markup(meld)}{mark}"


def burraco_melds_of(
    observation: burraco.Observation, owner: int, numbers: MeldNumbers
) -> list[str]:
    """``owner``'s melds as items numbered as displayed."""
    return [
        meld_item(numbers.number(m.meld_id), m.meld)
        for m in sorted(observation.melds, key=lambda m: m.meld_id)
        if m.owner == owner
    ]


def burraco_table(observation: burraco.Observation, names: Sequence[str]) -> list[str]:
    """The lines that show a Burraco table to ``observation.player``."""
    me = observation.player
    numbers = numbers_for(observation)
    lines = [
        f"[bold]Hand {observation.hand_number + 1}[/] · turn {observation.turn + 1}"
        f" · dealer {safe(names[observation.dealer])} · stock {observation.stock_count}"
        f" · pozzetti left {len(observation.pozzetti_left)}",
    ]
    for player, name in enumerate(names):
        if player == me:
            continue
        pozzetto = "taken" if observation.took_pozzetto[player] else "not taken"
        line = (
            f"{safe(name)}: {plural(observation.hand_sizes[player], 'card')}"
            f" · pozzetto {pozzetto} · {burraco_standing(observation, player).markup()}"
        )
        if observation.known_cards[player]:
            line += f" · holds {cards_markup(observation.known_cards[player])}"
        lines.append(line)
        melds = burraco_melds_of(observation, player, numbers)
        lines.append(f"  {safe(name)}'s melds: " + ("   ".join(melds) or "[dim]none[/]"))
    lines.append(
        f"Discard pile ({len(observation.discard_pile)}): {pile_markup(observation.discard_pile)}"
    )
    melds = burraco_melds_of(observation, me, numbers)
    lines.append("Your melds: " + ("   ".join(melds) or "[dim]none yet[/]"))
    lines.append(f"Your hand: {burraco_standing(observation, me).markup()}")
    pozzetto = "taken" if observation.took_pozzetto[me] else "not taken"
    lines.append(
        f"Your cards ({len(observation.hand)}, pozzetto {pozzetto}):"
        f" {hand_markup(observation.hand)}"
    )
    if observation.forbidden_discard is not None:
        lines.append(
            f"[yellow]You may not discard {format_card(observation.forbidden_discard)} this turn"
            " (the one card you took from the pile).[/]"
        )
    if observation.rules.mode == "target":
        lines.append(totals_line(observation.totals, names))
    return lines


def burraco_hand_result(result: burraco.HandResult, names: Sequence[str]) -> list[str]:
    """The score breakdown of a finished Burraco hand."""
    how = {
        "closed": f"{safe(names[result.closer])} closed" if result.closer is not None else "closed",
        "stock_exhausted": "the stock ran out",
        "stalemate": "the turn limit was reached",
    }.get(result.reason, safe(result.reason))
    lines = [f"[bold]Hand {result.hand_number + 1} is over[/]: {how}."]
    for player, score in enumerate(result.breakdown):
        lines.append(
            f"  {safe(names[player])}: melded {score.melded:+d}, in hand {-score.in_hand:+d},"
            f" burracos {score.burraco_bonus:+d} ({score.clean_burracos} clean,"
            f" {score.dirty_burracos} dirty), closing {score.closing_bonus:+d},"
            f" pozzetto {-score.pozzetto_penalty:+d} = [bold]{score.total:+d}[/]"
        )
    lines.append(totals_line(result.totals, names))
    return lines


# ---------------------------------------------------------------------------------------
# Three-Thirteen


def wild_name(observation: three_thirteen.Observation) -> str:
    return RANKS[observation.wild_rank - 1]


def three_thirteen_table(
    observation: three_thirteen.Observation, names: Sequence[str]
) -> list[str]:
    """The lines that show a Three-Thirteen table to ``observation.player``."""
    me = observation.player
    rules = observation.rules
    lines = [
        f"[bold]Round {observation.round_number}[/] of {rules.first_round}-{rules.last_round}"
        f" · {plural(observation.round_number + 2, 'card')} · wild rank"
        f" [bold]{wild_name(observation)}[/] · dealer {safe(names[observation.dealer])}"
        f" · stock {observation.stock_count}" + (" · reshuffled" if observation.reshuffled else ""),
    ]
    for player, name in enumerate(names):
        if player == me:
            continue
        line = f"{safe(name)}: {plural(observation.hand_sizes[player], 'card')}"
        if observation.known_cards[player]:
            line += f" · took {cards_markup(observation.known_cards[player])}"
        lines.append(line)
    lines.extend(went_out_lines(observation, names))
    lines.append(
        f"Discard pile ({len(observation.discard_pile)}):"
        f" {pile_markup(observation.discard_pile, 6)}"
    )
    lines.append(f"Your hand ({len(observation.hand)}): {hand_markup(observation.hand)}")
    if observation.hand:
        lines.append(arrangement_line(observation))
    lines.extend(score_table_lines(observation, names))
    return lines


def went_out_lines(observation: three_thirteen.Observation, names: Sequence[str]) -> list[str]:
    if observation.went_out is None:
        return []
    numbers = numbers_for(observation)
    melds = "   ".join(
        f"[dim]{numbers.number(m.meld_id)}:[/] {cards_markup(m.cards)}" for m in observation.melds
    )
    return [
        f"[bold yellow]{safe(names[observation.went_out])} went out[/]:"
        f" {melds or '[dim]no melds[/]'}"
        f" · {plural(observation.last_turns_remaining, 'last turn')} to play"
    ]


def arrangement(observation: three_thirteen.Observation) -> arrange.Arrangement:
    from rummykit.games.three_thirteen import arrange

    rules = observation.rules
    return arrange.arrange(
        observation.hand,
        wild_rank=observation.wild_rank,
        ace_high=rules.ace_high,
        wild_only_melds=rules.wild_only_melds,
    )


def arrangement_line(observation: three_thirteen.Observation) -> str:
    best = arrangement(observation)
    melds = "  ".join(cards_markup(m) for m in best.melds) or "[dim]no melds[/]"
    return f"Best arrangement: {melds} · deadwood [bold]{best.deadwood}[/]"


def score_table_lines(observation: three_thirteen.Observation, names: Sequence[str]) -> list[str]:
    """Points per round and the totals, one row a player (points are bad)."""
    results = observation.hand_results
    rounds = [r.round_number for r in results]
    widths = [
        max([len(str(r)), *(len(str(p.deadwood)) for p in result.players)])
        for r, result in zip(rounds, results, strict=True)
    ]
    name_width = max(len(safe(n)) for n in names)
    header = "Round".ljust(name_width) + "".join(
        f" {r:>{w}}" for r, w in zip(rounds, widths, strict=True)
    )
    lines = [f"[dim]{header}  total[/]"]
    for player, name in enumerate(names):
        row = safe(name).ljust(name_width) + "".join(
            f" {result.players[player].deadwood:>{w}}"
            for result, w in zip(results, widths, strict=True)
        )
        lines.append(f"{row}  [bold]{observation.totals[player]:>5}[/]")
    return lines


def three_thirteen_round_result(
    result: three_thirteen.RoundResult, names: Sequence[str]
) -> list[str]:
    """What everyone laid down at the end of a round and the deadwood it left."""
    lines = [
        f"[bold]Round {result.round_number} is over[/]"
        + (f": {safe(names[result.went_out])} went out." if result.went_out is not None else ".")
    ]
    for player_result in result.players:
        melds = "  ".join(cards_markup(m) for m in player_result.melds) or "[dim]no melds[/]"
        lines.append(
            f"  {safe(names[player_result.player])}: {melds} · unmelded"
            f" {cards_markup(player_result.unmelded)} · deadwood [bold]{player_result.deadwood}[/]"
        )
    return lines
