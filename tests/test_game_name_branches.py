"""No code outside a game's own modules asks which game it is.

What differs between the games is looked up by the game's name in a registry (the
engine's descriptors, ``bots/by_game.py``, ``envs/step_models.py``,
``cli/game_views.py``, the client's ``games.js`` and ``model.js``), never branched on:
``if game == "burraco"`` outside Burraco's own modules is what these tests refuse, in
the Python package (read with :mod:`ast`: comparisons with a game's name, ``in`` a
literal list of names, ``case "burraco":``) and in the browser client's modules (by a
regular expression for ``===``/``!==``/``==``/``!=`` and ``case`` against a name).

A game's own modules are those under a directory named after it (``games/burraco/``,
``bots/three_thirteen/``) or whose file name starts with it (``envs/burraco_actions.py``,
``views/three-thirteen.js``): a branch on Burraco's own wild policy called
``"burraco"`` belongs there.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from rummykit.games.registry import GAMES

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "rummykit"
CLIENT = PACKAGE / "web" / "js"
NAMES = frozenset(GAMES)


def _spellings(name: str) -> tuple[str, str]:
    return name, name.replace("-", "_")


def owner(path: Path, root: Path) -> str | None:
    """The game whose own module ``path`` is, or ``None``.

    >>> owner(PACKAGE / "envs" / "burraco_actions.py", PACKAGE)
    'burraco'
    >>> owner(PACKAGE / "bots" / "three_thirteen" / "greedy.py", PACKAGE)
    'three-thirteen'
    >>> owner(PACKAGE / "cli" / "views.py", PACKAGE) is None
    True
    """
    parts = path.relative_to(root).parts
    for name in NAMES:
        spellings = _spellings(name)
        if any(part in spellings for part in parts[:-1]):
            return name
        if any(parts[-1].startswith(spelling) for spelling in spellings):
            return name
    return None


def _names_in(node: ast.expr) -> Iterator[str]:
    if isinstance(node, ast.Constant) and node.value in NAMES:
        yield node.value
    elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        for element in node.elts:
            yield from _names_in(element)


def python_branches(source: str) -> list[tuple[int, str]]:
    """The lines of ``source`` that compare something with a game's name, and the name.

    >>> python_branches('if game == "burraco":\\n    pass\\nx = {"burraco": 1}')
    [(1, 'burraco')]
    >>> python_branches('ok = g not in ("three-thirteen",)\\nmatch g:\\n    case "burraco": pass')
    [(1, 'three-thirteen'), (3, 'burraco')]
    """
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                found.extend((node.lineno, name) for name in _names_in(side))
        elif isinstance(node, ast.MatchValue):
            found.extend((node.lineno, name) for name in _names_in(node.value))
    return sorted(set(found))


_QUOTED = "|".join(re.escape(name) for name in sorted(NAMES))
JS_BRANCH = re.compile(
    rf"""(?:===|!==|==|!=)\s*(["'`])(?P<after>{_QUOTED})\1
    | (["'`])(?P<before>{_QUOTED})\3\s*(?:===|!==|==|!=)
    | \bcase\s+(["'`])(?P<case>{_QUOTED})\5\s*:""",
    re.VERBOSE,
)


def js_branches(source: str) -> list[tuple[int, str]]:
    """The lines of a client module that compare something with a game's name.

    >>> js_branches('if (g === "burraco") x();\\nA = { "three-thirteen": 1 };\\n"burraco" != g')
    [(1, 'burraco'), (3, 'burraco')]
    """
    return [
        (
            source.count("\n", 0, match.start()) + 1,
            next(g for g in match.group("after", "before", "case") if g),
        )
        for match in JS_BRANCH.finditer(source)
    ]


def _modules(root: Path, suffix: str) -> list[Path]:
    return sorted(p for p in root.rglob(f"*{suffix}") if "vendor" not in p.parts)


def test_the_checks_see_the_modules() -> None:
    python = _modules(PACKAGE, ".py")
    client = _modules(CLIENT, ".js")
    assert len(python) > 100 and len(client) > 20
    assert owner(PACKAGE / "games" / "burraco" / "state.py", PACKAGE) == "burraco"
    planning = (PACKAGE / "bots" / "burraco" / "planning.py").read_text(encoding="utf-8")
    assert python_branches(planning), "Burraco's own wild policy 'burraco' is seen (and allowed)"


@pytest.mark.parametrize("suffix", [".py", ".js"])
def test_no_branch_on_a_game_name_outside_its_own_modules(suffix: str) -> None:
    root, find = (PACKAGE, python_branches) if suffix == ".py" else (CLIENT, js_branches)
    branches = [
        f"{path.relative_to(root)}:{line} compares with {name!r}"
        for path in _modules(root, suffix)
        for line, name in find(path.read_text(encoding="utf-8"))
        if owner(path, root) != name
    ]
    assert branches == []
