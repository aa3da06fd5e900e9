"""The API documentation pages' viewers: exact files on the CDN, each pinned by its
version and by its Subresource Integrity hash.

``/docs`` (Swagger UI) and ``/redoc`` (ReDoc) load their viewers from cdn.jsdelivr.net.
The pages' policy (:func:`~.security.docs_policy`) names these files alone, not the
CDN's host, and each page's tag carries the file's ``integrity``: a file changed on the
CDN, or any other file there, is not run.  The hashes are those of the files in the
npm packages ``swagger-ui-dist`` and ``redoc`` of the versions named, which the CDN
serves unchanged.  To move to a newer version, take the files from the new package and
put their SHA-384 here (``openssl dgst -sha384 -binary FILE | base64``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

DOCS_URL: Final = "/docs"
OAUTH2_REDIRECT_URL: Final = "/docs/oauth2-redirect"
REDOC_URL: Final = "/redoc"
DOCS_PATHS: Final = (DOCS_URL, OAUTH2_REDIRECT_URL, REDOC_URL)


@dataclass(frozen=True)
class PinnedFile:
    """One file on the CDN and its Subresource Integrity hash."""

    url: str
    integrity: str


SWAGGER_UI = "https://cdn.jsdelivr.net/npm/swagger-ui-dist@5.35.0"
SWAGGER_JS: Final = PinnedFile(
    f"{SWAGGER_UI}/swagger-ui-bundle.js",
    "sha384-gjRm0bEPMeTmMh5jT2cHccIwCUZSTd8YC+j0d0sXw0MdGEfScduGpSyF3ZSSLkX9",
)
SWAGGER_CSS: Final = PinnedFile(
    f"{SWAGGER_UI}/swagger-ui.css",
    "sha384-WlYgdmXYOOBWL5apwjDEZwN+U3HmXSSu5R6V5aGxEcf7z+KuRNwBhoxKVN1i3D5I",
)
REDOC_JS: Final = PinnedFile(
    "https://cdn.jsdelivr.net/npm/redoc@2.5.4/bundles/redoc.standalone.js",
    "sha384-w447zOpYfw/1Tv/5AK9NfHTlQIqE3RVR6KY62jCyy9zNDgO64cMwGGP1Fj0zJVf5",
)


def with_integrity(page: str, *files: PinnedFile) -> str:
    """``page`` with each of ``files``' tags (``src=`` or ``href=`` its URL) carrying its
    ``integrity`` (and ``crossorigin``, which integrity needs for another origin).

    >>> pinned = PinnedFile("https://cdn.example/a.js", "sha384-x")
    >>> with_integrity('<script src="https://cdn.example/a.js"></script>', pinned)
    '<script src="https://cdn.example/a.js" integrity="sha384-x" crossorigin="anonymous"></script>'
    """
    for pinned in files:
        for attribute in ("src", "href"):
            tag = f'{attribute}="{pinned.url}"'
            if tag in page:
                page = page.replace(
                    tag, f'{tag} integrity="{pinned.integrity}" crossorigin="anonymous"'
                )
                break
        else:
            raise ValueError(f"the page does not load {pinned.url}")
    return page
