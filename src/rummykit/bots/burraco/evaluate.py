"""Burraco for the search bot: its guide, a cheap rollout policy, a position evaluation.

The ``greedy`` bot is the search's guide: its move is always searched, and kept unless
another clearly beats it (:mod:`rummykit.bots.ismcts`).

Whole hands are too long to play out many times in half a second, so each simulation
of :mod:`rummykit.bots.ismcts` plays on with :class:`CheapPolicy` for a few turns
(:data:`HORIZON_TURNS` after the decision's turn) and then scores the position with
:func:`position_value`; a hand that ends earlier is scored by its real result.  The
reward of a player is the difference between the two sides' values divided by
:data:`REWARD_SCALE`, clipped to ``-1 .. 1``.  With four players a side is a team
(RULES.md section 3): its melds, both partners' hands and its pozzetto make one
position, and both partners get the team's reward; the search determinizes the three
hands the player cannot see (the partner's among them).

:func:`position_value` guesses what a player's hand score will be:

- the points of the player's melds;
- the burraco bonus of every burraco (200 clean, 100 dirty) and a share of it for
  melds of 3 to 6 cards (:data:`BONUS_SHARE`);
- minus the points of the natural cards still in the hand, weighted by
  :data:`HAND_RISK` (they may yet be melded), plus :data:`WILD_IN_HAND` for each wild
  in the hand;
- minus the 100 of the pozzetto not taken, in proportion to the cards still to be
  played before the player would take it (all of it when none is left);
- plus a share of the closing bonus once the player could close (a burraco, the
  pozzetto behind), growing as the hand shrinks.

The policy, for the player to move: take the discard pile when it holds three cards or
more, a wild, or a card that makes a meld with two of the hand; lay new melds and add
to the player's own melds (clean ones first; a wild only for a meld of
:data:`DIRTY_MELD_SIZE` cards, to finish a burraco, or to empty the hand); discard the
highest non-wild card with the fewest partners in the hand.  The search looks only at
the moves :func:`worth_searching`.

This module reads only the determinized states the search builds from an observation,
never a real game's; it never does I/O and never uses the global ``random``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final

from rummykit.bots.burraco.greedy import BurracoGreedyBot
from rummykit.bots.burraco.progress import moves_with_progress
from rummykit.cards import BURRACO_POINTS, JOKER, RANK_OF, SUIT_OF, Card
from rummykit.games.burraco import GAME, Observation, State
from rummykit.games.burraco.actions import Action, Discard, DrawStock, Extend, Meld, TakePile
from rummykit.games.burraco.legality import LegalOptions
from rummykit.games.burraco.melds import BURRACO_SIZE
from rummykit.games.burraco.scoring import (
    CLEAN_BURRACO_BONUS,
    CLOSING_BONUS,
    DIRTY_BURRACO_BONUS,
    POZZETTO_PENALTY,
)
from rummykit.games.burraco.teams import TEAMS, seats_of, team_of
from rummykit.games.core import GameInfo

HORIZON_TURNS: Final = 4
"""Turns played after the decision's turn before a simulation is cut off and scored."""
REWARD_SCALE: Final = 600.0
"""A difference of hand values worth a full win (reward 1)."""
EXPLORATION: Final = 0.5
"""The UCB1 exploration constant suited to :data:`REWARD_SCALE`."""
HAND_RISK: Final = 0.5
"""The share of the points in hand counted against a player mid-hand."""
BONUS_SHARE: Final = {3: 0.1, 4: 0.2, 5: 0.35, 6: 0.6}
"""The share of the burraco bonus (clean or dirty as the meld stands) that a meld of
3 to 6 cards is worth: its chance of growing into a burraco."""
WILD_IN_HAND: Final = 40.0
"""What a wild in hand is worth mid-hand: it fits almost any meld, so its points are as
good as melded, and it may yet make a burraco."""
DIRTY_MELD_SIZE: Final = 5
"""The rollout policy lays a new meld with a wild only from this size (or to empty the
hand), keeping its wilds for burracos."""
POZZETTO_REACH: Final = 8
"""A player with this many cards or more in hand is counted as far from the pozzetto."""
CLOSING_REACH: Final = 7
"""A player who could close counts nothing of the closing bonus with this many cards in
hand, all of it with one card."""
PILE_WORTH_TAKING: Final = 3
"""A discard pile of this many cards is always taken by the rollout policy."""
ROLLOUT_ACTION_LIMIT: Final = 600
"""A safety net: a rollout longer than this is scored as it stands."""


