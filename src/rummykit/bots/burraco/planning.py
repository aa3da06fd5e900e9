"""Greedy meld planning for Burraco bots: what a hand can lay down now, and its worth.

:func:`plan_melds` takes a hand (as a multiset), the player's melds on the table and a
:data:`WildPolicy`, and lays cards greedily, one step at a time: natural cards onto the
player's melds (a card that replaces a wild first), new melds from the hand (natural
ones before those with a wild, the longest first, runs before sets), and wilds where
the policy allows them.  Steps are single-card additions and whole new melds, exactly
the moves the engine lists, so the first step of a plan is an action a bot can play.
The plan is tried in two orders (additions first, new melds first) when the order can
matter, and the one worth more is kept.

A plan's ``value`` is what the steps add to the player's hand score (card points and
burraco bonuses) plus a little for melds that grow toward a burraco and for points
leaving the hand.  Bots compare values: the hand with the pile against the hand
alone, for instance.

This module uses the engine's pure meld functions only; it never sees a game state,
never checks turn rules beyond the few it is told (cards to keep, a last card that may
not stay alone) and never chooses a discard.

>>> from rummykit.cards import parse_cards, format_cards
>>> plan = plan_melds(parse_cards("5h 6h 7h 8h Kc Kd Ks 9s Jk"), (), policy="burraco")
>>> [format_cards(step.cards) for step in plan.steps]
['5h 6h 7h 8h', 'Kc Kd Ks']
>>> format_cards(plan.remaining)
'9s Jk'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal

from rummykit.bots.burraco.reading import extended, fitting_faces, is_wild_face, meld_score
from rummykit.cards import BURRACO_POINTS, CARD_COUNT, JOKER, Card
from rummykit.games.burraco import Extend, TableMeld
from rummykit.games.burraco import Meld as NewMeld
from rummykit.games.burraco.melds import BURRACO_SIZE, Meld, candidate_arrangements

WildPolicy = Literal["keep", "burraco", "spend"]
"""When a plan may use a wild: ``"keep"`` never, ``"burraco"`` to make a meld a burraco
or when the hand holds more wilds than the reserve (see :func:`plan_melds`),
``"spend"`` whenever it helps (to cut the points in the hand or empty it)."""

WILD_RESERVE: Final = 2
"""Wilds a hand keeps for burracos under the ``"burraco"`` policy; more are spent."""
_WILD_FACES: Final = (JOKER, 1, 14, 27, 40)  # Jk 2c 2d 2h 2s

WILD_POLICIES: Final[tuple[WildPolicy, ...]] = ("keep", "burraco", "spend")

# Worth of a meld short of a burraco, by size: it is on its way to the bonus.
_PROGRESS: Final = (0, 0, 0, 0, 8, 20, 36)
_REPLACE_BONUS: Final = 15
_RELIEF: Final = 0.5
_SPEND_RELIEF: Final = 1.0
_SHED_BONUS: Final = 25


@dataclass(frozen=True, slots=True)
class Step:
    """One move of a plan: a new meld (``before`` is ``None``) or one card added.

    ``meld_id`` is the table id of the meld added to, ``None`` for a new meld or for
    a meld laid earlier in the same plan (which has no id yet).  ``gain`` is what the
    step adds to the plan's value.
    """

    meld_id: int | None
    cards: tuple[Card, ...]
    before: Meld | None
    after: Meld
    spends_wild: bool
    gain: float

    @property
    def action(self) -> NewMeld | Extend | None:
        """The engine action of this step, or ``None`` for an addition to a meld that
        the plan lays first (it has no id until it is on the table)."""
        if self.before is None:
            return NewMeld(self.cards)
        if self.meld_id is None:
            return None
        return Extend(self.meld_id, self.cards)

    @property
    def makes_burraco(self) -> bool:
        return len(self.after.cards) >= BURRACO_SIZE and (
            self.before is None or len(self.before.cards) < BURRACO_SIZE
        )

    @property
    def replaces_wild(self) -> bool:
        """A natural card taking the place its meld's wild stood for."""
        before = self.before
        return (
            before is not None
            and before.kind == "run"
            and before.stands_for is not None
            and self.cards[0] == before.stands_for
        )


@dataclass(frozen=True, slots=True)
class Plan:
    """Steps in order, the cards left in the hand after them and what they are worth.

    ``has_burraco`` tells whether the player holds a burraco once the steps are played.
    """

    steps: tuple[Step, ...]
    remaining: tuple[Card, ...]
    value: float
    has_burraco: bool

    @property
    def new_burracos(self) -> int:
        return sum(1 for step in self.steps if step.makes_burraco)


@lru_cache(maxsize=16384)
def meld_worth(meld: Meld) -> int:
    """What a meld is worth to its owner: its score, or for a meld short of a burraco
    its points and a little for its size."""
    size = len(meld.cards)
    if size >= BURRACO_SIZE:
        return meld_score(meld)
    return meld.points + _PROGRESS[size]


