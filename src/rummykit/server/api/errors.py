"""How the server answers an HTTP request it refuses: ``{"error": {"code", "message",
"params"}}`` with a fitting status, whatever refused it.

Three kinds of refusal reach here: an :class:`~rummykit.server.api.context.ApiError`
raised by a route (its own status and code), a request its body's model refuses (422,
with the validation's type as the code when the protocol names it, else
``invalid_request``, and the field in ``params``), and Starlette's own HTTP errors (a
route that does not exist, a method it does not take).  A client reads the code, never
the message.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from rummykit.server.api.context import ApiError
from rummykit.server.protocol.lobby import NAMED_VALIDATION_ERRORS


def install(app: FastAPI) -> None:
    """Answer every refusal of ``app`` as a typed error."""

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, error: ApiError) -> JSONResponse:
        body = {"code": error.code, "message": error.message, "params": error.params}
        return JSONResponse({"error": body}, status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, error: RequestValidationError) -> JSONResponse:
        first: dict[str, Any] = dict(error.errors()[0]) if error.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ())[1:]) or "body"
        code = first.get("type")
        body = {
            "code": code if code in NAMED_VALIDATION_ERRORS else "invalid_request",
            "message": f"{where}: {first.get('msg', 'invalid')}",
            "params": {**_plain(first.get("ctx")), "field": where},
        }
        return JSONResponse({"error": body}, status_code=422)

    @app.exception_handler(HTTPException)
    async def http_error(_request: Request, error: HTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "http_error")
        body = {"code": code, "message": str(error.detail), "params": {}}
        return JSONResponse({"error": body}, status_code=error.status_code)


def _plain(context: object) -> dict[str, object]:
    """A validation error's context as JSON parameters (numbers and text only)."""
    if not isinstance(context, dict):
        return {}
    return {k: v for k, v in context.items() if isinstance(v, str | int | float | bool)}
