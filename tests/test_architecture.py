"""The layers of ``docs/design.md``, held by reading every import in ``src/rummykit``.

Each module's ``import`` statements are read with :mod:`ast`, those inside functions
too (a function-local import is still a dependency; it only hides a cycle until the
function runs), and so are ``importlib.import_module("...")`` calls with a literal
name.  Three rules follow:

* **Layers.** A package imports only itself and the packages below it::

      cards ◀── games ◀── bots ◀── sim, envs, fairplay, server ◀── cli
                games ◀── pairings ◀── sim, server, cli
                          fairplay ◀── server, cli
      rating ◀── server, cli

  ``web`` is data: only the server may import it (it serves its files).  Nothing
  imports ``cli`` except ``rummykit.__main__``; anything may import the root package
  ``rummykit`` (it holds only ``__version__``), which imports nothing.  ``rating``
  (OpenSkill ratings) imports no other layer.
* **The engine runs on the standard library.** ``cards``, ``games``, ``pairings``, ``bots``,
  ``fairplay`` and ``sim`` import nothing outside :data:`sys.stdlib_module_names`; ``sim``
  may import the optional extras named in :data:`SIM_LAZY_EXTRAS`, and only inside a
  function.
* **No cycles** between the modules of any package of ``src/rummykit`` (every package
  and sub-package, found on disk, and the whole tree at once), counting function-local
  imports and imports made for types only (under ``if TYPE_CHECKING:``): a type-only
  import does not run, but a circle of them is still two modules that each need the
  other to be read.  A module that two others share the shape of goes in a leaf module,
  or the higher one is named by a ``Protocol``.

The server is cut into rooms (sub-packages by concern, ``app`` among them, and the
top-level modules ``settings``, ``clock`` and ``cancelling``), with arrows of their own::

      app ──▶ api ──▶ competition ──┐
       │                            ▼
       └────▶ cluster ───────────▶ table ──▶ bots ──▶ storage ──▶ operations, protocol,
                                    │                             settings
                                    └──▶ accounts ──▶ settings

  (a room reaches what its arrows reach, but ``competition`` never ``accounts``; from
  ``bots`` up every room may also use ``protocol``, ``operations``, ``settings`` and
  ``clock``; the rooms that run tasks of their own, ``cancelling`` to end them).
  :data:`SERVER_ROOMS` says, for each room, the rooms it may import; each room's
  package docstring says the same in a line ``May import: …``.  Between the
  modules of the server there is no cycle at all, not even through imports made for
  types only: a collaborator that needs the shape of a higher module gets a
  ``Protocol``.  No module of the server is longer than :data:`SERVER_MODULE_LINES`.
  Every SQL statement is written in ``storage``: outside it, the server imports of
  SQLAlchemy only the types of a session or an engine and its errors
  (:data:`SQL_TYPES_ONLY`).
"""

from __future__ import annotations

import ast
import graphlib
import sys
import textwrap
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[1] / "src"
ROOT = "rummykit"

ALLOWED: dict[str, frozenset[str]] = {
    "cards": frozenset({"cards"}),
    "games": frozenset({"games", "cards"}),
    "bots": frozenset({"bots", "games", "cards"}),
    "pairings": frozenset({"pairings", "games", "cards"}),
    "sim": frozenset({"sim", "pairings", "bots", "games", "cards"}),
    "envs": frozenset({"envs", "bots", "games", "cards"}),
    "fairplay": frozenset({"fairplay", "bots", "games", "cards"}),
    "server": frozenset(
        {"server", "web", "rating", "pairings", "fairplay", "bots", "games", "cards"}
    ),
    "cli": frozenset(
        {"cli", "server", "sim", "pairings", "rating", "fairplay", "bots", "games", "cards"}
    ),
    "rating": frozenset({"rating"}),
    "web": frozenset({"web"}),
    "__main__": frozenset({"cli"}),
    ROOT: frozenset(),
}
"""For each layer, the layers its modules may import (besides the root package)."""

