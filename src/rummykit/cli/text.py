"""Text from outside (names, paths, typed moves, error messages) made safe to print.

Whatever the command line prints that it did not write itself goes through
:func:`clean` (plain text) or :func:`safe` (text to embed in Rich markup): terminal
control characters and escape sequences are dropped, and ``safe`` escapes Rich markup,
so a player called ``[/]`` or ``\\x1b[2J`` is printed as text and never acts on the
terminal or on the renderer.  Also the small wording helpers every screen shares.

>>> safe("[/]discard")
'\\\\[/]discard'
>>> clean("x\\x1b[31mred\\x07")
'xred'
>>> plural(1, "card"), plural(3, "card")
('1 card', '3 cards')
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Final

from rich.markup import escape

# A CSI or OSC escape sequence, or any other escape and the character after it.
_ESCAPE_SEQUENCE: Final = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]?|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b.?|\x9b[0-?]*[ -/]*[@-~]?",
    re.DOTALL,
)
# Characters that reorder or hide text on a terminal (bidirectional overrides).
_BIDI: Final = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def clean(text: object) -> str:
    """``text`` as a string without escape sequences or control characters."""
    without_sequences = _ESCAPE_SEQUENCE.sub("", str(text))
    return "".join(
        ch for ch in without_sequences if ch not in _BIDI and unicodedata.category(ch) != "Cc"
    )


def safe(text: object) -> str:
    """``text`` cleaned (see :func:`clean`) and escaped for Rich markup."""
    return escape(clean(text))


def plural(count: int, word: str, words: str | None = None) -> str:
    """``count`` and ``word``, in the plural unless the count is one."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


def verb(subjects: Sequence[str], singular: str, plural_form: str) -> str:
    """The verb for a list of subjects: 'You' and several names take the plural form.

    >>> verb(["You"], "wins", "win"), verb(["Computer"], "wins", "win")
    ('win', 'wins')
    """
    if len(subjects) == 1 and subjects[0] != "You":
        return singular
    return plural_form


def joined(names: Sequence[str]) -> str:
    """Names joined for a sentence: 'A', 'A and B', 'A, B and C'."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
