"""Known answers for Burraco for four (RULES.md section 3): the deal and the turn order,
the team's shared melds, the team's pozzetto, closing, scoring by team, what each seat
sees, determinization and records."""

from __future__ import annotations

import json

import pytest

from rummykit.cards import burraco_deck
from rummykit.games import burraco
from rummykit.games.burraco import DrawStock, Rules, State
from rummykit.games.burraco.events import (
    Extended,
    HandDealt,
    HandEnded,
    Melded,
    PozzettoTaken,
    StockDrawn,
)
from rummykit.games.core import IllegalAction, rules_from_json, rules_to_json
from rummykit.games.randomness import SeedStream
from rummykit.games.record import dumps, final_state, loads, record_of

from .support import BURRACO, cards, discard, draw_and_discard, extend, meld, position

FOUR = Rules(players=4)


def four(**parts: object) -> State:
    """A four-player position (``support.position`` with ``players=4`` rules)."""
    return position(rules=FOUR, dealer=3, **parts)


def refused(state: State, action: object, code: str) -> str:
    """``action`` is refused with ``code`` by check and apply, the state unchanged; the
    refusal's message."""
    refusal = state.check(action)
    assert refusal is not None and refusal.code == code, refusal
    before = (state.locations(), [state.observation(p) for p in range(4)], len(state.events))
    with pytest.raises(IllegalAction):
        state.apply(action)  # type: ignore[arg-type]
    assert before == (
        state.locations(),
        [state.observation(p) for p in range(4)],
        len(state.events),
    )
    assert action not in set(state.legal_actions())
    return refusal.message


# ---------------------------------------------------------------------------------------
# Rules, deal and turn order


def test_players_is_two_or_four_and_left_out_of_two_player_json() -> None:
    assert Rules().players == 2 and FOUR.players == 4
    for wrong in (1, 3, 5, True, "4"):
        with pytest.raises(ValueError, match="2 players or by 4 in two partnerships"):
            Rules(players=wrong)  # type: ignore[arg-type]
    assert "players" not in rules_to_json(Rules())
    assert rules_to_json(FOUR)["players"] == 4
    assert rules_from_json(Rules, rules_to_json(FOUR)) == FOUR
    assert rules_from_json(Rules, {"players": 2}) == Rules()
    # tables, commands and environments offer both
    assert burraco.GAME.player_counts == (2, 4)


@pytest.mark.parametrize("seed", [0, 5, 2**63 - 1])
@pytest.mark.parametrize("jokers", [2, 4])
def test_the_deal_gives_four_hands_from_the_seat_after_the_dealer(seed: int, jokers: int) -> None:
    state = State.new(Rules(players=4, jokers=jokers), seed)
    dealer = SeedStream(seed, "first-dealer").below(4)
    deck = burraco_deck(jokers=jokers)
    SeedStream(seed, "hand/0").shuffle(deck)
    hands: list[list[int]] = [[], [], [], []]
    for _ in range(11):
        for step in range(1, 5):
            hands[(dealer + step) % 4].append(deck.pop())
    pozzetti = [[deck.pop() for _ in range(11)] for _ in range(2)]
    pile = [deck.pop()]
    places = state.locations()
    assert state.dealer == dealer and state.current_player == (dealer + 1) % 4
    assert [places[f"hand/{seat}"] for seat in range(4)] == hands
    assert [places["pozzetto/0"], places["pozzetto/1"]] == pozzetti
    assert places["discard_pile"] == pile and places["stock"] == deck
    assert len(deck) == (39 if jokers == 2 else 41)
    (dealt,) = state.events
    assert isinstance(dealt, HandDealt) and len(dealt.hands) == 4


def test_first_dealers_cover_the_four_seats() -> None:
    assert {State.new(FOUR, seed).dealer for seed in range(40)} == {0, 1, 2, 3}


def test_play_goes_clockwise_and_the_deal_passes_to_the_next_seat() -> None:
    state = State.new(Rules(players=4, mode="target", target=100_000, stalemate_turns=8), 3)
    first = state.dealer
    for hand in range(3):
        assert state.dealer == (first + hand) % 4
        seats = []
        while state.hand_number == hand:
            seats.append(state.current_player)
            draw_and_discard(state)
        start = (state.hand_results[-1].dealer + 1) % 4
        assert seats == [(start + i) % 4 for i in range(8)]
        assert state.hand_results[-1].reason == "stalemate"


