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


def game_over_line(
    winners: Sequence[int], totals: Sequence[int], names: Sequence[str], *, teams: bool = False
) -> str:
    """The end of a game: who won (every side: a draw) and the totals, by the sides that
    ``names`` names; a side that is a ``teams`` pair takes the plural verb."""
    winner_names = [names[w] for w in winners]
    if len(winner_names) == len(names) and len(names) > 1:
        outcome = "a draw"
    else:
        win = "win" if teams else verb(winner_names, "wins", "win")
        outcome = f"{safe(joined(winner_names))} {win}"
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
    """``player``'s side so far: their melds (with four, their team's), and for the
    viewer what the hand would score if it ended now (with two players only: a
    partner's cards are not seen)."""
    from rummykit.games.burraco.scoring import score_hand

    team = observation.team_of(player)
    melds = [m.meld for m in observation.melds if m.owner == team]
    melded = sum(m.points for m in melds)
    clean = sum(1 for m in melds if m.is_burraco and m.clean)
    dirty = sum(1 for m in melds if m.is_burraco and not m.clean)
    now = None
    if player == observation.player and observation.partner is None:
        now = score_hand(
            melds=melds,
            hand=observation.hand,
            took_pozzetto=observation.took_pozzetto[team],
            closed=False,
        ).total
    return BurracoStanding(melded, clean, dirty, now)


def pozzetto_word(observation: burraco.Observation, player: int) -> str:
    """Whether ``player``'s side (with four, the team) has taken its pozzetto."""
    return "taken" if observation.took_pozzetto[observation.team_of(player)] else "not taken"


def team_names(names: Sequence[str], teams: int = 2) -> list[str]:
    """A name for each side: the player's own with two, both partners' with four
    (partners sit opposite: seats 0 and 2, 1 and 3).

    >>> team_names(["You", "Computer"]), team_names(["You", "East", "Partner", "West"])
    (['You', 'Computer'], ['You and Partner', 'East and West'])
    """
    if len(names) <= teams:
        return list(names)
    return [
        " and ".join(names[seat] for seat in range(team, len(names), teams))
        for team in range(teams)
    ]


def turn_order_line(observation: Any, names: Sequence[str]) -> str:
    """Whose turn it is and who plays after, round the table (with more than two)."""
    current = observation.current_player
    if current is None:
        return "[dim]The game is over.[/]"
    count = len(names)
    after = [safe(names[(current + step) % count]) for step in range(1, count)]
    return f"To play: [bold]{safe(names[current])}[/] · then {', '.join(after)}"


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
    observation: burraco.Observation, player: int, numbers: MeldNumbers
) -> list[str]:
    """``player``'s melds (with four, their team's) as items numbered as displayed."""
    team = observation.team_of(player)
    return [
        meld_item(numbers.number(m.meld_id), m.meld)
        for m in sorted(observation.melds, key=lambda m: m.meld_id)
        if m.owner == team
    ]


