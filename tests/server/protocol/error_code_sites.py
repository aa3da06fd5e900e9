"""Every place the server names one of its own error codes, read from its source code.

The catalogue (:mod:`rummykit.server.protocol.error_codes`) must list every code the server can
answer, so the tests read the codes from the source rather than from a hand-made list.
A *code taker* is anything defined in the server package that takes a parameter or field
named ``code``: the error classes (``ApiError``, ``TableError``, ``ProtocolError``), the
``ErrorMessage`` model and helpers such as ``_error(connection, code, ...)``; they are
found in the source too, so a new helper is followed without changing this reader.
Codes are read from

- the ``code`` argument of a call of a code taker (by position or keyword);
- a dict literal with ``"code"`` and ``"message"`` keys (an HTTP error body built by
  hand, as the exception handlers do).

The code there must be a string literal, a module-level string constant, a local
variable whose assigned values' string literals are read instead (``code = {404:
"not_found"}.get(status, "http_error")``), a parameter of the enclosing function (the
code is passed through: the caller is read instead) or an attribute ``.code`` (an error
re-raised under its own code).  Anything else is an :class:`UnreadableCode`, not a
silent omission.  With each code the reader keeps the literal HTTP status and parameter
names given at that place, when there are literal ones.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import rummykit
from tests.kit.python_source import callee

SERVER_ROOT = Path(rummykit.__file__).parent / "server"
Transport = Literal["http", "websocket"]
# What each base code taker answers over; a helper answers over what it passes its code to.
BASE_TRANSPORTS: dict[str, Transport] = {
    "ApiError": "http",
    "TableError": "http",
    "ProtocolError": "websocket",
    "ErrorMessage": "websocket",
}
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


class UnreadableCode(Exception):
    """An error code given in a way this reader cannot read from the source."""


@dataclass(frozen=True, slots=True)
class ErrorSite:
    """One place that names an error code: the callee (``dict`` for a literal body), the
    literal HTTP status and parameter names given there (``None`` when not literal), and
    the transport the callee answers over (``None`` when it cannot be told)."""

    where: str
    code: str
    via: str
    status: int | None = None
    params: frozenset[str] | None = None
    transport: Transport | None = None


@dataclass(slots=True)
class CodeTaker:
    """A callable that takes an error code: the positions (after ``self``) of its
    ``code``, ``status`` and ``params`` arguments, ``None`` where keyword-only or absent;
    ``takes_params`` when it has a ``params`` argument at all (a call without one then
    gives no params; a helper without one makes them itself, unseen here)."""

    name: str
    code_index: int | None
    status_index: int | None = None
    params_index: int | None = None
    takes_params: bool = False
    transport: Transport | None = None
    forwards_to: set[str] = field(default_factory=set)


def _positional(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    names = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
    return names[1:] if names and names[0] in ("self", "cls") else names


def _index(names: list[str], name: str) -> int | None:
    return names.index(name) if name in names else None


def _modules(root: Path) -> Iterator[tuple[str, ast.Module]]:
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root.parent).as_posix()
        yield relative, ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _function_taker(
    name: str, function: ast.FunctionDef | ast.AsyncFunctionDef
) -> CodeTaker | None:
    names = _positional(function)
    every = names + [a.arg for a in function.args.kwonlyargs]
    if "code" not in every:
        return None
    return CodeTaker(
        name,
        _index(names, "code"),
        _index(names, "status"),
        _index(names, "params"),
        takes_params="params" in every,
    )


def _takers(modules: list[tuple[str, ast.Module]]) -> dict[str, CodeTaker]:
    """Every code taker defined in the modules, by name: functions with a ``code``
    argument, classes whose ``__init__`` has one, and error models with a ``code``
    field (called with keywords)."""
    takers: dict[str, CodeTaker] = {}
    for _, tree in modules:
        for node in ast.walk(tree):
            taker = None
            if isinstance(node, _FUNCTIONS) and node.name != "__init__":
                taker = _function_taker(node.name, node)
            elif isinstance(node, ast.ClassDef):
                fields = {
                    item.target.id
                    for item in node.body
                    if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
                }
                for item in node.body:
                    if isinstance(item, _FUNCTIONS) and item.name == "__init__":
                        taker = _function_taker(node.name, item)
                if taker is None and "Error" in node.name and "code" in fields:
                    taker = CodeTaker(node.name, None, takes_params="params" in fields)
            if taker is not None:
                takers[taker.name] = taker
    for name, transport in BASE_TRANSPORTS.items():
        if name in takers:
            takers[name].transport = transport
    return takers


def _argument(call: ast.Call, index: int | None, name: str) -> ast.expr | None:
    if index is not None and index < len(call.args):
        return call.args[index]
    for keyword in call.keywords:
        if keyword.arg == name:
            return keyword.value
    return None


def _passes_code_on(node: ast.expr) -> bool:
    """``error.code`` or ``getattr(error, "code", ...)``: another error's code, passed on."""
    if isinstance(node, ast.Attribute):
        return node.attr == "code"
    return (
        isinstance(node, ast.Call)
        and callee(node) == "getattr"
        and len(node.args) >= 2
        and isinstance(node.args[1], ast.Constant)
        and node.args[1].value == "code"
    )


