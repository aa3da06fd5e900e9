"""Three-Thirteen for the search bot: its guide, rollouts and the round's reward.

The ISMCTS search (:mod:`rummykit.bots.ismcts`) plays each simulation to the end of
the round being decided, never into later rounds, and rewards each player with the
round's deadwood difference: the others' mean deadwood minus the player's own, divided
by :func:`reward_scale` and clipped to ``-1 .. 1`` (lower deadwood is better).

The search's guide is :class:`~rummykit.bots.three_thirteen.lookahead.LookaheadGuide`
(``greedy`` weighing its draws and discards by the next draw; its move is always
searched, and kept unless clearly beaten).  The ``greedy`` bot plays the first
:data:`GUIDED_ACTIONS` actions of every simulation after the tree, each seat from its
own observation of the determinized state: the replies that decide what a move is
worth are those of a player as good as ``greedy``.
:class:`CheapPolicy` plays the rest of the round: it plays like ``greedy`` without its
tie-breaks, at a third of the cost, and its memo of solver answers also picks the
discards worth searching, at the root and below.  The policy, for the player to move in
a determinized state:

- draw phase: take the top discard if it is wild, or if it lowers the hand's least
  deadwood (after the best discard); otherwise draw from the stock;
- discard phase: discard one of the arrangement solver's ``best_discards`` (the
  highest in points, ties at random), going out when that leaves no deadwood.

A card with no possible meld partner in the hand (no wild in the hand, no natural of its
rank, none of its suit within two ranks) is judged without the solver: taking it only
helps by replacing a higher loner.  The solver's answers are remembered per hand for the
whole decision, so the many simulations of one search share them.

This module reads only the determinized states the search builds from an observation,
never a real game's state; it never does I/O and never uses the global ``random``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from rummykit.bots.three_thirteen.greedy import ThreeThirteenGreedyBot
from rummykit.bots.three_thirteen.lookahead import LookaheadGuide
from rummykit.bots.three_thirteen.progress import moves_with_progress
from rummykit.cards import DEADWOOD_POINTS, JOKER, RANK_OF, SUIT_OF, Card
from rummykit.games.core import GameInfo
from rummykit.games.three_thirteen import GAME, Observation, State
from rummykit.games.three_thirteen.actions import (
    DISCARDS,
    DRAW_STOCK,
    GO_OUTS,
    TAKE_DISCARD,
    Action,
    Discard,
    GoOut,
)
from rummykit.games.three_thirteen.arrange import best_discards, deadwood
from rummykit.games.three_thirteen.rules import Rules, hand_size

MEMO_LIMIT: Final = 200_000
"""Hands remembered per decision before the memo is cleared (bounds the memory)."""
ROLLOUT_ACTION_LIMIT: Final = 2_000
"""A safety net: a rollout longer than this is scored as it stands."""
ROOT_MARGIN: Final = 4
"""The decision considers the discards leaving at most this much more deadwood than the
least (a card with a future may be worth more than a few points)."""
GUIDED_ACTIONS: Final = 4
"""The first actions of a simulation after the tree that the ``greedy`` bot plays (the
next turn of each of two players); :class:`CheapPolicy` plays the rest."""
EXPLORATION: Final = 0.5
"""The UCB1 exploration constant suited to :func:`reward_scale`."""

Hand = tuple[Card, ...]


def reward_scale(round_number: int) -> float:
    """The deadwood difference that counts as a full win (reward 1) in a round.

    >>> reward_scale(1), reward_scale(11)
    (15.0, 65.0)
    """
    return 5.0 * hand_size(round_number)


def round_rewards(scores: Sequence[int], scale: float) -> tuple[float, ...]:
    """Each player's reward for the round's ``scores`` (deadwood; lower is better).

    >>> round_rewards([0, 20], 40.0)
    (0.5, -0.5)
    >>> round_rewards([10, 40, 70], 40.0)
    (1.0, 0.0, -1.0)
    """
    players = len(scores)
    total = sum(scores)
    rewards = []
    for score in scores:
        others = (total - score) / (players - 1)
        rewards.append(max(-1.0, min(1.0, (others - score) / scale)))
    return tuple(rewards)


def near_bits(*, ace_high: bool) -> tuple[int, ...]:
    """For each rank (index 1..13), the bits of the other ranks within two of it in a
    run: bit ``r`` for rank ``r``, the ace next to the 2 (and to the king if
    ``ace_high``).

    >>> [r for r in range(14) if near_bits(ace_high=True)[1] >> r & 1]
    [2, 3, 12, 13]
    """
    bits = [0] * 14
    for rank in range(1, 14):
        for other in range(1, 14):
            gap = abs(rank - other)
            if ace_high and 1 in (rank, other):
                gap = min(gap, 14 - max(rank, other))
            if 0 < gap <= 2:
                bits[rank] |= 1 << other
    return tuple(bits)


class CheapPolicy:
    """The cheap policy of one round (see the module docstring), with its memo."""

    __slots__ = (
        "_ace_high",
        "_discards",
        "_near_bits",
        "_rules",
        "_wild_only",
        "_wild_rank",
        "_wood",
    )

    def __init__(self, rules: Rules, wild_rank: int) -> None:
        self._rules = rules
        self._wild_rank = wild_rank
        self._ace_high = rules.ace_high
        self._wild_only = rules.wild_only_melds
        self._wood: dict[Hand, int] = {}
        self._near_bits = near_bits(ace_high=rules.ace_high)
        self._discards: dict[Hand, tuple[int, Hand]] = {}

    def is_wild(self, card: Card) -> bool:
        return card == JOKER or RANK_OF[card] == self._wild_rank

    def deadwood(self, hand: Hand) -> int:
        """The least deadwood of ``hand`` (a sorted tuple), remembered."""
        points = self._wood.get(hand)
        if points is None:
            if len(self._wood) >= MEMO_LIMIT:
                self._wood.clear()
            points = deadwood(
                hand,
                wild_rank=self._wild_rank,
                ace_high=self._ace_high,
                wild_only_melds=self._wild_only,
            )
            self._wood[hand] = points
        return points

    def best_discards(self, hand: Hand) -> tuple[int, Hand]:
        """The solver's least deadwood after one discard and the cards that leave it."""
        answer = self._discards.get(hand)
        if answer is None:
            if len(self._discards) >= MEMO_LIMIT:
                self._discards.clear()
            answer = best_discards(
                hand,
                wild_rank=self._wild_rank,
                ace_high=self._ace_high,
                wild_only_melds=self._wild_only,
            )
            self._discards[hand] = answer
        return answer

    def partner_masks(self, hand: Sequence[Card]) -> tuple[list[int], list[int]]:
        """Per rank, how many naturals of ``hand`` hold it; per suit, the bits of the
        ranks held (wilds are not counted)."""
        counts = [0] * 14
        masks = [0, 0, 0, 0, 0]
        wild_rank = self._wild_rank
        for card in hand:
            rank = RANK_OF[card]
            if card == JOKER or rank == wild_rank:
                continue
            counts[rank] += 1
            masks[SUIT_OF[card]] |= 1 << rank
        return counts, masks

    def has_partner(self, card: Card, hand: Sequence[Card]) -> bool:
        """Could ``card`` (not one of ``hand``) meld with a natural of ``hand``: one of
        its rank, or one of its suit within two ranks?  Wilds are not counted here."""
        counts, masks = self.partner_masks(hand)
        rank = RANK_OF[card]
        return counts[rank] > 0 or bool(masks[SUIT_OF[card]] & self._near_bits[rank])

    def loners(self, hand: Sequence[Card]) -> list[Card] | None:
        """The naturals of ``hand`` that no other natural of it could meld with, or
        ``None`` when the hand holds two wilds or more (which could meld with any card).
        With one wild at most a loner is never melded: a meld of it and one wild needs
        a third card, which would be its partner."""
        if sum(1 for card in hand if self.is_wild(card)) >= 2:
            return None
        counts, masks = self.partner_masks(hand)
        near = self._near_bits
        return [
            card
            for card in hand
            if counts[RANK_OF[card]] == 1 and not masks[SUIT_OF[card]] & near[RANK_OF[card]]
        ]

    def completes_meld(self, card: Card, hand: Sequence[Card]) -> bool:
        """Do two naturals of ``hand`` make a meld with ``card`` (a natural, not one of
        ``hand``): two of its rank, or two of its suit next to it in a run of three?
        With no wild in ``hand``, a card that completes none is never melded."""
        counts, masks = self.partner_masks(hand)
        rank = RANK_OF[card]
        if counts[rank] >= 2:
            return True
        held = masks[SUIT_OF[card]]
        places = [rank]
        if self._ace_high and held & 2:
            held |= 1 << 14  # the ace may stand above the king
        if self._ace_high and rank == 1:
            places.append(14)
        for place in places:
            with_card = held | 1 << place
            for low in range(max(1, place - 2), place + 1):
                trio = 7 << low  # the places low, low + 1 and low + 2
                if with_card & trio == trio:
                    return True
        return False

    def wants_discard(self, hand: Hand, top: Card) -> bool:
        """Take the top discard?  Only if the least deadwood after the best discard is
        lower than the hand's now, so two players never pass cards back and forth for
        ever.  The solver is asked only when ``top`` can join a meld."""
        if not self.is_wild(top):
            wilds = sum(1 for card in hand if self.is_wild(card))
            if wilds < 2 and not self.has_partner(top, hand):
                # It would stay a loner: worth it only in place of a higher loner.
                loners = self.loners(hand)
                return bool(loners) and DEADWOOD_POINTS[top] < max(
                    DEADWOOD_POINTS[card] for card in loners or ()
                )
            if not wilds and not self.completes_meld(top, hand):
                return False  # it would add its points and nothing else
        current = self.deadwood(hand)
        bigger = tuple(sorted((*hand, top)))
        if self.deadwood(bigger) >= current + DEADWOOD_POINTS[top]:
            return False  # it joins no meld
        return self.best_discards(bigger)[0] < current

    def discard(self, hand: Hand, rng: random.Random) -> tuple[Card, bool]:
        """The card to discard from ``hand`` (after drawing) and whether that goes out.

        With two loners or more (and no wild) the hand cannot go out and a loner is
        never melded, so the highest loner goes.  Otherwise the solver's
        ``best_discards`` decide (the highest in points among them), and also when the
        solver already answered for this hand (so a discard taken because the solver
        said it lowers the deadwood is followed by the solver's discard)."""
        answer = self._discards.get(hand)
        if answer is None:
            loners = self.loners(hand)
            if loners is not None and len(loners) >= 2:
                card = self._highest(loners, rng)
                known = self._known_deadwood(hand, loners)
                if known is not None:
                    self._remember(hand, card, known - DEADWOOD_POINTS[card])
                return card, False
            answer = self.best_discards(hand)
        points, cards = answer
        if not cards:  # never expected from the solver; play on rather than fail
            return self._highest(hand, rng), False
        card = self._highest(cards, rng)
        if points:
            self._remember(hand, card, points)
        return card, points == 0

    def _known_deadwood(self, hand: Hand, loners: Sequence[Card]) -> int | None:
        """The least deadwood of ``hand`` if the memo knows it, or knows it of the hand
        less one of its ``loners`` (a loner is never melded, so it adds its points);
        else ``None``."""
        known = self._wood.get(hand)
        if known is not None:
            return known
        for loner in loners:
            index = hand.index(loner)
            rest = self._wood.get(hand[:index] + hand[index + 1 :])
            if rest is not None:
                return rest + DEADWOOD_POINTS[loner]
        return None

    @staticmethod
    def _highest(cards: Sequence[Card], rng: random.Random) -> Card:
        """The card of ``cards`` with the most points, ties at random."""
        if len(cards) == 1:
            return cards[0]
        highest = max(DEADWOOD_POINTS[card] for card in cards)
        top = [card for card in cards if DEADWOOD_POINTS[card] == highest]
        return top[rng.randrange(len(top))] if len(top) > 1 else top[0]

    def _remember(self, hand: Hand, card: Card, points: int) -> None:
        """``hand`` without ``card`` leaves ``points`` of deadwood."""
        rest = list(hand)
        rest.remove(card)
        self._wood[tuple(rest)] = points

    def action(self, state: State, rng: random.Random) -> Action:
        """The policy's action for the player to move in ``state`` (a legal one)."""
        player = state.current_player
        assert player is not None
        hand = state.hand(player)
        if state.phase == "draw":
            pile = state.discard_pile
            if pile and (not state.stock_count or self.wants_discard(hand, pile[-1])):
                return TAKE_DISCARD
            return DRAW_STOCK
        card, out = self.discard(hand, rng)
        if out and state.went_out is None:
            going_out = GO_OUTS[card]
            if state.check(going_out) is None:
                return going_out
        return DISCARDS[card]


