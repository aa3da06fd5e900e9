"""What one Three-Thirteen player sees, as a frozen, versioned value that round-trips JSON.

A player sees their own hand (sorted), every hand size, the stock count (never its
order), the whole discard pile (bottom to top) and the round's history of who took and
discarded what, the melds of whoever went out, the round, wild rank, dealer, whose turn
and phase, how many last turns remain, round results and totals, and, for every player,
the cards seen taken from the discard pile that are still in that hand (one copy is
forgotten whenever that player discards or lays down that face).  After the round's
reshuffle a player also knows which cards the stock may still hold: those reshuffled
into it (the discard pile but its top card, seen by all) except the ones the player
drew from it since.  The names and JSON shape are shared with Burraco wherever the
two games show the same thing (a round is a "hand" in ``hand_number`` and
``hand_results``; docs/observations.md lists every field).

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
from rummykit.games.visibility import VERSION

PHASES: Final[tuple[Literal["draw", "discard", "over"], ...]] = ("draw", "discard", "over")

_FIELDS: Final = frozenset(
    (
        "version",
        "player",
        "rules",
        "hand_number",
        "round_number",
        "wild_rank",
        "dealer",
        "current_player",
        "phase",
        "turn",
        "hand",
        "hand_sizes",
        "stock_count",
        "discard_pile",
        "discard_history",
        "known_cards",
        "melds",
        "reshuffled",
        "stock_may_hold",
        "went_out",
        "last_turns_remaining",
        "hand_results",
        "totals",
        "hand_over",
        "game_over",
        "winners",
    )
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Observation:
    """Everything ``player`` may know about the game at one moment (cards by face).

    The fields and their JSON are those of docs/observations.md, in the same order.
    """

    version: int
    player: int
    rules: Rules
    hand_number: int
    round_number: int
    wild_rank: int
    dealer: int
    current_player: int | None
    phase: Literal["draw", "discard", "over"]
    turn: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    stock_count: int
    discard_pile: tuple[Card, ...]
    discard_history: tuple[PileMove, ...]
    known_cards: tuple[tuple[Card, ...], ...]
    melds: tuple[TableMeld, ...]
    reshuffled: bool
    stock_may_hold: tuple[Card, ...] | None
    """``None`` before the reshuffle; after it, the cards reshuffled into the stock that
    this player has not drawn since (sorted): the stock holds only such cards."""
    went_out: int | None
    last_turns_remaining: int
    hand_results: tuple[RoundResult, ...]
    totals: tuple[int, ...]
    hand_over: bool
    game_over: bool
    winners: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """A JSON object (cards by name) that :meth:`from_json` reads back equal."""
        return {
            "version": self.version,
            "player": self.player,
            "rules": core.rules_to_json(self.rules),
            "hand_number": self.hand_number,
            "round_number": self.round_number,
            "wild_rank": self.wild_rank,
            "dealer": self.dealer,
            "current_player": self.current_player,
            "phase": self.phase,
            "turn": self.turn,
            "hand": core.cards_to_json(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "stock_count": self.stock_count,
            "discard_pile": core.cards_to_json(self.discard_pile),
            "discard_history": [move.to_json() for move in self.discard_history],
            "known_cards": [core.cards_to_json(cards) for cards in self.known_cards],
            "melds": [meld.to_json() for meld in self.melds],
            "reshuffled": self.reshuffled,
            "stock_may_hold": (
                None if self.stock_may_hold is None else core.cards_to_json(self.stock_may_hold)
            ),
            "went_out": self.went_out,
            "last_turns_remaining": self.last_turns_remaining,
            "hand_results": [result.to_json() for result in self.hand_results],
            "totals": list(self.totals),
            "hand_over": self.hand_over,
            "game_over": self.game_over,
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
        game_over = _json.require_bool(fields["game_over"], "game_over")
        hand_over = _json.require_bool(fields["hand_over"], "hand_over")
        if game_over != (phase == "over") or (game_over and not hand_over):
            raise ValueError("phase 'over', game_over and hand_over go together")
        current_player = _json.require_optional_int(
            fields["current_player"], "the current player", minimum=0, maximum=last_seat
        )
        if (current_player is None) != game_over:
            raise ValueError("there is a current player exactly when the game is not over")
        player = _json.require_int(fields["player"], "the player", minimum=0, maximum=last_seat)
        hand = _json.require_cards(fields["hand"], "the hand")
        hand_sizes = tuple(
            _json.require_int(size, "a hand size", minimum=0)
            for size in _json.require_list(fields["hand_sizes"], "the hand sizes", length=players)
        )
        if hand_sizes[player] != len(hand):
            raise ValueError("the player's hand size disagrees with the hand")
        known_cards = tuple(
            _json.require_cards(cards, "the cards known in a hand")
            for cards in _json.require_list(fields["known_cards"], "known_cards", length=players)
        )
        for seat, cards in enumerate(known_cards):
            if len(cards) > hand_sizes[seat]:
                raise ValueError(f"player {seat} holds fewer cards than were seen taken")
        if Counter(known_cards[player]) - Counter(hand):
            raise ValueError("the cards the player took are not all in the hand")
        hand_results = tuple(
            RoundResult.from_json(entry, players=players)
            for entry in _json.require_list(fields["hand_results"], "the hand results")
        )
        rounds_done = hand_number + (1 if game_over else 0)
        if [r.round_number for r in hand_results] != [
            rules.first_round + index for index in range(rounds_done)
        ]:
            raise ValueError(f"the hand results must cover the {rounds_done} rounds played")
        totals = tuple(
            _json.require_int(total, "a total")
            for total in _json.require_list(fields["totals"], "the totals", length=players)
        )
        if totals != tuple(sum(r.scores[seat] for r in hand_results) for seat in range(players)):
            raise ValueError("the totals are not the sums of the hand results")
        winners = tuple(
            _json.require_int(seat, "a winner")
            for seat in _json.require_list(fields["winners"], "the winners")
        )
        if winners != (winners_of(totals) if game_over else ()):
            raise ValueError("the winners are the lowest totals once the game is over")
        went_out = _json.require_optional_int(
            fields["went_out"], "went_out", minimum=0, maximum=last_seat
        )
        melds = tuple(
            TableMeld.from_json(meld, players=players)
            for meld in _json.require_list(fields["melds"], "the melds")
        )
        if any(meld.meld_id != index or meld.owner != went_out for index, meld in enumerate(melds)):
            raise ValueError("melds are numbered from 0 and owned by who went out")
        reshuffled = _json.require_bool(fields["reshuffled"], "reshuffled")
        stock_may_hold = (
            None
            if fields["stock_may_hold"] is None
            else _json.require_cards(fields["stock_may_hold"], "what the stock may hold")
        )
        if (stock_may_hold is None) == reshuffled:
            raise ValueError("what the stock may hold is known exactly when it was reshuffled")
        observation = cls(
            version=version,
            player=player,
            rules=rules,
            hand_number=hand_number,
            round_number=round_number,
            wild_rank=wild_rank(round_number),
            dealer=_json.require_int(fields["dealer"], "the dealer", minimum=0, maximum=last_seat),
            current_player=current_player,
            phase=phase,
            turn=_json.require_int(fields["turn"], "the turn", minimum=0),
            hand=hand,
            hand_sizes=hand_sizes,
            stock_count=_json.require_int(fields["stock_count"], "the stock count", minimum=0),
            discard_pile=_json.require_cards(fields["discard_pile"], "the discard pile"),
            discard_history=tuple(
                PileMove.from_json(move, players=players)
                for move in _json.require_list(fields["discard_history"], "the discard history")
            ),
            known_cards=known_cards,
            melds=melds,
            reshuffled=reshuffled,
            stock_may_hold=stock_may_hold,
            went_out=went_out,
            last_turns_remaining=_json.require_int(
                fields["last_turns_remaining"], "last_turns_remaining", minimum=0, maximum=last_seat
            ),
            hand_results=hand_results,
            totals=totals,
            hand_over=hand_over,
            game_over=game_over,
            winners=winners,
        )
        observation.check_cards()
        return observation

    def seen_cards(self) -> list[Card]:
        """Every card this player can place: own hand, discard pile, table melds and the
        cards opponents were seen to take and still hold (a multiset)."""
        seen = list(self.hand) + list(self.discard_pile)
        for meld in self.melds:
            seen.extend(meld.cards)
        for seat in range(self.rules.players):
            if seat != self.player:
                seen.extend(self.known_hand(seat))
        return seen

    def known_hand(self, seat: int) -> tuple[Card, ...]:
        """The cards this player knows ``seat`` holds: those seen taken from the discard
        pile, or, once the game is over, the whole last hand (laid down for all to see)."""
        if self.game_over and self.hand_results:
            result = self.hand_results[-1].players[seat]
            if result.went_out:
                return ()
            return tuple(card for meld in result.melds for card in meld) + result.unmelded
        return self.known_cards[seat]

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
        table = sum(len(meld.cards) for meld in self.melds)
        if self.stock_may_hold is not None:
            possible = Counter(self.stock_may_hold) & remaining
            if sum(possible.values()) < self.stock_count:
                raise ValueError("the stock holds more cards than it may hold")
        total = sum(self.hand_sizes) + self.stock_count + len(self.discard_pile) + table
        if total != self.rules.deck_size:
            raise ValueError(
                f"hands, stock, discard pile and melds hold {total} cards,"
                f" not the deck's {self.rules.deck_size}"
            )
