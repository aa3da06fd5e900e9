"""``State.legal_options`` against ``legal_actions`` and against a reference listing.

The reference is the listing as it was written before ``legal_options`` existed: every
distinct discard ``discard_refusal`` allows, every ``candidate_melds`` meld that the one
set per rank rule and ``ending_refusal`` allow, every ``extending_cards`` card that
``ending_refusal`` allows.  Positions come from seeded playouts of both rule variants,
with a policy that melds and adds often, so that small hands, pozzetti, closing and the
one-card pile restriction all come up.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Iterator

import pytest

from rummykit.cards import RANK_OF, Card
from rummykit.games.burraco import (
    Action,
    Discard,
    DrawStock,
    Extend,
    Meld,
    Rules,
    State,
    TakePile,
    melds,
)
from rummykit.games.burraco.legality import LegalOptions, discard_refusal, ending_refusal

VARIANTS = {
    "default": Rules(),
    "jokers4-free-sets": Rules(jokers=4, one_set_per_rank=False),
}


def looks_like_set(cards: tuple[Card, ...]) -> int | None:
    rank = naturals = 0
    for card in cards:
        card_rank = RANK_OF[card]
        if card_rank in (0, 2):
            continue
        if naturals and card_rank != rank:
            return None
        rank = card_rank
        naturals += 1
    return rank if naturals >= 2 else None


def reference_legal_actions(state: State) -> list[Action]:
    if state.game_over:
        return []
    table = state._table
    if table.phase == "draw":
        draws: list[Action] = []
        if table.stock:
            draws.append(DrawStock())
        if table.discard_pile:
            draws.append(TakePile())
        return draws
    player = table.player
    hand = table.hands[player]
    size = len(hand)
    actions: list[Action] = [
        Discard(card) for card in dict.fromkeys(hand) if discard_refusal(table, card) is None
    ]
    for cards in melds.candidate_melds(hand):
        rank = looks_like_set(cards)
        if (
            state.rules.one_set_per_rank
            and rank is not None
            and table.set_ranks[player] >> rank & 1
        ):
            continue
        if size - len(cards) < 2 and (
            ending_refusal(
                table,
                used=cards,
                makes_burraco=len(cards) >= 7,
                result=functools.partial(melds.arrange, cards),
            )
            is not None
        ):
            continue
        actions.append(Meld(cards))
    for meld_id, meld in enumerate(table.melds):
        if table.owners[meld_id] != player:
            continue
        for card in melds.extending_cards(meld, hand):
            if size <= 2 and (
                ending_refusal(
                    table,
                    used=(card,),
                    makes_burraco=meld.size >= 6,
                    result=functools.partial(melds.extend, meld, (card,)),
                    replaces=meld_id,
                )
                is not None
            ):
                continue
            actions.append(Extend(meld_id, (card,)))
    return actions


def positions(rules: Rules, count: int, seed: int) -> Iterator[State]:
    """``count`` positions of seeded playouts (melds and additions preferred)."""
    rng = random.Random(seed)
    game = 0
    while True:
        state = State.new(rules, seed * 1000 + game)
        game += 1
        while not state.game_over:
            yield state
            count -= 1
            if not count:
                return
            legal = list(state.legal_actions())
            building = [a for a in legal if isinstance(a, Meld | Extend)]
            pool = building if building and rng.random() < 0.8 else legal
            state.apply(pool[rng.randrange(len(pool))])


def actions_of(options: LegalOptions) -> list[Action]:
    return [
        *options.draws,
        *(Discard(card) for card in options.discards),
        *(Meld(candidate.meld.cards) for candidate in options.melds),
        *(Extend(meld_id, (card,)) for meld_id, card in options.additions),
    ]


@pytest.mark.parametrize("name", list(VARIANTS))
def test_legal_options_list_legal_actions(name: str) -> None:
    seen: Counter[str] = Counter()
    for state in positions(VARIANTS[name], 6000, seed=len(name)):
        legal = list(state.legal_actions())
        assert legal == reference_legal_actions(state)
        options = state.legal_options()
        assert actions_of(options) == legal
        hand = state._table.hands[state._table.player]
        for candidate in options.melds:
            assert candidate.sorted_cards == tuple(sorted(candidate.meld.cards))
            assert candidate.meld == melds.arrange(candidate.sorted_cards)
        seen["play" if options.discards else "draw"] += 1
        seen[f"hand{min(len(hand), 3)}"] += 1
        seen["melds"] += bool(options.melds)
        seen["additions"] += bool(options.additions)
        seen["restricted"] += bool(state._table.restricted)
        seen["pozzetto taken"] += any(state._table.took_pozzetto)
    for kind in ("play", "draw", "hand1", "hand2", "melds", "additions", "restricted"):
        assert seen[kind] > 50, (kind, seen)
    assert seen["pozzetto taken"] > 500, seen


def test_legal_options_after_the_game() -> None:
    state = State.new(Rules(max_hands=1), 5)
    rng = random.Random(5)
    while not state.game_over:
        legal = list(state.legal_actions())
        state.apply(legal[rng.randrange(len(legal))])
    assert list(state.legal_actions()) == []
    assert actions_of(state.legal_options()) == []


@pytest.mark.parametrize("name", list(VARIANTS))
def test_extension_agrees_with_check(name: str) -> None:
    """``State.extension`` is ``check(Extend(...))`` without the refusal, and its meld
    is the one ``apply`` lays: tried on own and other melds, with cards held and not,
    one to four at a time."""
    rng = random.Random(len(name) + 40)
    legal = tried = several = 0
    for state in positions(VARIANTS[name], 8000, seed=len(name) + 20):
        table = state._table
        if state.phase != "play" or not table.melds:
            continue
        hand = table.hands[table.player]
        for _ in range(6):
            meld_id = rng.randrange(len(table.melds) + 1)
            pool = hand if rng.random() < 0.9 else [*hand, rng.randrange(53)]
            cards = tuple(sorted(rng.sample(pool, min(len(pool), rng.randint(1, 4)))))
            if meld_id < len(table.melds) and rng.random() < 0.7:
                # Cards that join the meld one after another.
                grown, rest, chosen = table.melds[meld_id], list(hand), []
                for _ in range(rng.randint(2, 4)):
                    fits = [c for c in rest if c in melds.fitting_cards(grown)]
                    if not fits:
                        break
                    card = rng.choice(fits)
                    grown = melds.extend(grown, (card,))
                    rest.remove(card)
                    chosen.append(card)
                cards = tuple(sorted(chosen)) or cards
            meld = state.extension(meld_id, cards)
            action = Extend(meld_id, cards)
            assert (meld is not None) == (state.check(action) is None), action
            tried += 1
            if meld is not None:
                legal += 1
                several += len(cards) > 1
                twin = state.clone()
                assert twin.apply(action)[0].meld == meld  # type: ignore[union-attr]
    assert tried > 10000 and legal > 500 and several > 60, (tried, legal, several)
