"""The ``ismcts`` bot: legal moves, determinism, no peeking, strength, and its parts.

The strength checks play fixed seeds with a fixed iteration budget, so they are exact
repetitions, never a matter of luck: the margins asked for are far below what the bot
reaches on those seeds (see each test).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rummykit.bots.base import Decision
from rummykit.bots.burraco.evaluate import (
    BONUS_SHARE,
    BurracoSearch,
    is_wild_face,
    meld_value,
    position_value,
    reward_of,
)
from rummykit.bots.burraco.evaluate import CheapPolicy as BurracoPolicy
from rummykit.bots.ismcts import MIN_ROUNDS, ISMCTSBot, paired_gain
from rummykit.bots.random_bot import RandomBot
from rummykit.bots.reasons import Reason
from rummykit.bots.three_thirteen.evaluate import (
    CheapPolicy,
    ThreeThirteenPlayout,
    ThreeThirteenSearch,
    near_bits,
    reward_scale,
    round_rewards,
)
from rummykit.bots.three_thirteen.greedy import ThreeThirteenGreedyBot
from rummykit.cards import BURRACO_POINTS, parse_card, parse_cards
from rummykit.games import burraco, three_thirteen
from rummykit.games.burraco.actions import Extend
from rummykit.games.burraco.melds import arrange as arrange_burraco
from rummykit.games.three_thirteen.actions import Discard
from rummykit.games.three_thirteen.arrange import best_discards, deadwood
from rummykit.sim.match import play_game

TT_GAME = three_thirteen.GAME
BURRACO_GAME = burraco.GAME


class Checked:
    """Wraps a bot and checks that every action it returns is one of the legal ones."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.name = bot.name
        self.decisions = 0

    def decide(self, observation: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        decision = self.bot.decide(observation, legal_actions, rng)
        assert isinstance(decision, Decision)
        assert decision.action in legal_actions
        assert decision.reason.text and "\n" not in decision.reason.text
        self.decisions += 1
        return decision


def tt_rules(first: int, last: int, players: int = 2) -> three_thirteen.Rules:
    return three_thirteen.Rules(players=players, first_round=first, last_round=last)


def tt_position(round_number: int, seed: int, moves: int) -> three_thirteen.State:
    """A Three-Thirteen state ``moves`` rollout-policy moves into a round (the game goes
    on to the round after, should this one end early)."""
    rules = tt_rules(round_number, min(round_number + 1, 11))
    state = three_thirteen.State.new(rules, seed)
    policy = CheapPolicy(rules, state.wild_rank)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply(policy.action(state, rng))
    return state


def burraco_position(seed: int, turns: int) -> burraco.State:
    """A quick-game Burraco state some ``turns`` into the hand, in a play phase with
    more than one move worth searching."""
    state = searchable_burraco_position(seed, turns)
    assert state is not None
    return state


def searchable_burraco_position(seed: int, turns: int) -> burraco.State | None:
    """What :func:`burraco_position` describes, or ``None`` when the hand ends before it:
    about one deal in seventy ends before its twentieth turn with no such state left."""
    state = burraco.State.new(burraco.Rules(), seed)
    policy = BurracoPolicy()
    rng = random.Random(seed)

    def searchable() -> bool:
        if state.turn < turns or state.phase != "play":
            return False
        observation = own_view(state)
        playout = BurracoSearch().playout(observation)
        worth = playout.root_candidates(list(state.legal_actions()))
        return len(worth) > 1

    while not searchable():
        if state.game_over:
            return None
        state.apply(policy.action(state, rng))
    return state


def to_move(state: Any) -> int:
    player = state.current_player
    assert isinstance(player, int)
    return player


def own_view(state: Any) -> Any:
    """The observation of the player to move."""
    return state.observation(to_move(state))


def decide(bot: ISMCTSBot, state: Any, seed: int) -> Decision:
    player = state.current_player
    return bot.decide(state.observation(player), list(state.legal_actions()), random.Random(seed))


# ---------------------------------------------------------------------------------------
# Legal moves in whole games


@pytest.mark.parametrize("players", [2, 3, 4])
def test_three_thirteen_games_only_legal_moves(players: int) -> None:
    bots = [Checked(ISMCTSBot(ThreeThirteenSearch(), iterations=8)) for _ in range(players)]
    result = play_game(TT_GAME, tt_rules(1, 3, players), bots, seed=40 + players)
    assert result.state.game_over
    assert all(bot.decisions > 0 for bot in bots)


def test_burraco_game_only_legal_moves() -> None:
    bots = [Checked(ISMCTSBot(BurracoSearch(), iterations=6)) for _ in range(2)]
    result = play_game(BURRACO_GAME, burraco.Rules(), bots, seed=11)
    assert result.state.game_over
    assert all(bot.decisions > 0 for bot in bots)


def test_three_thirteen_late_rounds_only_legal_moves() -> None:
    bots = [Checked(ISMCTSBot(ThreeThirteenSearch(), iterations=4)) for _ in range(2)]
    result = play_game(TT_GAME, tt_rules(10, 11), bots, seed=5)
    assert result.state.game_over
    assert len(result.state.hand_results) == 2


# ---------------------------------------------------------------------------------------
# Determinism and what the bot may know


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_three_thirteen_deterministic_with_iterations(seed: int) -> None:
    state = tt_position(6, seed, moves=3 + seed)
    first = decide(ISMCTSBot(ThreeThirteenSearch(), iterations=60), state, seed)
    again = decide(ISMCTSBot(ThreeThirteenSearch(), iterations=60), state, seed)
    assert first == again


@pytest.mark.parametrize("seed", [1, 2])
def test_burraco_deterministic_with_iterations(seed: int) -> None:
    state = burraco_position(seed, turns=10)
    bot = ISMCTSBot(BurracoSearch(), iterations=80)
    first = decide(bot, state, seed)
    root = bot.last_root
    assert root is not None
    visits = {child.action: child.visits for child in root.children.values()}
    again = decide(bot, state, seed)
    assert first == again
    assert bot.last_root is not None
    assert visits == {child.action: child.visits for child in bot.last_root.children.values()}


@pytest.mark.parametrize("paired", [False, True])
def test_the_rng_is_the_only_randomness(paired: bool) -> None:
    """Different generator seeds explore differently (the tree statistics differ)."""
    state = tt_position(6, 9, moves=3)
    bot = ISMCTSBot(ThreeThirteenSearch(), iterations=40, paired=paired)
    trees = []
    for seed in (1, 2):
        decide(bot, state, seed)
        assert bot.last_root is not None
        trees.append(
            {
                child.action: (child.visits, child.reward)
                for child in bot.last_root.children.values()
            }
        )
    assert trees[0] != trees[1]


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 8), shuffle=st.integers(0, 2**63 - 1))
def test_three_thirteen_same_observation_same_action(seed: int, moves: int, shuffle: int) -> None:
    state = tt_position(5, seed, moves)
    player = state.current_player
    assert player is not None
    other = state.clone()
    other.shuffle_hidden(player, shuffle)
    assert other.observation(player) == state.observation(player)
    bot = ISMCTSBot(ThreeThirteenSearch(), iterations=30)
    assert decide(bot, state, seed) == decide(bot, other, seed)


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10_000), turns=st.integers(2, 20), shuffle=st.integers(0, 2**63 - 1))
def test_burraco_same_observation_same_action(seed: int, turns: int, shuffle: int) -> None:
    state = searchable_burraco_position(seed, turns)
    assume(state is not None)
    assert state is not None
    player = state.current_player
    assert player is not None
    other = state.clone()
    other.shuffle_hidden(player, shuffle)
    assert other.observation(player) == state.observation(player)
    assert other.locations() != state.locations()  # the hidden cards did move
    bot = ISMCTSBot(BurracoSearch(), iterations=30)
    assert decide(bot, state, seed) == decide(bot, other, seed)