def is_wild_face(card: Card) -> bool:
    """A joker or any 2 (a card that can serve as a wild)."""
    return card == JOKER or RANK_OF[card] == 2


WILD_FACES: Final = frozenset(card for card in range(JOKER + 1) if is_wild_face(card))
"""The cards :func:`is_wild_face` accepts (a set to test without a call, in hot loops)."""


def _partners(card: Card, hand: Sequence[Card]) -> int:
    """How many cards of ``hand`` could meld with ``card``: its rank, or its suit within
    two ranks (wilds not counted; a natural ``card`` in ``hand`` counts itself once)."""
    rank = RANK_OF[card]
    suit = SUIT_OF[card]
    count = 0
    for other in hand:
        if other == JOKER or RANK_OF[other] == 2:
            continue
        other_rank = RANK_OF[other]
        if other_rank == rank or (SUIT_OF[other] == suit and abs(other_rank - rank) <= 2):
            count += 1
    return count


_SUIT_SPAN: Final = 16
"""Places per suit in :func:`_natural_counts`: ranks 1..13 with two empty places on
either side, so that a rank's neighbours within two never reach the next suit."""


def _natural_counts(hand: Sequence[Card]) -> tuple[list[int], list[int]]:
    """The natural cards of ``hand`` counted by rank, and by place (``suit * 16 +
    rank``, the joker's suit 4 included and always empty): what :func:`_partners`
    counts, for every card at once.

    >>> from rummykit.cards import parse_cards
    >>> by_rank, by_place = _natural_counts(parse_cards("5h 5c 6h 2h Jk"))
    >>> by_rank[5], by_place[2 * 16 + 6], sum(by_place)
    (2, 1, 3)
    """
    by_rank = [0] * 14
    by_place = [0] * (5 * _SUIT_SPAN + 2)
    for card in hand:
        rank = RANK_OF[card]
        if card == JOKER or rank == 2:
            continue
        by_rank[rank] += 1
        by_place[SUIT_OF[card] * _SUIT_SPAN + rank] += 1
    return by_rank, by_place


# ---------------------------------------------------------------------------------------
# Evaluation


def meld_value(meld: Any) -> float:
    """A meld's points, its burraco bonus, or a share of the bonus it is growing to.

    >>> from rummykit.cards import parse_cards
    >>> from rummykit.games.burraco.melds import arrange
    >>> meld_value(arrange(parse_cards("3h 4h 5h 6h 7h 8h")))  # 35 and 0.6 of 200
    155.0
    """
    bonus = CLEAN_BURRACO_BONUS if meld.clean else DIRTY_BURRACO_BONUS
    size = len(meld.cards)
    share = 1.0 if size >= BURRACO_SIZE else BONUS_SHARE.get(size, 0.0)
    return float(meld.points) + share * bonus


def position_value(
    *,
    melds: Sequence[Any],
    hand: Sequence[Card],
    took_pozzetto: bool,
    pozzetto_left: bool,
    hand_size: int | None = None,
) -> float:
    """What one player's position is worth (see the module docstring); for a team,
    ``hand`` holds both partners' cards and ``hand_size`` is the smaller of their hands
    (the partner nearer to the pozzetto or to closing), by default ``len(hand)``.

    >>> from rummykit.cards import parse_cards
    >>> from rummykit.games.burraco.melds import arrange
    >>> position_value(
    ...     melds=[arrange(parse_cards("3h 4h 5h 6h 7h 8h 9h"))],
    ...     hand=parse_cards("Qh"),
    ...     took_pozzetto=True,
    ...     pozzetto_left=False,
    ... )
    340.0
    """
    value = sum(meld_value(meld) for meld in melds)
    for card in hand:
        if card in WILD_FACES:
            value += WILD_IN_HAND
        else:
            value -= HAND_RISK * BURRACO_POINTS[card]
    size = len(hand) if hand_size is None else hand_size
    if not took_pozzetto:
        if pozzetto_left:
            value -= POZZETTO_PENALTY * min(1.0, size / POZZETTO_REACH)
        else:
            value -= POZZETTO_PENALTY
    has_burraco = any(len(meld.cards) >= BURRACO_SIZE for meld in melds)
    if has_burraco and took_pozzetto:
        value += CLOSING_BONUS * max(0.0, 1.0 - (size - 1) / (CLOSING_REACH - 1))
    return value


