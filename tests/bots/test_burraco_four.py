"""The Burraco bots at a table of four: they read the table by team, feed their team's
melds, keep the opponents' melds unfed, search with team rewards, and give hints and
reviews for a seat in a pair."""

from __future__ import annotations

import random
from collections import Counter

from rummykit.bots.burraco.evaluate import BurracoSearch, state_values
from rummykit.bots.burraco.reading import fitting_faces, is_wild_face, read_table
from rummykit.bots.hints import suggest
from rummykit.bots.ismcts import ISMCTSBot
from rummykit.bots.levels import make_bot
from rummykit.games.burraco import (
    GAME,
    Discard,
    Extend,
    Observation,
    Rules,
    State,
    determinize,
    format_action,
)
from rummykit.games.burraco.events import Melded
from rummykit.server.competition.review import review_game
from rummykit.sim.match import bot_rng

FOUR = Rules(players=4)


def fits_meld_of(seen: Observation, card: int, *, team: int) -> bool:
    return any(card in fitting_faces(m.meld) for m in seen.melds if m.owner == team)


def test_the_reading_is_by_team_at_every_decision() -> None:
    bot = make_bot("burraco", "greedy")
    state = State.new(FOUR, 21)
    decisions = 0
    while not state.game_over and decisions < 120:
        seat = state.current_player
        assert seat is not None
        seen = state.observation(seat)
        reading = read_table(seen)
        team = seat % 2
        assert (reading.team, reading.partner, reading.opponent) == (
            team,
            (seat + 2) % 4,
            (seat + 1) % 4,
        )
        assert reading.opponents == tuple(s for s in range(4) if s % 2 != team)
        assert all(m.owner == team for m in reading.own_melds)
        assert all(m.owner != team for m in reading.opponent_melds)
        assert len(reading.own_melds) + len(reading.opponent_melds) == len(seen.melds)
        assert reading.can_refill == (bool(seen.pozzetti_left) and not seen.took_pozzetto[team])
        known = Counter(seen.known_cards[(seat + 1) % 4]) + Counter(
            seen.known_cards[(seat + 3) % 4]
        )
        assert Counter(reading.opponent_known) == known
        legal = list(state.legal_actions())
        action = legal[0] if len(legal) == 1 else bot.decide(seen, legal, bot_rng(21, seat)).action
        state.apply(action)
        decisions += 1
    assert decisions > 40


def _greedy_games(seeds: range) -> tuple[int, int, float, int]:
    """Greedy at every seat: additions to a meld the partner laid; discards that fed one
    of the other team's melds while a natural card that fits none could have gone; the
    share of feeding cards among the legal discards (what a random discard would feed);
    and discards in all."""
    bot = make_bot("burraco", "greedy")
    to_partner = avoidable = discards = 0
    shares: list[float] = []
    for seed in seeds:
        state = State.new(FOUR, seed)
        laid_by: dict[int, int] = {}
        while not state.game_over:
            seat = state.current_player
            assert seat is not None
            seen = state.observation(seat)
            legal = list(state.legal_actions())
            action = (
                legal[0] if len(legal) == 1 else bot.decide(seen, legal, bot_rng(seed, seat)).action
            )
            if isinstance(action, Extend) and laid_by.get(action.meld_id) == (seat + 2) % 4:
                to_partner += 1
            if isinstance(action, Discard):
                discards += 1
                cards = [a.card for a in legal if isinstance(a, Discard)]
                feeds = [fits_meld_of(seen, card, team=(seat + 1) % 2) for card in cards]
                shares.append(sum(feeds) / len(cards))
                safe = [
                    c for c, f in zip(cards, feeds, strict=True) if not f and not is_wild_face(c)
                ]
                avoidable += fits_meld_of(seen, action.card, team=(seat + 1) % 2) and bool(safe)
            hand = state.hand_number
            for event in state.apply(action):
                if isinstance(event, Melded):
                    laid_by[event.meld_id] = event.player
            if state.hand_number != hand:
                laid_by.clear()
    return to_partner, avoidable, sum(shares) / len(shares), discards


