"""The register form for names people really have, in each language: it states the rules
for names and passwords, a refused name is told which rule it breaks (letters of two
alphabets, a look-alike of another player's name) in the player's language, and a name
in Cyrillic is a name."""

from __future__ import annotations

import secrets

import pytest

from tests.web.catalogs import MESSAGES
from tests.web.conftest import MakePage
from tests.web.driver import Player
from tests.web.scenes import PASSWORD


def _register(player: Player, name: str) -> None:
    form = player.page.locator("form.identity")
    form.get_by_role("tab").nth(2).click()
    player.page.fill("input[name=nickname]", name)
    player.page.fill("input[name=password]", PASSWORD)
    player.page.click("form.identity button[type=submit]")


@pytest.mark.parametrize("language", ["en", "hu", "ru"])
def test_the_register_form_states_its_rules_and_names_the_one_broken(
    new_page: MakePage, language: str
) -> None:
    words = MESSAGES[language]
    tag = str(secrets.randbelow(10**6))
    vova, look_alike = f"Вова{tag}", f"Boba{tag}"
    me = new_page(language=language)
    me.goto("/")
    me.page.locator("form.identity").get_by_role("tab").nth(2).click()
    assert me.page.locator("#name-rules").inner_text() == words["lobby.name_rules"]
    assert me.page.get_attribute("input[name=password]", "minlength") == "8"

    # a Latin B and Cyrillic letters after it: two alphabets in one name
    _register(me, f"Bорис{tag}")  # noqa: RUF001 - the point of it
    alert = me.page.locator("form.identity [role=alert]")
    alert.wait_for()
    assert alert.inner_text() == words["error.bad_login_name.scripts"]
    assert me.page.locator("[data-testid=me]").count() == 0

    # a name in one alphabet, Cyrillic, is a name
    me.page.fill("input[name=nickname]", vova)
    me.page.click("form.identity button[type=submit]")
    me.page.wait_for_selector("[data-testid=me]")
    assert vova in me.page.locator("[data-testid=me]").inner_text()

    # another player may not take a name that reads the same in Latin letters
    other = new_page(language=language)
    other.goto("/")
    _register(other, look_alike)
    refused = other.page.locator("form.identity [role=alert]")
    refused.wait_for()
    expected = words["error.name_confusable"].replace("{name}", look_alike).replace("{like}", vova)
    assert refused.inner_text() == expected
    assert not me.errors and not other.errors, (me.errors, other.errors)