def reward_of(difference: float) -> float:
    """The reward of a value ``difference`` (clipped to ``-1 .. 1``).

    >>> reward_of(300.0), reward_of(-900.0)
    (0.5, -1.0)
    """
    return max(-1.0, min(1.0, difference / REWARD_SCALE))


def state_values(state: State) -> tuple[float, float]:
    """Both sides' :func:`position_value` in a (determinized) state: the two players',
    or with four the two teams' (their melds, both partners' hands)."""
    pozzetto_left = state.pozzetto_left()
    players = state.num_players
    values: list[float] = []
    for team in range(TEAMS):
        hands = [state.hand_of(seat) for seat in seats_of(team, players)]
        values.append(
            position_value(
                melds=state.team_melds(team),
                hand=[card for hand in hands for card in hand],
                took_pozzetto=state.took_pozzetto(team),
                pozzetto_left=pozzetto_left,
                hand_size=min(len(hand) for hand in hands),
            )
        )
    return values[0], values[1]


def seat_rewards(reward: float, players: int) -> tuple[float, ...]:
    """Every seat's reward when team 0's is ``reward`` (team 1's is its opposite).

    >>> seat_rewards(0.5, 2), seat_rewards(0.5, 4)
    ((0.5, -0.5), (0.5, -0.5, 0.5, -0.5))
    """
    return tuple(reward if team_of(seat) == 0 else -reward for seat in range(players))


# ---------------------------------------------------------------------------------------
# The rollout policy


def spends_wild_early(action: Action, hand_size: int, meld_size: Callable[[int], int]) -> bool:
    """Does ``action`` put a wild down before it is worth it?  A new meld with a wild
    of fewer than :data:`DIRTY_MELD_SIZE` cards, or a wild added to a meld it does not
    make a burraco, while the hand keeps more than two cards (a wild is kept for a
    burraco, unless the hand is nearly empty)."""
    kind = type(action)
    if kind is Meld:
        cards = action.cards  # type: ignore[union-attr]
        size = len(cards)
        if size >= DIRTY_MELD_SIZE or hand_size - size <= 2:
            return False
        return not WILD_FACES.isdisjoint(cards)
    if kind is Extend:
        cards = action.cards  # type: ignore[union-attr]
        if hand_size - len(cards) <= 2 or WILD_FACES.isdisjoint(cards):
            return False
        return meld_size(action.meld_id) + len(cards) < BURRACO_SIZE  # type: ignore[union-attr]
    return False


def worth_searching(
    actions: Sequence[Action], hand_size: int, meld_size: Callable[[int], int]
) -> list[Action]:
    """``actions`` without those a sound player never makes: discarding a wild while
    another card may go, spending a wild early (:func:`spends_wild_early`), and ending
    the turn while natural cards could still go down (melding now is worth more than
    the same meld a turn later, and is never worth less).  If that leaves nothing, all
    of ``actions``.

    >>> from rummykit.cards import parse_card, parse_cards
    >>> worth_searching(
    ...     [Discard(parse_card("Jk")), Discard(parse_card("Ks")),
    ...      Meld(tuple(parse_cards("9c 9h Jk")))],
    ...     hand_size=9,
    ...     meld_size=lambda meld_id: 3,
    ... )
    [Discard(card=51)]
    >>> worth_searching(
    ...     [Discard(parse_card("Ks")), Meld(tuple(parse_cards("9c 9h 9s")))],
    ...     hand_size=9,
    ...     meld_size=lambda meld_id: 3,
    ... )
    [Meld(cards=(8, 34, 47))]
    """
    plays = [
        action
        for action in actions
        if type(action) is not Discard and not spends_wild_early(action, hand_size, meld_size)
    ]
    if plays:
        return plays
    discards: list[Action] = [action for action in actions if isinstance(action, Discard)]
    natural: list[Action] = [
        action
        for action in discards
        if isinstance(action, Discard) and not is_wild_face(action.card)
    ]
    return natural or discards or list(actions)