def _literal_keys(node: ast.expr) -> frozenset[str] | None:
    """The keys of a dict literal with string keys; ``None`` for anything else."""
    if not isinstance(node, ast.Dict):
        return None
    keys = []
    for key in node.keys:
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            return None
        keys.append(key.value)
    return frozenset(keys)


def _module_values(tree: ast.Module) -> dict[str, ast.expr]:
    """The values of a module's top-level ``NAME = value`` (or annotated) assignments."""
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        if isinstance(target, ast.Name):
            found[target.id] = value
    return found


class _Reader(ast.NodeVisitor):
    def __init__(
        self,
        where: str,
        tree: ast.Module,
        takers: dict[str, CodeTaker],
        shared: dict[str, ast.expr],
    ) -> None:
        self.where = where
        self.takers = takers
        # this module's top-level names, then those of the others (imported constants)
        self.module_values = shared | _module_values(tree)
        self.scopes: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
        self.sites: list[ErrorSite] = []

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._scoped(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._scoped(node)

    def _scoped(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.scopes.append(node)
        self.generic_visit(node)
        self.scopes.pop()

    def _codes(self, node: ast.expr) -> list[str] | None:
        """The codes ``node`` stands for; ``None`` when it passes a code through."""
        if _passes_code_on(node):
            return None
        scope = self.scopes[-1] if self.scopes else None
        if isinstance(node, ast.Name) and scope is not None:
            arguments = scope.args
            every = (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)
            if node.id in {a.arg for a in every}:
                return None
        return self._values(node, None)

    def _values(self, node: ast.expr, index: int | None) -> list[str]:
        """The string values ``node`` can have (item ``index`` of each, for a value
        unpacked from tuples), following local and module-level names."""
        where = f"{self.where}:{node.lineno}"
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and index is None:
            return [node.value]
        if _passes_code_on(node):  # read where the error carrying it is built
            return []
        if isinstance(node, ast.Tuple) and index is not None and index < len(node.elts):
            return self._values(node.elts[index], None)
        if isinstance(node, ast.Dict):  # a table of codes: its values
            return [text for value in node.values for text in self._values(value, index)]
        if isinstance(node, ast.Subscript):  # TABLE[key]
            return self._values(node.value, index)
        if isinstance(node, ast.IfExp):
            return [*self._guarded(node, index), *self._values(node.orelse, index)]
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
        ):  # TABLE.get(key, default)
            found = self._values(node.func.value, index)
            return found + (self._values(node.args[1], index) if len(node.args) > 1 else [])
        if isinstance(node, ast.Name):
            assigned = self._assigned(node.id)
            if assigned:
                return [text for value, item in assigned for text in self._values(value, item)]
            if node.id in self.module_values:
                return self._values(self.module_values[node.id], index)
        raise UnreadableCode(f"{where}: the error code is not a string literal")

    def _assigned(self, name: str) -> list[tuple[ast.expr, int | None]]:
        """What the enclosing function assigns to ``name``: each value, and the item of
        it that ``name`` takes when it is unpacked from a tuple."""
        if not self.scopes:
            return []
        found: list[tuple[ast.expr, int | None]] = []
        for node in ast.walk(self.scopes[-1]):
            if not isinstance(node, ast.Assign):
                continue
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id == name:
                    found.append((node.value, None))
                elif isinstance(target, ast.Tuple):
                    for item, element in enumerate(target.elts):
                        if isinstance(element, ast.Name) and element.id == name:
                            found.append((node.value, item))
        return found

    def _guarded(self, node: ast.IfExp, index: int | None) -> list[str]:
        """The codes of ``x if x in CODES else ...``: the members of ``CODES`` (a set,
        tuple or list of string literals, maybe in ``frozenset(...)``, here or a
        constant of any server module)."""
        test, body = node.test, node.body
        if (
            isinstance(test, ast.Compare)
            and len(test.ops) == 1
            and isinstance(test.ops[0], ast.In)
            and isinstance(test.left, ast.Name)
            and isinstance(body, ast.Name)
            and body.id == test.left.id
        ):
            members = test.comparators[0]
            if isinstance(members, ast.Name):
                members = self.module_values.get(members.id, members)
            if isinstance(members, ast.Call) and callee(members) == "frozenset":
                members = members.args[0] if members.args else members
            if isinstance(members, (ast.Set, ast.Tuple, ast.List)):
                return [text for element in members.elts for text in self._values(element, None)]
        return self._values(body, index)

    def _add(
        self,
        node: ast.expr,
        via: str,
        *,
        status: int | None = None,
        params: frozenset[str] | None = None,
        transport: Transport | None = None,
    ) -> None:
        where = f"{self.where}:{node.lineno}"
        for code in self._codes(node) or ():
            self.sites.append(ErrorSite(where, code, via, status, params, transport))

    def visit_Call(self, node: ast.Call) -> None:
        name = callee(node)
        taker = self.takers.get(name or "")
        if taker is not None:
            argument = _argument(node, taker.code_index, "code")
            if argument is not None:
                status_node = _argument(node, taker.status_index, "status")
                status = (
                    status_node.value
                    if isinstance(status_node, ast.Constant) and isinstance(status_node.value, int)
                    else None
                )
                params_node = _argument(node, taker.params_index, "params")
                params: frozenset[str] | None
                if params_node is None:
                    params = frozenset() if taker.takes_params else None
                else:
                    params = _literal_keys(params_node)
                self._add(
                    argument,
                    taker.name,
                    status=status,
                    params=params,
                    transport=taker.transport,
                )
                if (
                    self.scopes
                    and isinstance(argument, ast.Name)
                    and self.scopes[-1].name in self.takers
                ):
                    self.takers[self.scopes[-1].name].forwards_to.add(taker.name)
        self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        """An error class with a fixed code: ``code = "bot_unavailable"`` in its body."""
        for item in node.body:
            if isinstance(item, ast.Assign):
                targets, value = item.targets, item.value
            elif isinstance(item, ast.AnnAssign) and item.value is not None:
                targets, value = [item.target], item.value
            else:
                continue
            if any(isinstance(t, ast.Name) and t.id == "code" for t in targets):
                self._add(value, node.name)
        self.generic_visit(node)

    def visit_Dict(self, node: ast.Dict) -> None:
        keys = {
            k.value: v
            for k, v in zip(node.keys, node.values, strict=True)
            if k is not None and isinstance(k, ast.Constant)
        }
        if "code" in keys and "message" in keys:
            params = keys.get("params")
            self._add(
                keys["code"], "dict", params=None if params is None else _literal_keys(params)
            )
        self.generic_visit(node)


def _settle_transports(takers: dict[str, CodeTaker]) -> None:
    """A helper answers over what the takers it passes its code to answer over."""
    changed = True
    while changed:
        changed = False
        for taker in takers.values():
            if taker.transport is None:
                found = {takers[name].transport for name in taker.forwards_to} - {None}
                if len(found) == 1:
                    taker.transport = found.pop()
                    changed = True


CATALOGUE = "server/protocol/error_codes.py"


def error_sites(root: Path = SERVER_ROOT) -> list[ErrorSite]:
    """Every place under ``root`` that names a server error code (the catalogue itself,
    ``server/protocol/error_codes.py``, is the list they are checked against, not a place)."""
    modules = [(where, tree) for where, tree in _modules(root) if where != CATALOGUE]
    takers = _takers(modules)
    shared = {name: value for _, tree in modules for name, value in _module_values(tree).items()}
    readers = [_Reader(where, tree, takers, shared) for where, tree in modules]
    for reader, (_, tree) in zip(readers, modules, strict=True):
        reader.visit(tree)
    _settle_transports(takers)
    return [
        site
        if site.transport is not None or site.via not in takers
        else ErrorSite(
            site.where,
            site.code,
            site.via,
            site.status,
            site.params,
            takers[site.via].transport,
        )
        for reader in readers
        for site in reader.sites
    ]