def test_legal_action_order_does_not_matter() -> None:
    state = tt_position(6, 4, moves=1)
    observation = own_view(state)
    legal = list(state.legal_actions())
    bot = ISMCTSBot(ThreeThirteenSearch(), iterations=40)
    forward = bot.decide(observation, legal, random.Random(5))
    backward = bot.decide(observation, legal[::-1], random.Random(5))
    assert forward == backward


# ---------------------------------------------------------------------------------------
# Strength: clearly better than random play, on fixed seeds


def test_beats_random_at_three_thirteen() -> None:
    """Rounds 1-3 on six seeds, seats alternating: the bot's total is lower in every
    game (it leaves far less deadwood than random play, which almost never goes out)."""
    margins = []
    for seed in range(6):
        seat = seed % 2
        bots: list[Any] = [RandomBot(), RandomBot()]
        bots[seat] = ISMCTSBot(ThreeThirteenSearch(), iterations=10)
        result = play_game(TT_GAME, tt_rules(1, 3), bots, seed=100 + seed)
        margins.append(result.totals[1 - seat] - result.totals[seat])
    print("three-thirteen margins", margins)
    assert all(margin > 0 for margin in margins), margins
    assert sum(margins) / len(margins) > 20, margins


def test_beats_random_at_burraco() -> None:
    """Quick hands on four seeds, seats alternating: the bot scores more in every one,
    by a wide margin on average."""
    margins = []
    for seed in range(4):
        seat = seed % 2
        bots: list[Any] = [RandomBot(), RandomBot()]
        bots[seat] = ISMCTSBot(BurracoSearch(), iterations=10)
        result = play_game(BURRACO_GAME, burraco.Rules(), bots, seed=200 + seed)
        margins.append(result.totals[seat] - result.totals[1 - seat])
    print("burraco margins", margins)
    assert all(margin > 0 for margin in margins), margins
    assert sum(margins) / len(margins) > 200, margins