def _discard_reasons(rules: Rules, seed: int) -> Counter[str]:
    """The phrase codes of greedy's discard reasons over one whole game."""
    bot = make_bot("burraco", "greedy")
    state = State.new(rules, seed)
    codes: Counter[str] = Counter()
    while not state.game_over:
        seat = state.current_player
        assert seat is not None
        legal = list(state.legal_actions())
        decision = bot.decide(state.observation(seat), legal, bot_rng(seed, seat))
        if isinstance(decision.action, Discard):
            codes.update(phrase.code for phrase in decision.reason.phrases)
        state.apply(decision.action)
    return codes


def test_a_discard_reason_speaks_of_two_opponents_at_four() -> None:
    pairs = {"least_useful_pairs", "opponents_threw_one"}
    singles = {"least_useful", "opponent_threw_one"}
    four, two = _discard_reasons(FOUR, 5), _discard_reasons(Rules(), 5)
    assert four["least_useful_pairs"] > 5 and not singles & set(four)
    assert two["least_useful"] > 5 and not pairs & set(two)


def test_greedy_adds_to_its_partner_melds_and_does_not_feed_the_opponents() -> None:
    to_partner, avoidable, random_share, discards = _greedy_games(range(3))
    assert to_partner >= 3  # the team's melds are shared: partners build on each other's
    # a random discard would feed the other team's melds four times in ten; greedy
    # feeds them only when every natural card it may discard would
    assert discards > 30 and random_share > 0.3
    assert avoidable <= discards // 50


def test_the_search_rewards_partners_alike() -> None:
    state = State.new(FOUR, 8)
    state.apply(next(iter(state.legal_actions())))
    seen = state.observation(state.current_player or 0)
    playout = BurracoSearch().playout(seen)
    world = determinize(seen, 3)
    assert world.observation(seen.player) == seen
    rewards = playout.rewards(world, random.Random(1))
    assert len(rewards) == 4
    assert rewards[0] == rewards[2] == -rewards[1] == -rewards[3]
    first, second = state_values(determinize(seen, 4))
    assert isinstance(first, float) and isinstance(second, float)


def test_the_search_decides_for_every_seat_of_four() -> None:
    bot = ISMCTSBot(BurracoSearch(), iterations=40)
    state = State.new(FOUR, 13)
    seats: set[int] = set()
    while len(seats) < 4:
        seat = state.current_player
        assert seat is not None
        legal = list(state.legal_actions())
        decision = bot.decide(state.observation(seat), legal, random.Random(seat))
        assert decision.action in legal
        if bot.last_iterations:
            seats.add(seat)
        state.apply(decision.action)


def test_a_hint_for_a_seat_in_a_pair_is_legal_and_the_same_twice() -> None:
    state = State.new(FOUR, 5)
    while state.current_player != 2 or len(list(state.legal_actions())) < 2:
        state.apply(next(iter(state.legal_actions())))
    seen = state.observation(2)
    legal = list(state.legal_actions())
    first = suggest("burraco", seen, legal, iterations=60, seed=9)
    again = suggest("burraco", seen, legal, iterations=60, seed=9)
    assert first.action in legal and first.action == again.action
    assert first.reason.text


def test_a_review_of_a_seat_in_a_pair() -> None:
    state = State.new(FOUR, 6)
    bots = [make_bot("burraco", "greedy") for _ in range(4)]
    actions: list[str] = []
    while len(actions) < 24:
        seat = state.current_player
        assert seat is not None
        legal = list(state.legal_actions())
        action = (
            legal[0]
            if len(legal) == 1
            else bots[seat].decide(state.observation(seat), legal, bot_rng(6, seat)).action
        )
        actions.append(format_action(action))
        state.apply(action)
    items = review_game("burraco", {"players": 4}, 6, actions, 3, iterations=30)
    assert items and all(item["played"] for item in items)
    assert all(item["suggested"] is None or item["suggested"] != item["played"] for item in items)
    assert GAME.player_counts == (2, 4)
