"""The client's own messages (``rummykit/web/i18n/<lang>.json``): the same keys in
English, Hungarian and Russian, the plural forms each language needs, the same
placeholders, and every key the code asks for present."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest

from rummykit.bots.levels import LEVELS
from rummykit.bots.reasons import PHRASES
from rummykit.games.burraco.results import END_REASONS
from rummykit.games.registry import GAMES
from rummykit.web import LANGUAGES, WEB_ROOT

PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")
# In an object of plural forms, the member naming the parameter that picks the form
# (``count`` when it is absent; see js/i18n.js).
COUNT = "count"
# The forms Intl.PluralRules gives for whole numbers in each language.
PLURAL_FORMS = {
    "en": {"one", "other"},
    "hu": {"one", "other"},
    "ru": {"one", "few", "many", "other"},
}
# Keys built at run time from a family name and a value (see the modules that use them).
FAMILIES: dict[str, list[str]] = {
    "game": [*GAMES, *(f"{name}.tagline" for name in GAMES)],
    "level": list(LEVELS),
    "rank": [str(rank) for rank in range(1, 14)],
    "suit": list("cdhs"),
    "settings.pace": ["slow", "normal", "fast", "instant"],
    "table.tab": ["scores", "log", "chat"],
    "lobby.mode": ["guest", "login", "register"],
    "meld": ["set", "run", "meld"],
    "burraco": ["clean", "dirty"],
    "breakdown": ["melded", "in_hand", "burracos", "closing", "pozzetto_penalty"],
    "end": list(END_REASONS),
    "reason": list(PHRASES),
}
# Log lines that have a second form for the player's own moves.
SELF_FORMS = (
    "drew",
    "drew_card",
    "took_pile",
    "took",
    "melded",
    "extended",
    "discarded",
    "pozzetto",
    "went_out",
)


def messages(language: str) -> dict[str, Any]:
    data = json.loads((WEB_ROOT / "i18n" / f"{language}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


MESSAGES = {language: messages(language) for language in LANGUAGES}


def texts(value: object) -> list[str]:
    """The texts of a message: the string, or each plural form (not the ``count``
    member, which names the parameter that picks the form)."""
    if isinstance(value, str):
        return [value]
    assert isinstance(value, dict), value
    return [str(text) for form, text in value.items() if form != COUNT]


def used_keys() -> set[str]:
    """Every message key the client's modules name literally: t("key") and say("key")."""
    keys: set[str] = set()
    for path in Path(WEB_ROOT / "js").rglob("*.js"):
        source = path.read_text(encoding="utf-8")
        keys.update(re.findall(r"\bt\(\s*\"([a-z0-9_.\-]+)\"", source))
        for name in re.findall(r"\bsay\(\s*\"([a-z_]+)\"", source):
            keys.update({f"log.{name}", f"log.you.{name}"})
    return keys


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_every_language_has_exactly_the_english_keys(language: str) -> None:
    english = set(MESSAGES["en"])
    other = set(MESSAGES[language])
    assert sorted(english - other) == [], f"missing in {language}"
    assert sorted(other - english) == [], f"only in {language}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_messages_are_text_or_the_plural_forms_of_the_language(language: str) -> None:
    for key, value in MESSAGES[language].items():
        if isinstance(value, dict):
            assert set(value) - {COUNT} == PLURAL_FORMS[language], (language, key)
            counted = value.get(COUNT, "count")
            assert all(f"{{{counted}}}" in text for text in texts(value)), (language, key)
        for text in texts(value):
            assert text.strip(), (language, key)


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_translations_use_the_english_placeholders(language: str) -> None:
    for key, value in MESSAGES["en"].items():
        wanted = {name for text in texts(value) for name in PLACEHOLDER.findall(text)}
        for text in texts(MESSAGES[language][key]):
            found = set(PLACEHOLDER.findall(text))
            assert found <= wanted, (language, key, found - wanted)
            if not isinstance(value, dict):
                assert found == wanted, (language, key, wanted - found)


def test_every_key_the_code_names_exists() -> None:
    keys = used_keys()
    assert len(keys) > 150
    missing = sorted(key for key in keys if key not in MESSAGES["en"])
    assert missing == []


def test_every_key_built_at_run_time_exists() -> None:
    for family, values in FAMILIES.items():
        for value in values:
            assert f"{family}.{value}" in MESSAGES["en"], f"{family}.{value}"
    for name in SELF_FORMS:
        assert f"log.{name}" in MESSAGES["en"] and f"log.you.{name}" in MESSAGES["en"]


def test_bot_reasons_are_the_bots_phrases_with_their_placeholders() -> None:
    """``reason.<code>`` for exactly the bots' phrase codes, with the English template's
    placeholders (the other languages are held to English's above)."""
    codes = {key.removeprefix("reason.") for key in MESSAGES["en"] if key.startswith("reason.")}
    assert codes == set(PHRASES)
    for code, template in PHRASES.items():
        wanted = set(PLACEHOLDER.findall(template))
        for text in texts(MESSAGES["en"][f"reason.{code}"]):
            assert set(PLACEHOLDER.findall(text)) == wanted, (code, text)


# Words Hungarian players use as they are (Buchholz is the tie-break's own name; a
# partner at cards is a "partner" in Hungarian too).
SAME_IN_HUNGARIAN = {
    "card.joker",
    "game.burraco",
    "meld.set",
    "tournament.buchholz",
    "burraco.partner",
    "create.partner_seat",
    "notify.column.email",
}


def test_every_rule_option_has_a_label() -> None:
    """The table form names each rule option of each game (``players`` is the seat count)."""
    for name, game in GAMES.items():
        for option in dataclasses.fields(game.rules_type):
            if option.name != "players":
                assert f"option.{name}.{option.name}" in MESSAGES["en"], (name, option.name)


def test_no_message_is_left_in_english() -> None:
    same = [key for key, value in MESSAGES["ru"].items() if value == MESSAGES["en"][key]]
    assert all(re.fullmatch(r"[^A-Za-z]*", str(MESSAGES["en"][key])) for key in same), same
    unchanged = [
        key
        for key, value in MESSAGES["hu"].items()
        if value == MESSAGES["en"][key] and key not in SAME_IN_HUNGARIAN
    ]
    assert unchanged == [], unchanged


def test_the_package_ships_the_client() -> None:
    for path in ("index.html", "js/app.js", "css/table.css", "vendor/preact.module.js"):
        assert (WEB_ROOT / path).is_file(), path
    for language in LANGUAGES:
        assert (WEB_ROOT / "i18n" / f"{language}.json").is_file()