def test_only_the_seat_to_move_may_act() -> None:
    state = State.new(FOUR, 9)
    mover = state.current_player
    assert mover is not None
    for seat in range(4):
        refusal = state.check(DrawStock(), player=seat)
        assert (refusal is None) == (seat == mover)
        if refusal is not None:
            assert refusal.code == "not_your_turn"
    assert state.check(DrawStock(), player=4) is not None


# ---------------------------------------------------------------------------------------
# The team's melds


def test_a_partner_adds_to_the_team_meld_and_the_other_team_may_not() -> None:
    # Seat 0 (team 0) laid 5h 6h 7h; seat 2 is to play, holding 8h.
    state = four(hands=["Kc Kd", "8h 4c", "8h 9s Qd", "9h Jc"], melds=[(0, "5h 6h 7h")], player=2)
    assert state.check(extend(0, "8h")) is None
    assert extend(0, "8h") in set(state.legal_actions())
    events = state.apply(extend(0, "8h"))
    assert isinstance(events[0], Extended) and events[0].player == 2
    observation = state.observation(1)
    assert [(m.meld_id, m.owner) for m in observation.melds] == [(0, 0)]
    assert observation.melds[0].meld.cards == tuple(cards("5h 6h 7h 8h"))
    other = four(hands=["Kc Kd", "8h 4c", "9s Qd Qs", "9h Jc"], melds=[(0, "5h 6h 7h")], player=1)
    message = refused(other, extend(0, "8h"), "not_your_meld")
    assert "other team" in message


def test_a_meld_laid_by_seat_three_belongs_to_team_one() -> None:
    state = four(hands=["Kc Kd", "4c 5c", "9s Qd", "Jh Qh Kh 2c"], player=3)
    events = state.apply(meld("Jh Qh Kh"))
    assert isinstance(events[0], Melded) and events[0].player == 3
    assert [m.owner for m in state.observation(0).melds] == [1]
    assert state.team_of(3) == 1 and state.partner_of(3) == 1


def test_one_set_of_a_rank_per_team() -> None:
    state = four(
        hands=["4h 4s", "4c 5c", "Kh Ks Kd 9c", "Jh Qh"], melds=[(0, "Kc Kd Ks")], player=2
    )
    message = refused(state, meld("Kh Ks Kd"), "second_set_of_rank")
    assert "your team already has" in message
    assert state.check(extend(0, "Kh")) is None
    # The other team may still lay its own set of kings.
    theirs = four(
        hands=["4h 4s", "Kh Ks Kd 9c", "4c 5c", "Jh Qh"], melds=[(0, "Kc Kd Ks")], player=1
    )
    assert theirs.check(meld("Kh Ks Kd")) is None


# ---------------------------------------------------------------------------------------
# The team's pozzetto


def test_melding_out_takes_the_team_pozzetto_and_the_turn_goes_on() -> None:
    state = four(hands=["Kc Kd", "4c 5c", "3h 4h 5h", "Jh Qh"], player=2)
    events = state.apply(meld("3h 4h 5h"))
    taken = [e for e in events if isinstance(e, PozzettoTaken)]
    assert [(e.player, e.pozzetto) for e in taken] == [(2, 0)]
    assert state.current_player == 2 and state.phase == "play"
    observation = state.observation(0)
    assert observation.took_pozzetto == (True, False) and observation.hand_sizes[2] == 11
    assert observation.pozzetti_left == (1,)
    # Partner and opponents see that it was taken, not its cards.
    for seat in (0, 1, 3):
        seen = state.events_for(seat)[-1]
        assert isinstance(seen, PozzettoTaken) and seen.cards is None
    assert state.events_for(2)[-1] == taken[0]


def test_discarding_the_last_card_takes_the_pozzetto_and_ends_the_turn() -> None:
    state = four(hands=["Kc Kd", "4c 5c", "9h", "Jh Qh"], player=2)
    events = state.apply(discard("9h"))
    assert any(isinstance(e, PozzettoTaken) and e.player == 2 for e in events)
    assert state.current_player == 3 and state.observation(3).took_pozzetto == (True, False)


