"""Round results: each player's laid-down arrangement, deadwood and the running totals.

At the end of a round every player lays down the arrangement of their cards that leaves
the least deadwood (found by :mod:`.arrange`, an exact optimisation); the player who
went out scores 0 with the melds already on the table.  Points add up over the rounds
and the lowest total wins, equal lowest totals sharing the win.  This module computes
and describes results; it never changes a game state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from rummykit.cards import DEADWOOD_POINTS, Card
from rummykit.games import core
from rummykit.games.three_thirteen import _json
from rummykit.games.three_thirteen.arrange import arrange
from rummykit.games.three_thirteen.rules import MAX_ROUND, MIN_ROUND, Rules, wild_rank

_PLAYER_FIELDS: Final = frozenset(("player", "went_out", "melds", "unmelded", "deadwood"))
_RESULT_FIELDS: Final = frozenset(("round_number", "wild_rank", "dealer", "went_out", "players"))


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerRoundResult:
    """What one player laid down at the end of a round and the deadwood it left."""

    player: int
    went_out: bool
    melds: tuple[tuple[Card, ...], ...]
    unmelded: tuple[Card, ...]
    deadwood: int

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "went_out": self.went_out,
            "melds": [core.cards_to_json(meld) for meld in self.melds],
            "unmelded": core.cards_to_json(self.unmelded),
            "deadwood": self.deadwood,
        }

    @classmethod
    def from_json(cls, data: object, *, player: int) -> PlayerRoundResult:
        """Read one player's result from untrusted JSON (the player at index ``player``)."""
        what = f"the round result of player {player}"
        fields = _json.require_object(data, what, _PLAYER_FIELDS)
        if _json.require_int(fields["player"], f"{what}: player") != player:
            raise ValueError(f"{what} names player {fields['player']}")
        melds = tuple(
            _json.require_cards(meld, f"{what}: a meld")
            for meld in _json.require_list(fields["melds"], f"{what}: melds")
        )
        if any(len(meld) < 3 for meld in melds):
            raise ValueError(f"{what}: a meld has at least 3 cards")
        unmelded = _json.require_cards(fields["unmelded"], f"{what}: unmelded")
        deadwood = _json.require_int(fields["deadwood"], f"{what}: deadwood", minimum=0)
        if deadwood != sum(DEADWOOD_POINTS[card] for card in unmelded):
            raise ValueError(f"{what}: deadwood {deadwood} is not the points of the unmelded")
        went_out = _json.require_bool(fields["went_out"], f"{what}: went_out")
        if went_out and unmelded:
            raise ValueError(f"{what}: a player who went out has no unmelded card")
        return cls(
            player=player, went_out=went_out, melds=melds, unmelded=unmelded, deadwood=deadwood
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundResult:
    """The end of one round: who dealt, who went out (if anyone) and every player's result."""

    round_number: int
    wild_rank: int
    dealer: int
    went_out: int | None
    players: tuple[PlayerRoundResult, ...]

    @property
    def scores(self) -> tuple[int, ...]:
        """The points each player scores for the round (their deadwood)."""
        return tuple(result.deadwood for result in self.players)

    def to_json(self) -> dict[str, Any]:
        return {
            "round_number": self.round_number,
            "wild_rank": self.wild_rank,
            "dealer": self.dealer,
            "went_out": self.went_out,
            "players": [result.to_json() for result in self.players],
        }

    @classmethod
    def from_json(cls, data: object, *, players: int) -> RoundResult:
        """Read a round result from untrusted JSON; ``ValueError`` says what is wrong."""
        fields = _json.require_object(data, "a round result", _RESULT_FIELDS)
        round_number = _json.require_int(
            fields["round_number"], "a round result's round", minimum=MIN_ROUND, maximum=MAX_ROUND
        )
        if fields["wild_rank"] != wild_rank(round_number):
            raise ValueError(f"the wild rank of round {round_number} is {wild_rank(round_number)}")
        dealer = _json.require_int(
            fields["dealer"], "a round result's dealer", minimum=0, maximum=players - 1
        )
        went_out = _json.require_optional_int(
            fields["went_out"], "a round result's went_out", minimum=0, maximum=players - 1
        )
        entries = _json.require_list(fields["players"], "a round result's players", length=players)
        results = tuple(
            PlayerRoundResult.from_json(entry, player=index) for index, entry in enumerate(entries)
        )
        if tuple(r.player for r in results if r.went_out) != (
            () if went_out is None else (went_out,)
        ):
            raise ValueError("a round result's went_out disagrees with its players")
        return cls(
            round_number=round_number,
            wild_rank=wild_rank(round_number),
            dealer=dealer,
            went_out=went_out,
            players=results,
        )


def score_round(
    *,
    rules: Rules,
    round_number: int,
    dealer: int,
    hands: Sequence[Sequence[Card]],
    went_out: int | None,
    went_out_melds: Sequence[tuple[Card, ...]] = (),
) -> RoundResult:
    """Arrange every hand for the least deadwood; the player who went out scores 0.

    >>> from rummykit.cards import parse_cards
    >>> result = score_round(
    ...     rules=Rules(), round_number=6, dealer=0, went_out=None,
    ...     hands=[parse_cards("Ah 2h 4h 5h 7h 8h Th Tc"), parse_cards("Ac 2c 3c 9d 9s 9h 8s 8d")],
    ... )
    >>> result.scores
    (19, 0)
    """
    round_wild_rank = wild_rank(round_number)
    results = []
    for player, hand in enumerate(hands):
        if player == went_out:
            results.append(
                PlayerRoundResult(
                    player=player,
                    went_out=True,
                    melds=tuple(went_out_melds),
                    unmelded=(),
                    deadwood=0,
                )
            )
            continue
        arrangement = arrange(
            hand,
            wild_rank=round_wild_rank,
            ace_high=rules.ace_high,
            wild_only_melds=rules.wild_only_melds,
        )
        results.append(
            PlayerRoundResult(
                player=player,
                went_out=False,
                melds=arrangement.melds,
                unmelded=arrangement.unmelded,
                deadwood=arrangement.deadwood,
            )
        )
    return RoundResult(
        round_number=round_number,
        wild_rank=round_wild_rank,
        dealer=dealer,
        went_out=went_out,
        players=tuple(results),
    )


def winners_of(totals: Sequence[int]) -> tuple[int, ...]:
    """Every player with the lowest total (equal lowest totals share the win).

    >>> winners_of([40, 25, 25])
    (1, 2)
    """
    lowest = min(totals)
    return tuple(player for player, total in enumerate(totals) if total == lowest)
