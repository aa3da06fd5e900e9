"""The API's documentation pages, ``/docs`` (Swagger UI) and ``/redoc`` (ReDoc):
FastAPI's own pages, their viewers loaded from the exact CDN files of
:mod:`~rummykit.server.accounts.docs_assets` with their integrity hashes (FastAPI's
defaults load whatever the CDN serves as the latest 5.x and 2.x)."""

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
    OAUTH2_REDIRECT_URL,
    REDOC_JS,
    REDOC_URL,
    SWAGGER_CSS,
    SWAGGER_JS,
    with_integrity,
)


def install(app: FastAPI) -> None:
    """Add the documentation pages to ``app`` (made with ``docs_url=None`` and
    ``redoc_url=None``, so that FastAPI adds none of its own)."""

    def openapi_url(request: Request) -> str:
        root: str = request.scope.get("root_path", "")
        return root.rstrip("/") + (app.openapi_url or "")

    @app.get(DOCS_URL, include_in_schema=False)
    async def swagger_ui(request: Request) -> HTMLResponse:
        root: str = request.scope.get("root_path", "")
        page = get_swagger_ui_html(
            openapi_url=openapi_url(request),
            title=f"{app.title} - Swagger UI",
            swagger_js_url=SWAGGER_JS.url,
            swagger_css_url=SWAGGER_CSS.url,
            oauth2_redirect_url=root.rstrip("/") + OAUTH2_REDIRECT_URL,
        )
        return HTMLResponse(with_integrity(bytes(page.body).decode(), SWAGGER_JS, SWAGGER_CSS))

    @app.get(OAUTH2_REDIRECT_URL, include_in_schema=False)
    async def swagger_ui_redirect() -> HTMLResponse:
        return get_swagger_ui_oauth2_redirect_html()

    @app.get(REDOC_URL, include_in_schema=False)
    async def redoc(request: Request) -> HTMLResponse:
        page = get_redoc_html(
            openapi_url=openapi_url(request),
            title=f"{app.title} - ReDoc",
            redoc_js_url=REDOC_JS.url,
        )
        return HTMLResponse(with_integrity(bytes(page.body).decode(), REDOC_JS))
