"""What a notification says, in English, Hungarian and Russian (``words.json``).

Each kind has a title (an e-mail's subject, a push notification's title) and a line;
``{game}`` is the game's title (in brackets where a language would decline a noun, so
that no ending is wrong) and ``{name}`` a player's name.  The texts are plain: a mail
is sent as text, and a push notification shows text only.

>>> say("game_ended", "hu", {"game": "Burraco"}).line
'Véget ért a játszmád (Burraco).'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final


@dataclass(frozen=True, slots=True)
class Words:
    title: str
    line: str


_TEXTS: Final[dict[str, dict[str, dict[str, str]]]] = json.loads(
    resources.files(__package__ or "rummykit.server.notify")
    .joinpath("words.json")
    .read_text("utf-8")
)
"""Each language's texts (``words.json``): a title and a line by name."""


def _text_of(kind: str, params: dict[str, Any]) -> str:
    """The text's name: an invitation says whether it is to a rematch or a pair."""
    if kind == "invitation":
        return "pair" if params.get("source") == "pair" else "rematch"
    return kind


def say(kind: str, language: str, params: dict[str, Any]) -> Words:
    """The title and line of a message of ``kind`` in ``language`` (English when the
    language is not one of the three), ``params`` filled in."""
    texts = _TEXTS.get(language, _TEXTS["en"])
    text = texts[_text_of(kind, params)]
    title, line = text["title"], text["line"]
    values = {"game": str(params.get("game") or ""), "name": str(params.get("name") or "")}
    values |= {k: str(v) for k, v in params.items() if k == "link"}
    return Words(title=title, line=line.format(**values))


def phrase(name: str, language: str, **values: str) -> str:
    """One of the mail's fixed lines (``open``, ``footer``, ``ignore``)."""
    texts = _TEXTS.get(language, _TEXTS["en"])
    return texts[name]["line"].format(**values)
