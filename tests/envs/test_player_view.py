"""The engine's cheaper ``State.player_view`` equals the observation's table fields, gives
the same vector, and shows no hidden card (twins from ``shuffle_hidden`` see the same)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from rummykit.envs import burraco_encoding, three_thirteen_encoding
from rummykit.games import burraco, three_thirteen
from rummykit.games.three_thirteen.player_view import PlayerView as ThreeThirteenView
from rummykit.games.three_thirteen.table import PileMove


def view_fields(view: Any) -> dict[str, Any]:
    return {name: getattr(view, name) for name in type(view).__slots__}


def expected_fields(observation: Any, names: list[str]) -> dict[str, Any]:
    fields = {name: getattr(observation, name) for name in names if hasattr(observation, name)}
    if "table_melds" in names:  # Burraco: the melds as two tuples
        assert [m.meld_id for m in observation.melds] == list(range(len(observation.melds)))
        fields["table_melds"] = tuple(m.meld for m in observation.melds)
        fields["owners"] = tuple(m.owner for m in observation.melds)
    return fields


def vector(observation: Any) -> Any:
    if isinstance(observation, three_thirteen.Observation | ThreeThirteenView):
        return three_thirteen_encoding.encode(observation)
    return burraco_encoding.encode(observation)


@pytest.mark.parametrize(
    "make",
    [
        lambda seed: three_thirteen.State.new(three_thirteen.Rules(players=3), seed),
        lambda seed: three_thirteen.State.new(three_thirteen.Rules(players=4, jokers=True), seed),
        lambda seed: burraco.State.new(burraco.Rules(), seed),
        lambda seed: burraco.State.new(burraco.Rules(jokers=4, mode="target", target=505), seed),
    ],
    ids=["tt3", "tt4-jokers", "burraco", "burraco-target"],
)
def test_view_is_the_observation_table_and_hides_the_same(make: Any) -> None:
    rng = random.Random(5)
    checks = 0
    for game in range(2):
        state = make(game)
        steps = 0
        while True:
            if steps % 4 == 0 or state.game_over:
                for player in range(state.num_players):
                    view = state.player_view(player)
                    fields = view_fields(view)
                    observation = state.observation(player)
                    assert fields == expected_fields(observation, list(fields))
                    assert np.array_equal(vector(view), vector(observation))
                    twin = state.clone()
                    twin.shuffle_hidden(player, rng.randrange(2**32))
                    assert view_fields(twin.player_view(player)) == fields
                    checks += 1
            if state.game_over or steps > 1500:
                break
            legal = list(state.legal_actions())
            state.apply(legal[rng.randrange(len(legal))])
            steps += 1
    assert checks > 100


def parts_as_view(parts: Any) -> dict[str, Any]:
    """Three-Thirteen's table parts in the shape of the view's fields."""
    return {
        "player": parts.player,
        "rules": parts.rules,
        "hand": tuple(sorted(parts.hand)),
        "discard_pile": tuple(parts.discard_pile),
        "known_cards": tuple(tuple(sorted(cards)) for cards in parts.taken),
        "melds": tuple(parts.melds),
        "discard_history": tuple(
            PileMove(player=who, kind=kind, card=card) for who, kind, card in parts.history
        ),
        "hand_sizes": parts.hand_sizes,
        "totals": tuple(parts.totals),
        "round_number": parts.round_number,
        "wild_rank": parts.wild_rank,
        "dealer": parts.dealer,
        "current_player": parts.current_player,
        "phase": parts.phase,
        "went_out": parts.went_out,
        "stock_count": parts.stock_count,
        "reshuffled": parts.reshuffled,
        "last_turns_remaining": parts.last_turns_remaining,
        "turn": parts.turn,
    }


@pytest.mark.parametrize("players", [2, 4])
def test_three_thirteen_table_parts_are_the_view_s_fields_in_place(players: int) -> None:
    rng = random.Random(6)
    rules = three_thirteen.Rules(players=players, jokers=True)
    checks = 0
    for game in range(3):
        state = three_thirteen.State.new(rules, game)
        while True:
            for player in range(players):
                parts = state.table_parts(player)
                assert parts_as_view(parts) == view_fields(state.player_view(player))
                twin = state.clone()
                twin.shuffle_hidden(player, rng.randrange(2**32))
                assert twin.table_parts(player) == parts
                checks += 1
            if state.game_over:
                break
            legal = list(state.legal_actions())
            state.apply(legal[rng.randrange(len(legal))])
    assert checks > 1000
    with pytest.raises(ValueError):
        state.table_parts(players)


def burraco_parts_as_view(parts: Any) -> dict[str, Any]:
    """Burraco's table parts in the shape of the view's fields."""
    return {
        "player": parts.player,
        "rules": parts.rules,
        "hand": tuple(sorted(parts.hand)),
        "discard_pile": tuple(parts.discard_pile),
        "known_cards": tuple(tuple(sorted(cards)) for cards in parts.known),
        "table_melds": tuple(parts.melds),
        "owners": tuple(parts.owners),
        "discard_history": tuple(parts.history.to_list()),
        "hand_sizes": parts.hand_sizes,
        "stock_count": parts.stock_count,
        "pozzetti_left": parts.pozzetti_left,
        "took_pozzetto": tuple(parts.took_pozzetto),
        "restricted_card": parts.restricted_card,
        "forbidden_discard": parts.forbidden_discard,
        "totals": tuple(parts.totals),
        "hand_number": parts.hand_number,
        "dealer": parts.dealer,
        "current_player": parts.current_player,
        "phase": parts.phase,
        "turn": parts.turn,
    }


@pytest.mark.parametrize(
    "rules",
    [burraco.Rules(), burraco.Rules(jokers=4, mode="target", target=505, one_set_per_rank=False)],
    ids=["burraco", "burraco-target"],
)
def test_burraco_table_parts_are_the_view_s_fields_in_place(rules: burraco.Rules) -> None:
    rng = random.Random(7)
    checks = 0
    for game in range(3):
        state = burraco.State.new(rules, game)
        while True:
            for player in range(2):
                parts = state.table_parts(player)
                assert burraco_parts_as_view(parts) == view_fields(state.player_view(player))
                twin = state.clone()
                twin.shuffle_hidden(player, rng.randrange(2**32))
                assert burraco_parts_as_view(twin.table_parts(player)) == burraco_parts_as_view(
                    parts
                )
                checks += 1
            if state.game_over:
                break
            legal = list(state.legal_actions())
            state.apply(legal[rng.randrange(len(legal))])
    assert checks > 1000
    with pytest.raises(ValueError):
        state.table_parts(2)


def test_view_refuses_a_seat_that_is_not_at_the_table() -> None:
    state = burraco.State.new(burraco.Rules(), 1)
    with pytest.raises(ValueError):
        state.player_view(2)
    game = three_thirteen.State.new(three_thirteen.Rules(players=2), 1)
    with pytest.raises(ValueError):
        game.player_view(-1)