# ---------------------------------------------------------------------------------------
# Budgets, reports and refusals


def test_reports_iterations_and_time() -> None:
    state = tt_position(6, 3, moves=2)
    bot = ISMCTSBot(ThreeThirteenSearch(), iterations=25, paired=False)
    decision = decide(bot, state, 1)
    assert bot.last_iterations == 25
    assert bot.last_seconds > 0
    assert bot.iterations_per_second == pytest.approx(25 / bot.last_seconds)
    root = bot.last_root
    assert root is not None and root.visits == 25
    assert sum(child.visits for child in root.children.values()) == 25
    assert decision.reason.text.startswith("best of 25 simulations: value ")
    assert f"{root.children[decision.action].value:+.2f}" in decision.reason.text


def test_ucb_plays_the_most_visited_action() -> None:
    state = burraco_position(4, 12)
    bot = ISMCTSBot(BurracoSearch(), iterations=60, paired=False)
    decision = decide(bot, state, 2)
    root = bot.last_root
    assert root is not None
    chosen = root.children[decision.action]
    assert chosen.visits == max(child.visits for child in root.children.values())
    assert len(root.children) > 1 and chosen.visits > 60 / len(root.children)


def test_paired_rounds_share_visits_and_search_the_guides_move() -> None:
    state = tt_position(6, 3, moves=1)  # a discard phase: several discards worth a look
    assert state.phase == "discard"
    bot = ISMCTSBot(ThreeThirteenSearch(), iterations=40, paired=True)
    decision = decide(bot, state, 7)
    root = bot.last_root
    assert root is not None
    visits = [child.visits for child in root.children.values()]
    assert len(visits) > 1 and max(visits) - min(visits) <= 1
    played = [len(rewards) for rewards in bot.last_rounds.values()]
    assert sum(played) == 40 and max(played) - min(played) <= 1
    guide = ThreeThirteenGreedyBot().decide(
        own_view(state), list(state.legal_actions()), random.Random(0)
    )
    assert guide.action in root.children
    assert decision.action in root.children