def _counts(cards: Iterable[Card]) -> list[int]:
    counts = [0] * CARD_COUNT
    for card in cards:
        counts[card] += 1
    return counts


def _wilds_held(counts: Sequence[int]) -> int:
    return sum(counts[face] for face in _WILD_FACES)


def _contains(counts: Sequence[int], cards: Sequence[Card]) -> bool:
    if len(cards) <= 4:
        return all(counts[card] >= cards.count(card) for card in cards)
    needed: dict[Card, int] = {}
    for card in cards:
        needed[card] = needed.get(card, 0) + 1
    return all(counts[card] >= n for card, n in needed.items())


class _Planner:
    """The greedy search of one plan; see :func:`plan_melds`."""

    __slots__ = (
        "bad_last",
        "candidates",
        "counts",
        "has_burraco",
        "meld_ids",
        "melds",
        "min_left",
        "needs_burraco_to_end",
        "one_set_per_rank",
        "policy",
        "relief",
        "set_ranks",
        "size",
        "steps",
        "value",
        "wild_reserve",
    )

    def __init__(
        self,
        *,
        hand: Sequence[Card],
        own_melds: Sequence[TableMeld],
        candidates: Sequence[Meld],
        policy: WildPolicy,
        min_left: int,
        bad_last: frozenset[Card],
        needs_burraco_to_end: bool,
        one_set_per_rank: bool,
        wild_reserve: int,
    ) -> None:
        self.counts = _counts(hand)
        self.wild_reserve = wild_reserve
        self.size = len(hand)
        self.melds: list[Meld] = [m.meld for m in own_melds]
        self.meld_ids: list[int | None] = [m.meld_id for m in own_melds]
        self.set_ranks = {m.rank for m in self.melds if m.kind == "set"}
        self.has_burraco = any(len(m.cards) >= BURRACO_SIZE for m in self.melds)
        self.candidates = list(candidates)
        self.policy = policy
        self.min_left = min_left
        self.bad_last = bad_last
        self.needs_burraco_to_end = needs_burraco_to_end
        self.one_set_per_rank = one_set_per_rank
        self.relief = _SPEND_RELIEF if policy == "spend" else _RELIEF
        self.steps: list[Step] = []
        self.value = 0.0

    # -- constraints -------------------------------------------------------------------

    def _may_leave(self, used: Sequence[Card], makes_burraco: bool) -> bool:
        """Whether playing ``used`` leaves a hand the turn can still end with."""
        left = self.size - len(used)
        if left < self.min_left:
            return False
        if left == 1:
            counts = self.counts
            for card in used:
                counts[card] -= 1
            last = next(c for c in range(CARD_COUNT) if counts[c])
            for card in used:
                counts[card] += 1
            if last in self.bad_last:
                return False
            if self.needs_burraco_to_end and not (self.has_burraco or makes_burraco):
                return False
        return True

    def _allowed_wild(self, spends_wild: bool, before: Meld | None, after: Meld) -> bool:
        if not spends_wild or self.policy == "spend":
            return True
        if self.policy == "keep":
            return False
        if _wilds_held(self.counts) > self.wild_reserve:
            return True
        return len(after.cards) >= BURRACO_SIZE and (
            before is None or len(before.cards) < BURRACO_SIZE
        )

    def _play(self, step: Step, slot: int | None) -> None:
        counts = self.counts
        for card in step.cards:
            counts[card] -= 1
        self.size -= len(step.cards)
        if slot is None:
            self.melds.append(step.after)
            self.meld_ids.append(None)
            if step.after.kind == "set":
                self.set_ranks.add(step.after.rank)
        else:
            self.melds[slot] = step.after
        if len(step.after.cards) >= BURRACO_SIZE:
            self.has_burraco = True
        self.steps.append(step)
        self.value += step.gain

    def _gain(self, before: Meld | None, after: Meld, cards: Sequence[Card]) -> float:
        points = sum(BURRACO_POINTS[c] for c in cards)
        old = 0 if before is None else meld_worth(before)
        gain = meld_worth(after) - old + self.relief * points
        if self.policy == "spend":
            gain += _SHED_BONUS * len(cards)
        return gain

    # -- the two kinds of step ---------------------------------------------------------

    def add_one_card(self) -> bool:
        """Add the best single card to a meld; ``False`` if no card may be added."""
        counts = self.counts
        best: tuple[float, int, Step] | None = None
        for slot, meld in enumerate(self.melds):
            for card in fitting_faces(meld):
                if not counts[card]:
                    continue
                after = extended(meld, card)
                if after is None:  # pragma: no cover - fitting_faces said it fits
                    continue
                spends_wild = is_wild_face(card) and meld.clean and not after.clean
                if not self._allowed_wild(spends_wild, meld, after):
                    continue
                gain = self._gain(meld, after, (card,))
                if meld.kind == "run" and meld.stands_for == card:
                    gain += _REPLACE_BONUS
                if gain <= 0 or not self._may_leave((card,), len(after.cards) >= BURRACO_SIZE):
                    continue
                if best is None or gain > best[0]:
                    step = Step(self.meld_ids[slot], (card,), meld, after, spends_wild, gain)
                    best = (gain, slot, step)
        if best is None:
            return False
        self._play(best[2], best[1])
        return True

    def lay_new_meld(self) -> bool:
        """Lay the best new meld; ``False`` if none may be laid."""
        counts = self.counts
        best: tuple[tuple[bool, int, bool, int], Meld] | None = None
        kept: list[Meld] = []
        for meld in self.candidates:
            cards = meld.cards
            if not _contains(counts, cards):
                continue
            kept.append(meld)
            if meld.kind == "set" and self.one_set_per_rank and meld.rank in self.set_ranks:
                continue
            spends_wild = meld.wild_index is not None
            if not self._allowed_wild(spends_wild, None, meld):
                continue
            key = (not spends_wild, len(cards), meld.kind == "run", meld.points)
            if best is not None and key <= best[0]:
                continue
            if not self._may_leave(cards, len(cards) >= BURRACO_SIZE):
                continue
            best = (key, meld)
        self.candidates = kept
        if best is None:
            return False
        meld = best[1]
        gain = self._gain(None, meld, meld.cards)
        self._play(Step(None, meld.cards, None, meld, meld.wild_index is not None, gain), None)
        return True

    def run(self, *, additions_first: bool) -> Plan:
        first, second = (
            (self.add_one_card, self.lay_new_meld)
            if additions_first
            else (self.lay_new_meld, self.add_one_card)
        )
        while first() or second():
            pass
        counts = self.counts
        remaining: list[Card] = []
        for card, count in enumerate(counts):
            if count:
                remaining.extend((card,) * count)
        return Plan(tuple(self.steps), tuple(remaining), self.value, self.has_burraco)


