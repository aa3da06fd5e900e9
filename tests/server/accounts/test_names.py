# ruff: noqa: RUF001, RUF003 (names in Cyrillic and Latin that look alike are the point)
"""Names people really have: a login name in any one script ("Борис", "Zoé"), refused
with the rule it breaks (its length, its characters, a mix of scripts), and never one
that looks like another player's name ("Вова" and "Boba"), on SQLite and PostgreSQL,
two registrations racing included.  A password shorter than 8 characters is refused
as such.  No name may pass for a computer player's, in any language the client speaks.
"""

from __future__ import annotations

import asyncio

import pytest
from pydantic_core import PydanticCustomError

from rummykit.server.bots.service import BotRunner
from rummykit.server.protocol.names import (
    computer_words,
    login_name,
    look_alike_key,
    reads_as_computer,
)
from rummykit.server.settings import Settings
from tests.kit.apps import client_at, error_code, serving
from tests.kit.passwords import FakeHashes
from tests.kit.players import credentials


@pytest.mark.parametrize(
    "name",
    ["Борис", "Zoé", "Åsa_92", "Łukasz", "Ελένη", "山田太郎", "やまだ", "José-María", "ann.b"],
)
def test_names_in_one_script_with_their_accents_are_names(name: str) -> None:
    assert login_name(name) == name


@pytest.mark.parametrize(
    ("name", "rule"),
    [
        ("Bоris", "scripts"),  # a Cyrillic о among Latin letters
        ("Вова_Boba", "scripts"),
        ("ab", "length"),
        ("x" * 33, "length"),
        ("ann smith", "characters"),
        ("ann<b>", "characters"),
        ("ann\u200b", "characters"),
        ("a\u202eevil", "characters"),
    ],
)
def test_a_refused_name_says_which_rule_it_breaks(name: str, rule: str) -> None:
    with pytest.raises(PydanticCustomError) as refused:
        login_name(name)
    assert refused.value.type == "bad_login_name"
    assert (refused.value.context or {})["rule"] == rule


def test_names_that_look_alike_share_a_key_and_others_do_not() -> None:
    alike = [("Вова", "Boba"), ("Boris", "B0RIS"), ("Zoé", "zoe"), ("ann.b", "ann-b"),
             ("Ili", "lll"), ("Рема", "Pema")]  # fmt: skip
    for first, second in alike:
        assert look_alike_key(first) == look_alike_key(second), (first, second)
    for first, second in [("Ann", "Anne"), ("Борис", "Boris"), ("Zoé", "Zoë_1")]:
        assert look_alike_key(first) != look_alike_key(second), (first, second)


def test_a_cyrillic_name_registers_and_logs_in_and_a_look_alike_is_refused(
    settings: Settings, bot_runner: BotRunner, hashes: FakeHashes
) -> None:
    async def run() -> None:
        async with (
            serving(settings, bot_runner) as app,
            client_at(app, "10.7.0.1") as vova,
            client_at(app, "10.7.0.2") as again,
            client_at(app, "10.7.0.3") as other,
        ):
            made = await vova.post("/api/register", json=credentials("Вова"))
            assert made.status_code == 200 and made.json()["name"] == "Вова"
            logged = await again.post("/api/login", json=credentials("вова"))
            assert logged.status_code == 200 and logged.json()["name"] == "Вова"

            copy = await other.post("/api/register", json=credentials("Boba"))
            assert copy.status_code == 409 and error_code(copy) == "name_confusable"
            assert copy.json()["error"]["params"] == {"name": "Boba", "like": "Вова"}
            same = await other.post("/api/register", json=credentials("ВОВА"))
            assert same.status_code == 409 and error_code(same) == "name_taken"

            # a guest may not pass for a registered player either
            guest = await other.post("/api/session", json={"nickname": "B0BA"})
            assert guest.status_code == 409 and error_code(guest) == "name_reserved"

            mixed = await other.post("/api/register", json=credentials("Bоris"))
            assert mixed.status_code == 422 and error_code(mixed) == "bad_login_name"
            assert mixed.json()["error"]["params"] == {"rule": "scripts", "field": "name"}
            short = await other.post("/api/register", json=credentials("Boris", "1234567"))
            assert short.status_code == 422 and error_code(short) == "bad_password"
            assert short.json()["error"]["params"]["min"] == 8

    asyncio.run(run())


def test_two_look_alike_names_registered_at_once_make_one_player(
    settings: Settings, bot_runner: BotRunner, hashes: FakeHashes
) -> None:
    async def run() -> None:
        async with serving(settings, bot_runner) as app:
            names = ["Вова", "Boba", "BOBA", "B0ba", "вова", "ВОВА"] * 3
            clients = [client_at(app, f"10.8.0.{i}") for i in range(len(names))]
            answers = await asyncio.gather(
                *(
                    c.post("/api/register", json=credentials(n))
                    for c, n in zip(clients, names, strict=True)
                )
            )
            for c in clients:
                await c.aclose()
            made = [a for a in answers if a.status_code == 200]
            assert len(made) == 1
            refused = {error_code(a) for a in answers if a.status_code != 200}
            assert refused <= {"name_taken", "name_confusable", "registration_throttled"}

    asyncio.run(run())


def test_the_computer_words_are_the_clients_in_every_language() -> None:
    assert computer_words() == {look_alike_key(w) for w in ("Computer", "Gép", "Компьютер")}


@pytest.mark.parametrize(
    "name",
    ["Computer 2 (Medium)", "COMPUTER", "Cоmputer 4", "2. gép (közepes)", "Gep", "Компьютер 3",
     "компьютер (сложный)", "Ｃｏｍｐｕｔｅｒ"],
)  # fmt: skip
def test_a_guest_may_not_pass_for_a_computer_player(
    settings: Settings, bot_runner: BotRunner, name: str
) -> None:
    async def run() -> None:
        async with serving(settings, bot_runner) as app, client_at(app, "10.9.0.1") as person:
            guest = await person.post("/api/session", json={"nickname": name})
            assert guest.status_code == 422 and error_code(guest) == "name_like_computer"
            assert (await person.get("/api/me")).status_code == 401  # no player was made

    asyncio.run(run())


@pytest.mark.parametrize("name", ["COMPUTER", "Gép_2", "Компьютер.3", "Ｃｏｍｐｕｔｅｒ"])
def test_a_login_name_may_not_pass_for_a_computer_player(
    settings: Settings, bot_runner: BotRunner, hashes: FakeHashes, name: str
) -> None:
    async def run() -> None:
        async with serving(settings, bot_runner) as app, client_at(app, "10.9.0.2") as person:
            made = await person.post("/api/register", json=credentials(name))
            assert made.status_code == 422 and error_code(made) == "name_like_computer"
            assert (await person.get("/api/me")).status_code == 401

    asyncio.run(run())


@pytest.mark.parametrize("name", ["Gépész", "Computerfan", "Ann", "Компьютерщик", "Comp 2"])
def test_a_name_with_the_word_inside_another_is_a_name(name: str) -> None:
    assert not reads_as_computer(name)