STANDARD_LIBRARY_ONLY = frozenset({"cards", "games", "pairings", "bots", "fairplay", "sim"})

SIM_LAZY_EXTRAS: frozenset[str] = frozenset({"ray"})
"""Optional extras ``sim`` may import inside a function (``ray``, shipped by the
``rummykit[ray]`` extra, for ``simulate --backend ray``).  Name one here only with the
extra that ships it."""


@dataclass(frozen=True)
class Import:
    """One imported module: who imports it, where, and whether inside a function."""

    importer: str
    imported: str
    line: int
    in_function: bool
    type_only: bool = False
    """Under ``if TYPE_CHECKING:``: a dependency of the types, never run."""

    def __str__(self) -> str:
        where = "in a function" if self.in_function else "at module level"
        if self.type_only:
            where += ", for types only"
        return f"{self.importer}:{self.line} imports {self.imported} ({where})"


def module_names(source: Path, root: str = ROOT) -> dict[str, Path]:
    """Every module of the package ``root`` under ``source``, by dotted name."""
    names: dict[str, Path] = {}
    for path in sorted((source / root).rglob("*.py")):
        parts = path.relative_to(source).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names[".".join(parts)] = path
    return names


def _absolute(module: str, is_package: bool, level: int, name: str | None) -> str:
    """The absolute name of a relative import ``from .name import ...``."""
    if not level:
        return name or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, name] if name else base)