class RiggedPlayout:
    """Three-Thirteen simulations that stop right after the root move and reward only
    the discard of ``favourite`` (or nothing at all)."""

    def __init__(self, observation: Any, favourite: int | None) -> None:
        self.inner = ThreeThirteenSearch().playout(observation)
        self.player = observation.player
        self.favourite = favourite

    def root_candidates(self, legal_actions: Sequence[Any]) -> Sequence[Any]:
        return legal_actions

    def candidates(self, state: Any, actions: list[Any]) -> Sequence[Any]:
        return actions

    def finished(self, state: Any) -> bool:
        return True

    def rewards(self, state: Any, rng: random.Random) -> tuple[float, ...]:
        reward = 1.0 if state.discard_pile[-1] == self.favourite else rng.random() * 0.1
        return tuple(reward if p == self.player else -reward for p in range(state.num_players))


class Rigged:
    exploration = 0.5
    paired = True
    game = TT_GAME

    def __init__(self, favourite: int | None) -> None:
        self.favourite = favourite
        self.guide = ThreeThirteenGreedyBot()

    def playout(self, observation: Any) -> RiggedPlayout:
        return RiggedPlayout(observation, self.favourite)


def guide_and_other_discard(state: three_thirteen.State) -> tuple[Decision, int]:
    """The greedy bot's discard in ``state`` and another card it could discard."""
    legal = list(state.legal_actions())
    guide = ThreeThirteenGreedyBot().decide(own_view(state), legal, random.Random(0))
    other = next(a.card for a in legal if type(a) is Discard and a != guide.action)
    return guide, other


def test_paired_keeps_the_guides_move_when_nothing_beats_it() -> None:
    state = tt_position(6, 3, moves=1)
    guide, _ = guide_and_other_discard(state)
    bot = ISMCTSBot(Rigged(None), iterations=200)
    decision = decide(bot, state, 3)
    assert decision == guide  # the same move, with the greedy bot's own reason
    assert len(bot.last_rounds) == len(list(state.legal_actions()))


def test_paired_plays_the_move_that_clearly_beats_the_guides() -> None:
    state = tt_position(6, 3, moves=1)
    guide, other = guide_and_other_discard(state)
    bot = ISMCTSBot(Rigged(other), iterations=200)
    decision = decide(bot, state, 3)
    assert decision.action == Discard(other)
    assert decision.reason.text.startswith("over ")
    assert f"clearly better than {TT_GAME.format_action(guide.action)}" in decision.reason.text


def test_paired_needs_a_few_rounds_to_overrule_the_guide() -> None:
    state = tt_position(6, 3, moves=1)
    guide, other = guide_and_other_discard(state)
    actions = len(list(state.legal_actions()))
    bot = ISMCTSBot(Rigged(other), iterations=actions * (MIN_ROUNDS - 1))
    assert decide(bot, state, 3).action == guide.action
    bot = ISMCTSBot(Rigged(other), iterations=actions * MIN_ROUNDS)
    assert decide(bot, state, 3).action == Discard(other)


def test_paired_gain_known_answers() -> None:
    assert paired_gain([1.0, 1.0, 1.0], [0.0, 0.0, 0.0]) == (1.0, 0.0)
    assert paired_gain([0.5], [0.0]) == (0.5, math.inf)
    mean, error = paired_gain([1.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0])
    assert mean == 0.5 and error == pytest.approx(math.sqrt(1 / 3 / 4))


def test_time_budget_stops_the_search() -> None:
    ticks = iter(range(100))
    bot = ISMCTSBot(
        ThreeThirteenSearch(), seconds=5.0, clock=lambda: float(next(ticks))
    )  # each clock reading is one second later
    decide(bot, tt_position(4, 2, moves=1), 0)
    assert bot.last_iterations == 5  # readings 1, 2, ... after each; the deadline is 5


def test_both_budgets_stop_at_the_first_reached() -> None:
    bot = ISMCTSBot(ThreeThirteenSearch(), iterations=7, seconds=1000.0)
    decide(bot, tt_position(4, 2, moves=1), 0)
    assert bot.last_iterations == 7


def test_real_time_budget() -> None:
    bot = ISMCTSBot(BurracoSearch(), seconds=0.05)
    decide(bot, burraco_position(3, 8), 0)
    assert bot.last_iterations >= 1
    assert bot.last_seconds >= 0.05
    assert sum(len(rewards) for rewards in bot.last_rounds.values()) == bot.last_iterations


