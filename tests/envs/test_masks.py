"""Masks against the engine: every mask is exactly what the engine allows.

Three-Thirteen: on every step of random masked play, each of the 108 ids is masked in
exactly when ``State.check`` accepts its action.  Burraco: the one-step ids (draw,
take, discard) likewise; at sampled positions the whole tree of card choices is
walked, checking that every choice leads on to a legal action, that *lay* and *add*
are masked in exactly when the engine accepts them, that a card is choosable exactly
when a legal meld or addition begins with the cards chosen, and that every action of
``legal_actions()`` is reached.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator

import numpy as np
import pytest

from rummykit.cards import JOKER, RANK_OF, SUIT_OF
from rummykit.envs import burraco_actions as ba
from rummykit.envs import three_thirteen_actions as tta
from rummykit.envs.burraco_actions import BurracoSteps
from rummykit.envs.three_thirteen_actions import ThreeThirteenSteps
from rummykit.games import burraco, three_thirteen
from rummykit.games.burraco import Extend, Meld

WILDS = (JOKER, 1, 14, 27, 40)  # Jk 2c 2d 2h 2s


def is_wild_face(card: int) -> bool:
    return card == JOKER or RANK_OF[card] == 2


def test_action_space_sizes() -> None:
    assert tta.ACTION_COUNT == 108
    assert ba.ACTION_COUNT == 145
    assert (ba.DRAW, ba.TAKE, ba.DISCARD, ba.CHOOSE, ba.LAY, ba.ADD) == (0, 1, 2, 55, 108, 109)


def test_three_thirteen_ids_round_trip() -> None:
    for index in range(tta.ACTION_COUNT):
        assert tta.action_id(tta.engine_action(index)) == index
    assert three_thirteen.parse_action(tta.describe(tta.GO_OUT + 12)) == three_thirteen.GoOut(12)


@pytest.mark.parametrize(
    "rules",
    [
        three_thirteen.Rules(players=2),
        three_thirteen.Rules(players=3, jokers=True),
        three_thirteen.Rules(players=4, ace_high=True, wild_only_melds=True),
    ],
    ids=["2", "3-jokers", "4-ace-high-wild-only"],
)
def test_three_thirteen_masks_equal_engine_legality(rules: three_thirteen.Rules) -> None:
    rng = random.Random(7)
    steps_done = 0
    kinds: Counter[str] = Counter()
    seed = 0
    while steps_done < 2500:
        model = ThreeThirteenSteps.new(rules, seed)
        seed += 1
        while model.current_player is not None and steps_done < 2500:
            mask = model.mask()
            state = model.state
            allowed = [
                state.check(tta.engine_action(index)) is None for index in range(tta.ACTION_COUNT)
            ]
            assert mask.tolist() == [int(a) for a in allowed]
            legal = np.flatnonzero(mask)
            index = int(legal[rng.randrange(len(legal))])
            kinds[tta.describe(index).split()[0]] += 1
            model.step(index)  # every masked-in id applies
            steps_done += 1
    assert set(kinds) == {"draw", "take", "discard", "out"}


def _kin(table_meld: burraco.TableMeld) -> set[int]:
    """The faces that could ever join a meld (the rules: a set takes its rank and wilds,
    a run its suit and wilds), read from its cards."""
    naturals = [c for c in table_meld.meld.cards if not is_wild_face(c)]
    if table_meld.meld.kind == "set":
        faces = {c for c in range(52) if RANK_OF[c] == RANK_OF[naturals[0]]}
    else:
        faces = {c for c in range(52) if SUIT_OF[c] == SUIT_OF[naturals[0]]}
    return faces | set(WILDS)


def _sub_multisets(cards: list[int]) -> Iterator[tuple[int, ...]]:
    counts = sorted(Counter(cards).items())
    for copies in itertools.product(*(range(n + 1) for _, n in counts)):
        chosen = tuple(card for (card, _), k in zip(counts, copies, strict=True) for _ in range(k))
        if chosen:
            yield chosen


def _targets(state: burraco.State) -> set[tuple[str, int | None, tuple[int, ...]]]:
    """Every legal meld and addition the steps must reach, by an independent route: the
    melds of ``legal_actions()``, and every sub-multiset of the hand's cards that could
    join one of the player's melds that ``check`` accepts as an addition to it."""
    targets: set[tuple[str, int | None, tuple[int, ...]]] = set()
    for action in state.legal_actions():
        if isinstance(action, Meld):
            targets.add(("lay", None, tuple(sorted(action.cards))))
    observation = state.observation(state.current_player or 0)
    for table_meld in observation.melds:
        if table_meld.owner != observation.team:  # with four, the team's melds
            continue
        kin = _kin(table_meld)
        for cards in _sub_multisets([c for c in observation.hand if c in kin]):
            if state.check(Extend(table_meld.meld_id, cards)) is None:
                targets.add(("add", table_meld.meld_id, cards))
    return targets


