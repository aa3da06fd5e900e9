"""Inference: determinizations weighted by how likely the other players' moves are.

The plain determinizer (``game.determinize``) deals the cards a player cannot see
uniformly among the deals consistent with the observation: each hand holds the cards
its player was seen to take from the discard pile and not yet melded or discarded
(``known_cards``; both games' determinizers honour them), and the rest of the unseen
cards at random.  It ignores what the others *did*: a player who threw away the 7♥
seldom holds the 6♥ and 8♥, and one who let the 9♣ go by seldom holds two nines.

:class:`InferenceSampler` corrects for that by *sampling importance resampling*: for one
decision it draws a pool of candidate determinizations from the plain determinizer
(the prior) and gives each a weight, the likelihood of every other seat's observed
moves in this hand (partners' included) under a :class:`PlayModel`; each sample it is
asked for is a candidate drawn with probability proportional to its weight.  Where no
move of another seat has been seen every weight is 1, and the samples are exactly the
plain determinizer's.  A sample is always one of the determinizer's deals, so it never
holds a card that cannot be there.

The model of play here (:class:`DiscardModel`) is a simple one: a player throws away,
or lets go by, a card less readily the more cards of their hand it links up with (same
rank, or same suit within two ranks; wild cards aside): each discard of card ``c`` by
a seat counts ``exp(-discard_weight * links(c, hand))``, each card let go by
``exp(-pass_weight * links(c, hand))``, the hand being the seat's hand in the candidate
deal now.  What a game adds (which cards are wild, how its pile history reads, how to
read a seat's hand from a state) comes from :class:`PileReading`, given by each game's
bot package.

Never does I/O, never uses the global ``random`` module, and never sees a real state:
only observations and the determinizations made from them.
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

from rummykit.cards import RANK_OF, SUIT_OF, Card
from rummykit.games.registry import AnyGame

POOL: Final = 128
"""Candidate determinizations drawn for one decision."""
SEED_BITS: Final = 63


@dataclass(frozen=True, slots=True)
class Evidence:
    """One observed move of another seat: ``player`` discarded ``card`` (``kind`` is
    ``"discard"``) or let it go by, drawing from the stock instead (``"pass"``)."""

    player: int
    kind: str
    card: Card


class PileReading(Protocol):
    """What the model needs of one game: the moves seen on the discard pile in this
    hand, which cards are wild in an observation, and a seat's hand in a state."""

    def evidence(self, observation: Any) -> list[Evidence]: ...

    def wild(self, observation: Any) -> Callable[[Card], bool]: ...

    def hand(self, state: Any, seat: int) -> Sequence[Card]: ...


class PlayModel(Protocol):
    """A model of play: the log-likelihood of the other seats' observed moves in a
    candidate deal ``state`` (made from ``observation``)."""

    def prepare(self, observation: Any) -> Callable[[Any], float]: ...


def links(card: Card, hand: Sequence[Card], wild: Callable[[Card], bool]) -> int:
    """How many non-wild cards of ``hand`` link up with ``card``: the same rank, or the
    same suit within two ranks (0 for a wild ``card``).

    >>> from rummykit.cards import parse_card
    >>> hand = [parse_card(name) for name in ("6h", "8h", "7s", "Kc", "2d")]
    >>> links(parse_card("7h"), hand, lambda card: RANK_OF[card] == 2)
    3
    """
    if wild(card):
        return 0
    rank, suit = RANK_OF[card], SUIT_OF[card]
    count = 0
    for other in hand:
        if wild(other):
            continue
        other_rank = RANK_OF[other]
        if other_rank == rank or (SUIT_OF[other] == suit and abs(other_rank - rank) <= 2):
            count += 1
    return count