def burraco_table(observation: burraco.Observation, names: Sequence[str]) -> list[str]:
    """The lines that show a Burraco table to ``observation.player``: with four, the
    other team (each opponent's cards, the team's melds), then the partner, the team's
    melds and the player's own cards."""
    me = observation.player
    partner = observation.partner
    numbers = numbers_for(observation)
    lines = [
        f"[bold]Hand {observation.hand_number + 1}[/] · turn {observation.turn + 1}"
        f" · dealer {safe(names[observation.dealer])} · stock {observation.stock_count}"
        f" · pozzetti left {len(observation.pozzetti_left)}",
    ]
    if partner is not None:
        lines.append(turn_order_line(observation, names))
    opponents = [p for p in range(len(names)) if observation.team_of(p) != observation.team]
    for player in opponents if partner is not None else []:
        lines.append(_seat_line(observation, names, player))
    if partner is not None:
        side = safe(team_names(names)[observation.team_of(opponents[0])])
        lines.append(
            f"{side}: pozzetto {pozzetto_word(observation, opponents[0])}"
            f" · {burraco_standing(observation, opponents[0]).markup()}"
        )
        melds = burraco_melds_of(observation, opponents[0], numbers)
        lines.append(f"  {side}'s melds: " + ("   ".join(melds) or "[dim]none[/]"))
    else:
        for player in opponents:
            name = safe(names[player])
            lines.append(
                f"{name}: {plural(observation.hand_sizes[player], 'card')}"
                f" · pozzetto {pozzetto_word(observation, player)}"
                f" · {burraco_standing(observation, player).markup()}" + _holds(observation, player)
            )
            melds = burraco_melds_of(observation, player, numbers)
            lines.append(f"  {name}'s melds: " + ("   ".join(melds) or "[dim]none[/]"))
    lines.append(
        f"Discard pile ({len(observation.discard_pile)}): {pile_markup(observation.discard_pile)}"
    )
    if partner is not None:
        lines.append(_seat_line(observation, names, partner))
    melds = burraco_melds_of(observation, me, numbers)
    whose = "Your melds" if partner is None else "Your team's melds"
    lines.append(f"{whose}: " + ("   ".join(melds) or "[dim]none yet[/]"))
    lines.append(
        f"{'Your hand' if partner is None else 'Your team'}:"
        f" {burraco_standing(observation, me).markup()}"
    )
    pozzetto = pozzetto_word(observation, me)
    lines.append(
        f"Your cards ({len(observation.hand)}, {'' if partner is None else 'team '}pozzetto"
        f" {pozzetto}): {hand_markup(observation.hand)}"
    )
    if observation.forbidden_discard is not None:
        lines.append(
            f"[yellow]You may not discard {format_card(observation.forbidden_discard)} this turn"
            " (the one card you took from the pile).[/]"
        )
    if observation.rules.mode == "target":
        lines.append(burraco_totals_line(observation.totals, names))
    return lines


def _holds(observation: burraco.Observation, player: int) -> str:
    known = observation.known_cards[player]
    return f" · holds {cards_markup(known)}" if known else ""


def _seat_line(observation: burraco.Observation, names: Sequence[str], player: int) -> str:
    """One other player of a table of four: their cards, what they are known to hold."""
    return f"{safe(names[player])}: {plural(observation.hand_sizes[player], 'card')}" + _holds(
        observation, player
    )


def burraco_totals_line(totals: Sequence[int], names: Sequence[str]) -> str:
    """The totals by side: a player's with two, a team's with four (totals by seat,
    partners alike)."""
    sides = team_names(names)
    return totals_line(totals[: len(sides)], sides)


def burraco_game_over_line(
    winners: Sequence[int], totals: Sequence[int], names: Sequence[str]
) -> str:
    """The end of a Burraco game by side: with four, each team once (``winners`` and
    ``totals`` are by seat, partners alike).

    >>> burraco_game_over_line([1, 3], [5, 90, 5, 90], ["You", "East", "Partner", "West"])
    '[bold]Game over[/]: East and West win. Totals: You and Partner: 5 · East and West: 90.'
    """
    sides = team_names(names)
    won = sorted({seat % len(sides) for seat in winners})
    return game_over_line(won, totals[: len(sides)], sides, teams=len(sides) < len(names))


def burraco_hand_result(result: burraco.HandResult, names: Sequence[str]) -> list[str]:
    """The score breakdown of a finished Burraco hand, by side (with four, by team)."""
    how = {
        "closed": f"{safe(names[result.closer])} closed" if result.closer is not None else "closed",
        "stock_exhausted": "the stock ran out",
        "stalemate": "the turn limit was reached",
    }.get(result.reason, safe(result.reason))
    lines = [f"[bold]Hand {result.hand_number + 1} is over[/]: {how}."]
    sides = team_names(names, len(result.breakdown))
    for side, score in enumerate(result.breakdown):
        lines.append(
            f"  {safe(sides[side])}: melded {score.melded:+d}, in hand {-score.in_hand:+d},"
            f" burracos {score.burraco_bonus:+d} ({score.clean_burracos} clean,"
            f" {score.dirty_burracos} dirty), closing {score.closing_bonus:+d},"
            f" pozzetto {-score.pozzetto_penalty:+d} = [bold]{score.total:+d}[/]"
        )
    lines.append(totals_line(result.totals, sides))
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
