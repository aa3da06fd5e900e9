"""Hypothesis properties of Burraco for four (RULES.md section 3) over random play.

Whatever the deal and the moves: every meld belongs to the team of the player who laid
it and only that team adds to it; a team takes at most one pozzetto, and only a player
of a team without one takes it; a hand is closed only by a player whose team has its
pozzetto (or none is left) and a burraco; each hand is scored by team from the team's
melds and both partners' hands; partners always have the same total, and the winners
are whole teams.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.cards import BURRACO_POINTS
from rummykit.games.burraco import Extend, Rules, State
from rummykit.games.burraco.events import (
    Extended,
    HandDealt,
    HandEnded,
    Melded,
    PozzettoTaken,
    PozzettoToStock,
)

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def play(seed: int, rules: Rules) -> State:
    """A whole game of random moves, checking the team rules after every move."""
    state = State.new(rules, seed)
    rng = random.Random(seed)
    owners: list[int] = []
    taken_by_team: list[int] = [0, 0]
    left = 2
    while not state.game_over:
        player = state.current_player
        assert player is not None
        team = player % 2
        actions = list(state.legal_actions())
        observation = state.observation(player)
        for meld in observation.melds:
            if meld.owner != team:
                foreign = Extend(meld.meld_id, (observation.hand[0],))
                assert foreign not in actions
                refusal = state.check(foreign)
                assert refusal is not None
        could_refill = not observation.took_pozzetto[team] and bool(observation.pozzetti_left)
        had_burraco = any(m.owner == team and m.meld.is_burraco for m in observation.melds)
        events = state.apply(rng.choice(actions))
        for event in events:
            if isinstance(event, Melded):
                owners.append(event.player % 2)
                assert event.meld_id == len(owners) - 1
            elif isinstance(event, Extended):
                assert owners[event.meld_id] == event.player % 2
            elif isinstance(event, PozzettoTaken):
                taken_by_team[event.player % 2] += 1
                assert taken_by_team[event.player % 2] == 1, "a team took two pozzetti"
                left -= 1
            elif isinstance(event, PozzettoToStock):
                left -= 1
            elif isinstance(event, HandEnded):
                if event.closer is not None:
                    assert event.closer == player and not could_refill and had_burraco
                for side in range(2):
                    took = taken_by_team[side] == 1
                    assert (event.result.breakdown[side].pozzetto_penalty == 0) == took
            elif isinstance(event, HandDealt):
                owners, taken_by_team, left = [], [0, 0], 2
        assert left >= 0
        if not state.game_over:
            sizes = state.observation(player).hand_sizes
            assert all(size > 0 for seat, size in enumerate(sizes) if seat != player)
    return state


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS, jokers=st.sampled_from((2, 4)), one_set=st.booleans())
def test_random_four_player_hands_keep_the_team_rules(
    seed: int, jokers: int, one_set: bool
) -> None:
    state = play(seed, Rules(players=4, jokers=jokers, one_set_per_rank=one_set))
    (result,) = state.hand_results
    places = state.locations()
    for team in range(2):
        hands = places[f"hand/{team}"] + places[f"hand/{team + 2}"]
        assert result.breakdown[team].in_hand == sum(BURRACO_POINTS[c] for c in hands)
        assert result.breakdown[team].melded == sum(m.points for m in result.melds[team])
    assert state.totals == (result.scores[0], result.scores[1]) * 2


@settings(max_examples=8, deadline=None)
@given(seed=SEEDS)
def test_partners_share_their_total_and_win_together(seed: int) -> None:
    state = play(seed, Rules(players=4, mode="target", target=505, max_hands=6))
    totals = state.totals
    assert totals[0] == totals[2] and totals[1] == totals[3]
    assert tuple(result.totals for result in state.hand_results)[-1] == totals[:2]
    assert set(state.winners) in ({0, 2}, {1, 3}, {0, 1, 2, 3})
    if set(state.winners) != {0, 1, 2, 3}:
        winner = state.winners[0] % 2
        assert totals[winner] > totals[1 - winner]
