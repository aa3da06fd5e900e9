# ruff: noqa: RUF001, RUF002 (this module is about letters that look alike)
"""The rules of a login name, and the key that finds names that look alike.

A login name is what people really are called, in their own script: "Борис", "Zoé",
"Åsa_92" are names; it is read in Unicode's compatibility form (NFKC), is 3 to 32
characters long, holds letters (with their accents), digits and ``_ . -`` only, and
writes its letters in one script, so that "Bоris" with a Cyrillic о is refused rather
than taken for "Boris".  :func:`look_alike_key` folds what a reader cannot tell apart
(case, accents, Latin, Cyrillic and Greek letters of the same shape, ``0``/``o``,
``1``/``l``/``I``): a name whose key another player's name has already is refused as
confusable with it.  Each refusal says which rule it breaks (``rule``).

Pure functions over text: nothing here reads storage.
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import cache
from typing import Final

from pydantic_core import PydanticCustomError

from rummykit.web import LANGUAGES, WEB_ROOT

MIN_LENGTH: Final = 3
MAX_LENGTH: Final = 32
MIN_PASSWORD: Final = 8
PUNCTUATION: Final = frozenset("_.-")

# letters that look the same as a Latin letter, by the Latin letter they are read as
_SAME_SHAPE: Final = {
    "a": "аαɑ",
    "b": "ьвβ",
    "c": "сϲ",
    "d": "ԁ",
    "e": "еεё",
    "h": "һн",
    "l": "іιӏ",  # read as i or l, folded with both
    "j": "ј",
    "k": "кκ",
    "m": "м",
    "n": "ηп",
    "o": "оοσ",
    "p": "рρ",
    "r": "г",
    "s": "ѕ",
    "t": "тτ",
    "u": "υ",
    "v": "ν",
    "w": "ѡω",
    "x": "хχ",
    "y": "уγ",
}
_FOLD: Final = {shape: latin for latin, shapes in _SAME_SHAPE.items() for shape in shapes} | {
    "0": "o",
    "1": "l",
    "i": "l",
    ".": "_",
    "-": "_",
}


def script_of(character: str) -> str | None:
    """The script a letter is written in (``LATIN``, ``CYRILLIC``, ``GREEK``, …, from its
    Unicode name); ``None`` for what belongs to every script (digits, ``_ . -``, marks).

    >>> script_of("b"), script_of("б"), script_of("β"), script_of("7"), script_of("_")
    ('LATIN', 'CYRILLIC', 'GREEK', None, None)
    """
    if not unicodedata.category(character).startswith("L"):
        return None
    first = unicodedata.name(character, "UNKNOWN").split()[0]
    # Japanese is written in kanji and both kana at once
    return "CJK" if first in {"CJK", "HIRAGANA", "KATAKANA"} else first


def login_name(value: object) -> object:
    """``value`` as a login name (NFKC, without the whitespace around it), or a
    ``bad_login_name`` refusal naming the rule it breaks (``rule``: ``length``,
    ``characters`` or ``scripts``).

    >>> login_name(" Борис "), login_name("Zoé"), login_name("Ｚｏｅ_92")
    ('Борис', 'Zoé', 'Zoe_92')
    >>> login_name("Bоris")  # a Cyrillic о among Latin letters  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pydantic_core._pydantic_core.PydanticCustomError: a name writes its letters in one ...
    """
    if not isinstance(value, str):
        return value
    name = unicodedata.normalize("NFKC", value).strip()
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH:
        raise PydanticCustomError(
            "bad_login_name",
            "a name is {min} to {max} characters long",
            {"rule": "length", "min": MIN_LENGTH, "max": MAX_LENGTH},
        )
    for character in name:
        kind = unicodedata.category(character)
        if not (kind[0] in "LM" or kind == "Nd" or character in PUNCTUATION):
            raise PydanticCustomError(
                "bad_login_name",
                "a name holds letters, digits and _ . - only",
                {"rule": "characters"},
            )
    if len({script for c in name if (script := script_of(c)) is not None}) > 1:
        raise PydanticCustomError(
            "bad_login_name", "a name writes its letters in one script", {"rule": "scripts"}
        )
    return name


def password(value: object) -> object:
    """``value`` if it is long enough for a password, else a ``bad_password`` refusal."""
    if isinstance(value, str) and len(value) < MIN_PASSWORD:
        raise PydanticCustomError(
            "bad_password",
            "a password has at least {min} characters",
            {"rule": "length", "min": MIN_PASSWORD},
        )
    return value


def look_alike_key(name: str) -> str:
    """What ``name`` looks like to a reader: names with the same key are confusable.

    >>> look_alike_key("Boris") == look_alike_key("Воris") == look_alike_key("B0RIS")
    True
    >>> look_alike_key("Zoé") == look_alike_key("zoe")
    True
    >>> look_alike_key("Ann") == look_alike_key("Anne")
    False
    """
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).casefold())
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return "".join(_FOLD.get(c, c) for c in bare)


# the client's templates of a computer player's name, in every language it speaks
_COMPUTER_TEMPLATES: Final = ("table.bot", "table.bot_numbered")
_PLACEHOLDER: Final = re.compile(r"\{[^}]*\}")


def _words(text: str) -> list[str]:
    """The letter runs of ``text``, each by its :func:`look_alike_key`."""
    key = look_alike_key(text)
    return [w for w in re.split(r"[^\w]|[\d_]", key) if w]


@cache
def computer_words() -> frozenset[str]:
    """The words the client calls a computer player by, in every language (``Computer``,
    ``Gép``, ``Компьютер``), by their look-alike keys: read from the client's own
    templates, so that a language added there is covered here."""
    words: set[str] = set()
    for language in LANGUAGES:
        catalog = json.loads((WEB_ROOT / "i18n" / f"{language}.json").read_text("utf-8"))
        for key in _COMPUTER_TEMPLATES:
            words.update(_words(_PLACEHOLDER.sub(" ", catalog[key])))
    return frozenset(words)


def reads_as_computer(name: str) -> bool:
    """Whether ``name`` holds, as a word of its own, what the client calls a computer
    player in any language, however it is written (case, accents, look-alike letters,
    digits and punctuation around it): such a name would pass for a seat's computer.

    >>> [reads_as_computer(n) for n in ("Computer 2 (Medium)", "2. GÉP", "компьютер_3")]
    [True, True, True]
    >>> [reads_as_computer(n) for n in ("Gépész", "Computerfan", "Ann")]
    [False, False, False]
    """
    return any(word in computer_words() for word in _words(name))
