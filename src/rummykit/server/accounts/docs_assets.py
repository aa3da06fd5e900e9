"""Where the API documentation pages find their viewers: files installed with the
package, served by the server itself.

``/docs`` (Swagger UI) and ``/redoc`` (ReDoc) load their scripts and stylesheet from
``rummykit/web/vendor`` (``swagger-ui/`` and ``redoc/``, each with its licence; the
versions and checksums are in that folder's README), which the server serves as it
serves the browser client.  No page asks another host for anything, so the pages work
with no network but the server's own, and their policy names no host but the
server's.  To move to a newer version, replace the files from the new npm packages
(``swagger-ui-dist``, ``redoc``) and their lines in the README.
"""

from __future__ import annotations

from typing import Final

DOCS_URL: Final = "/docs"
OAUTH2_REDIRECT_URL: Final = "/docs/oauth2-redirect"
REDOC_URL: Final = "/redoc"
DOCS_PATHS: Final = (DOCS_URL, OAUTH2_REDIRECT_URL, REDOC_URL)

SWAGGER_JS: Final = "/vendor/swagger-ui/swagger-ui-bundle.js"
SWAGGER_CSS: Final = "/vendor/swagger-ui/swagger-ui.css"
REDOC_JS: Final = "/vendor/redoc/redoc.standalone.js"
FAVICON: Final = "/img/favicon.svg"
"""The browser client's own icon, in place of FastAPI's (fetched from its site)."""
