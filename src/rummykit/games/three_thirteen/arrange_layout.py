"""Laying out an optimal plan as melds: which wild goes where, runs in order.

:mod:`.arrange_search` says which naturals form which groups and how many wilds each
group needs.  This module deals the wild cards out: each group its need, and every
other wild to a set if there is one (a set takes any number), else to runs as long as
they stay within 13 cards.  When every group is a run and the runs cannot hold all
the wilds, runs are cut in two (:func:`place_extra_wilds`), which never needs more
wilds than the hand holds.

A run is laid out low to high with its wilds at the places they stand for; extra
wilds go above the naturals, then below when the top is reached.  A set lists its
naturals, then its wilds.

This module never does I/O and imports nothing outside the standard library.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from rummykit.cards import Card
from rummykit.games.three_thirteen.arrange_runs import run_groups
from rummykit.games.three_thirteen.arrange_search import Plan

__all__ = ["Group", "lay_out", "place_extra_wilds", "run_group"]


class Group(NamedTuple):
    """Naturals meant for one meld.

    ``positions`` is empty for a set; for a run it holds the naturals' places, low to
    high (an ace is 1, or 14 when high), in the order of ``naturals``.
    """

    naturals: tuple[Card, ...]
    positions: tuple[int, ...]
    need: int


def run_group(naturals: tuple[Card, ...], positions: tuple[int, ...]) -> Group:
    """A run group (or, for one natural, a set group) from naturals at ``positions``."""
    if len(positions) == 1:
        return Group(naturals, (), 2)
    span = positions[-1] - positions[0] + 1
    return Group(naturals, positions, (span if span > 3 else 3) - len(positions))


def _room(group: Group) -> int:
    positions = group.positions
    span = positions[-1] - positions[0] + 1
    return 13 - (span if span > 3 else 3)


def _split(group: Group) -> list[Group]:
    """Cut a run so that the pieces hold more wilds (see :func:`place_extra_wilds`)."""
    naturals, positions = group.naturals, group.positions
    if len(naturals) <= 4:
        return [Group((card,), (), 2) for card in naturals]
    return [
        run_group(naturals[:3], positions[:3]),
        run_group(naturals[3:], positions[3:]),
    ]


def place_extra_wilds(groups: list[Group], extra: int) -> list[Group]:
    """Cut runs until the groups can hold ``extra`` wilds beyond their needs.

    Only needed when every group is a run.  Why the wilds always suffice: while the
    runs cannot hold them all, the spare wilds number at least one more than the room
    left.  A run of six or more naturals cut into its first three and the rest needs
    no more wilds (only gaps, no padding); one of five cut 3 + 2 needs at most one
    more, which the spare covers; one of four or fewer becomes lone naturals as sets
    (two wilds each), and ``13 - n >= 2n`` wilds are there for them.  Each cut adds at
    least 13 places or makes a set, so this ends.
    """
    groups = list(groups)
    while not any(not group.positions for group in groups):
        if sum(_room(group) for group in groups) >= extra:
            break
        widest = max(groups, key=lambda group: len(group.naturals))
        groups.remove(widest)
        pieces = _split(widest)
        extra += widest.need - sum(piece.need for piece in pieces)
        groups.extend(pieces)
    return groups


# Memos of pure functions, emptied past this many entries (see ``arrange_runs``).
_CACHE_LIMIT: Final = 100_000

_pattern_cache: dict[tuple[tuple[int, ...], int, bool], tuple[int, ...]] = {}


def _run_pattern(positions: tuple[int, ...], length: int, ace_high: bool) -> tuple[int, ...]:
    """Where a run's cards go: ``i >= 0`` is its ``i``-th natural, ``-1 - k`` its
    ``k``-th wild.  Extra places go above the naturals, then below at the top."""
    cache_key = (positions, length, ace_high)
    cached = _pattern_cache.get(cache_key)
    if cached is not None:
        return cached
    if len(_pattern_cache) > _CACHE_LIMIT:
        _pattern_cache.clear()
    low = positions[0]
    top_limit = 14 if ace_high and low > 1 else 13
    start = low
    end = start + length - 1
    if end > top_limit:
        start -= end - top_limit
        end = top_limit
    pattern: list[int] = []
    index = 0
    spare = 0
    for place in range(start, end + 1):
        if index < len(positions) and positions[index] == place:
            pattern.append(index)
            index += 1
        else:
            spare -= 1
            pattern.append(spare)
    result = tuple(pattern)
    _pattern_cache[cache_key] = result
    return result


def _lay_out_run(group: Group, wilds: list[Card], ace_high: bool) -> tuple[Card, ...]:
    naturals, positions, need = group
    span = positions[-1] - positions[0] + 1
    length = (span if span > 3 else 3) + len(wilds) - need
    pattern = _run_pattern(positions, length, ace_high)
    return tuple(naturals[i] if i >= 0 else wilds[-1 - i] for i in pattern)


# The runs of one suit key: each group's positions and need (one position: a lone card,
# a set), the ranks left (0..12), the groups' needs, whether one is a lone card, and
# the room the runs have for more wilds.
_Shape = tuple[tuple[tuple[tuple[int, ...], int], ...], tuple[int, ...], int, bool, int]
_shape_cache: dict[tuple[int, bool, int], _Shape] = {}


def _suit_shape(key: int, ace_high: bool, wilds: int) -> _Shape:
    """How one suit's naturals form runs with ``wilds`` wilds (memoised per key)."""
    cache_key = (key, ace_high, wilds)
    cached = _shape_cache.get(cache_key)
    if cached is not None:
        return cached
    if len(_shape_cache) > _CACHE_LIMIT:
        _shape_cache.clear()
    shapes: list[tuple[tuple[int, ...], int]] = []
    need = room = 0
    has_set = False
    for positions in run_groups(key, ace_high, wilds):
        group = run_group((), positions)
        shapes.append((positions, group.need))
        need += group.need
        if group.positions:
            room += _room(group)
        else:
            has_set = True
        for p in positions:
            bit = 1 << ((p - 1) % 13)
            key ^= bit << 13 if key & bit << 13 else bit
    left: list[int] = []
    while key:
        low_bit = key & -key
        left.append((low_bit.bit_length() - 1) % 13)
        key ^= low_bit
    result = (tuple(shapes), tuple(sorted(left)), need, has_set, room)
    _shape_cache[cache_key] = result
    return result


