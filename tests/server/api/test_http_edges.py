"""The server's HTTP edges against a hostile visitor: query numbers that are no numbers,
the documentation pages' script policy, and malformed HTTP answered by the server."""

from __future__ import annotations

import inspect
import json
import re
import socket
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from rummykit.cli import serve
from rummykit.server.accounts.malformed_http import SecuredH11Protocol, http_protocol
from rummykit.server.app import create_app
from rummykit.server.bots.service import BotRunner
from tests.kit.databases import make_settings, sqlite_url_in
from tests.kit.security import FIXED, directives
from tests.kit.threaded import ThreadedServer


@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "-inf", "1e309", "-1e309", "x"])
def test_a_lag_since_that_is_no_finite_number_is_a_typed_422(
    reading_client: TestClient, value: str
) -> None:
    client = reading_client  # reads only: one app for the module
    answer = client.get("/healthz", params={"lag_since": value})
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert error["code"] == "invalid_request" and "lag_since" in error["message"]


def test_a_finite_lag_since_is_answered(reading_client: TestClient) -> None:
    client = reading_client  # reads only: one app for the module
    figures = client.get("/healthz", params={"lag_since": "1e9"}).json()["loop_lag"]
    assert figures["since"] == 1e9 and "worst_since_ms" in figures


# -- malformed HTTP ------------------------------------------------------------------------


def _raw_answer(port: int, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send ``request`` as it is and read the answer until the server closes."""
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.settimeout(10)
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers, body


PROTOCOLS = {"h11": SecuredH11Protocol, "default": http_protocol()}


@pytest.fixture(scope="module", params=sorted(PROTOCOLS))
def served(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    bot_runner: BotRunner,
) -> Iterator[ThreadedServer]:
    """The app under uvicorn speaking each protocol, shared by the module's garbage: each
    request is answered on its own connection and the server must go on serving."""
    database = sqlite_url_in(tmp_path_factory.mktemp("malformed"))
    app = create_app(make_settings(database), runner=bot_runner)
    with ThreadedServer(app, http=PROTOCOLS[request.param]) as server:
        yield server


@pytest.mark.parametrize(
    "garbage",
    [
        b"\x00\x01\x02 not http at all\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header Without Colon\r\n\r\n",
        b"GET /\x7f HTTP/9.9\r\n\r\n",
    ],
)
def test_malformed_http_is_a_typed_400_with_the_security_headers(
    served: ThreadedServer, garbage: bytes
) -> None:
    status, headers, body = _raw_answer(served.port, garbage)
    assert status == 400
    for name, value in FIXED.items():
        assert headers[name] == value, (name, headers)
    policy = directives(headers["content-security-policy"])
    assert policy["default-src"] == ["'self'"] and policy["script-src"] == ["'self'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert json.loads(body)["error"]["code"] == "bad_request"
    # the server goes on serving
    good = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    assert _raw_answer(served.port, good)[0] == 200


def test_the_served_protocol_is_the_secured_one() -> None:
    """``rummykit serve`` runs uvicorn with :func:`http_protocol`: httptools' protocol
    (what uvicorn would pick) if it is installed, else h11's, each secured."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    chosen = http_protocol()
    assert issubclass(chosen, H11Protocol) or chosen.__name__ == "SecuredHttpToolsProtocol"
    source = inspect.getsource(serve)
    assert "http_protocol()," in source  # a base of the protocol given as http=


# -- the documentation pages ---------------------------------------------------------------


PAGES = ["/docs", "/redoc", "/docs/oauth2-redirect"]


@pytest.mark.parametrize("path", PAGES)
def test_the_documentation_pages_name_no_other_host(reading_client: TestClient, path: str) -> None:
    """Every file a page loads is the server's own, and its policy names no host: the
    page asks nothing of the network but the server."""
    client = reading_client  # reads only: one app for the module
    page = client.get(path)
    assert page.status_code == 200
    assert not re.search(r"\w+://|//[a-z]", page.text, re.IGNORECASE), path
    for source in re.findall(r'(?:src|href)="([^"]*)"', page.text):
        assert source.startswith("/") and not source.startswith("//"), source
    for directive, sources in directives(page.headers["content-security-policy"]).items():
        for source in sources:
            assert source in ("'self'", "'none'", "'unsafe-inline'", "data:", "blob:") or (
                source.startswith("'sha256-")
            ), (directive, source)


@pytest.mark.parametrize("path", PAGES[:2])
def test_the_documentation_viewers_are_served_from_the_package(
    reading_client: TestClient, path: str
) -> None:
    """The scripts, stylesheet and icon a page names are the files installed with the
    package, served whole with their types."""
    client = reading_client  # reads only: one app for the module
    loaded = re.findall(r'(?:src|href)="(/[^"]+)"', client.get(path).text)
    assert any(source.endswith(".js") for source in loaded), loaded
    web = resources.files("rummykit") / "web"
    for source in loaded:
        answer = client.get(source)
        assert answer.status_code == 200, source
        assert answer.content == (web / source.lstrip("/")).read_bytes(), source
        kind = {"js": "javascript", "css": "text/css", "svg": "image/svg+xml"}
        assert kind[source.rsplit(".", 1)[1]] in answer.headers["content-type"], source
    assert (web / "vendor" / "swagger-ui" / "LICENSE").is_file()
    assert (web / "vendor" / "redoc" / "LICENSE").is_file()


def test_the_documentation_pages_follow_the_root_path(
    tmp_path: Path, bot_runner: BotRunner
) -> None:
    """Behind a proxy that serves the site under a path, the pages load their files
    from under it."""
    app = create_app(make_settings(sqlite_url_in(tmp_path)), runner=bot_runner)
    with TestClient(app, root_path="/games") as client:
        page = client.get("/docs").text
    assert '"/games/vendor/swagger-ui/swagger-ui-bundle.js"' in page
    assert "'/games/openapi.json'" in page or '"/games/openapi.json"' in page