def test_once_the_team_has_its_pozzetto_the_partner_takes_none() -> None:
    # Team 0 took pozzetto 0; seat 0 may not meld out, for the team takes no second one.
    state = four(
        hands=["3h 4h 5h", "4c 5c", "9s Qd", "Jh Qh"],
        took=(True, False),
        pozzetti=(False, True),
        player=0,
    )
    refusal = state.check(meld("3h 4h 5h"))
    assert refusal is not None and refusal.params["reason"] == "empty_hand"
    # Team 1 has not: seat 1 melding out takes the pozzetto left.
    other = four(
        hands=["Kc Kd", "3h 4h 5h", "9s Qd", "Jh Qh"],
        took=(True, False),
        pozzetti=(False, True),
        player=1,
    )
    events = other.apply(meld("3h 4h 5h"))
    assert [(e.player, e.pozzetto) for e in events if isinstance(e, PozzettoTaken)] == [(1, 1)]
    assert other.observation(1).took_pozzetto == (True, True)


# ---------------------------------------------------------------------------------------
# Closing


def test_the_partner_closes_with_the_team_pozzetto_and_the_team_burraco() -> None:
    # Seat 2 took the team's pozzetto and laid the burraco; seat 0 closes.
    state = four(
        hands=["9c", "4c 5c", "Qd Qs", "Jh Qh"],
        melds=[(0, BURRACO)],
        took=(True, False),
        pozzetti=(False, True),
        player=0,
    )
    events = state.apply(discard("9c"))
    (ended,) = [e for e in events if isinstance(e, HandEnded)]
    assert ended.reason == "closed" and ended.closer == 0
    assert ended.result.breakdown[0].closing_bonus == 100
    assert state.game_over and state.winners == (0, 2)


def test_closing_needs_the_team_pozzetto() -> None:
    # Team 0 has a burraco but no pozzetto: the last discard takes it instead.
    state = four(hands=["9c", "4c 5c", "Qd Qs", "Jh Qh"], melds=[(0, BURRACO)], player=0)
    events = state.apply(discard("9c"))
    assert not any(isinstance(e, HandEnded) for e in events)
    assert any(isinstance(e, PozzettoTaken) and e.player == 0 for e in events)


def test_closing_needs_a_burraco_of_the_team() -> None:
    # The other team's burraco does not count.
    state = four(
        hands=["9c", "4c 5c", "Qd Qs", "Jh Qh"],
        melds=[(1, BURRACO)],
        took=(True, False),
        pozzetti=(False, True),
        player=0,
    )
    assert "of your team" in refused(state, discard("9c"), "closing_without_burraco")


def test_closing_discard_may_not_be_a_wild() -> None:
    state = four(
        hands=["Jk", "4c 5c", "Qd Qs", "Jh Qh"],
        melds=[(0, BURRACO)],
        took=(True, False),
        pozzetti=(False, True),
        player=0,
    )
    refused(state, discard("Jk"), "closing_with_wild")


def test_a_meld_leaving_a_card_that_cannot_close_is_refused_for_the_partner_too() -> None:
    state = four(
        hands=["Qd Qs", "4c 5c", "3h 4h 5h Kc", "Jh Qh"],
        took=(True, False),
        pozzetti=(False, True),
        player=2,
    )
    refusal = state.check(meld("3h 4h 5h"))
    assert refusal is not None and refusal.params["reason"] == "no_burraco"


# ---------------------------------------------------------------------------------------
# Scoring by team


def test_the_worked_example_of_rules_3_6() -> None:
    state = four(
        hands=["Td", "Jk", "Qh 4c", "Ac"],
        melds=[(0, "3h 4h 5h 6h 7h 8h 9h"), (0, "Kc Kd Ks"), (1, "5c 5d 5s")],
        took=(True, False),
        pozzetti=(False, True),
        player=0,
    )
    events = state.apply(discard("Td"))
    (ended,) = [e for e in events if isinstance(e, HandEnded)]
    result = ended.result
    assert result.scores == (360, -130)
    assert result.breakdown[0].in_hand == 15 and result.breakdown[0].clean_burracos == 1
    assert result.breakdown[1].in_hand == 45 and result.breakdown[1].pozzetto_penalty == 100
    assert result.totals == (360, -130)
    assert [len(team) for team in result.melds] == [2, 1]
    assert state.totals == (360, -130, 360, -130)
    assert state.winners == (0, 2)
    for seat in range(4):
        assert state.observation(seat).totals == (360, -130, 360, -130)


