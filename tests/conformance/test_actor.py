"""``check``/``apply`` told who acts: turn first, and refusals the actor could explain.

On random positions of both games: every player who is not to move gets
``not_your_turn`` for every action, whatever it names, before anything else (so that
probing a hand through the refusals learns nothing), and ``apply`` refuses the same way
leaving the state as it was; the player to move gets the same refusal, code, params and
message, on a twin state whose hidden cards were shuffled (``shuffle_hidden``), so no
refusal tells them about a card they cannot see; and without ``player`` the answers are
those the player to move gets.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from rummykit.cards import CARD_COUNT
from rummykit.games import burraco, three_thirteen
from rummykit.games.burraco import actions as b
from rummykit.games.core import IllegalAction
from rummykit.games.three_thirteen import actions as t
from tests.conformance.harness import snapshot


def burraco_probes(state: burraco.State, rng: random.Random) -> list[Any]:
    """Legal actions and many illegal ones, naming cards held or not by anyone."""
    probes: list[Any] = [b.DrawStock(), b.TakePile(), "draw", None]
    probes += [b.Discard(card) for card in range(CARD_COUNT)]
    melds = sum(place.startswith("meld/") for place in state.locations())
    for _ in range(60):
        cards = tuple(rng.randrange(CARD_COUNT) for _ in range(rng.choice((1, 2, 3, 4))))
        probes.append(b.Meld(cards))
        probes.append(b.Extend(rng.randrange(max(1, melds + 1)), cards[:2]))
    return probes + list(state.legal_actions())


def three_thirteen_probes(state: three_thirteen.State, rng: random.Random) -> list[Any]:
    probes: list[Any] = [t.DrawStock(), t.TakeDiscard(), t.Discard(-1), None]
    probes += [t.Discard(card) for card in range(CARD_COUNT)]
    probes += [t.GoOut(card) for card in range(CARD_COUNT)]
    return probes + list(state.legal_actions())


GAMES: dict[str, tuple[Any, list[Any], Any]] = {
    "burraco": (
        burraco,
        [burraco.Rules(), burraco.Rules(jokers=4, stalemate_turns=60, one_set_per_rank=False)],
        burraco_probes,
    ),
    "three-thirteen": (
        three_thirteen,
        [
            three_thirteen.Rules(last_round=5),
            three_thirteen.Rules(players=4, jokers=True, first_round=6, last_round=7),
            three_thirteen.Rules(players=3, wild_only_melds=True, first_round=9, last_round=9),
        ],
        three_thirteen_probes,
    ),
}


def positions(name: str, games: int) -> Iterator[tuple[Any, random.Random]]:
    """Positions of random games of ``name`` (each a live state; copy before changing)."""
    module, variants, _ = GAMES[name]
    for seed in range(games):
        rng = random.Random(seed)
        state = module.State.new(variants[seed % len(variants)], seed)
        step = 0
        while not state.game_over:
            if step % 9 == 4:
                yield state, rng
            state.apply(rng.choice(list(state.legal_actions())))
            step += 1
        yield state, rng


@pytest.mark.parametrize("name", sorted(GAMES))
def test_only_the_player_to_move_is_answered_about_their_move(name: str) -> None:
    _, _, probe = GAMES[name]
    checked = 0
    for state, rng in positions(name, 12):
        mover = state.current_player
        probes = probe(state, rng)
        for player in range(state.num_players):
            if player == mover:
                continue
            answer = state.check(probes[0], player=player)
            assert answer is not None
            for action in probes:
                assert state.check(action, player=player) == answer, f"{action!r} tells more"
            expected = "game_over" if state.game_over else "not_your_turn"
            assert answer.code == expected
            if not state.game_over:
                assert answer.params == {"player": player, "current_player": mover}
            before = snapshot(state)
            for action in rng.sample(probes, 5):
                with pytest.raises(IllegalAction) as raised:
                    state.apply(action, player=player)
                assert raised.value.refusal == answer
            assert snapshot(state) == before
            checked += len(probes)
    assert checked > 5_000


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_mover_s_refusals_do_not_depend_on_hidden_cards(name: str) -> None:
    _, _, probe = GAMES[name]
    refused = 0
    hidden_changed = 0
    for state, rng in positions(name, 12):
        if state.game_over:
            continue
        mover = state.current_player
        twin = state.clone()
        twin.shuffle_hidden(mover, rng.randrange(2**32))
        hidden_changed += twin.locations() != state.locations()
        for action in probe(state, rng):
            answer = state.check(action, player=mover)
            assert twin.check(action, player=mover) == answer, f"{action!r} tells hidden cards"
            assert state.check(action) == answer
            refused += answer is not None
    assert refused > 2_000 and hidden_changed > 20


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_seat_that_is_not_at_the_table_is_refused(name: str) -> None:
    module, variants, _probe = GAMES[name]
    state = module.State.new(variants[0], 5)
    action = next(iter(state.legal_actions()))
    for seat in (-1, state.num_players, True, "0", 1.0):
        answer = state.check(action, player=seat)
        assert answer is not None and answer.code == "no_such_player"
        with pytest.raises(IllegalAction):
            state.apply(action, player=seat)
    assert state.check(action, player=state.current_player) is None
    state.apply(action, player=state.current_player)
