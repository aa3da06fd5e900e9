"""The client's message files as the tests read them: each language's messages
(``MESSAGES``, ``i18n/<lang>.json``) and its refusals (``REFUSALS``,
``i18n/refusals.<lang>.json``)."""

from __future__ import annotations

import json
from typing import Any

from rummykit.web import LANGUAGES, WEB_ROOT


def _read(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((WEB_ROOT / "i18n" / f"{name}.json").read_text("utf-8"))
    return data


MESSAGES: dict[str, dict[str, Any]] = {language: _read(language) for language in LANGUAGES}
REFUSALS: dict[str, dict[str, Any]] = {
    language: _read(f"refusals.{language}") for language in LANGUAGES
}
