"""The table as plain text, from one player's observation only.

Used by ``render()`` and by the text interface for language-model agents: a few short
lines in the game's vocabulary, cards in the notation (``Th``, ``Jk``), meld ids as the
engine numbers them (``extend 2 5h`` adds to meld 2), every count and verb agreeing
with its number and person (``1 card``, ``You have``, ``Player 1 has``).  Nothing here
sees a game state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rummykit.cards import Card, format_cards, sorted_cards
from rummykit.games import burraco, three_thirteen

_BURRACO_PHASE = {
    "draw": "to draw (draw from the stock, or take the whole discard pile)",
    "play": "to play (meld, extend your melds, then discard)",
}
_THREE_THIRTEEN_PHASE = {
    "draw": "to draw (draw from the stock, or take the top discard)",
    "discard": "to discard (or go out)",
}


_RANK_WORDS = (
    "aces",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "sevens",
    "eights",
    "nines",
    "tens",
    "jacks",
    "queens",
    "kings",
)
"""Each rank in the plural, ace to king (``As`` would read as the ace of spades)."""


def count(number: int, noun: str, plural: str = "") -> str:
    """``number`` and ``noun`` agreeing in number (``plural`` when not ``noun + "s"``).

    >>> count(1, "card"), count(0, "card"), count(2, "pozzetto", "pozzetti")
    ('1 card', '0 cards', '2 pozzetti')
    """
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


def _subject(player: int, me: int) -> tuple[str, str]:
    """The subject naming ``player`` to ``me`` and its verb *to have*."""
    return ("You", "have") if player == me else (f"Player {player}", "has")


def _cards(cards: Sequence[Card]) -> str:
    return format_cards(sorted_cards(cards)) if cards else "none"


def _pile(pile: Sequence[Card]) -> str:
    if not pile:
        return "empty"
    return f"{format_cards(pile)} (top: {format_cards(pile[-1:])}; {count(len(pile), 'card')})"


def _to_move(observation: Any, phases: dict[str, str]) -> str:
    current = observation.current_player
    if current is None:
        return "The game is over."
    who = "You are" if current == observation.player else f"Player {current} is"
    return f"{who} {phases[observation.phase]}."


def burraco_text(observation: burraco.Observation, pending: Sequence[Card] = ()) -> str:
    """What ``observation.player`` sees of a Burraco table, as lines of text (with four
    players, by team: the partner's cards are never shown)."""
    if observation.partner is not None:
        return _burraco_four_text(observation, pending)
    me = observation.player
    other = 1 - me
    lines = [
        f"Burraco, hand {observation.hand_number + 1}, turn {observation.turn + 1}."
        f" You are player {me}; the dealer is player {observation.dealer}.",
        _to_move(observation, _BURRACO_PHASE),
        f"Your hand ({count(len(observation.hand), 'card')}): {_cards(observation.hand)}",
    ]
    lines += _burraco_middle(observation, pending)
    for player in (me, other):
        subject, have = _subject(player, me)
        took = "taken" if observation.took_pozzetto[player] else "not taken"
        held = count(observation.hand_sizes[player], "card")
        lines.append(f"{subject} {have} {took} a pozzetto; {held} in hand.")
    if observation.known_cards[other]:
        lines.append(
            f"Player {other} still holds {_cards(observation.known_cards[other])}"
            " (seen taken with the pile)."
        )
    for player, label in ((me, "Your melds"), (other, f"Player {other}'s melds")):
        owned = [m for m in observation.melds if m.owner == player]
        if not owned:
            lines.append(f"{label}: none")
            continue
        lines.append(f"{label}:")
        for table_meld in owned:
            meld = table_meld.meld
            quality = "clean" if meld.clean else "dirty"
            burraco_mark = ", burraco" if meld.is_burraco else ""
            lines.append(
                f"  meld {table_meld.meld_id}: {meld.describe()}"
                f" ({meld.kind}, {quality}{burraco_mark}, {count(meld.points, 'point')})"
            )
    lines.append(
        f"Totals: you {observation.totals[me]}, player {other} {observation.totals[other]}."
    )
    return "\n".join(lines)


def _meld_lines(observation: burraco.Observation, team: int, label: str) -> list[str]:
    owned = [m for m in observation.melds if m.owner == team]
    if not owned:
        return [f"{label}: none"]
    lines = [f"{label}:"]
    for table_meld in owned:
        meld = table_meld.meld
        quality = "clean" if meld.clean else "dirty"
        burraco_mark = ", burraco" if meld.is_burraco else ""
        lines.append(
            f"  meld {table_meld.meld_id}: {meld.describe()}"
            f" ({meld.kind}, {quality}{burraco_mark}, {count(meld.points, 'point')})"
        )
    return lines


def _burraco_middle(observation: burraco.Observation, pending: Sequence[Card]) -> list[str]:
    """The lines both table sizes share: the meld being chosen, a discard not allowed,
    the pile and the stock."""
    lines: list[str] = []
    if pending:
        lines.append(f"Chosen for a meld so far: {format_cards(pending)}")
    if observation.forbidden_discard is not None:
        lines.append(
            f"You may not discard {format_cards([observation.forbidden_discard])} this turn"
            " (you took it alone from the pile)."
        )
    lines.append(f"Discard pile: {_pile(observation.discard_pile)}")
    pozzetti = count(len(observation.pozzetti_left), "pozzetto", "pozzetti")
    lines.append(f"Stock: {count(observation.stock_count, 'card')}; {pozzetti} left.")
    return lines


def _burraco_four_text(observation: burraco.Observation, pending: Sequence[Card]) -> str:
    """A table of four as ``observation.player`` sees it: the two teams, partners
    opposite."""
    me = observation.player
    partner = observation.partner
    assert partner is not None
    team = observation.team
    other = 1 - team
    them = " and ".join(f"player {seat}" for seat in range(other, 4, 2))
    lines = [
        f"Burraco for four, hand {observation.hand_number + 1}, turn {observation.turn + 1}."
        f" You are player {me}, partner of player {partner} (team {team}); team {other} is"
        f" {them}. The dealer is player {observation.dealer}.",
        _to_move(observation, _BURRACO_PHASE),
        f"Your hand ({count(len(observation.hand), 'card')}): {_cards(observation.hand)}",
    ]
    lines += _burraco_middle(observation, pending)
    for seat in range((me + 1) % 4, (me + 1) % 4 + 3):
        player = seat % 4
        who = f"Player {player}" + (" (your partner)" if player == partner else "")
        line = f"{who} has {count(observation.hand_sizes[player], 'card')} in hand"
        if observation.known_cards[player]:
            line += f" and still holds {_cards(observation.known_cards[player])}"
            line += " (seen taken with the pile)"
        lines.append(line + ".")
    for side, label in ((team, "Your team"), (other, f"Team {other}")):
        took = "taken" if observation.took_pozzetto[side] else "not taken"
        lines.append(f"{label} has {took} its pozzetto.")
    lines += _meld_lines(observation, team, "Your team's melds (either of you may add to them)")
    lines += _meld_lines(observation, other, f"Team {other}'s melds")
    lines.append(
        f"Totals: your team {observation.totals[me]},"
        f" team {other} {observation.totals[(me + 1) % 4]}."
    )
    return "\n".join(lines)


def three_thirteen_text(observation: three_thirteen.Observation) -> str:
    """What ``observation.player`` sees of a Three-Thirteen table, as lines of text."""
    me = observation.player
    players = observation.rules.players
    lines = [
        f"Three-Thirteen, round {observation.round_number} of {observation.rules.last_round}:"
        f" {count(observation.round_number + 2, 'card')},"
        f" {_RANK_WORDS[observation.wild_rank - 1]} are wild."
        f" You are player {me}; the dealer is player {observation.dealer}.",
        _to_move(observation, _THREE_THIRTEEN_PHASE),
        f"Your hand ({count(len(observation.hand), 'card')}): {_cards(observation.hand)}",
        f"Discard pile: {_pile(observation.discard_pile)}",
        f"Stock: {count(observation.stock_count, 'card')}"
        + (" (the round's one reshuffle is used)." if observation.reshuffled else "."),
    ]
    for seat in range(players):
        if seat == me:
            continue
        line = f"Player {seat}: {count(observation.hand_sizes[seat], 'card')}"
        if observation.known_cards[seat]:
            line += f", still holds {_cards(observation.known_cards[seat])} (taken from the pile)"
        lines.append(line + ".")
    if observation.went_out is not None:
        who = "You" if observation.went_out == me else f"Player {observation.went_out}"
        melds = "; ".join(format_cards(m.cards) for m in observation.melds)
        last = count(observation.last_turns_remaining, "last turn")
        lines.append(f"{who} went out with {melds or 'no melds'}; {last} left.")
    totals = ", ".join(
        f"{'you' if seat == me else f'player {seat}'} {total}"
        for seat, total in enumerate(observation.totals)
    )
    lines.append(f"Totals (fewer is better): {totals}.")
    return "\n".join(lines)
