"""The arrangement search: sets by rank, runs by suit, wilds shared between them.

The model (its proof is in ``docs`` of this module's tests and in the notes below):
a meld is a *group* of naturals plus wilds.  A set group of ``k`` naturals of one rank
needs ``max(0, 3 - k)`` wilds; a run group needs its gaps and padding to three cards
(:mod:`.arrange_runs`).  Once one group exists every further wild can join a meld:
a set takes any number, and runs that would pass 13 cards can be cut in two without
needing more wilds than the hand has.  So the least deadwood is the points of the
naturals left out, minimised over groupings whose needs add up to at most the number
of wilds; the wilds count only when no group can be made at all.

A lone natural with two wilds is a run group here (it could equally be a set), so the
search only tries sets of two or more naturals: for each rank held at least twice it
tries each way to put some of its cards in a set (a set of two needs one wild), and
hands the rest to the per-suit run tables.

This module never does I/O and imports nothing outside the standard library.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from rummykit.cards import DEADWOOD_POINTS, JOKER, RANK_OF, SUIT_OF, Card, format_card
from rummykit.games.three_thirteen.arrange_runs import run_values

__all__ = [
    "Plan",
    "SetChoice",
    "best_plan",
    "least_wilds_to_meld_all",
    "melded_points",
    "remove_copies",
    "split_hand",
]

_RANK_POINTS: Final = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)

# A set option for one rank: (wilds needed, points melded, per-suit copies taken).
_SetOption = tuple[int, int, tuple[int, int, int, int]]


@dataclass(frozen=True, slots=True)
class SetChoice:
    """A set of naturals of ``rank``: ``taken[suit]`` copies from each suit."""

    rank: int
    taken: tuple[int, int, int, int]
    need: int


@dataclass(frozen=True, slots=True)
class Plan:
    """Where the naturals go: sets, then per-suit run keys with their wild budgets."""

    melded: int
    sets: tuple[SetChoice, ...]
    suit_keys: tuple[int, int, int, int]
    suit_wilds: tuple[int, int, int, int]


def remove_copies(key: int, rank: int, copies: int) -> int:
    bit = 1 << (rank - 1)
    if copies == 2:
        return key & ~(bit | bit << 13)
    if key & bit << 13:
        return key & ~(bit << 13)
    return key & ~bit


def split_hand(
    cards: Sequence[Card], wild_rank: int
) -> tuple[list[int], list[list[int]], list[Card], int]:
    """Suit keys, per-rank per-suit counts, the wild cards and the naturals' points."""
    suit_keys = [0, 0, 0, 0]
    counts = [[0, 0, 0, 0] for _ in range(14)]
    wilds: list[Card] = []
    points = 0
    for card in cards:
        rank = RANK_OF[card]
        if card == JOKER or rank == wild_rank:
            wilds.append(card)
            continue
        suit = SUIT_OF[card]
        key = suit_keys[suit]
        bit = 1 << (rank - 1)
        if key & bit:
            if key & bit << 13:
                raise ValueError(
                    f"{format_card(card)} is held three times: there are at most two decks"
                )
            suit_keys[suit] = key | bit << 13
        else:
            suit_keys[suit] = key | bit
        counts[rank][suit] += 1
        points += DEADWOOD_POINTS[card]
    return suit_keys, counts, wilds, points


def _set_options(counts: list[list[int]], wilds: int) -> list[tuple[int, list[_SetOption]]]:
    """For each rank that can hold a set: every way to take two or more of its cards."""
    least = 2 if wilds else 3
    ranks: list[tuple[int, list[_SetOption]]] = []
    for rank in range(1, 14):
        per_suit = counts[rank]
        total = per_suit[0] + per_suit[1] + per_suit[2] + per_suit[3]
        if total < least:
            continue
        options: list[_SetOption] = []
        for c in range(per_suit[0] + 1):
            for d in range(per_suit[1] + 1):
                for h in range(per_suit[2] + 1):
                    for s in range(per_suit[3] + 1):
                        size = c + d + h + s
                        if size >= least:
                            need = 3 - size if size < 3 else 0
                            options.append((need, size * _RANK_POINTS[rank], (c, d, h, s)))
        options.sort(key=lambda option: -option[1])
        ranks.append((rank, options))
    return ranks


