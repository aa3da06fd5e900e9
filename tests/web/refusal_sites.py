"""Every place the engine builds a refusal, read from the engine's source code.

The browser client translates refusals by code and parameters, so the translation tests
need the full list of codes with the parameters each carries.  It is read here from the
source (``Refusal(...)`` calls and calls of helpers that pass their code through to
``Refusal``), never written by hand, so that a new refusal cannot go unnoticed.  A
refusal built in a way this reader does not understand (a code that is not a string
literal, parameters that are not a literal dict or keywords) is an error, not a silent
omission.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import rummykit.games
from tests.kit.python_source import callee

ENGINE_ROOT = Path(rummykit.games.__file__).parent


class UnreadableRefusal(Exception):
    """A refusal whose code or parameters cannot be read from the source."""


@dataclass(frozen=True, slots=True)
class RefusalSite:
    """One place that builds a refusal: its code and, for each parameter, the literal
    string value it always has there (``None`` when the value is computed)."""

    where: str
    code: str
    params: dict[str, str | None]


@dataclass(frozen=True, slots=True)
class _Factory:
    """A function that builds a refusal from a code it is given: ``code_index`` is the
    position of the code among its arguments; the refusal's parameters are the call's
    keyword arguments other than ``named`` (the function's own named parameters)."""

    code_index: int
    named: frozenset[str]


_REFUSAL = _Factory(code_index=0, named=frozenset({"code", "params", "message"}))


def _positional_names(function: ast.FunctionDef) -> list[str]:
    return [a.arg for a in (*function.args.posonlyargs, *function.args.args)]


def _argument(call: ast.Call, index: int, name: str) -> ast.expr | None:
    if index < len(call.args):
        return call.args[index]
    for keyword in call.keywords:
        if keyword.arg == name:
            return keyword.value
    return None


def _functions(tree: ast.Module) -> Iterator[ast.FunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            yield node


def _pass_through_factory(
    function: ast.FunctionDef, factories: dict[str, _Factory]
) -> _Factory | None:
    """``function`` as a factory if it hands its own code parameter to a known factory
    (``Refusal`` first of all) together with its ``**keywords`` as the parameters."""
    positional = _positional_names(function)
    keywords = function.args.kwarg.arg if function.args.kwarg else None
    for node in ast.walk(function):
        if not isinstance(node, ast.Call):
            continue
        factory = factories.get(callee(node) or "")
        if factory is None:
            continue
        code = _argument(node, factory.code_index, "code")
        if not (isinstance(code, ast.Name) and code.id in positional):
            continue
        params = _argument(node, 1, "params") if factory is _REFUSAL else None
        if factory is _REFUSAL and not (isinstance(params, ast.Name) and params.id == keywords):
            raise UnreadableRefusal(
                f"{function.name} passes its code to Refusal but not its **keywords as params"
            )
        named = {*positional, *(a.arg for a in function.args.kwonlyargs)}
        return _Factory(code_index=positional.index(code.id), named=frozenset(named))
    return None


def _passes_code(call: ast.Call, function: ast.FunctionDef, factories: dict[str, _Factory]) -> bool:
    """Whether ``call`` builds a refusal from a code parameter of ``function``."""
    factory = factories.get(callee(call) or "")
    if factory is None:
        return False
    code = _argument(call, factory.code_index, "code")
    return isinstance(code, ast.Name) and code.id in _positional_names(function)


def _literal(value: ast.expr) -> str | None:
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return value.value
    return None


def _site_params(call: ast.Call, factory: _Factory, where: str) -> dict[str, str | None]:
    if factory is _REFUSAL:
        params = _argument(call, 1, "params")
        if params is None:
            return {}
        if not isinstance(params, ast.Dict) or not all(
            key is not None and _literal(key) is not None for key in params.keys
        ):
            raise UnreadableRefusal(f"{where}: the params of a Refusal must be a literal dict")
        return {
            _literal(key) or "": _literal(value)
            for key, value in zip(params.keys, params.values, strict=True)
            if key is not None
        }
    found: dict[str, str | None] = {}
    for keyword in call.keywords:
        if keyword.arg is None:
            raise UnreadableRefusal(f"{where}: refusal parameters passed as **mapping")
        if keyword.arg not in factory.named:
            found[keyword.arg] = _literal(keyword.value)
    return found


def refusal_sites(root: Path = ENGINE_ROOT) -> list[RefusalSite]:
    """Every refusal the modules under ``root`` can build, one entry per call site."""
    trees = {
        path: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(root.rglob("*.py"))
    }
    factories: dict[str, _Factory] = {"Refusal": _REFUSAL}
    factory_bodies: set[ast.FunctionDef] = set()
    changed = True
    while changed:
        changed = False
        for tree in trees.values():
            for function in _functions(tree):
                if function in factory_bodies:
                    continue
                factory = _pass_through_factory(function, factories)
                if factory is not None:
                    factories[function.name] = factory
                    factory_bodies.add(function)
                    changed = True
    sites: list[RefusalSite] = []
    for path, tree in trees.items():
        passing_through = {
            id(node)
            for function in _functions(tree)
            if function in factory_bodies
            for node in ast.walk(function)
            if isinstance(node, ast.Call) and _passes_code(node, function, factories)
        }
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or id(node) in passing_through:
                continue
            factory = factories.get(callee(node) or "")
            if factory is None:
                continue
            where = f"{path.relative_to(root.parent)}:{node.lineno}"
            code = _literal(_argument(node, factory.code_index, "code") or ast.Constant(None))
            if code is None:
                raise UnreadableRefusal(f"{where}: a refusal whose code is not a string literal")
            sites.append(RefusalSite(where, code, _site_params(node, factory, where)))
    return sites