def test_forced_move_is_not_searched() -> None:
    state = tt_position(3, 1, moves=0)
    state.apply(next(iter(state.legal_actions())))  # a draw: now a discard phase
    bot = ISMCTSBot(ThreeThirteenSearch(), iterations=50)
    observation = own_view(state)
    only = next(iter(state.legal_actions()))
    decision = bot.decide(observation, [only], random.Random(0))
    assert decision == Decision(only, Reason.of("only_legal_move"))
    assert bot.last_iterations == 0


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"iterations": 0}, "iterations"),
        ({"iterations": True}, "iterations"),
        ({"iterations": 2.5}, "iterations"),
        ({"seconds": 0}, "seconds"),
        ({"seconds": -1.0}, "seconds"),
        ({"seconds": float("nan")}, "seconds"),
        ({"iterations": 5, "exploration": -1.0}, "exploration"),
    ],
)
def test_bad_budgets_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ISMCTSBot(ThreeThirteenSearch(), **options)


def test_default_budget_is_half_a_second() -> None:
    bot = ISMCTSBot(BurracoSearch())
    assert (bot.iterations, bot.seconds) == (None, 0.5)


def test_refuses_observation_of_a_player_not_to_move() -> None:
    state = tt_position(4, 1, moves=0)
    waiting = 1 - to_move(state)
    legal = list(state.legal_actions())
    with pytest.raises(ValueError, match="not of the player to move"):
        ISMCTSBot(ThreeThirteenSearch(), iterations=5).decide(
            state.observation(waiting), legal, random.Random(0)
        )


def test_refuses_the_other_game_and_empty_choices() -> None:
    state = tt_position(4, 1, moves=0)
    legal = list(state.legal_actions())
    with pytest.raises(ValueError, match="Burraco observation"):
        ISMCTSBot(BurracoSearch(), iterations=5).decide(own_view(state), legal, random.Random(0))
    with pytest.raises(ValueError, match="no legal action"):
        ISMCTSBot(ThreeThirteenSearch(), iterations=5).decide(own_view(state), [], random.Random(0))


# ---------------------------------------------------------------------------------------
# Three-Thirteen: rewards and the rollout policy


def test_round_rewards_known_answers() -> None:
    assert round_rewards([0, 20], 40.0) == (0.5, -0.5)
    assert round_rewards([35, 0], 20.0) == (-1.0, 1.0)
    assert round_rewards([10, 40, 70], 40.0) == (1.0, 0.0, -1.0)
    assert reward_scale(6) == 40.0


@given(st.lists(st.integers(0, 150), min_size=2, max_size=4), st.integers(1, 11))
def test_round_rewards_order_and_bounds(scores: list[int], round_number: int) -> None:
    rewards = round_rewards(scores, reward_scale(round_number))
    assert all(-1.0 <= reward <= 1.0 for reward in rewards)
    for first, second in zip(range(len(scores)), range(1, len(scores)), strict=False):
        if scores[first] < scores[second]:
            assert rewards[first] >= rewards[second]
    if len(scores) == 2:
        assert rewards[0] == -rewards[1]


def test_policy_goes_out_and_discards_the_solver_choice() -> None:
    rules = three_thirteen.Rules()
    policy = CheapPolicy(rules, wild_rank=3)
    hand = tuple(sorted(parse_cards("5h 6h 7h Kc")))
    assert policy.discard(hand, random.Random(0)) == (parse_card("Kc"), True)
    # The rule book's round-6 hand plus a king: the solver keeps 19 of deadwood by
    # discarding the king, and so does the policy.
    hand = tuple(sorted(parse_cards("Ah 2h 4h 5h 7h 8h Th Tc Ks")))
    card, out = CheapPolicy(rules, wild_rank=8).discard(hand, random.Random(0))
    points, best = best_discards(hand, wild_rank=8)
    assert (points, best) == (19, (parse_card("Ks"),))
    assert (card, out) == (parse_card("Ks"), False)


