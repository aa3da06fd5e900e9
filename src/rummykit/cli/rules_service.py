"""``rummykit rules``: the rules as a JSON Lines service.

One JSON object per input line, one JSON object per output line, in order. Every request
is answered; anything malformed (not UTF-8, not JSON, too long, numbers past Python's
digit limit, unknown fields' values) gets ``{"ok": false, "error": "..."}`` and the
service goes on. The input is read as bytes and decoded one line at a time, so a bad
line never costs the lines around it. docs/rules-service.md documents every op. This
module only translates requests to engine calls: the rules themselves live in
:mod:`rummykit.games`, each game imported by the first request that names it.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, BinaryIO, Final, TextIO

from rummykit.cards import JOKER, Card, format_card
from rummykit.games.core import MeldError, cards_from_json, cards_to_json, rules_from_json

if TYPE_CHECKING:  # each game is imported by its handlers, when a request names it
    from rummykit.games import burraco
    from rummykit.games.burraco import melds as burraco_melds

MAX_LINE: Final = 1_000_000
MAX_THREE_THIRTEEN_CARDS: Final = 14

USAGE: Final = """\
rummykit rules: one JSON request per line on stdin, one JSON answer per line on stdout.

  {"game":"burraco","op":"meld","cards":["2h","3h","4h","2c"]}
  {"game":"burraco","op":"extend","meld":["7h","8h","9h","2c"],"add":["5h"]}
  {"game":"burraco","op":"score","melds":[["3h","4h","5h","6h","7h","8h","9h"]],
   "hand":["Qh"],"took_pozzetto":true,"closed":false}
  {"game":"three-thirteen","op":"meld","round":1,"cards":["Ah","2h","3s"]}
  {"game":"three-thirteen","op":"arrange","round":6,"cards":["Ah","2h","Th","Tc","8h"]}

