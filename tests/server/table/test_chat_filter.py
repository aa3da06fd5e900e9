# ruff: noqa: RUF001 (a word written in look-alike Cyrillic letters is the point)
"""The host's chat word filter: a listed word, in any language's list, is masked in the
line everyone receives and in the stored history, however it is written; other words,
and words that only contain a listed one, pass untouched."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.kit.apps import OpenClient
from tests.kit.factories import HUMAN, table_body
from tests.kit.players import connect, new_player
from tests.kit.sockets import next_of_type, next_state


def test_listed_words_are_masked_for_everyone_and_in_the_history(
    open_client: OpenClient,
) -> None:
    client: TestClient = open_client(
        chat_blocked_words={"en": ["fool"], "hu": ["bolond"], "ru": ["дурак"]}
    )
    ann, bob = new_player(client, "ann"), new_player(client, "bob")
    client.cookies.set("rummykit_session", ann)
    created = client.post("/api/tables", json=table_body("three-thirteen", HUMAN, HUMAN)).json()
    client.cookies.set("rummykit_session", bob)
    client.post(f"/api/tables/{created['table_id']}/join", json={})
    client.cookies.clear()
    with (
        connect(client, created["ws_url"], ann) as ws_ann,
        connect(client, created["ws_url"], bob) as ws_bob,
    ):
        next_state(ws_ann, lambda m: True)
        next_state(ws_bob, lambda m: True)
        ws_ann.send_json({"type": "chat", "text": "FОOL! bolond, Дурак — foolish fun"})
        heard = next_of_type(ws_bob, "chat")["text"]
        assert heard == "****! ******, ***** — foolish fun"
        assert next_of_type(ws_ann, "chat")["text"] == heard
    with connect(client, created["ws_url"], bob) as again:  # a reload: the history
        history = next_of_type(again, "chat_history")
        assert [line["text"] for line in history["messages"]] == [heard]
