"""The browser client's ES modules form a tree of imports, never a circle.

Every module under ``src/rummykit/web`` (the vendored Preact and htm aside) is read for
its ``import … from "…"``, ``export … from "…"``, bare ``import "…"`` and ``import("…")``
lines.  A circle between modules makes the order in which they run depend on which one
the page loads first (an import may still be undefined when it is used), so there is
none; and every relative import names a file that exists.
"""

from __future__ import annotations

import graphlib
import re
from pathlib import Path, PurePosixPath

import pytest

WEB = Path(__file__).resolve().parents[1] / "src" / "rummykit" / "web"

_SPECIFIERS = re.compile(
    r"""
    ^\s*(?:import|export)\b[^;"'`]*?\bfrom\s*["']([^"']+)["']   # import { a } from "x"
    | ^\s*import\s*["']([^"']+)["']                            # import "x"
    | \bimport\(\s*["']([^"']+)["']\s*\)                       # import("x")
    """,
    re.MULTILINE | re.VERBOSE,
)


def specifiers(text: str) -> list[str]:
    """The module specifiers a module's text imports, in order.

    >>> specifiers('import { a,\\n b } from "./x.js";\\nimport "./y.js";\\nexport * from "./z.js";')
    ['./x.js', './y.js', './z.js']
    """
    return [
        next(group for group in match.groups() if group) for match in _SPECIFIERS.finditer(text)
    ]


def client_modules(web: Path = WEB) -> list[Path]:
    """Every ES module of the client (the vendored libraries left out)."""
    return sorted(path for path in web.rglob("*.js") if "vendor" not in path.relative_to(web).parts)


def module_graph(web: Path = WEB) -> dict[str, set[str]]:
    """Each module (as a path under ``web``) and the modules it imports."""
    graph: dict[str, set[str]] = {}
    for path in client_modules(web):
        name = path.relative_to(web).as_posix()
        graph[name] = set()
        for specifier in specifiers(path.read_text(encoding="utf-8")):
            if specifier.startswith("."):
                target = PurePosixPath(name).parent / specifier
            else:
                target = PurePosixPath(specifier.lstrip("/"))
            graph[name].add(_normal(target))
    return graph


def _normal(path: PurePosixPath) -> str:
    parts: list[str] = []
    for part in path.parts:
        if part == "..":
            parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)


def cycle_in(graph: dict[str, set[str]]) -> tuple[str, ...] | None:
    """One circle of imports in ``graph`` (``None`` when there is none)."""
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as error:
        return tuple(error.args[1])
    return None


GRAPH = module_graph()


def test_the_client_modules_import_no_circle() -> None:
    assert cycle_in(GRAPH) is None


def test_every_import_names_a_file_of_the_client() -> None:
    missing = sorted(
        f"{module} imports {target}"
        for module, targets in GRAPH.items()
        for target in targets
        if not (WEB / target).is_file()
    )
    assert missing == []


def test_every_module_is_read() -> None:
    assert "js/app.js" in GRAPH
    assert {"js/views/table.js", "js/views/burraco.js", "js/views/player-plate.js"} <= set(GRAPH)
    assert "js/games.js" in GRAPH["js/views/table.js"]
    assert "js/views/burraco.js" in GRAPH["js/games.js"]
    assert not any(name.startswith("vendor/") for name in GRAPH)


def test_a_circle_is_found(tmp_path: Path) -> None:
    views = tmp_path / "js" / "views"
    views.mkdir(parents=True)
    (views / "table.js").write_text('import { Board } from "./board.js";\n')
    (views / "board.js").write_text(
        'import {\n  html,\n} from "../html.js";\nimport { Plate } from "./table.js";\n'
    )
    (tmp_path / "js" / "html.js").write_text("export const html = 1;\n")
    graph = module_graph(tmp_path)
    assert graph["js/views/board.js"] == {"js/html.js", "js/views/table.js"}
    cycle = cycle_in(graph)
    assert cycle is not None
    assert set(cycle) == {"js/views/table.js", "js/views/board.js"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("// import { a } from './comment.js' is not at a line's start\n", []),
        ('const m = await import("./later.js");\n', ["./later.js"]),
        ('export * from "./all.js";\n', ["./all.js"]),
        ('import x, { y as z } from "/js/abs.js"\n', ["/js/abs.js"]),
    ],
)
def test_the_import_lines_are_read(text: str, expected: list[str]) -> None:
    assert specifiers(text) == expected
