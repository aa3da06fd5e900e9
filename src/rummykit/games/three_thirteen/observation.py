"""What one Three-Thirteen player sees, as a frozen, versioned value that round-trips JSON.

A player sees their own hand (sorted), every hand size, the stock count (never its
order), the whole discard pile (bottom to top) and the round's history of who took and
discarded what, the melds of whoever went out, the round, wild rank, dealer, whose turn
and phase, how many last turns remain, round results and totals, and, for every player,
the cards seen taken from the discard pile that are still in that hand (one copy is
forgotten whenever that player discards or lays down that face).

``Observation.from_json`` treats its input as untrusted: any problem is a ``ValueError``
saying what is wrong.  An observation never holds another player's hidden cards, the
stock order or anything about deals to come.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Final, Literal

from rummykit.cards import Card
from rummykit.games import core
from rummykit.games.three_thirteen import _json
from rummykit.games.three_thirteen.rules import Rules, wild_rank
from rummykit.games.three_thirteen.scoring import RoundResult, winners_of
from rummykit.games.three_thirteen.table import PileMove, TableMeld

VERSION: Final = 1
PHASES: Final[tuple[Literal["draw", "discard", "game_over"], ...]] = (
    "draw",
    "discard",
    "game_over",
)

_FIELDS: Final = frozenset(
    (
        "version",
        "player",
        "rules",
        "round_number",
        "hand_number",
        "wild_rank",
        "dealer",
        "current_player",
        "phase",
        "turn_number",
        "hand",
        "hand_sizes",
        "stock_count",
        "discard_pile",
        "discard_history",
        "reshuffled",
        "taken_cards",
        "table_melds",
        "went_out",
        "last_turns_remaining",
        "round_results",
        "totals",
        "winners",
    )
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Observation:
    """Everything ``player`` may know about the game at one moment (cards by face)."""

    version: int
    player: int
    rules: Rules
    round_number: int
    hand_number: int
    wild_rank: int
    dealer: int
    current_player: int | None
    phase: Literal["draw", "discard", "game_over"]
    turn_number: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    stock_count: int
    discard_pile: tuple[Card, ...]
    discard_history: tuple[PileMove, ...]
    reshuffled: bool
    taken_cards: tuple[tuple[Card, ...], ...]
    table_melds: tuple[TableMeld, ...]
    went_out: int | None
    last_turns_remaining: int
    round_results: tuple[RoundResult, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """A JSON object (cards by name) that :meth:`from_json` reads back equal."""
        return {
            "version": self.version,
            "player": self.player,
            "rules": core.rules_to_json(self.rules),
            "round_number": self.round_number,
            "hand_number": self.hand_number,
            "wild_rank": self.wild_rank,
            "dealer": self.dealer,
            "current_player": self.current_player,
            "phase": self.phase,
            "turn_number": self.turn_number,
            "hand": core.cards_to_json(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "stock_count": self.stock_count,
            "discard_pile": core.cards_to_json(self.discard_pile),
            "discard_history": [move.to_json() for move in self.discard_history],
            "reshuffled": self.reshuffled,
            "taken_cards": [core.cards_to_json(cards) for cards in self.taken_cards],
            "table_melds": [meld.to_json() for meld in self.table_melds],
            "went_out": self.went_out,
            "last_turns_remaining": self.last_turns_remaining,
            "round_results": [result.to_json() for result in self.round_results],
            "totals": list(self.totals),
            "winners": list(self.winners),
        }

    @classmethod
    def from_json(cls, data: object) -> Observation:
        """Read an observation from untrusted JSON, checking it is self-consistent."""
        fields = _json.require_object(data, "an observation", _FIELDS)
        version = _json.require_int(fields["version"], "the observation version")
        if version != VERSION:
            raise ValueError(f"observation version {version} is not supported (only {VERSION})")
        rules = core.rules_from_json(Rules, fields["rules"])
        players = rules.players
        last_seat = players - 1
        round_number = _json.require_int(
            fields["round_number"],
            "the round number",
            minimum=rules.first_round,
            maximum=rules.last_round,
        )
        hand_number = round_number - rules.first_round
        if fields["hand_number"] != hand_number:
            raise ValueError(f"round {round_number} is hand number {hand_number}")
        if fields["wild_rank"] != wild_rank(round_number):
            raise ValueError(f"the wild rank of round {round_number} is {wild_rank(round_number)}")
        phase = _json.require_choice(fields["phase"], "the phase", PHASES)
        current_player = _json.require_optional_int(
            fields["current_player"], "the current player", minimum=0, maximum=last_seat
        )
        if (current_player is None) != (phase == "game_over"):
            raise ValueError("there is a current player exactly when the game is not over")
        player = _json.require_int(fields["player"], "the player", minimum=0, maximum=last_seat)
        hand = _json.require_cards(fields["hand"], "the hand")
        hand_sizes = tuple(
            _json.require_int(size, "a hand size", minimum=0)
            for size in _json.require_list(fields["hand_sizes"], "the hand sizes", length=players)
        )
        if hand_sizes[player] != len(hand):
            raise ValueError("the player's hand size disagrees with the hand")
        taken_cards = tuple(
            _json.require_cards(cards, "the cards taken from the discard pile")
            for cards in _json.require_list(fields["taken_cards"], "taken_cards", length=players)
        )
        for seat, cards in enumerate(taken_cards):
            if len(cards) > hand_sizes[seat]:
                raise ValueError(f"player {seat} holds fewer cards than were seen taken")
        if Counter(taken_cards[player]) - Counter(hand):
            raise ValueError("the cards the player took are not all in the hand")
        round_results = tuple(
            RoundResult.from_json(entry, players=players)
            for entry in _json.require_list(fields["round_results"], "the round results")
        )
        rounds_done = hand_number + (1 if phase == "game_over" else 0)
        if [r.round_number for r in round_results] != [
            rules.first_round + index for index in range(rounds_done)
        ]:
            raise ValueError(f"the round results must cover the {rounds_done} rounds played")
        totals = tuple(
            _json.require_int(total, "a total")
            for total in _json.require_list(fields["totals"], "the totals", length=players)
        )
        if totals != tuple(sum(r.scores[seat] for r in round_results) for seat in range(players)):
            raise ValueError("the totals are not the sums of the round results")
        winners = tuple(
            _json.require_int(seat, "a winner")
            for seat in _json.require_list(fields["winners"], "the winners")
        )
        if winners != (winners_of(totals) if phase == "game_over" else ()):
            raise ValueError("the winners are the lowest totals once the game is over")
        went_out = _json.require_optional_int(
            fields["went_out"], "went_out", minimum=0, maximum=last_seat
        )
        table_melds = tuple(
            TableMeld.from_json(meld, players=players)
            for meld in _json.require_list(fields["table_melds"], "the table melds")
        )
        if any(
            meld.id != index or meld.owner != went_out for index, meld in enumerate(table_melds)
        ):
            raise ValueError("table melds are numbered from 0 and owned by who went out")
        observation = cls(
            version=version,
            player=player,
            rules=rules,
            round_number=round_number,
            hand_number=hand_number,
            wild_rank=wild_rank(round_number),
            dealer=_json.require_int(fields["dealer"], "the dealer", minimum=0, maximum=last_seat),
            current_player=current_player,
            phase=phase,
            turn_number=_json.require_int(fields["turn_number"], "the turn number", minimum=0),
            hand=hand,
            hand_sizes=hand_sizes,
            stock_count=_json.require_int(fields["stock_count"], "the stock count", minimum=0),
            discard_pile=_json.require_cards(fields["discard_pile"], "the discard pile"),
            discard_history=tuple(
                PileMove.from_json(move, players=players)
                for move in _json.require_list(fields["discard_history"], "the discard history")
            ),
            reshuffled=_json.require_bool(fields["reshuffled"], "reshuffled"),
            taken_cards=taken_cards,
            table_melds=table_melds,
            went_out=went_out,
            last_turns_remaining=_json.require_int(
                fields["last_turns_remaining"], "last_turns_remaining", minimum=0, maximum=last_seat
            ),
            round_results=round_results,
            totals=totals,
            winners=winners,
        )
        observation.check_cards()
        return observation

    def seen_cards(self) -> list[Card]:
        """Every card this player can place: own hand, discard pile, table melds and the
        cards opponents were seen to take and still hold (a multiset)."""
        seen = list(self.hand) + list(self.discard_pile)
        for meld in self.table_melds:
            seen.extend(meld.cards)
        for seat in range(self.rules.players):
            if seat != self.player:
                seen.extend(self.known_hand(seat))
        return seen

    def known_hand(self, seat: int) -> tuple[Card, ...]:
        """The cards this player knows ``seat`` holds: those seen taken from the discard
        pile, or, once the game is over, the whole last hand (laid down for all to see)."""
        if self.phase == "game_over" and self.round_results:
            result = self.round_results[-1].players[seat]
            if result.went_out:
                return ()
            return tuple(card for meld in result.melds for card in meld) + result.unmelded
        return self.taken_cards[seat]

    def unseen_cards(self) -> list[Card]:
        """The deck minus :meth:`seen_cards`: the cards hidden from this player (sorted)."""
        remaining = Counter(self.rules.deck())
        remaining.subtract(self.seen_cards())
        return sorted(remaining.elements())

    def check_cards(self) -> None:
        """Raise ``ValueError`` unless the cards shown fit in the deck and the counts add up."""
        remaining = Counter(self.rules.deck())
        remaining.subtract(self.seen_cards())
        if min(remaining.values(), default=0) < 0:
            raise ValueError("the observation shows more copies of a card than the deck holds")
        for seat in range(self.rules.players):
            if seat != self.player and len(self.known_hand(seat)) > self.hand_sizes[seat]:
                raise ValueError(f"player {seat} holds fewer cards than the observation shows")
        table = sum(len(meld.cards) for meld in self.table_melds)
        total = sum(self.hand_sizes) + self.stock_count + len(self.discard_pile) + table
        if total != self.rules.deck_size:
            raise ValueError(
                f"hands, stock, discard pile and melds hold {total} cards,"
                f" not the deck's {self.rules.deck_size}"
            )
