"""The API's documentation pages, ``/docs`` (Swagger UI) and ``/redoc`` (ReDoc):
FastAPI's own pages, their viewers, stylesheet and icon taken from the files the
package installs (:mod:`~rummykit.server.accounts.docs_assets`) under the server's
``root_path``, and ReDoc's without its Google fonts (FastAPI's defaults load all of
these from other hosts)."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.openapi.docs import (
    get_redoc_html,
    get_swagger_ui_html,
    get_swagger_ui_oauth2_redirect_html,
)
from fastapi.responses import HTMLResponse

from rummykit.server.accounts.docs_assets import (
    DOCS_URL,
    FAVICON,
    OAUTH2_REDIRECT_URL,
    REDOC_JS,
    REDOC_URL,
    SWAGGER_CSS,
    SWAGGER_JS,
)


def install(app: FastAPI) -> None:
    """Add the documentation pages to ``app`` (made with ``docs_url=None`` and
    ``redoc_url=None``, so that FastAPI adds none of its own)."""

    def under_root(request: Request, path: str) -> str:
        root: str = request.scope.get("root_path", "")
        return root.rstrip("/") + path

    @app.get(DOCS_URL, include_in_schema=False)
    async def swagger_ui(request: Request) -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=under_root(request, app.openapi_url or ""),
            title=f"{app.title} - Swagger UI",
            swagger_js_url=under_root(request, SWAGGER_JS),
            swagger_css_url=under_root(request, SWAGGER_CSS),
            swagger_favicon_url=under_root(request, FAVICON),
            oauth2_redirect_url=under_root(request, OAUTH2_REDIRECT_URL),
        )

    @app.get(OAUTH2_REDIRECT_URL, include_in_schema=False)
    async def swagger_ui_redirect() -> HTMLResponse:
        return get_swagger_ui_oauth2_redirect_html()

    @app.get(REDOC_URL, include_in_schema=False)
    async def redoc(request: Request) -> HTMLResponse:
        return get_redoc_html(
            openapi_url=under_root(request, app.openapi_url or ""),
            title=f"{app.title} - ReDoc",
            redoc_js_url=under_root(request, REDOC_JS),
            redoc_favicon_url=under_root(request, FAVICON),
            with_google_fonts=False,
        )
