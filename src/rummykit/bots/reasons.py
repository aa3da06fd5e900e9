"""Why a bot chose its move, as data a client can say in any language.

A :class:`Reason` is a few phrases, each a stable code with parameters; :data:`PHRASES`
holds every code's English template, and clients keep their own translations of the same
codes (the web client's are the ``reason.<code>`` messages).  The English text joins the
phrases with ``": "`` after the first and ``"; "`` after later ones::

    >>> why = Reason.of("take_card", card="9h") + Reason.of("deadwood_change", before=36, after=11)
    >>> why.text
    'take 9h: deadwood 36 -> 11'
    >>> why.to_json()[1]
    {'code': 'deadwood_change', 'params': {'before': 36, 'after': 11}}

The English is the bot's own view, so it says "the hand", never "you", and a count of
one is singular (:data:`ONE`)::

    >>> (Reason.of("take_pile") + Reason.of("pile_links", count=1)).text
    'take the pile: 1 card that links up with the hand'

Parameters are numbers or text; ``card`` and ``cards`` hold card names (``"9h"``,
``["7h", "8h", "9h"]``), ``action`` and ``usual`` hold moves in the game's notation, so
that a client can write them its own way.  A reason is rendered only when asked, so a bot
deciding in a search loop pays for its reasons only when someone reads them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

Param = int | str | list[str]

PHRASES: Final[dict[str, str]] = {
    # either game
    "only_legal_move": "the only legal move",
    "random_move": "a random legal move",
    "no_simulation": "no simulation finished",
    "first_legal_move": "the first legal move",
    "search_best": "best of {simulations} simulations: value {value} over {visits} visits",
    "search_better": "over {deals} simulated deals it did clearly better than {usual}",
    "pile_empty": "the discard pile is empty",
    "stock_empty": "the stock is empty",
    "goes_round": "taking {card} back would only go round in circles",
    # Burraco
    "draw": "draw",
    "take_pile": "take the pile",
    "completes_burraco": "it completes a burraco",
    "pile_card_melds": "one of its cards goes straight into a meld",
    "pile_cards_meld": "{count} of its cards go straight into melds",
    "brings_wild": "it brings a wild",
    "pile_links": "{count} cards that link up with the hand",
    "pile_weighs": "the pile's points would weigh on the hand ({count} cards)",
    "card_no_help": "{card} does not help this hand",
    "pile_too_little": "the pile ({count} cards) brings too little",
    "meld": "meld {cards}",
    "replace_wild": "replace the wild in meld {meld} with {cards}",
    "add_to_meld": "add {cards} to meld {meld}",
    "toward_pozzetto": "on the way to the pozzetto",
    "toward_closing": "on the way to closing",
    "makes_burraco": "it makes a burraco",
    "points_out": "points out of the hand before the hand ends",
    "wild_to_run_end": "the wild moves to the end of the run",
    "meld_points": "{points} points on the table",
    "grows_meld": "it grows the meld to {count} cards",
    "discard_take_pozzetto": "discard {card} and take the pozzetto",
    "discard_close": "discard {card} and close the hand",
    "only_kind_left": "the only kind of move left",
    "discard": "discard {card}",
    "least_useful": "the card least useful to this hand and to the opponent",
    "no_other_discard": "no other card may be discarded",
    "only_wilds_left": "only wilds are left to discard",
    "opponent_threw_one": "the opponent has just thrown one away",
    "least_useful_pairs": "the card least useful to this team and to the opponents",
    "opponents_threw_one": "an opponent has just thrown one away",
    "high_points_out": "high points out of the hand before the hand ends",
    # Three-Thirteen
    "draw_stock": "draw from the stock",
    "take_card": "take {card}",
    "wild_worth_taking": "a wild is always worth taking",
    "fully_melded": "the hand is fully melded",
    "no_lower_deadwood": "{card} would not lower deadwood {deadwood}",
    "deadwood_change": "deadwood {before} -> {after}",
    "go_out_discarding": "go out, discarding {card}",
    "last_turn": "last turn",
    "discard_leaving": "discard {card}, leaving deadwood {deadwood}",
    "least_deadwood": "it leaves the least deadwood, {deadwood}",
    "tie_keeps_wilds": "of {count} equal choices, it keeps the wilds",
    "tie_least_use": "of {count} equal choices, the card the next player shows the least use for",
    "tie_fewest_partners": "of {count} equal choices, the card with the fewest meld partners",
    "tie_highest": "of {count} equal choices, the highest card",
    "tie_highest_soon": "of {count} equal choices, the highest card, as the round may end soon",
    "tie_card_order": "of {count} equal choices, the first in card order",
}

# the English of a phrase whose ``count`` is 1, where it differs from :data:`PHRASES`
ONE: Final[dict[str, str]] = {
    "pile_cards_meld": "1 of its cards goes straight into a meld",
    "pile_links": "1 card that links up with the hand",
    "pile_weighs": "the pile's points would weigh on the hand (1 card)",
    "pile_too_little": "the pile (1 card) brings too little",
    "grows_meld": "it grows the meld to 1 card",
}


def _english(value: Param) -> str:
    return " ".join(value) if isinstance(value, list) else str(value)


@dataclass(frozen=True, slots=True)
class Phrase:
    """One phrase of a reason: a code of :data:`PHRASES` and its parameters."""

    code: str
    params: tuple[tuple[str, Param], ...] = ()

    @property
    def text(self) -> str:
        """The phrase in English."""
        params = dict(self.params)
        template = ONE.get(self.code) if params.get("count") == 1 else None
        return (template or PHRASES[self.code]).format(
            **{k: _english(v) for k, v in params.items()}
        )

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}


@dataclass(frozen=True, slots=True)
class Reason:
    """A bot's reason for its move: phrases read in order (see the module docstring)."""

    phrases: tuple[Phrase, ...]

    @classmethod
    def of(cls, code: str, **params: Param) -> Reason:
        """The one-phrase reason ``code`` with ``params``."""
        return cls((Phrase(code, tuple(params.items())),))

    def __add__(self, other: Reason) -> Reason:
        return Reason(self.phrases + other.phrases)

    @property
    def text(self) -> str:
        """The reason in English."""
        parts = [phrase.text for phrase in self.phrases]
        head = ": ".join(parts[:2])
        return "; ".join([head, *parts[2:]])

    def __str__(self) -> str:
        return self.text

    def to_json(self) -> list[dict[str, Any]]:
        """The phrases as JSON: ``[{"code", "params"}, ...]``."""
        return [phrase.to_json() for phrase in self.phrases]
