"""Reading the project's Python source as syntax trees, for the tests that check the
source itself (the server's error codes, the client's refusals)."""

from __future__ import annotations

import ast


def callee(call: ast.Call) -> str | None:
    """The name a call calls: ``f`` in ``f(x)`` and in ``obj.f(x)``; ``None`` for any other
    callee (a call's result, a subscript).

    >>> callee(ast.parse("raise ApiError(404)").body[0].exc)
    'ApiError'
    >>> callee(ast.parse("self.send(x)").body[0].value), callee(ast.parse("f()()").body[0].value)
    ('send', None)
    """
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None