@dataclass(frozen=True, slots=True)
class DiscardModel:
    """The simple model of play of the module docstring."""

    reading: PileReading
    discard_weight: float = 0.7
    pass_weight: float = 0.4

    def prepare(self, observation: Any) -> Callable[[Any], float]:
        """The log-likelihood of a candidate deal of ``observation`` (``0.0`` for every
        deal when no other seat's move was seen)."""
        seen = [e for e in self.reading.evidence(observation) if e.player != observation.player]
        wild = self.reading.wild(observation)
        hand_of = self.reading.hand
        weights = {"discard": self.discard_weight, "pass": self.pass_weight}

        def log_likelihood(state: Any) -> float:
            total = 0.0
            hands: dict[int, Sequence[Card]] = {}
            for item in seen:
                hand = hands.get(item.player)
                if hand is None:
                    hand = hands[item.player] = hand_of(state, item.player)
                total -= weights[item.kind] * links(item.card, hand, wild)
            return total

        return log_likelihood


class InferenceSampler:
    """Determinizations of one observation, drawn in proportion to the likelihood of
    the other seats' moves (see the module docstring).

    ``seed`` fixes the pool; :meth:`sample` picks from it with the caller's generator.
    """

    def __init__(
        self, game: AnyGame, observation: Any, model: PlayModel, seed: int, *, pool: int = POOL
    ) -> None:
        if pool < 1:
            raise ValueError(f"the pool needs at least one deal, not {pool}")
        self.game = game
        self.observation = observation
        stream = random.Random(seed)
        self.seeds = [stream.getrandbits(SEED_BITS) for _ in range(pool)]
        log_likelihood = model.prepare(observation)
        logs = [log_likelihood(game.determinize(observation, seed)) for seed in self.seeds]
        top = max(logs)
        weights = [math.exp(value - top) for value in logs]
        total = math.fsum(weights)
        self.weights = [weight / total for weight in weights]
        self.cumulative: list[float] = []
        running = 0.0
        for weight in self.weights:
            running += weight
            self.cumulative.append(running)

    @property
    def effective_size(self) -> float:
        """The pool's effective sample size, ``1 / Σ w²`` (the pool's size when every
        weight is equal, near 1 when one deal carries all the weight)."""
        return 1.0 / math.fsum(weight * weight for weight in self.weights)

    def sample(self, rng: random.Random) -> Any:
        """A new state: a candidate deal drawn by weight (one draw from ``rng``)."""
        point = rng.getrandbits(SEED_BITS) / float(1 << SEED_BITS) * self.cumulative[-1]
        index = min(bisect.bisect_right(self.cumulative, point), len(self.seeds) - 1)
        return self.game.determinize(self.observation, self.seeds[index])


def pile_evidence(moves: Sequence[tuple[int | None, str, Card]]) -> list[Evidence]:
    """The discards and the cards let go by in a hand's pile history, given as
    ``(player, kind, top card)`` in order: ``kind`` is ``"start"`` (the card turned up,
    no player), ``"discard"`` (``"out"`` too: the discard of a player going out) or
    ``"take"``.  A card on top of the pile that the next player to discard did not take
    was let go by that player (who drew from the stock instead).

    >>> pile_evidence([(None, "start", 5), (0, "discard", 7), (1, "take", 7),
    ...                (1, "discard", 9), (0, "discard", 11)])  # doctest: +NORMALIZE_WHITESPACE
    [Evidence(player=0, kind='pass', card=5), Evidence(player=0, kind='discard', card=7),
     Evidence(player=1, kind='discard', card=9), Evidence(player=0, kind='pass', card=9),
     Evidence(player=0, kind='discard', card=11)]
    """
    found: list[Evidence] = []
    top: tuple[int | None, Card] | None = None
    for player, kind, card in moves:
        if kind == "start":
            top = (None, card)
        elif kind == "take":
            top = None
        elif player is not None:
            if top is not None and top[0] != player:
                found.append(Evidence(player, "pass", top[1]))
            found.append(Evidence(player, "discard", card))
            top = (player, card)
    return found