class ThreeThirteenPlayout:
    """One decision's playouts: the round of the observation, played out and scored."""

    __slots__ = (
        "_guide",
        "_guided_actions",
        "_hand",
        "_hand_number",
        "_observation",
        "_policy",
        "_root_margin",
        "_scale",
    )

    def __init__(
        self,
        observation: Observation,
        guide: ThreeThirteenGreedyBot,
        *,
        root_margin: int = ROOT_MARGIN,
        guided_actions: int = GUIDED_ACTIONS,
    ) -> None:
        self._guide = guide
        self._observation = observation
        self._hand = tuple(observation.hand)
        self._hand_number = observation.hand_number
        self._policy = CheapPolicy(observation.rules, observation.wild_rank)
        self._scale = reward_scale(observation.round_number)
        self._root_margin = root_margin
        self._guided_actions = guided_actions

    @property
    def policy(self) -> CheapPolicy:
        return self._policy

    def root_candidates(self, legal_actions: Sequence[Action]) -> list[Action]:
        """The decision's moves worth searching: both draws; going out whenever it is
        possible (nothing scores better than 0); else the discards that leave at most
        ``root_margin`` more deadwood than the best; only moves that keep the round
        moving (:func:`~rummykit.bots.three_thirteen.progress.moves_with_progress`)."""
        legal_actions = moves_with_progress(self._observation, legal_actions)
        going_out: list[Action] = [action for action in legal_actions if type(action) is GoOut]
        if going_out:
            return going_out
        discards = [action for action in legal_actions if isinstance(action, Discard)]
        if not discards:
            return list(legal_actions)
        hand = self._hand
        left: dict[Discard, int] = {}
        for action in discards:
            rest = list(hand)
            rest.remove(action.card)
            left[action] = self._policy.deadwood(tuple(rest))
        least = min(left.values())
        return [action for action in discards if left[action] <= least + self._root_margin]

    def candidates(self, state: State, actions: list[Action]) -> Sequence[Action]:
        """Below the root every player plays like the policy, up to its ties: going out
        if possible, else one of the best discards; both draws stay open."""
        if state.phase == "draw":
            return actions
        going_out = [action for action in actions if type(action) is GoOut]
        if going_out:
            return going_out
        player = state.current_player
        assert player is not None
        _, best = self._policy.best_discards(state.hand(player))
        kept = [action for action in actions if type(action) is Discard and action.card in best]
        return kept or actions

    def finished(self, state: State) -> bool:
        """The round of the decision is over (the game ended or the next was dealt)."""
        return state.game_over or state.hand_number != self._hand_number

    def rewards(self, state: State, rng: random.Random) -> tuple[float, ...]:
        """Play the round out (the guide first, then the cheap policy); every player's
        reward.  The policy's discard that ends the round is scored without being
        played: the engine would score every hand at once (:meth:`_last_scores`)."""
        policy = self._policy
        guide = self._guide
        guided = self._guided_actions
        for done in range(ROLLOUT_ACTION_LIMIT):
            if self.finished(state):
                break
            if done >= guided:
                action = policy.action(state, rng)
                if type(action) is Discard and state.discard_ends_round():
                    return round_rewards(self._last_scores(state, action.card), self._scale)
                state.apply_legal(action)
            else:
                player = state.current_player
                assert player is not None
                legal = list(state.legal_actions())
                state.apply_legal(guide.decide(state.observation(player), legal, rng).action)
        else:  # pragma: no cover - a round always ends long before the limit
            return tuple(0.0 for _ in range(state.num_players))
        result = state.hand_results[-1]
        return round_rewards(result.scores, self._scale)

    def _last_scores(self, state: State, card: Card) -> list[int]:
        """The round's scores when the player to move discards ``card`` and so ends
        it, as the engine would score them (each hand's least deadwood, 0 for the
        player who went out), from the policy's memo of deadwood."""
        player = state.current_player
        went_out = state.went_out
        scores = []
        for seat in range(state.num_players):
            if seat == went_out:
                scores.append(0)
                continue
            hand = state.hand(seat)
            if seat == player:
                index = hand.index(card)
                hand = hand[:index] + hand[index + 1 :]
            scores.append(self._policy.deadwood(hand))
        return scores


class ThreeThirteenSearch:
    """The search adapter of Three-Thirteen (see :class:`rummykit.bots.ismcts.SearchAdapter`).

    The search's guide is :class:`~rummykit.bots.three_thirteen.lookahead.LookaheadGuide`
    (``greedy`` with a one-draw lookahead for its draws and discards); the start of
    every simulation is played by ``greedy``, which decides many times faster."""

    exploration = EXPLORATION
    paired = True

    def __init__(self) -> None:
        self.guide = LookaheadGuide()
        """The search's guide: its move is searched and kept unless clearly beaten."""
        self.rollout_guide = ThreeThirteenGreedyBot()
        """The player of the first actions of every simulation."""

    @property
    def game(self) -> GameInfo[Any, Any, Any, Any]:
        return GAME

    def playout(self, observation: Any) -> ThreeThirteenPlayout:
        if not isinstance(observation, Observation):
            raise ValueError(
                f"expected a Three-Thirteen observation, not {type(observation).__name__}"
            )
        return ThreeThirteenPlayout(observation, self.rollout_guide)