class CheapPolicy:
    """The rollout policy (see the module docstring): stateless and quick."""

    __slots__ = ()

    def wants_pile(self, pile: Sequence[Card], hand: Sequence[Card]) -> bool:
        """Take the discard pile rather than draw?"""
        if len(pile) >= PILE_WORTH_TAKING:
            return True
        if any(is_wild_face(card) for card in pile):
            return True
        return bool(pile) and _partners(pile[-1], hand) >= 2

    def play(self, actions: Sequence[Action], places: dict[str, list[Card]], player: int) -> Action:
        """The play-phase action among ``actions`` (in the order ``legal_actions`` lists
        them), ``places`` as ``State.locations()`` gives them: a natural extension, else
        the best new meld, else a wild to finish a burraco, else the discard."""
        hand = places[f"hand/{player}"]
        hand_size = len(hand)

        def meld_size(meld_id: int) -> int:
            return len(places[f"meld/{meld_id}"])

        best_meld: Meld | None = None
        best_key = (-1, -1)
        wild_extension: Extend | None = None
        discards: list[Card] = []
        for action in actions:
            kind = type(action)
            if kind is Discard:
                assert isinstance(action, Discard)
                discards.append(action.card)
            elif spends_wild_early(action, hand_size, meld_size):
                continue
            elif kind is Extend:
                assert isinstance(action, Extend)
                if not is_wild_face(action.cards[0]):
                    return action
                if wild_extension is None:
                    wild_extension = action
            elif kind is Meld:
                assert isinstance(action, Meld)
                wilds = sum(card in WILD_FACES for card in action.cards)
                key = (-wilds, len(action.cards))
                if key > best_key:
                    best_meld, best_key = action, key
        if best_meld is not None:
            return best_meld
        if wild_extension is not None:
            return wild_extension
        if not discards:  # no discard allowed now: the first move there is
            return actions[0]
        return Discard(self.discard(discards, hand))

    def play_options(self, options: LegalOptions, state: State) -> Action:
        """:meth:`play` of the actions ``options`` lists (``State.legal_options()``),
        reading ``state`` without copying its places and making only the action
        chosen."""
        player = state.current_player
        assert player is not None
        hand = state.hand_of(player)
        hand_size = len(hand)
        keeps_wilds = hand_size > 3  # a wild spent leaves more than two cards
        wild_extension: tuple[int, Card] | None = None
        for meld_id, card in options.additions:
            if card not in WILD_FACES:
                return Extend(meld_id, (card,))
            if wild_extension is None and not (
                keeps_wilds and state.meld_size(meld_id) + 1 < BURRACO_SIZE
            ):
                wild_extension = (meld_id, card)
        best_meld: tuple[Card, ...] | None = None
        best_key = (-1, -1)
        for candidate in options.melds:
            cards = candidate.meld.cards
            size = len(cards)
            wilds = sum(card in WILD_FACES for card in cards)
            if wilds and size < DIRTY_MELD_SIZE and hand_size - size > 2:
                continue  # spends a wild early
            key = (-wilds, size)
            if key > best_key:
                best_meld, best_key = cards, key
        if best_meld is not None:
            return Meld(best_meld)
        if wild_extension is not None:
            meld_id, card = wild_extension
            return Extend(meld_id, (card,))
        discards = options.discards
        if not discards:  # no discard allowed now: the first move there is
            if options.melds:
                return Meld(options.melds[0].meld.cards)
            meld_id, card = options.additions[0]
            return Extend(meld_id, (card,))
        return Discard(self.discard(discards, hand))

    @staticmethod
    def discard(discards: Sequence[Card], hand: Sequence[Card]) -> Card:
        """The highest non-wild card with the fewest partners in the hand; a wild only
        when nothing else may be discarded (the cheapest wild)."""
        by_rank, by_place = _natural_counts(hand)
        best = discards[0]
        best_key = (-1, -99, -99)
        for card in discards:
            wild = card in WILD_FACES
            rank = RANK_OF[card]
            place = SUIT_OF[card] * _SUIT_SPAN + rank
            partners = (
                by_rank[rank]
                + by_place[place - 2]
                + by_place[place - 1]
                + by_place[place + 1]
                + by_place[place + 2]
            )
            key = (
                0 if wild else 1,
                -partners,
                -BURRACO_POINTS[card] if wild else BURRACO_POINTS[card],
            )
            if key > best_key:
                best, best_key = card, key
        return best

    def action(self, state: State, rng: random.Random) -> Action:
        """The policy's (legal) action for the player to move in ``state``."""
        del rng
        player = state.current_player
        assert player is not None
        if state.phase == "draw":
            pile = state.discard_pile_cards()
            if pile and (not state.stock_size() or self.wants_pile(pile, state.hand_of(player))):
                return TakePile()
            return DrawStock()
        additions = state.single_additions()
        for meld_id, card in additions:
            if card not in WILD_FACES:
                return Extend(meld_id, (card,))  # what play_options would choose first
        return self.play_options(state.legal_options(additions), state)