def walk(model: BurracoSteps) -> set[tuple[str, int | None, tuple[int, ...]]]:
    """Walk every sequence of card choices from an empty choice; check each position's
    mask against the engine and return the engine actions the walk completes."""
    state = model.state
    player = state.current_player
    assert player is not None
    slots = model.slots()
    targets = _targets(state)
    prefixes = {t[2][:depth] for t in targets for depth in range(len(t[2]) + 1)}
    reached: set[tuple[str, int | None, tuple[int, ...]]] = set()

    def visit(chosen: tuple[int, ...]) -> None:
        twin = BurracoSteps(state)
        for card in chosen:
            twin.step(ba.CHOOSE + card)
        mask = twin.mask()
        assert mask.any(), "a choice that leads nowhere"
        choosable = {c for c in range(53) if mask[ba.CHOOSE + c]}
        assert choosable == {c for c in range(53) if (*chosen, c) in prefixes}
        if chosen:
            assert not mask[: ba.CHOOSE].any(), "no draw or discard in the middle of a meld"
            lay_ok = state.check(Meld(chosen)) is None
            assert bool(mask[ba.LAY]) == lay_ok
            if lay_ok:
                reached.add(("lay", None, chosen))
            for slot in range(ba.MELD_SLOTS):
                if slot >= len(slots):
                    assert not mask[ba.ADD + slot]
                    continue
                add_ok = state.check(Extend(slots[slot], chosen)) is None
                assert bool(mask[ba.ADD + slot]) == add_ok
                if add_ok:
                    reached.add(("add", slots[slot], chosen))
        for card in sorted(choosable):
            visit((*chosen, card))

    visit(())
    missing = targets - reached
    assert not missing, f"legal actions no sequence of steps reaches: {missing}"
    return reached


def check_one_step_ids(model: BurracoSteps) -> None:
    mask = model.mask()
    state = model.state
    for index in range(ba.CHOOSE):
        action = model.engine_action(index)
        assert bool(mask[index]) == (state.check(action) is None), ba.describe(index)


@pytest.mark.parametrize(
    "rules",
    [burraco.Rules(), burraco.Rules(jokers=4, one_set_per_rank=False), burraco.Rules(players=4)],
    ids=["default", "4-jokers-sets-per-rank", "four-players"],
)
def test_burraco_masks_equal_engine_legality(rules: burraco.Rules) -> None:
    rng = random.Random(3)
    steps_done = walks = 0
    kinds: Counter[str] = Counter()
    reached: Counter[str] = Counter()
    seed = 0
    while steps_done < 3000:
        model = BurracoSteps.new(rules, seed)
        seed += 1
        while model.current_player is not None and steps_done < 3000:
            if not model.pending:
                check_one_step_ids(model)
                if model.state.phase == "play" and steps_done % 7 == 0:
                    for kind, _meld_id, cards in walk(model):
                        reached[f"{kind}{min(len(cards), 3)}"] += 1
                    walks += 1
            legal = model.legal_ids()
            index = int(legal[rng.randrange(len(legal))])
            kinds[ba.describe(index).split()[0]] += 1
            model.step(index)  # every masked-in id applies
            steps_done += 1
    assert walks > 100
    assert set(kinds) == {"draw", "take", "discard", "choose", "lay", "add"}
    assert reached["lay3"] and reached["add1"] and reached["add2"] and reached["add3"]


