"""The arrangement a player is shown of their own hand: the engine's exact deadwood, every
card of the hand placed once, wilds labelled with their place, discards priced."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from rummykit.cards import RANK_OF, RANKS, format_card, parse_card, parse_cards
from rummykit.games.three_thirteen import GAME, Rules, State
from rummykit.games.three_thirteen.arrange import deadwood
from rummykit.games.three_thirteen.own_arrangement import arrangement_json, own_arrangement


def _check(shown: dict[str, Any], hand: list[int], wild_rank: int, rules: Rules) -> None:
    melds = shown["melds"]
    assert isinstance(melds, list)
    placed = [card for meld in melds for card in meld["cards"]] + list(shown["unmelded"])
    assert Counter(placed) == Counter(format_card(card) for card in hand)
    assert shown["deadwood"] == deadwood(
        hand, wild_rank=wild_rank, ace_high=rules.ace_high, wild_only_melds=rules.wild_only_melds
    )
    for meld in melds:
        cards, labels = meld["cards"], meld["stands_for"]
        assert len(cards) == len(labels) >= 3
        wild = [c == "Jk" or RANK_OF[parse_card(c)] == wild_rank for c in cards]
        assert all(
            (label is not None) <= is_wild for label, is_wild in zip(labels, wild, strict=True)
        )
        naturals = [c for c, w in zip(cards, wild, strict=True) if not w]
        if meld["kind"] == "set":
            ranks = {c[0] for c in naturals}
            assert all(label in ranks for label in labels if label is not None)
        else:
            # every place of the run, natural or wild, follows the one before it
            names = [
                label if label is not None else card
                for card, label in zip(cards, labels, strict=True)
            ]
            places = [RANKS.index(name[0]) + 1 for name in names]
            if rules.ace_high and places[-1] == 1 and len(places) > 1 and places[-2] == 13:
                places[-1] = 14
            assert places == list(range(places[0], places[0] + len(places))), cards
            assert len({name[1] for name in names}) == 1


def test_a_wild_in_a_run_stands_for_its_place() -> None:
    shown = arrangement_json(parse_cards("4h 6h 8c Kc"), wild_rank=8, rules=Rules())
    assert shown == {
        "melds": [{"kind": "run", "cards": ["4h", "8c", "6h"], "stands_for": [None, "5h", None]}],
        "unmelded": ["Kc"],
        "deadwood": 10,
    }


def test_what_every_seat_is_shown_in_played_games() -> None:
    rng = random.Random(7)
    for seed, rules in enumerate(
        [Rules(players=2), Rules(players=3, jokers=True), Rules(players=2, ace_high=True)]
    ):
        state = State.new(rules, seed=seed)
        checked_discards = 0
        while not state.game_over:
            for seat in range(rules.players):
                observation = state.observation(seat)
                shown = own_arrangement(observation)
                assert shown is not None
                _check(shown, list(observation.hand), observation.wild_rank, rules)
                discards = shown["discards"]
                mover = state.current_player == seat and observation.phase == "discard"
                assert bool(discards) == mover
                if mover:
                    assert sorted(d["card"] for d in discards) == sorted(
                        {format_card(c) for c in observation.hand}
                    )
                    assert [d["deadwood"] for d in discards] == sorted(
                        d["deadwood"] for d in discards
                    )
                    checked_discards += 1
            state.apply(rng.choice(list(state.legal_actions())))
        assert own_arrangement(state.observation(0)) is None
        assert checked_discards > 50


def test_it_reads_nothing_but_the_observation() -> None:
    state = State.new(Rules(players=2), seed=3)
    observation = state.observation(1)
    assert own_arrangement(GAME.observation_from_json(observation.to_json())) == own_arrangement(
        observation
    )
    assert GAME.own_arrangement is own_arrangement
