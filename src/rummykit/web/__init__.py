"""The browser client: static files (HTML, ES modules, CSS, messages) served by the server.

Nothing here runs in Python; this package only says where the files are, so that the
server can serve them from an installed copy.  The client speaks the protocol of
``docs/protocol.md`` and knows nothing of the rules beyond what the server sends.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

WEB_ROOT: Final = Path(__file__).resolve().parent
"""The directory to serve at ``/``: ``index.html`` and everything it loads."""

LANGUAGES: Final = ("en", "hu", "ru")
"""The languages the client speaks; ``i18n/<lang>.json`` holds each one's messages."""