class BurracoPlayout:
    """One decision's simulations: a few turns of the cheap policy, then the value."""

    __slots__ = (
        "_hand_number",
        "_hand_size",
        "_horizon",
        "_meld_sizes",
        "_observation",
        "_policy",
    )

    def __init__(self, observation: Observation) -> None:
        self._observation = observation
        self._hand_number = observation.hand_number
        self._hand_size = len(observation.hand)
        self._meld_sizes = {meld.meld_id: len(meld.meld.cards) for meld in observation.melds}
        self._horizon = observation.turn + HORIZON_TURNS
        self._policy = CheapPolicy()

    def root_candidates(self, legal_actions: Sequence[Action]) -> list[Action]:
        """The decision's moves :func:`worth_searching` among those that keep the hand
        moving (:func:`~rummykit.bots.burraco.progress.moves_with_progress`: the
        evaluation sees a card thrown back as no worse than a card drawn, so the search
        alone would hand the same card back and forth)."""
        sizes = self._meld_sizes
        moving = moves_with_progress(self._observation, legal_actions)
        return worth_searching(moving, self._hand_size, lambda meld_id: sizes[meld_id])

    def candidates(self, state: State, actions: list[Action]) -> list[Action]:
        """Below the root, the moves :func:`worth_searching` too."""
        if state.phase != "play":
            return actions
        player = state.current_player
        assert player is not None
        return worth_searching(actions, len(state.hand_of(player)), state.meld_size)

    def finished(self, state: State) -> bool:
        """The hand of the decision is over (the game ended or the next was dealt)."""
        return state.game_over or state.hand_number != self._hand_number

    def rewards(self, state: State, rng: random.Random) -> tuple[float, ...]:
        """Play on to the horizon (or the hand's end) and score every seat (partners
        alike)."""
        policy = self._policy
        players = state.num_players
        for _ in range(ROLLOUT_ACTION_LIMIT):
            if self.finished(state):
                scores = state.hand_results[-1].scores
                return seat_rewards(reward_of(scores[0] - scores[1]), players)
            if state.turn >= self._horizon and state.phase == "draw":
                break
            state.apply_legal(policy.action(state, rng))
        first, second = state_values(state)
        return seat_rewards(reward_of(first - second), players)


class BurracoSearch:
    """The search adapter of Burraco (see :class:`rummykit.bots.ismcts.SearchAdapter`)."""

    exploration = EXPLORATION
    paired = True

    def __init__(self) -> None:
        self.guide = BurracoGreedyBot()
        """The search's guide (:attr:`rummykit.bots.ismcts.SearchAdapter.guide`)."""

    @property
    def game(self) -> GameInfo[Any, Any, Any, Any]:
        return GAME

    def playout(self, observation: Any) -> BurracoPlayout:
        if not isinstance(observation, Observation):
            raise ValueError(f"expected a Burraco observation, not {type(observation).__name__}")
        return BurracoPlayout(observation)
