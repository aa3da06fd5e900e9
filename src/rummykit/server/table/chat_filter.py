# ruff: noqa: RUF002 (this module is about letters that look alike)
"""The host's word filter for chat: words a host lists, per language, are masked in every
line said at a table (a table's players may write in any language, so every language's
list applies).  A word is matched whole, however it is written: in any case, with or
without accents, in look-alike letters of another script (``protocol/names.py``'s
``look_alike_key``), so "Fооl" with Cyrillic о is masked as "fool" is.

>>> words = blocked_keys({"en": ["fool"], "hu": ["bolond"]})
>>> mask("you FOOL, bolond!", words)
'you ****, ******!'
>>> mask("foolish", words)
'foolish'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Final

from rummykit.server.protocol.names import look_alike_key

_WORD: Final = re.compile(r"\w+")


def blocked_keys(words_by_language: Mapping[str, Iterable[str]]) -> frozenset[str]:
    """The look-alike keys of every listed word, whatever its language."""
    return frozenset(
        look_alike_key(word.strip())
        for words in words_by_language.values()
        for word in words
        if word.strip()
    )


def mask(text: str, keys: frozenset[str]) -> str:
    """``text`` with each whole word whose key is in ``keys`` written as asterisks."""
    if not keys:
        return text
    return _WORD.sub(
        lambda found: (
            "*" * len(found.group()) if look_alike_key(found.group()) in keys else found.group()
        ),
        text,
    )