class _ImportReader(ast.NodeVisitor):
    def __init__(self, module: str, is_package: bool, modules: Iterable[str]) -> None:
        self.module = module
        self.is_package = is_package
        self.modules = set(modules)
        self.depth = 0
        self.type_checking = 0
        self.found: list[Import] = []

    def _add(self, imported: str, node: ast.AST) -> None:
        line = getattr(node, "lineno", 0)
        found = Import(self.module, imported, line, self.depth > 0, self.type_checking > 0)
        self.found.append(found)

    def _inside_function(self, node: ast.AST) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_FunctionDef = _inside_function
    visit_AsyncFunctionDef = _inside_function
    visit_Lambda = _inside_function

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        name = test.attr if isinstance(test, ast.Attribute) else getattr(test, "id", None)
        if name != "TYPE_CHECKING":
            self.generic_visit(node)
            return
        self.type_checking += 1
        for statement in node.body:
            self.visit(statement)
        self.type_checking -= 1
        for statement in node.orelse:
            self.visit(statement)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(alias.name, node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = _absolute(self.module, self.is_package, node.level, node.module)
        if base == "__future__":
            return
        for alias in node.names:
            submodule = f"{base}.{alias.name}"
            # ``from package import module`` depends on the module, not on the package
            self._add(submodule if submodule in self.modules else base, node)

    def visit_Call(self, node: ast.Call) -> None:
        function = node.func
        named = (isinstance(function, ast.Attribute) and function.attr == "import_module") or (
            isinstance(function, ast.Name) and function.id in {"import_module", "__import__"}
        )
        if named and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                self._add(first.value, node)
        self.generic_visit(node)


def imports_of(source: Path, root: str = ROOT) -> Iterator[Import]:
    """Every import made by every module of ``root`` (those of ``rummykit`` by default)."""
    modules = module_names(source, root)
    for module, path in modules.items():
        reader = _ImportReader(module, path.name == "__init__.py", modules)
        reader.visit(ast.parse(path.read_text(encoding="utf-8"), str(path)))
        yield from reader.found


def packages_of(source: Path, root: str = ROOT) -> list[str]:
    """Every package of ``root`` under ``source`` (a folder with an ``__init__.py``), the
    root itself and every sub-package, by dotted name: the ones checked for cycles."""
    return sorted(
        name for name, path in module_names(source, root).items() if path.name == "__init__.py"
    )


def layer_of(module: str) -> str:
    """``rummykit.games.burraco.state`` -> ``games``; the root package is its own layer."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def layer_violations(imports: Iterable[Import], root: str = ROOT) -> list[str]:
    """Imports of a layer the importer may not use (upward or sideways)."""
    found = []
    for each in imports:
        if each.imported.split(".")[0] != root or each.imported == root:
            continue
        allowed = ALLOWED.get(layer_of(each.importer), frozenset())
        if layer_of(each.imported) not in allowed:
            found.append(str(each))
    return found


def third_party_violations(imports: Iterable[Import], root: str = ROOT) -> list[str]:
    """Imports from outside the standard library in the engine's layers."""
    found = []
    for each in imports:
        if layer_of(each.importer) not in STANDARD_LIBRARY_ONLY:
            continue
        top = each.imported.split(".")[0]
        if top == root or top in sys.stdlib_module_names:
            continue
        lazy_extra = layer_of(each.importer) == "sim" and top in SIM_LAZY_EXTRAS
        if lazy_extra and each.in_function:
            continue
        found.append(str(each))
    return found


def cycle_in(
    imports: Iterable[Import], package: str, *, with_types: bool = False
) -> tuple[str, ...] | None:
    """One import cycle between the modules of ``package`` (``None`` when there is none),
    through imports that run (at module level or in a function), and with ``with_types``
    through those made for types only too.
    """
    graph: dict[str, set[str]] = {}
    for each in imports:
        if each.type_only and not with_types:
            continue
        if each.importer == package or each.importer.startswith(package + "."):
            graph.setdefault(each.importer, set())
            if each.imported.startswith(package + ".") and each.imported != each.importer:
                graph[each.importer].add(each.imported)
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as error:
        return tuple(error.args[1])
    return None


SERVER = f"{ROOT}.server"

_BASE = frozenset({"operations", "settings", "clock", "protocol"})
SERVER_ROOMS: dict[str, frozenset[str]] = {
    "": frozenset(),  # the package itself: its docstring only
    "operations": frozenset(),
    "settings": frozenset(),
    "clock": frozenset(),
    "cancelling": frozenset(),
    "protocol": frozenset(),
    "accounts": frozenset({"settings"}),
    "storage": frozenset({"operations", "settings", "protocol"}),
    "bots": frozenset({"storage"}) | _BASE,
    "table": frozenset({"bots", "accounts", "storage"}) | _BASE,
    "cluster": frozenset({"table", "bots", "accounts", "storage", "cancelling"}) | _BASE,
    "competition": frozenset({"table", "bots", "storage", "cancelling"}) | _BASE,
    "notify": frozenset({"storage", "cancelling"}) | _BASE,
    "api": frozenset({"table", "competition", "bots", "accounts", "notify", "storage"}) | _BASE,
    "app": frozenset(
        {"api", "cluster", "competition", "table", "bots", "accounts", "notify", "storage"}
    )
    | _BASE,
}
"""For each room of the server, the other rooms its modules may import."""

SERVER_MODULE_LINES = 500
"""The longest a module of the server may be: a longer one has seams to split along."""


def room_of(module: str) -> str:
    """``rummykit.server.table.host`` -> ``table``; ``rummykit.server.app`` -> ``app``;
    the package ``rummykit.server`` itself is the room ``""``."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 else ""


def _in_server(module: str) -> bool:
    return module == SERVER or module.startswith(SERVER + ".")


def room_violations(imports: Iterable[Import]) -> list[str]:
    """Imports between the server's rooms that :data:`SERVER_ROOMS` does not allow."""
    found = []
    for each in imports:
        if not (_in_server(each.importer) and _in_server(each.imported)):
            continue
        importer, imported = room_of(each.importer), room_of(each.imported)
        if importer != imported and imported not in SERVER_ROOMS.get(importer, frozenset()):
            found.append(f"{each} (room {importer or SERVER} may not import {imported})")
    return found


STORAGE = f"{SERVER}.storage"

SQL_TYPES_ONLY = frozenset({"sqlalchemy.exc", "sqlalchemy.ext.asyncio"})
"""What of SQLAlchemy a module of the server outside storage may import: the types of a
session or an engine it is handed, and the errors storage lets through."""


def sql_outside_storage(imports: Iterable[Import]) -> list[str]:
    """Imports of SQLAlchemy's statement builders (``select``, ``update``, the dialects,
    the ORM) by a module outside ``server/storage``: every statement is written there."""
    found = []
    for each in imports:
        top = each.imported.split(".")[0]
        if top != "sqlalchemy" or each.importer == STORAGE:
            continue
        if each.importer.startswith(STORAGE + ".") or each.imported in SQL_TYPES_ONLY:
            continue
        found.append(str(each))
    return found


def docstring_rooms(path: Path) -> frozenset[str] | None:
    """The rooms a room's package docstring says it may import (``May import: a, b.``),
    ``None`` when it says nothing."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    _, found, rest = " ".join(doc.split()).partition("May import: ")
    if not found:
        return None
    words = rest.split(".")[0]
    if words.startswith("nothing"):
        return frozenset()
    return frozenset(word.strip() for word in words.split(","))


@pytest.fixture(scope="module")
def source_imports() -> list[Import]:
    """Every import of the source, read when a test first needs it rather than while the
    tests are collected, which every test process does (parsing it takes most of a
    second)."""
    return list(imports_of(SOURCE))


def test_every_layer_imports_only_the_layers_below_it(source_imports: list[Import]) -> None:
    assert layer_violations(source_imports) == []


def test_the_engine_layers_use_only_the_standard_library(source_imports: list[Import]) -> None:
    assert third_party_violations(source_imports) == []


@pytest.mark.parametrize("package", packages_of(SOURCE))
def test_no_import_cycle_between_the_modules_of_a_package_not_even_for_types(
    package: str, source_imports: list[Import]
) -> None:
    assert cycle_in(source_imports, package) is None
    assert cycle_in(source_imports, package, with_types=True) is None


def test_no_import_cycle_anywhere_in_the_source_not_even_for_types(
    source_imports: list[Import],
) -> None:
    assert cycle_in(source_imports, ROOT, with_types=True) is None


def test_every_layer_is_a_package_checked_for_cycles() -> None:
    layers = {layer_of(module) for module in module_names(SOURCE)}
    packages = set(packages_of(SOURCE))
    assert {f"{ROOT}.{layer}" for layer in layers if (SOURCE / ROOT / layer).is_dir()} <= packages
    assert ROOT in packages


def test_every_server_room_imports_only_the_rooms_its_table_allows(
    source_imports: list[Import],
) -> None:
    assert room_violations(source_imports) == []


def test_no_import_cycle_between_the_modules_of_the_server_not_even_for_types(
    source_imports: list[Import],
) -> None:
    assert cycle_in(source_imports, SERVER, with_types=True) is None


def test_the_server_rooms_form_no_circle() -> None:
    graph = {room: set(allowed) for room, allowed in SERVER_ROOMS.items()}
    graphlib.TopologicalSorter(graph).prepare()  # raises CycleError on a circle


def test_every_server_module_has_a_room_and_every_room_says_what_it_may_import() -> None:
    server = SOURCE / ROOT / "server"
    modules = [m for m in module_names(SOURCE) if _in_server(m)]
    assert {room_of(m) for m in modules} == set(SERVER_ROOMS)
    for room, allowed in SERVER_ROOMS.items():
        package = server / room / "__init__.py"
        if room and package.is_file():
            assert docstring_rooms(package) == allowed, f"the docstring of {room}"


def test_only_storage_writes_sql(source_imports: list[Import]) -> None:
    assert sql_outside_storage(source_imports) == []


def test_no_server_module_is_longer_than_the_limit() -> None:
    long = {
        str(path.relative_to(SOURCE)): length
        for path in (SOURCE / ROOT / "server").rglob("*.py")
        if (length := len(path.read_text(encoding="utf-8").splitlines())) > SERVER_MODULE_LINES
    }
    assert long == {}


def test_every_package_has_a_layer(source_imports: list[Import]) -> None:
    layers = {layer_of(module) for module in module_names(SOURCE)}
    assert layers == set(ALLOWED)
    assert {layer_of(each.importer) for each in source_imports} <= set(ALLOWED)


# The checks themselves, on a small package written for the purpose.


def _write(source: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = source / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


def test_an_upward_or_sideways_import_is_found_even_inside_a_function(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "rummykit/__init__.py": "",
            "rummykit/cards.py": "import rummykit\n",
            "rummykit/games/__init__.py": """\
                from rummykit.cards import Card
                def later():
                    from rummykit import bots
                """,
            "rummykit/bots/__init__.py": "",
            "rummykit/sim/__init__.py": "from rummykit.envs import steps\n",
            "rummykit/envs/__init__.py": "",
            "rummykit/envs/steps.py": "from . import layout\n",
            "rummykit/envs/layout.py": """\
                import importlib
                importlib.import_module("rummykit.cli")
                """,
            "rummykit/cli/__init__.py": "",
        },
    )
    found = layer_violations(imports_of(tmp_path))
    assert found == [
        "rummykit.envs.layout:2 imports rummykit.cli (at module level)",
        "rummykit.games:3 imports rummykit.bots (in a function)",
        "rummykit.sim:1 imports rummykit.envs.steps (at module level)",
    ]


def test_a_third_party_import_in_the_engine_is_found(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "rummykit/__init__.py": "",
            "rummykit/games/__init__.py": "import json\nimport numpy\n",
            "rummykit/sim/__init__.py": "import ray\n\n\ndef run():\n    import ray, dask\n",
            "rummykit/envs/__init__.py": "import numpy\n",
        },
    )
    assert third_party_violations(imports_of(tmp_path)) == [
        "rummykit.games:2 imports numpy (at module level)",
        "rummykit.sim:1 imports ray (at module level)",
        "rummykit.sim:5 imports dask (in a function)",
    ]


def test_a_cycle_hidden_in_a_function_is_found(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "rummykit/__init__.py": "",
            "rummykit/envs/__init__.py": "",
            "rummykit/envs/steps.py": "def make():\n    from rummykit.envs.actions import A\n",
            "rummykit/envs/actions.py": "from rummykit.envs.steps import make\n",
            "rummykit/envs/layout.py": "from rummykit.envs import steps\n",
        },
    )
    cycle = cycle_in(list(imports_of(tmp_path)), "rummykit.envs")
    assert cycle is not None
    assert set(cycle) == {"rummykit.envs.steps", "rummykit.envs.actions"}


def test_an_import_for_types_only_counts_for_layers_and_makes_a_cycle_with_types_counted(
    tmp_path: Path,
) -> None:
    _write(
        tmp_path,
        {
            "rummykit/__init__.py": "",
            "rummykit/games/__init__.py": "",
            "rummykit/server/__init__.py": "",
            "rummykit/server/table/host.py": "from rummykit.server.driver import Driver\n",
            "rummykit/server/driver.py": """\
                from typing import TYPE_CHECKING
                if TYPE_CHECKING:
                    from rummykit.server.table.host import Host
                    from rummykit.cli import app
                """,
        },
    )
    imports = list(imports_of(tmp_path))
    assert cycle_in(imports, "rummykit.server") is None
    cycle = cycle_in(imports, "rummykit.server", with_types=True)
    assert cycle is not None
    assert set(cycle) == {"rummykit.server.table.host", "rummykit.server.driver"}
    assert layer_violations(imports) == [
        "rummykit.server.driver:4 imports rummykit.cli (at module level, for types only)"
    ]


def test_a_type_only_cycle_in_any_package_is_found_in_it_and_in_the_whole_tree(
    tmp_path: Path,
) -> None:
    _write(
        tmp_path,
        {
            "rummykit/__init__.py": "",
            "rummykit/cli/__init__.py": "",
            "rummykit/cli/screen.py": "from rummykit.cli.views import terminal_game\n",
            "rummykit/cli/views.py": """\
                from typing import TYPE_CHECKING
                if TYPE_CHECKING:
                    from rummykit.cli.screen import Lines
                """,
            "rummykit/bots/__init__.py": "",
            "rummykit/bots/burraco/__init__.py": "",
            "rummykit/bots/burraco/kit.py": "from rummykit.bots.burraco import greedy\n",
            "rummykit/bots/burraco/greedy.py": """\
                import typing
                if typing.TYPE_CHECKING:
                    from rummykit.bots.burraco.kit import BOTS
                """,
        },
    )
    imports = list(imports_of(tmp_path))
    assert packages_of(tmp_path) == [
        "rummykit",
        "rummykit.bots",
        "rummykit.bots.burraco",
        "rummykit.cli",
    ]
    found = {
        package: set(cycle)
        for package in packages_of(tmp_path)
        if (cycle := cycle_in(imports, package, with_types=True)) is not None
    }
    cli = {"rummykit.cli.screen", "rummykit.cli.views"}
    bots = {"rummykit.bots.burraco.kit", "rummykit.bots.burraco.greedy"}
    assert found["rummykit.cli"] == cli
    assert found["rummykit.bots"] == found["rummykit.bots.burraco"] == bots
    assert found["rummykit"] in (cli, bots)
    assert all(cycle_in(imports, package) is None for package in packages_of(tmp_path))


def test_a_room_importing_a_higher_room_is_found_and_a_type_only_cycle_counts_in_the_server(
    tmp_path: Path,
) -> None:
    _write(
        tmp_path,
        {
            "rummykit/__init__.py": "",
            "rummykit/server/__init__.py": "",
            "rummykit/server/table/__init__.py": "",
            "rummykit/server/table/host.py": "from rummykit.server.table.driver import Driver\n",
            "rummykit/server/table/driver.py": """\
                from typing import TYPE_CHECKING
                if TYPE_CHECKING:
                    from rummykit.server.table.host import Host
                """,
            "rummykit/server/storage/__init__.py": "",
            "rummykit/server/storage/store.py": """\
                def later():
                    from rummykit.server.table import host
                """,
            "rummykit/server/api/__init__.py": "",
            "rummykit/server/api/lobby.py": "from rummykit.server.storage.store import later\n",
        },
    )
    imports = list(imports_of(tmp_path))
    assert room_violations(imports) == [
        "rummykit.server.storage.store:2 imports rummykit.server.table.host (in a function)"
        " (room storage may not import table)"
    ]
    assert cycle_in(imports, "rummykit.server.table") is None
    cycle = cycle_in(imports, "rummykit.server", with_types=True)
    assert cycle is not None
    assert set(cycle) == {"rummykit.server.table.host", "rummykit.server.table.driver"}


def test_a_statement_built_outside_storage_is_found(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "rummykit/__init__.py": "",
            "rummykit/server/__init__.py": "",
            "rummykit/server/storage/__init__.py": "",
            "rummykit/server/storage/store.py": "from sqlalchemy import select, update\n",
            "rummykit/server/table/__init__.py": "",
            "rummykit/server/table/registry.py": """\
                from sqlalchemy.exc import IntegrityError
                from sqlalchemy.ext.asyncio import AsyncSession
                def later():
                    from sqlalchemy import select
                """,
            "rummykit/server/cluster/leases.py": (
                "from sqlalchemy.dialects.postgresql import insert\n"
            ),
        },
    )
    assert sql_outside_storage(imports_of(tmp_path)) == [
        "rummykit.server.cluster.leases:1 imports sqlalchemy.dialects.postgresql (at module level)",
        "rummykit.server.table.registry:4 imports sqlalchemy (in a function)",
    ]


def test_a_room_docstring_is_read_for_what_it_may_import(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "a.py": '"""A room.\n\nMay import: storage,\nprotocol, settings.\n"""\n',
            "b.py": '"""A room.\n\nMay import: nothing else of the server.\n"""\n',
            "c.py": '"""A room that says nothing of its imports."""\n',
        },
    )
    assert docstring_rooms(tmp_path / "a.py") == frozenset({"storage", "protocol", "settings"})
    assert docstring_rooms(tmp_path / "b.py") == frozenset()
    assert docstring_rooms(tmp_path / "c.py") is None