def _runs_value(
    keys: list[int], budget: int, ace_high: bool, budgets: list[int] | None = None
) -> int:
    """The most points the four suits' runs meld sharing ``budget`` wilds.

    With ``budgets`` (a list of four), also records how many wilds each suit uses.
    """
    v0 = run_values(keys[0], ace_high)
    v1 = run_values(keys[1], ace_high)
    v2 = run_values(keys[2], ace_high)
    v3 = run_values(keys[3], ace_high)
    if budget == 0 and budgets is None:
        return v0[0] + v1[0] + v2[0] + v3[0]
    tables = (v0, v1, v2, v3)
    # best[b]: most points from the suits so far with at most b wilds; choice tracks
    # the wilds given to each suit for the trace.
    best = [v0[b if b < len(v0) else -1] for b in range(budget + 1)]
    splits: list[list[int]] = [[b] for b in range(budget + 1)]
    for table in tables[1:]:
        top = len(table) - 1
        new_best = [value + table[0] for value in best]
        new_splits = [[*split, 0] for split in splits] if budgets is not None else splits
        for b in range(budget + 1):
            for used in range(1, min(b, top) + 1):
                value = best[b - used] + table[used]
                if value > new_best[b]:
                    new_best[b] = value
                    if budgets is not None:
                        new_splits[b] = [*splits[b - used], used]
        best = new_best
        splits = new_splits
    if budgets is not None:
        budgets[:] = splits[budget]
    return best[budget]


def melded_points(
    suit_keys: list[int], counts: list[list[int]], wilds: int, ace_high: bool, ceiling: int
) -> int:
    """The most natural points melded with ``wilds`` wilds (``ceiling``: all of them)."""
    options = _set_options(counts, wilds)
    best = _runs_value(suit_keys, wilds, ace_high)
    if not options or best == ceiling:
        return best
    found = [best]

    def search(index: int, keys: list[int], budget: int, points: int) -> bool:
        if index == len(options):
            value = points + _runs_value(keys, budget, ace_high)
            found[0] = max(found[0], value)
            return value == ceiling
        if search(index + 1, keys, budget, points):
            return True
        rank, rank_options = options[index]
        for need, gained, taken in rank_options:
            if need > budget:
                continue
            new_keys = list(keys)
            for suit in range(4):
                if taken[suit]:
                    new_keys[suit] = remove_copies(new_keys[suit], rank, taken[suit])
            if search(index + 1, new_keys, budget - need, points + gained):
                return True
        return False

    search(0, list(suit_keys), wilds, 0)
    return found[0]


def best_plan(suit_keys: list[int], counts: list[list[int]], wilds: int, ace_high: bool) -> Plan:
    """An optimal plan (sets and per-suit wild budgets), for building the melds."""
    options = _set_options(counts, wilds)
    budgets = [0, 0, 0, 0]
    value = _runs_value(suit_keys, wilds, ace_high, budgets)
    best = Plan(
        value,
        (),
        (suit_keys[0], suit_keys[1], suit_keys[2], suit_keys[3]),
        (budgets[0], budgets[1], budgets[2], budgets[3]),
    )
    plans = [best]

    def search(
        index: int, keys: list[int], budget: int, points: int, sets: tuple[SetChoice, ...]
    ) -> None:
        if index == len(options):
            spent = [0, 0, 0, 0]
            total = points + _runs_value(keys, budget, ace_high, spent)
            if total > plans[0].melded:
                plans[0] = Plan(
                    total,
                    sets,
                    (keys[0], keys[1], keys[2], keys[3]),
                    (spent[0], spent[1], spent[2], spent[3]),
                )
            return
        search(index + 1, keys, budget, points, sets)
        rank, rank_options = options[index]
        for need, gained, taken in rank_options:
            if need > budget:
                continue
            new_keys = list(keys)
            for suit in range(4):
                if taken[suit]:
                    new_keys[suit] = remove_copies(new_keys[suit], rank, taken[suit])
            search(
                index + 1,
                new_keys,
                budget - need,
                points + gained,
                (*sets, SetChoice(rank, taken, need)),
            )

    search(0, list(suit_keys), wilds, 0, ())
    return plans[0]


def _suit_cover(key: int, ace_high: bool) -> int:
    """The fewest wilds with which runs meld every card of one suit."""
    values = run_values(key, ace_high)
    full = values[-1]
    for wilds, value in enumerate(values):
        if value == full:
            return wilds
    return len(values)  # pragma: no cover - the last entry is always full


def least_wilds_to_meld_all(
    suit_keys: list[int], counts: list[list[int]], limit: int, ace_high: bool
) -> int:
    """The fewest wilds that meld every natural, or ``limit + 1`` if more than ``limit``."""
    base = sum(_suit_cover(k, ace_high) for k in suit_keys)
    if base <= limit:
        return base
    options = _set_options(counts, limit)
    if not options:
        return limit + 1
    least = [limit + 1]

    def search(index: int, keys: list[int], spent: int) -> bool:
        if index == len(options):
            total = spent + sum(_suit_cover(k, ace_high) for k in keys)
            least[0] = min(least[0], total)
            return total <= limit
        if search(index + 1, keys, spent):
            return True
        rank, rank_options = options[index]
        for need, _, taken in rank_options:
            if spent + need > limit:
                continue
            new_keys = list(keys)
            for suit in range(4):
                if taken[suit]:
                    new_keys[suit] = remove_copies(new_keys[suit], rank, taken[suit])
            if search(index + 1, new_keys, spent + need):
                return True
        return False

    search(0, list(suit_keys), 0)
    return least[0]
