"""What one Burraco player sees (DESIGN.md section 3), as a frozen, versioned value.

A player sees: their own hand (sorted), every meld with its id, owner (a team) and
arrangement, the whole discard pile and its history in this hand, how many cards the
stock holds, which pozzetti are left, every hand size, which team has taken a
pozzetto, the phase and turn,
the totals and the finished hands' results, the card they may not discard this turn,
and the cards still in each hand that everyone saw taken with the pile.  The names and
JSON shape are shared with Three-Thirteen wherever the two games show the same thing
(docs/observations.md lists every field; ``visibility.VERSION`` numbers the shape).  Never
another hand's unseen cards (the partner's included), the stock order, a pozzetto's
cards or the game's seed.  With four players the fields by seat (``hand_sizes``,
``known_cards``, ``totals``) have four entries and those by team (``took_pozzetto``,
a meld's ``owner``, the hand results' scores) two: :meth:`Observation.team_of` and
:attr:`Observation.partner` say who plays with whom.

``to_json`` gives plain JSON; ``Observation.from_json`` reads it back from untrusted
data, raising ``ValueError`` with a message for anything malformed.  This module builds
no observation from a game (``State.observation`` does) and changes nothing.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, TypeVar

from rummykit.cards import CARD_COUNT, Card, CardError, format_card, parse_card, sort_key
from rummykit.games.burraco.melds import Meld
from rummykit.games.burraco.results import END_REASONS, EndReason, HandResult
from rummykit.games.burraco.rules import Rules
from rummykit.games.burraco.scoring import HandScore
from rummykit.games.burraco.table import PileEntry, PileEntryKind
from rummykit.games.burraco.teams import TEAMS, partner_of, team_of
from rummykit.games.core import cards_from_json, cards_to_json, rules_from_json, rules_to_json
from rummykit.games.visibility import VERSION

ObservedPhase = Literal["draw", "play", "over"]
PHASES: Final[tuple[ObservedPhase, ...]] = ("draw", "play", "over")
PILE_KINDS: Final[tuple[PileEntryKind, ...]] = ("start", "discard", "take")
MAX_COUNT: Final = 1_000_000


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table: its stable id in this hand, its owner and its arrangement.

    The owner is a team (:mod:`.teams`): with two players, the player who laid it; with
    four, the partnership, whose both players may add to it."""

    meld_id: int
    owner: int
    meld: Meld