def _order_may_matter(plan: Plan, candidates: Sequence[Meld]) -> bool:
    """Whether laying new melds first could change ``plan`` (made additions first): only
    if a card it added to a table meld could have gone into a new meld instead."""
    added = {step.cards[0] for step in plan.steps if step.before is not None}
    if not added:
        return False
    return any(card in added for meld in candidates for card in meld.cards)


def plan_melds(
    hand: Sequence[Card],
    own_melds: Sequence[TableMeld],
    *,
    policy: WildPolicy,
    min_left: int = 0,
    bad_last: Iterable[Card] = (),
    needs_burraco_to_end: bool = False,
    one_set_per_rank: bool = True,
    wild_reserve: int = WILD_RESERVE,
    candidates: Sequence[Meld] | None = None,
) -> Plan:
    """The better of the two greedy plans for ``hand`` with ``own_melds`` on the table.

    ``min_left``: the fewest cards the steps may leave in the hand.  ``bad_last``:
    cards that may not be the single card left (a wild when it would be the closing
    discard, the card taken alone from the pile).  ``needs_burraco_to_end``: a single
    card left is allowed only once the player holds a burraco (closing).
    ``wild_reserve``: under the ``"burraco"`` policy, wilds beyond this many may go
    anywhere (a hand of wilds alone would only be discarded).
    ``candidates``: the hand's ``candidate_arrangements``, when already known.

    Raises ``ValueError`` for an unknown policy or a negative ``min_left``.

    >>> from rummykit.cards import parse_cards, format_cards
    >>> from rummykit.games.burraco.melds import arrange
    >>> table = [TableMeld(0, 0, arrange(parse_cards("3h 4h 5h 6h 7h 8h")))]
    >>> plan = plan_melds(parse_cards("9h Kc Jk"), table, policy="burraco")
    >>> [(step.meld_id, format_cards(step.cards)) for step in plan.steps], plan.has_burraco
    ([(0, '9h')], True)
    """
    if policy not in WILD_POLICIES:
        raise ValueError(f"the wild policy must be one of {', '.join(WILD_POLICIES)}")
    if min_left < 0:
        raise ValueError(f"min_left must be 0 or more, not {min_left}")
    if candidates is None:
        candidates = tuple(candidate_arrangements(hand))
    if policy == "keep":
        candidates = [m for m in candidates if m.wild_index is None]
    elif policy == "burraco" and _wilds_held(_counts(hand)) <= wild_reserve:
        candidates = [m for m in candidates if m.wild_index is None or len(m.cards) >= 7]
    last_refused = frozenset(bad_last)
    plans = []
    for additions_first in (True, False):
        planner = _Planner(
            hand=hand,
            own_melds=own_melds,
            candidates=candidates,
            policy=policy,
            min_left=min_left,
            bad_last=last_refused,
            needs_burraco_to_end=needs_burraco_to_end,
            one_set_per_rank=one_set_per_rank,
            wild_reserve=wild_reserve,
        )
        plan = planner.run(additions_first=additions_first)
        plans.append(plan)
        if not _order_may_matter(plan, candidates):
            break
    return max(plans, key=lambda plan: plan.value)
