"""The client's words: numbers with nouns go through plural objects, computer players are
named by level rather than by algorithm, Russian labels for a player do not assume a man,
and the Hungarian refusals keep no English label.  These read the i18n files directly."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import rummykit
from rummykit.bots.levels import LEVELS

I18N = Path(rummykit.__file__).parent / "web" / "i18n"
LANGUAGES = ("en", "hu", "ru")

# placeholders that never hold a number, or hold a label ("Hand {n}", "place {place}")
WORDS = re.compile(
    r"name|cards?|rank|level|suit|message|game|reason|action|usual|by|player|text|date|when"
    r"|mode|title|option|meaning|names|host|played|suggested|n|round|step|total|last|place"
    r"|meld|seat"
)
# a unit written short needs no plural form
UNITS = re.compile(r"^(s|\u0441|mp)\b")  # s, the Russian es, mp
# words after a number that do not agree with it: prepositions, a comparative, adjectives
# that English does not inflect
NOT_NOUNS = frozenset(["of", "a", "in", "из", "в", "лучше", "clean", "dirty"])
NUMBER_THEN_WORD = re.compile(r"\{(\w+)\}\s+(\w+)")
PLURAL_FORMS = {"en": {"one", "other"}, "ru": {"one", "few", "many", "other"}}


def messages(language: str) -> dict[str, Any]:
    data = json.loads((I18N / f"{language}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_number_before_a_noun_is_in_a_plural_object(language: str) -> None:
    """«22 карт», «+5 очка», "1 cards": a count written before its noun must pick the
    noun's form, so the message is a plural object.  (Hungarian nouns stay singular after
    a number.)"""
    plain = []
    for key, value in messages(language).items():
        if not isinstance(value, str):
            continue
        for match in NUMBER_THEN_WORD.finditer(value):
            param, word = match.groups()
            if WORDS.fullmatch(param) or word in NOT_NOUNS or UNITS.match(word) or word.isdigit():
                continue
            plain.append(f"{key}: {value}")
    assert plain == []


@pytest.mark.parametrize("language", ["en", "ru"])
def test_plural_objects_have_the_languages_forms(language: str) -> None:
    for key, value in messages(language).items():
        if isinstance(value, dict):
            forms = set(value) - {"count"}
            assert PLURAL_FORMS[language] <= forms, key
            count = value.get("count", "count")
            for form in PLURAL_FORMS[language]:
                assert "{" + count + "}" in value[form], (key, form)


def test_computer_levels_are_named_for_players() -> None:
    names = {language: messages(language) for language in LANGUAGES}
    assert [names["en"][f"level.{level}"] for level in LEVELS] == [
        "Very easy",
        "Easy",
        "Medium",
        "Hard",
        "Expert",
    ]
    for language in LANGUAGES:
        levels = {names[language][f"level.{level}"] for level in LEVELS}
        assert len(levels) == len(LEVELS)
        for word in ("greedy", "mohó", "жадный", "random", "ismcts", "beginner"):
            assert not any(word in name.lower() for name in levels), (language, word)


def test_russian_labels_for_a_player_do_not_assume_a_man() -> None:
    masculine = re.compile(r"\b(отошёл|вышел|ходил)\b")
    found = [
        f"{key}: {value}"
        for key, value in messages("ru").items()
        if isinstance(value, str) and masculine.search(value)
    ]
    assert found == []


def test_russian_hints_avoid_search_jargon() -> None:
    text = json.dumps(messages("ru"), ensure_ascii=False)
    assert "посещени" not in text


def test_hungarian_reasons_read_as_hungarian() -> None:
    hu = messages("hu")
    assert not any(isinstance(value, str) and value.startswith("úton a") for value in hu.values())
    refusals = (I18N / "refusals.hu.json").read_text(encoding="utf-8")
    assert "Set:" not in refusals


def test_three_thirteen_takes_only_the_top_discard() -> None:
    for language in LANGUAGES:
        hu_or_any = messages(language)
        assert hu_or_any["action.take_top"] != hu_or_any["action.take"]
    assert "top" in messages("en")["action.take_top"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_turn_clock_writes_seconds_in_the_language(language: str) -> None:
    clock = messages(language)["table.clock_s"]
    assert "{seconds}" in clock
    if language != "en":
        assert not clock.endswith("}s")


RULE_PAGES = Path(rummykit.__file__).parent / "web" / "rules"


@pytest.mark.parametrize("page", sorted(p.name for p in RULE_PAGES.glob("*.html")))
def test_rule_pages_name_options_as_the_create_dialog_does(page: str) -> None:
    """Options by their labels, not their code names (``one_set_per_rank``, ``quick``)."""
    text = (RULE_PAGES / page).read_text(encoding="utf-8")
    assert "<code>" not in text


@pytest.mark.parametrize("language", ["hu", "ru"])
def test_rule_pages_write_cards_with_the_languages_rank_letters(language: str) -> None:
    """The cards on the page as the table draws them: B D K in Hungarian, the Cyrillic
    letters in Russian, not the Latin A J Q K."""
    symbols = json.loads((I18N / f"refusals.{language}.json").read_text(encoding="utf-8"))[
        "rank_symbols"
    ]
    for page in RULE_PAGES.glob(f"*.{language}.html"):
        text = page.read_text(encoding="utf-8")
        for rank in "AJQK":
            if symbols[rank] != rank:
                assert not re.search(rf"(?<!\w){rank}[♣♦♥♠]", text), (page.name, rank)
        assert re.search(rf"(?<!\w){symbols['K']}[♣♦♥♠]", text) or "three" in page.name