def test_policy_takes_wilds_and_melding_cards_only() -> None:
    policy = CheapPolicy(three_thirteen.Rules(), wild_rank=8)
    hand = tuple(sorted(parse_cards("4c 5c 9d Jh Ks")))
    assert policy.wants_discard(hand, parse_card("8s"))  # a wild
    assert policy.wants_discard(hand, parse_card("6c"))  # completes 4c 5c 6c
    assert not policy.wants_discard(hand, parse_card("Qd"))  # a loner as high as any
    assert policy.wants_discard(hand, parse_card("2s"))  # a low loner for a king


def test_loners_and_near_bits() -> None:
    policy = CheapPolicy(three_thirteen.Rules(), wild_rank=8)
    hand = parse_cards("4c 5c 9d Jh Ks Kd")
    assert sorted(policy.loners(hand) or []) == sorted(parse_cards("9d Jh"))
    assert policy.loners(parse_cards("8c 8d 4c Kd")) is None  # two wilds
    assert [r for r in range(14) if near_bits(ace_high=False)[1] >> r & 1] == [2, 3]
    assert [r for r in range(14) if near_bits(ace_high=False)[13] >> r & 1] == [11, 12]
    assert [r for r in range(14) if near_bits(ace_high=True)[13] >> r & 1] == [1, 11, 12]


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 100_000),
    round_number=st.integers(1, 11),
    players=st.integers(2, 4),
    ace_high=st.booleans(),
    jokers=st.booleans(),
)
def test_policy_plays_whole_rounds_legally(
    seed: int, round_number: int, players: int, ace_high: bool, jokers: bool
) -> None:
    rules = three_thirteen.Rules(
        players=players,
        ace_high=ace_high,
        jokers=jokers,
        first_round=round_number,
        last_round=round_number,
    )
    state = three_thirteen.State.new(rules, seed)
    policy = CheapPolicy(rules, state.wild_rank)
    rng = random.Random(seed)
    deadwood_before: dict[int, int] = {}
    for _ in range(2_000):
        if state.game_over:
            break
        player = state.current_player
        assert player is not None
        action = policy.action(state, rng)
        assert state.check(action) is None
        if isinstance(action, three_thirteen.TakeDiscard) and state.stock_count:
            # Taking is worth it only if it lowers the deadwood: no endless swaps.
            deadwood_before[player] = deadwood(
                state.hand(player), wild_rank=state.wild_rank, ace_high=ace_high
            )
        state.apply(action)
        if isinstance(action, three_thirteen.Discard) and player in deadwood_before:
            after = deadwood(state.hand(player), wild_rank=state.wild_rank, ace_high=ace_high)
            assert after < deadwood_before.pop(player)
    assert state.game_over


# ---------------------------------------------------------------------------------------
# Burraco: evaluation and the rollout policy


def test_meld_values_from_the_rule_book() -> None:
    # RULES.md 1.7: 3h..9h is a clean burraco worth 45 points plus 200.
    assert meld_value(arrange_burraco(parse_cards("3h 4h 5h 6h 7h 8h 9h"))) == 245.0
    # Smaller melds count their points and a share of the bonus they may grow to,
    # the dirty bonus (100) for a meld with a wild, the clean one (200) otherwise.
    assert meld_value(arrange_burraco(parse_cards("Kc Kd Ks"))) == 30 + BONUS_SHARE[3] * 200
    six = arrange_burraco(parse_cards("5c 5d 5s 5h 5c Jk"))
    assert meld_value(six) == six.points + BONUS_SHARE[6] * 100
    five = arrange_burraco(parse_cards("9s Ts Js Qs Ks"))
    assert meld_value(five) == 50 + BONUS_SHARE[5] * 200