@pytest.mark.parametrize(
    ("meld", "added", "hand"),
    [
        ("Qc 2s Ac", "Jc Kc", "Jc Kc 5d 9h"),  # Kc alone replaces the wild, which moves
        ("4s 5s 6s", "2c 3s", "2c 3s 8d 9d"),  # 3s alone does not fit
        ("Th Th Ts", "Td Ts", "Td Ts 4c 7c"),
        ("5h 6h 7h", "3h 4h", "3h 4h Kc Qd"),  # 3h first in code order, and alone no fit
    ],
)
def test_burraco_several_card_additions_reached_by_steps(meld: str, added: str, hand: str) -> None:
    """Additions the engine accepts only as several cards in one ``extend`` (or whose
    first card in code order does not fit alone) are reached by choosing their cards."""
    from rummykit.cards import parse_cards
    from tests.burraco.support import position

    state = position(hands=[hand, "3c 4c 5c 9c 9c"], melds=[(0, meld)])
    cards = tuple(sorted(parse_cards(added)))
    assert state.check(Extend(0, cards)) is None
    model = BurracoSteps(state)
    assert ("add", 0, cards) in walk(model)
    assert (0, cards) in state.legal_additions()
    for card in cards:
        model.step(ba.CHOOSE + card)
    assert model.mask()[ba.ADD + 0]
    events = model.step(ba.ADD + 0)
    assert [type(event).__name__ for event in events] == ["Extended"]


def test_burraco_two_card_addition_reached_by_steps() -> None:
    """Hand 8h 9h, the 9h taken alone from the pile this turn, meld 5h 6h 7h: 9h alone
    does not fit; 8h alone leaves only the 9h, which may not be discarded but can still
    go onto the run (RULES.md 1.6), so it is legal.  Both together empty the hand (a
    pozzetto follows), and the steps reach that."""
    from rummykit.cards import parse_card, parse_cards
    from rummykit.games.burraco.melds import arrange
    from rummykit.games.burraco.table import Table

    table = Table(
        hand_number=0,
        dealer=1,
        hands=[parse_cards("8h 9h"), parse_cards("3c 4c 5c 9d")],
        pozzetti=[tuple(parse_cards("2c 3d 4d 5d 6d 7d 8d 9c Tc Jc Qc")), None],
        discard_pile=[],
        stock=parse_cards("8s 9s Ts"),
    )
    table.phase = "play"
    table.melds.append(arrange(parse_cards("5h 6h 7h")))
    table.owners.append(0)
    table.restricted_card = parse_card("9h")
    table.restricted = 1
    state = burraco.State.from_parts(
        rules=burraco.Rules(), seed=1, table=table, totals=(0, 0), hand_results=()
    )
    eight, nine = parse_card("8h"), parse_card("9h")
    assert state.check(Extend(0, (eight,))) is None
    assert state.check(Extend(0, (nine,))) is not None
    assert state.check(Extend(0, (eight, nine))) is None
    model = BurracoSteps(state)
    assert ("add", 0, (eight, nine)) in walk(model)
    model.step(ba.CHOOSE + eight)
    model.step(ba.CHOOSE + nine)
    events = model.step(ba.ADD + 0)
    assert [type(event).__name__ for event in events] == ["Extended", "PozzettoTaken"]


def test_burraco_card_opening_only_a_refused_addition_is_not_choosable() -> None:
    """Hand 6c 7c 3h, run 8c 9c 2d Jc, the pozzetto taken and no burraco: 6c joins the
    run only with 7c, which would leave 3h as a closing discard without a burraco, so
    6c may not be chosen; 7c alone still may (3h and 6c are left), and every card that
    may be chosen leads on to a legal action."""
    from rummykit.cards import parse_card
    from tests.burraco.support import position

    state = position(
        hands=["6c 7c 3h", "3d 4d 5d 9s 9s"],
        melds=[(0, "8c 9c 2d Jc")],
        pozzetti=(False, True),
        took=(True, False),
    )
    six, seven = parse_card("6c"), parse_card("7c")
    assert state.check(Extend(0, (six, seven))) is not None
    assert state.check(Extend(0, (seven,))) is None
    assert six not in state.addition_openers()
    model = BurracoSteps(state)
    mask = model.mask()
    assert not mask[ba.CHOOSE + six]
    assert mask[ba.CHOOSE + seven]
    walk(model)
