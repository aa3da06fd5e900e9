"""Players of the app behind the test client: a guest's or a registered player's session,
and a table socket opened with it."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

PASSWORD = "correct-horse-battery"
"""The password of every registered test player."""


def guest(client: TestClient, name: str = "ann") -> dict[str, object]:
    """A guest session for ``name``, kept in the client's cookies; its answer."""
    response = client.post("/api/session", json={"nickname": name})
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def new_player(client: TestClient, name: str) -> str:
    """A new guest's session cookie (the client keeps no cookie of its own after)."""
    client.cookies.clear()
    response = client.post("/api/session", json={"nickname": name})
    assert response.status_code == 200
    cookie = str(response.cookies["rummykit_session"])
    client.cookies.clear()
    return cookie


def as_player(client: TestClient, cookie: str) -> TestClient:
    """``client`` with the session ``cookie`` and no other cookie."""
    client.cookies.clear()
    client.cookies.set("rummykit_session", cookie)
    return client


def connect(client: TestClient, path: str, cookie: str) -> Any:
    """A WebSocket to ``path`` with the session ``cookie``."""
    return client.websocket_connect(path, headers={"cookie": f"rummykit_session={cookie}"})


def registered(client: TestClient, name: str) -> tuple[str, str]:
    """A new registered player's session cookie and id."""
    client.cookies.clear()
    response = client.post("/api/register", json={"name": name, "password": PASSWORD})
    assert response.status_code == 200, response.text
    cookie = str(response.cookies["rummykit_session"])
    client.cookies.clear()
    return cookie, response.json()["player_id"]


def credentials(name: str, password: str = PASSWORD) -> dict[str, str]:
    """The body of ``POST /api/register`` or ``/api/login`` for ``name``."""
    return {"name": name, "password": password}