def test_totals_add_up_by_team_and_a_tie_is_a_draw_for_all_four() -> None:
    state = four(
        hands=["Td", "Jk", "Qh 4c", "Ac"],
        melds=[(0, BURRACO)],
        took=(True, False),
        pozzetti=(False, True),
        player=0,
        totals=(500, 400, 500, 400),
    )
    state.apply(discard("Td"))
    assert state.hand_results[0].totals == tuple(state.totals[:2])
    assert state.totals[0] == state.totals[2] and state.totals[1] == state.totals[3]
    assert state.totals == (500 + 330, 400 - 45 - 100, 830, 255)
    # Both teams end the hand on -40: a quick game's tie is a draw, and all four win.
    tie = four(
        hands=["Kc Kd", "Tc Jc", "9s Qd", "Jh Qh"],
        took=(True, True),
        pozzetti=(False, False),
        stock_top="Kh",
        stock_size=1,
        phase="draw",
        player=0,
    )
    tie.apply(DrawStock())
    tie.apply(discard("Kh"))
    assert tie.hand_results[0].reason == "stock_exhausted"
    assert tie.hand_results[0].scores == (-40, -40)
    assert tie.game_over and tie.winners == (0, 1, 2, 3)


# ---------------------------------------------------------------------------------------
# What each seat sees


def test_a_seat_sees_its_own_hand_only_and_who_plays_with_whom() -> None:
    state = State.new(FOUR, 11)
    for seat in range(4):
        observation = state.observation(seat)
        assert observation.num_players == 4 and observation.team == seat % 2
        assert observation.partner == (seat + 2) % 4
        assert observation.hand_sizes == (11, 11, 11, 11)
        assert len(observation.known_cards) == 4 and observation.took_pozzetto == (False, False)
        assert observation.totals == (0, 0, 0, 0)
        (dealt,) = state.events_for(seat)
        assert isinstance(dealt, HandDealt)
        assert [hand is not None for hand in dealt.hands] == [s == seat for s in range(4)]
        text = json.dumps(observation.to_json())
        assert burraco.GAME.observation_from_json(json.loads(text)) == observation
    assert State.new(Rules(), 11).observation(0).partner is None


def test_the_partner_hand_is_hidden_from_the_observation() -> None:
    hands = ["Kc Kd 4h", "4c 5c 6c", "9s Qd Jd", "Jh Qh Th"]
    other = ["Kc Kd 4h", "4c 5c 6c", "Ac Ad As", "Jh Qh Th"]
    assert four(hands=hands).observation(0) == four(hands=other).observation(0)
    assert four(hands=hands).observation(2) != four(hands=other).observation(2)


def test_a_drawn_card_is_seen_by_the_drawer_only() -> None:
    state = State.new(FOUR, 2)
    mover = state.current_player
    assert mover is not None
    state.apply(DrawStock())
    for seat in range(4):
        seen = state.events_for(seat)[-1]
        assert isinstance(seen, StockDrawn) and (seen.card is not None) == (seat == mover)


def test_observation_json_refuses_the_wrong_number_of_seats_or_teams() -> None:
    data = State.new(FOUR, 4).observation(1).to_json()
    for field, value in (
        ("hand_sizes", [11, 11]),
        ("took_pozzetto", [False, False, False, False]),
        ("totals", [0, 0]),
    ):
        with pytest.raises(ValueError, match=field):
            burraco.GAME.observation_from_json({**data, field: value})
    with pytest.raises(ValueError, match="player"):
        burraco.GAME.observation_from_json({**data, "player": 4})


# ---------------------------------------------------------------------------------------
# Determinization and records


@pytest.mark.parametrize("seed", range(6))
def test_determinization_fills_three_hidden_hands(seed: int) -> None:
    state = State.new(FOUR, seed)
    for _ in range(seed * 3):
        state.apply(sorted(state.legal_actions(), key=repr)[0])
    for seat in range(4):
        observation = state.observation(seat)
        guess = burraco.determinize(observation, 99)
        assert guess.observation(seat) == observation
        sizes = [len(guess.locations()[f"hand/{s}"]) for s in range(4)]
        assert sizes == list(observation.hand_sizes)
        assert guess.num_players == 4


def test_a_four_player_record_round_trips_and_replays() -> None:
    state = State.new(FOUR, 17)
    while not state.game_over:
        state.apply(next(iter(state.legal_actions())))
    record = record_of(burraco.GAME, state)
    text = dumps(record)
    assert '"players": 4' in text
    replayed = final_state(loads(text))
    assert replayed.totals == state.totals and replayed.winners == state.winners
    for seat in range(4):
        assert replayed.events_for(seat) == state.events_for(seat)