# The same for one suit's cards: its groups and the cards left, then as above.
_SuitGroups = tuple[tuple[Group, ...], tuple[Card, ...], int, bool, int]
_suit_cache: dict[tuple[int, int, bool, int], _SuitGroups] = {}


def _suit_groups(suit: int, key: int, ace_high: bool, wilds: int) -> _SuitGroups:
    """:func:`_suit_shape` with the suit's cards (memoised per suit and key)."""
    cache_key = (suit, key, ace_high, wilds)
    cached = _suit_cache.get(cache_key)
    if cached is not None:
        return cached
    if len(_suit_cache) > _CACHE_LIMIT:
        _suit_cache.clear()
    shapes, left, need, has_set, room = _suit_shape(key, ace_high, wilds)
    base = suit * 13
    groups: list[Group] = []
    for positions, group_need in shapes:
        naturals = tuple(base + (p - 1 if p < 14 else 0) for p in positions)
        if len(positions) > 1:
            groups.append(Group(naturals, positions, group_need))
        else:  # a lone natural with two wilds: a set
            groups.append(Group(naturals, (), group_need))
    result = (tuple(groups), tuple(base + index for index in left), need, has_set, room)
    _suit_cache[cache_key] = result
    return result


def lay_out(
    plan: Plan, wilds: list[Card], ace_high: bool
) -> tuple[list[tuple[Card, ...]], list[Card]]:
    """The melds of a plan that melds something, and the naturals it leaves out.

    ``wilds`` is sorted; every wild is melded.
    """
    groups: list[Group] = []
    need = 0
    for rank, taken, set_need in plan.sets:
        naturals = tuple(suit * 13 + rank - 1 for suit, copies in taken for _ in range(copies))
        groups.append(Group(naturals, (), set_need))
        need += set_need
    has_set = bool(groups)
    room = 0
    unmelded: list[Card] = []
    suit_wilds = plan.suit_wilds
    for suit, key in enumerate(plan.suit_keys):
        if key:
            suit_groups, left, suit_need, suit_set, suit_room = _suit_groups(
                suit, key, ace_high, suit_wilds[suit]
            )
            groups.extend(suit_groups)
            unmelded.extend(left)
            need += suit_need
            has_set = has_set or suit_set
            room += suit_room
    extra = len(wilds) - need
    if extra > room and not has_set:
        groups = place_extra_wilds(groups, extra)
        extra = len(wilds) - sum(group.need for group in groups)
        has_set = any(not group.positions for group in groups)
    melds: list[tuple[Card, ...]] = []
    next_wild = 0
    for group in groups:
        naturals, positions, take = group
        if extra:
            if not positions:
                take += extra
                extra = 0
            elif not has_set:
                more = min(_room(group), extra)
                take += more
                extra -= more
        if not take:
            melds.append(naturals)
            continue
        mine = wilds[next_wild : next_wild + take]
        next_wild += take
        if positions:
            melds.append(_lay_out_run(group, mine, ace_high))
        else:
            melds.append((*naturals, *mine))
    melds.sort()
    return melds, unmelded