def test_position_value_parts() -> None:
    burraco_meld = arrange_burraco(parse_cards("Ad 2d 3d 4d 5d 6d 7d"))
    hand = parse_cards("Qh Jk 4c")
    base = position_value(melds=[burraco_meld], hand=hand, took_pozzetto=True, pozzetto_left=True)
    in_hand = sum(BURRACO_POINTS[c] for c in hand)
    # Took the pozzetto, holds a burraco, three cards: a share of the closing bonus.
    assert base > 60 + 200 - in_hand
    no_pozzetto = position_value(
        melds=[burraco_meld], hand=hand, took_pozzetto=False, pozzetto_left=False
    )
    assert no_pozzetto < base - 100
    assert reward_of(300.0) == 0.5 and reward_of(-9999.0) == -1.0


@settings(max_examples=40, deadline=None)
@given(
    hand=st.lists(st.sampled_from(range(53)), max_size=14),
    extra=st.sampled_from(range(53)),
    took=st.booleans(),
    left=st.booleans(),
)
def test_position_value_weighs_the_hand(
    hand: list[int], extra: int, took: bool, left: bool
) -> None:
    """One more natural card in hand is a risk; one more wild is an asset."""
    melds = [arrange_burraco(parse_cards("3h 4h 5h 6h 7h 8h 9h"))]
    before = position_value(melds=melds, hand=hand, took_pozzetto=took, pozzetto_left=left)
    after = position_value(melds=melds, hand=[*hand, extra], took_pozzetto=took, pozzetto_left=left)
    if is_wild_face(extra):
        assert after > before
    else:
        assert after < before


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 100_000))
def test_burraco_policy_plays_a_hand_legally(seed: int) -> None:
    state = burraco.State.new(burraco.Rules(), seed)
    policy = BurracoPolicy()
    rng = random.Random(seed)
    for _ in range(3_000):
        if state.game_over:
            break
        action = policy.action(state, rng)
        assert state.check(action) is None
        state.apply(action)
    assert state.game_over


def test_burraco_policy_discards_a_loner_not_a_wild() -> None:
    hand = parse_cards("Kc 5h 6h 2s Jk")
    assert BurracoPolicy.discard(hand, hand) == parse_card("Kc")
    assert BurracoPolicy.discard(parse_cards("2s Jk"), hand) == parse_card("2s")


def test_burraco_policy_plays_on_when_no_discard_is_allowed() -> None:
    """With the only moves a wild held back for a burraco and no discard allowed, the
    policy plays the first move rather than fail."""
    hand = parse_cards("2s 5h 6h 9c 9d Kc")
    places = {"hand/0": hand, "meld/1": parse_cards("7h 8h 9h")}
    early = Extend(1, (parse_card("2s"),))
    assert BurracoPolicy().play([early], places, 0) == early


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_guided_simulations_play_as_the_greedy_bot_does(seed: int) -> None:
    """With the guide playing every action, a simulation's rewards are those of the round
    played out by ``greedy`` bots from the same state."""
    state = tt_position(5, seed, moves=3)
    observation = own_view(state)
    guided = ThreeThirteenPlayout(observation, ThreeThirteenGreedyBot(), guided_actions=10_000)
    rewards = guided.rewards(state.clone(), random.Random(seed))
    greedy = ThreeThirteenGreedyBot()
    played = state.clone()
    while played.hand_number == state.hand_number and not played.game_over:
        legal = list(played.legal_actions())
        played.apply(greedy.decide(own_view(played), legal, random.Random(0)).action)
    scale = reward_scale(state.round_number)
    assert rewards == round_rewards(played.hand_results[-1].scores, scale)


@pytest.mark.parametrize("players", [2, 4])
def test_burraco_rollout_play_from_options_is_the_play_from_actions(players: int) -> None:
    """``CheapPolicy.play_options`` (the rollouts' quick path) picks what ``play`` picks
    from the listed actions and the copied places, at every play-phase step of a few
    hands."""
    policy = BurracoPolicy()
    compared = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = burraco.State.new(burraco.Rules(players=players), 700 + seed)
        hand_number = state.hand_number
        while not state.game_over and state.hand_number == hand_number:
            if state.phase == "play":
                player = state.current_player
                assert player is not None
                slow = policy.play(list(state.legal_actions()), state.locations(), player)
                assert policy.play_options(state.legal_options(), state) == slow
                compared += 1
            state.apply(policy.action(state, rng))
    assert compared > 100
