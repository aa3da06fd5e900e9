"""Public values about the table: melds laid down and moves on the discard pile.

These are what every player sees; they carry card faces only and never a physical copy,
and they never hold anything hidden (a hand, the stock order).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

from rummykit.cards import Card, CardError, format_card, parse_card
from rummykit.games import core
from rummykit.games.three_thirteen import _json

MeldKind = Literal["set", "run"]
PileMoveKind = Literal["take", "discard", "out"]
MELD_KINDS: Final[tuple[MeldKind, ...]] = ("set", "run")
PILE_MOVE_KINDS: Final[tuple[PileMoveKind, ...]] = ("take", "discard", "out")
_MELD_FIELDS: Final = frozenset(("meld_id", "owner", "kind", "cards"))
_MOVE_FIELDS: Final = frozenset(("kind", "player", "cards"))
_MOVE_KINDS: Final = frozenset(PILE_MOVE_KINDS)


@dataclass(frozen=True, slots=True, kw_only=True)
class TableMeld:
    """A meld laid down by the player who went out, with its stable ``meld_id`` (0, 1, ...).

    Runs list their cards from low to high with each wild at the place it stands for.

    >>> from rummykit.cards import parse_cards
    >>> meld = TableMeld(meld_id=0, owner=1, kind="run", cards=tuple(parse_cards("4h 5h 6h")))
    >>> meld.to_json()
    {'meld_id': 0, 'owner': 1, 'kind': 'run', 'cards': ['4h', '5h', '6h']}
    >>> TableMeld.from_json(meld.to_json(), players=2) == meld
    True
    """

    meld_id: int
    owner: int
    kind: MeldKind
    cards: tuple[Card, ...]

    def describe(self) -> str:
        return " ".join(format_card(card) for card in self.cards)

    def to_json(self) -> dict[str, Any]:
        return {
            "meld_id": self.meld_id,
            "owner": self.owner,
            "kind": self.kind,
            "cards": core.cards_to_json(self.cards),
        }

    @classmethod
    def from_json(cls, data: object, *, players: int) -> TableMeld:
        """Read a meld from untrusted JSON; ``ValueError`` says what is wrong."""
        fields = _json.require_object(data, "a table meld", _MELD_FIELDS)
        kind = _json.require_choice(fields["kind"], "a table meld's kind", MELD_KINDS)
        cards = _json.require_cards(fields["cards"], "a table meld's cards")
        if len(cards) < 3:
            raise ValueError("a table meld has at least 3 cards")
        return cls(
            meld_id=_json.require_int(fields["meld_id"], "a table meld's meld_id", minimum=0),
            owner=_json.require_int(
                fields["owner"], "a table meld's owner", minimum=0, maximum=players - 1
            ),
            kind=kind,
            cards=cards,
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class PileMove:
    """One move on the discard pile: ``player`` took or discarded ``card``.

    ``kind`` is ``"take"``, ``"discard"`` or ``"out"`` (the discard of a player going out).
    Its JSON lists the card under ``cards``, as Burraco's pile history does (where taking
    the pile moves several cards).

    >>> PileMove(player=1, kind="take", card=0).to_json()
    {'kind': 'take', 'player': 1, 'cards': ['Ac']}
    """

    player: int
    kind: PileMoveKind
    card: Card

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "player": self.player, "cards": [format_card(self.card)]}

    @classmethod
    def from_json(cls, data: object, *, players: int) -> PileMove:
        """Read a pile move from untrusted JSON; ``ValueError`` says what is wrong."""
        if type(data) is dict and len(data) == 3:
            # Fast path for well-formed moves (a history can hold hundreds of them).
            player = data.get("player")
            kind = data.get("kind")
            names = data.get("cards")
            if (
                type(player) is int
                and 0 <= player < players
                and type(kind) is str
                and kind in _MOVE_KINDS
                and type(names) is list
                and len(names) == 1
                and type(names[0]) is str
            ):
                try:
                    return cls(player=player, kind=kind, card=parse_card(names[0]))
                except CardError:
                    pass
        fields = _json.require_object(data, "a discard pile move", _MOVE_FIELDS)
        kind = _json.require_choice(fields["kind"], "a discard pile move's kind", PILE_MOVE_KINDS)
        cards = _json.require_cards(fields["cards"], "a discard pile move's cards")
        if len(cards) != 1:
            raise ValueError("a discard pile move moves exactly one card")
        return cls(
            player=_json.require_int(
                fields["player"], "a discard pile move's player", minimum=0, maximum=players - 1
            ),
            kind=kind,
            card=cards[0],
        )