@dataclass(frozen=True, slots=True, kw_only=True)
class Observation:
    """One player's view of a Burraco game (see the module docstring).

    ``current_player`` is ``None`` and ``phase`` ``"over"`` once the game is over.
    ``restricted_card`` is the card taken alone from the pile this turn while the
    one-card pile rule holds (public); ``forbidden_discard`` is that card in the view of
    the player to move when they may not discard it now.  ``known_cards[p]`` are the
    cards still in player ``p``'s hand that everyone saw ``p`` take with the pile.
    ``hand_sizes``, ``known_cards`` and ``totals`` are by seat (a seat's total is its
    team's); ``took_pozzetto``, the melds' owners and the hand results by team.
    The fields and their JSON are those of docs/observations.md, in the same order.
    """

    version: int = VERSION
    player: int
    rules: Rules
    hand_number: int
    dealer: int
    current_player: int | None
    phase: ObservedPhase
    turn: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    stock_count: int
    discard_pile: tuple[Card, ...]
    discard_history: tuple[PileEntry, ...]
    known_cards: tuple[tuple[Card, ...], ...]
    melds: tuple[TableMeld, ...]
    pozzetti_left: tuple[int, ...]
    took_pozzetto: tuple[bool, ...]
    restricted_card: Card | None
    forbidden_discard: Card | None
    hand_results: tuple[HandResult, ...]
    totals: tuple[int, ...]
    hand_over: bool
    game_over: bool
    winners: tuple[int, ...]

    @property
    def num_players(self) -> int:
        """The seats at the table: 2, or 4 in two partnerships (``rules.players``)."""
        return self.rules.players

    @property
    def team(self) -> int:
        """The observer's team (the index of ``took_pozzetto`` and of meld owners)."""
        return team_of(self.player)

    @property
    def partner(self) -> int | None:
        """The observer's partner, sitting opposite; ``None`` in the two-player game."""
        return partner_of(self.player, self.rules.players)

    def team_of(self, seat: int) -> int:
        """The team of ``seat``: seats 0 and 2 are team 0, seats 1 and 3 team 1."""
        return team_of(seat)

    def to_json(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "player": self.player,
            "rules": rules_to_json(self.rules),
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "current_player": self.current_player,
            "phase": self.phase,
            "turn": self.turn,
            "hand": cards_to_json(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "stock_count": self.stock_count,
            "discard_pile": cards_to_json(self.discard_pile),
            "discard_history": [
                {"kind": e.kind, "player": e.player, "cards": cards_to_json(e.cards)}
                for e in self.discard_history
            ],
            "known_cards": [cards_to_json(cards) for cards in self.known_cards],
            "melds": [
                {"meld_id": m.meld_id, "owner": m.owner, **m.meld.to_json()} for m in self.melds
            ],
            "pozzetti_left": list(self.pozzetti_left),
            "took_pozzetto": list(self.took_pozzetto),
            "restricted_card": _card_or_none(self.restricted_card),
            "forbidden_discard": _card_or_none(self.forbidden_discard),
            "hand_results": [result.to_json() for result in self.hand_results],
            "totals": list(self.totals),
            "hand_over": self.hand_over,
            "game_over": self.game_over,
            "winners": list(self.winners),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Observation:
        """Read an observation from untrusted JSON data; ``ValueError`` says what is wrong.

        >>> Observation.from_json({"version": 1})
        Traceback (most recent call last):
        ...
        ValueError: observation version 1 is not supported (only 4)
        """
        return _observation_from_json(data)


def _card_or_none(card: Card | None) -> str | None:
    return None if card is None else format_card(card)


# ---------------------------------------------------------------------------------------
# Reading untrusted JSON

T = TypeVar("T")


def _object(data: object, what: str, keys: tuple[str, ...]) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise ValueError(f"{what} must be a JSON object")
    unknown = sorted(set(data) - set(keys))
    if unknown:
        raise ValueError(f"{what} has an unknown field {unknown[0]!r}")
    missing = [key for key in keys if key not in data]
    if missing:
        raise ValueError(f"{what} has no {missing[0]!r}")
    return data


def _whole(value: object, what: str, low: int = 0, high: int = MAX_COUNT) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be a whole number, not {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{what} must be from {low} to {high}, not {value}")
    return value


def _signed(value: object, what: str) -> int:
    return _whole(value, what, -MAX_COUNT * 100, MAX_COUNT * 100)


def _flag(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{what} must be true or false, not {value!r}")
    return value


def _list(value: object, what: str, item: Callable[[object, str], T]) -> tuple[T, ...]:
    if not isinstance(value, list):
        raise ValueError(f"{what} must be a list")
    return tuple(item(v, f"{what}[{i}]") for i, v in enumerate(value))


def _per_player(
    value: object, what: str, item: Callable[[object, str], T], players: int
) -> tuple[T, ...]:
    items = _list(value, what, item)
    if len(items) != players:
        raise ValueError(f"{what} must have one entry per player ({players})")
    return items


def _per_team(value: object, what: str, item: Callable[[object, str], T]) -> tuple[T, ...]:
    items = _list(value, what, item)
    if len(items) != TEAMS:
        raise ValueError(f"{what} must have one entry per team ({TEAMS})")
    return items


def _player(value: object, what: str, players: int) -> int:
    return _whole(value, what, 0, players - 1)


def _team(value: object, what: str) -> int:
    return _whole(value, what, 0, TEAMS - 1)


def _card(value: object, what: str) -> Card:
    if not isinstance(value, str):
        raise ValueError(f"{what} must be a card name, not {value!r}")
    try:
        card = parse_card(value)
    except CardError as error:
        raise ValueError(f"{what}: {error}") from None
    assert 0 <= card < CARD_COUNT
    return card


def _optional_card(value: object, what: str) -> Card | None:
    return None if value is None else _card(value, what)


def _cards(value: object, what: str) -> tuple[Card, ...]:
    return tuple(cards_from_json(value, what))


_MELD_KEYS: Final = ("meld_id", "owner", "kind", "cards", "wild_index", "suit", "rank")


def _table_meld(value: object, what: str) -> TableMeld:
    data = _object(value, what, _MELD_KEYS)
    return TableMeld(
        meld_id=_whole(data["meld_id"], f"{what}: meld_id"),
        owner=_team(data["owner"], f"{what}: owner"),
        meld=_meld({key: data[key] for key in _MELD_KEYS[2:]}, what),
    )


def _pile_entry(value: object, what: str, players: int) -> PileEntry:
    data = _object(value, what, ("kind", "player", "cards"))
    kind = data["kind"]
    if kind not in PILE_KINDS:
        raise ValueError(f"{what}: kind must be one of {', '.join(PILE_KINDS)}, not {kind!r}")
    seat = data["player"]
    player = None if seat is None else _player(seat, f"{what}: player", players)
    if (player is None) != (kind == "start"):
        raise ValueError(f"{what}: only the 'start' entry has no player")
    cards = _cards(data["cards"], f"{what}: cards")
    if kind != "take" and len(cards) != 1:
        raise ValueError(f"{what}: a {kind!r} entry has exactly one card")
    if not cards:
        raise ValueError(f"{what}: a 'take' entry has at least one card")
    return PileEntry(kind, player, cards)


def _meld(value: object, what: str) -> Meld:
    try:
        return Meld.from_json(value)
    except ValueError as error:  # MeldError is a ValueError
        raise ValueError(f"{what}: {error}") from None


def _hand_score(value: object, what: str) -> HandScore:
    try:
        return HandScore.from_json(value)
    except ValueError as error:
        raise ValueError(f"{what}: {error}") from None


def _reason(value: object, what: str) -> EndReason:
    for reason in END_REASONS:
        if value == reason:
            return reason
    raise ValueError(f"{what} must be one of {', '.join(END_REASONS)}, not {value!r}")


_RESULT_KEYS: Final = (
    "hand_number",
    "dealer",
    "reason",
    "closer",
    "scores",
    "breakdown",
    "totals",
    "melds",
)


def _side_melds(value: object, what: str) -> tuple[Meld, ...]:
    return _list(value, what, _meld)


def _hand_result(value: object, what: str, players: int) -> HandResult:
    """A hand result: its ``dealer`` and ``closer`` are seats, the rest by team."""
    data = _object(value, what, _RESULT_KEYS)
    reason = _reason(data["reason"], f"{what}: reason")
    seat = data["closer"]
    closer = None if seat is None else _player(seat, f"{what}: closer", players)
    if (closer is None) != (reason != "closed"):
        raise ValueError(f"{what}: a closer is named exactly when the reason is 'closed'")
    scores = _per_team(data["scores"], f"{what}: scores", _signed)
    breakdown = _per_team(data["breakdown"], f"{what}: breakdown", _hand_score)
    if scores != tuple(score.total for score in breakdown):
        raise ValueError(f"{what}: the scores differ from the breakdown's totals")
    melds = _per_team(data["melds"], f"{what}: melds", _side_melds)
    if tuple(sum(meld.points for meld in side) for side in melds) != tuple(
        score.melded for score in breakdown
    ):
        raise ValueError(f"{what}: the melds' points differ from the breakdown's melded points")
    return HandResult(
        hand_number=_whole(data["hand_number"], f"{what}: hand_number"),
        dealer=_player(data["dealer"], f"{what}: dealer", players),
        reason=reason,
        closer=closer,
        scores=scores,
        breakdown=breakdown,
        totals=_per_team(data["totals"], f"{what}: totals", _signed),
        melds=melds,
    )


def _phase(value: object) -> ObservedPhase:
    for phase in PHASES:
        if value == phase:
            return phase
    raise ValueError(f"phase must be one of {', '.join(PHASES)}, not {value!r}")


_KEYS: Final = tuple(f.name for f in dataclasses.fields(Observation))


def _observation_from_json(data: object) -> Observation:
    if isinstance(data, Mapping) and data.get("version") != VERSION:
        raise ValueError(
            f"observation version {data.get('version')!r} is not supported (only {VERSION})"
        )
    data = _object(data, "the observation", _KEYS)
    rules = rules_from_json(Rules, data["rules"])
    players = rules.players
    seat = functools.partial(_player, players=players)
    player = seat(data["player"], "player")
    current = data["current_player"]
    current_player = None if current is None else seat(current, "current_player")
    phase = _phase(data["phase"])
    game_over = _flag(data["game_over"], "game_over")
    if (phase == "over") != game_over or (current_player is None) != game_over:
        raise ValueError("phase 'over', game_over and no current_player go together")
    hand = _cards(data["hand"], "hand")
    hand_sizes = _per_player(data["hand_sizes"], "hand_sizes", _whole, players)
    if hand_sizes[player] != len(hand):
        raise ValueError("hand_sizes disagrees with the size of the player's own hand")
    if list(hand) != sorted(hand, key=sort_key):
        raise ValueError("the hand must be sorted")
    melds = _list(data["melds"], "melds", _table_meld)
    if [m.meld_id for m in melds] != list(range(len(melds))):
        raise ValueError("melds must be numbered 0, 1, 2, ... in order")
    pozzetti_left = _list(data["pozzetti_left"], "pozzetti_left", _pozzetto_index)
    if list(pozzetti_left) != sorted(set(pozzetti_left)):
        raise ValueError("pozzetti_left must list distinct pozzetti in order")
    return Observation(
        version=VERSION,
        player=player,
        rules=rules,
        hand_number=_whole(data["hand_number"], "hand_number"),
        dealer=seat(data["dealer"], "dealer"),
        current_player=current_player,
        phase=phase,
        turn=_whole(data["turn"], "turn"),
        hand=hand,
        hand_sizes=hand_sizes,
        stock_count=_whole(data["stock_count"], "stock_count"),
        discard_pile=_cards(data["discard_pile"], "discard_pile"),
        discard_history=_list(
            data["discard_history"],
            "discard_history",
            functools.partial(_pile_entry, players=players),
        ),
        known_cards=_per_player(data["known_cards"], "known_cards", _sorted_cards, players),
        melds=melds,
        pozzetti_left=pozzetti_left,
        took_pozzetto=_per_team(data["took_pozzetto"], "took_pozzetto", _flag),
        restricted_card=_optional_card(data["restricted_card"], "restricted_card"),
        forbidden_discard=_optional_card(data["forbidden_discard"], "forbidden_discard"),
        hand_results=_list(
            data["hand_results"], "hand_results", functools.partial(_hand_result, players=players)
        ),
        totals=_per_player(data["totals"], "totals", _signed, players),
        hand_over=_flag(data["hand_over"], "hand_over"),
        game_over=game_over,
        winners=_list(data["winners"], "winners", seat),
    )


def _pozzetto_index(value: object, what: str) -> int:
    return _whole(value, what, 0, 1)


def _sorted_cards(value: object, what: str) -> tuple[Card, ...]:
    cards = _cards(value, what)
    if list(cards) != sorted(cards, key=sort_key):
        raise ValueError(f"{what} must be sorted")
    return cards