An optional "variant" object sets rule options, e.g. {"jokers":4} for Burraco or
{"wild_only_melds":true} for Three-Thirteen. End with Ctrl-D.
"""


class RequestError(ValueError):
    """A request that cannot be answered; the message goes back as ``error``."""


def _require(request: dict[str, Any], name: str) -> Any:
    if name not in request:
        raise RequestError(f"missing field {name!r}")
    return request[name]


def _cards(request: dict[str, Any], name: str) -> list[Card]:
    try:
        return cards_from_json(_require(request, name), name)
    except ValueError as error:
        raise RequestError(str(error)) from None


def _bool(request: dict[str, Any], name: str) -> bool:
    value = _require(request, name)
    if not isinstance(value, bool):
        raise RequestError(f"{name!r} must be true or false")
    return value


def _variant(request: dict[str, Any], rules_type: type[Any]) -> Any:
    variant = request.get("variant", {})
    try:
        return rules_from_json(rules_type, variant)
    except ValueError as error:
        raise RequestError(f"variant: {error}") from None


def _check_copies(cards: Iterable[Card], *, copies: int, jokers: int, deck: str) -> None:
    for card, count in Counter(cards).items():
        allowed = jokers if card == JOKER else copies
        if count > allowed:
            have = "no" if allowed == 0 else f"only {allowed}"
            raise RequestError(f"impossible cards: {deck} has {have} {format_card(card)}")


# ---------------------------------------------------------------------------------------
# Burraco


def _burraco_cards(request: dict[str, Any], rules: burraco.Rules, *names: str) -> list[Card]:
    everything: list[Card] = []
    for name in names:
        everything += _cards(request, name)
    _check_copies(everything, copies=2, jokers=rules.jokers, deck="the Burraco deck")
    return everything


def _meld_answer(meld: burraco_melds.Meld) -> dict[str, Any]:
    return {
        "ok": True,
        "valid": True,
        "kind": meld.kind,
        "clean": meld.clean,
        "points": meld.points,
        "order": cards_to_json(meld.cards),
    }


def _burraco_meld(request: dict[str, Any]) -> dict[str, Any]:
    from rummykit.games import burraco
    from rummykit.games.burraco import melds as burraco_melds

    rules = _variant(request, burraco.Rules)
    cards = _burraco_cards(request, rules, "cards")
    try:
        meld = burraco_melds.arrange(cards)
    except MeldError as error:
        return {"ok": True, "valid": False, "reason": str(error)}
    return _meld_answer(meld)


def _burraco_extend(request: dict[str, Any]) -> dict[str, Any]:
    from rummykit.games import burraco
    from rummykit.games.burraco import melds as burraco_melds

    rules = _variant(request, burraco.Rules)
    _burraco_cards(request, rules, "meld", "add")
    try:
        meld = burraco_melds.arrange(_cards(request, "meld"))
    except MeldError as error:
        raise RequestError(f"'meld' is not a legal meld: {error}") from None
    added = _cards(request, "add")
    if not added:
        raise RequestError("'add' must name at least one card")
    try:
        extended = burraco_melds.extend(meld, added)
    except MeldError as error:
        return {"ok": True, "valid": False, "reason": str(error)}
    return _meld_answer(extended)


def _burraco_score(request: dict[str, Any]) -> dict[str, Any]:
    from rummykit.games import burraco
    from rummykit.games.burraco import melds as burraco_melds
    from rummykit.games.burraco.scoring import score_hand

    rules = _variant(request, burraco.Rules)
    raw_melds = _require(request, "melds")
    if not isinstance(raw_melds, list):
        raise RequestError("'melds' must be a list of melds, each a list of card names")
    melds: list[burraco_melds.Meld] = []
    everything: list[Card] = _cards(request, "hand")
    for number, raw in enumerate(raw_melds, start=1):
        try:
            cards = cards_from_json(raw, f"meld {number}")
            melds.append(burraco_melds.arrange(cards))
        except MeldError as error:
            raise RequestError(f"meld {number} is not legal: {error}") from None
        except ValueError as error:
            raise RequestError(str(error)) from None
        everything += cards
    _check_copies(everything, copies=2, jokers=rules.jokers, deck="the Burraco deck")
    try:
        score = score_hand(
            melds=melds,
            hand=_cards(request, "hand"),
            took_pozzetto=_bool(request, "took_pozzetto"),
            closed=_bool(request, "closed"),
        )
    except ValueError as error:
        raise RequestError(str(error)) from None
    return {"ok": True, "score": score.total, "breakdown": score.to_json()}


# ---------------------------------------------------------------------------------------
# Three-Thirteen


def _three_thirteen_hand(request: dict[str, Any]) -> tuple[list[Card], dict[str, Any]]:
    from rummykit.games import three_thirteen

    rules = _variant(request, three_thirteen.Rules)
    round_number = _require(request, "round")
    if isinstance(round_number, bool) or not isinstance(round_number, int):
        raise RequestError("'round' must be a whole number from 1 to 11")
    if not 1 <= round_number <= 11:
        raise RequestError(f"there is no round {round_number}: rounds go from 1 to 11")
    cards = _cards(request, "cards")
    one_deck = "players" in request.get("variant", {}) and rules.players == 2
    _check_copies(
        cards,
        copies=1 if one_deck else 2,
        jokers=(2 if one_deck else 4) if rules.jokers else 0,
        deck="the Three-Thirteen deck",
    )
    options = {
        "wild_rank": round_number + 2,
        "ace_high": rules.ace_high,
        "wild_only_melds": rules.wild_only_melds,
    }
    return cards, options


def _three_thirteen_meld(request: dict[str, Any]) -> dict[str, Any]:
    from rummykit.games.three_thirteen import arrange as tt_arrange

    cards, options = _three_thirteen_hand(request)
    try:
        kind = tt_arrange.classify_meld(cards, **options)
    except MeldError as error:
        return {"ok": True, "valid": False, "reason": str(error)}
    return {"ok": True, "valid": True, "kind": kind}


def _three_thirteen_arrange(request: dict[str, Any]) -> dict[str, Any]:
    from rummykit.games.three_thirteen import arrange as tt_arrange

    cards, options = _three_thirteen_hand(request)
    if len(cards) > MAX_THREE_THIRTEEN_CARDS:
        raise RequestError(
            f"a Three-Thirteen hand holds at most {MAX_THREE_THIRTEEN_CARDS} cards,"
            f" not {len(cards)}"
        )
    arrangement = tt_arrange.arrange(cards, **options)
    return {
        "ok": True,
        "deadwood": arrangement.deadwood,
        "melds": [cards_to_json(meld) for meld in arrangement.melds],
        "unmelded": cards_to_json(arrangement.unmelded),
    }


Handler = Callable[[dict[str, Any]], dict[str, Any]]

HANDLERS: Final[dict[str, dict[str, Handler]]] = {
    "burraco": {"meld": _burraco_meld, "extend": _burraco_extend, "score": _burraco_score},
    "three-thirteen": {"meld": _three_thirteen_meld, "arrange": _three_thirteen_arrange},
}


def answer(line: str) -> dict[str, Any]:
    """The answer to one request line (never raises)."""
    try:
        if len(line) > MAX_LINE:
            raise RequestError("the request line is too long")
        if not line.strip():
            raise RequestError("empty line: expected a JSON request")
        try:
            request = json.loads(line)
        except json.JSONDecodeError as error:
            raise RequestError(f"not JSON: {error.msg}") from None
        except RecursionError:
            raise RequestError("the request is nested too deeply") from None
        except ValueError:  # an integer past the interpreter's digit limit
            raise RequestError("a number in the request has too many digits") from None
        if not isinstance(request, dict):
            raise RequestError("a request is a JSON object")
        game = request.get("game")
        ops = HANDLERS.get(game) if isinstance(game, str) else None
        if ops is None:
            raise RequestError(f"unknown game {game!r}; the games are burraco, three-thirteen")
        op = request.get("op")
        handler = ops.get(op) if isinstance(op, str) else None
        if handler is None:
            raise RequestError(f"unknown op {op!r} for {game}; the ops are {', '.join(ops)}")
        return handler(request)
    except RequestError as error:
        return {"ok": False, "error": str(error)}
    except Exception as error:  # a defect must not stop the service
        return {"ok": False, "error": f"internal error: {type(error).__name__}: {error}"}


def answer_bytes(line: bytes) -> dict[str, Any]:
    """The answer to one request line as read (never raises): it must be UTF-8."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as error:
        return {
            "ok": False,
            "error": f"the request line is not UTF-8 text (byte {error.start + 1})",
        }
    return answer(text)


def _lines(source: BinaryIO) -> Iterator[bytes | None]:
    """The lines of ``source``; ``None`` for a line longer than ``MAX_LINE`` (skipped)."""
    while True:
        line = source.readline(MAX_LINE + 1)
        if not line:
            return
        if len(line) > MAX_LINE and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):
                line = source.readline(MAX_LINE + 1)
            yield None
        else:
            yield line


def serve(source: BinaryIO, sink: TextIO) -> None:
    """Answer every line of ``source`` (bytes) on ``sink``, flushing each answer."""
    for line in _lines(source):
        if line is None:
            reply: dict[str, Any] = {"ok": False, "error": "the request line is too long"}
        else:
            reply = answer_bytes(line)
        sink.write(json.dumps(reply) + "\n")  # ASCII: safe under any locale
        sink.flush()
