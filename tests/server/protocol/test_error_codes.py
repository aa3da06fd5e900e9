"""The catalogue of the server's error codes (``rummykit.server.protocol.error_codes``) against the
server's source, docs/protocol.md and itself.

The source is read by :mod:`tests.server.protocol.error_code_sites`: a code named anywhere in the
server package but missing from the catalogue fails here, as does a literal HTTP status
or parameter set that disagrees with its entry.  (The client's translations of every
code are checked in tests/web/test_translations.py.)
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from rummykit.server.protocol.error_codes import ERROR_CODES, PLACEHOLDER, english, markdown_table
from rummykit.server.protocol.messages import ERROR_CODES as PROTOCOL_ERROR_CODES
from rummykit.server.protocol.messages import ProtocolError
from tests.server.protocol.error_code_sites import ErrorSite, UnreadableCode, error_sites
from tests.web.refusal_sites import refusal_sites

DOC = Path(__file__).resolve().parents[3] / "docs" / "protocol.md"
TABLE_START = "<!-- error codes: python -m rummykit.server.protocol.error_codes --markdown -->"
TABLE_END = "<!-- end of error codes -->"

SITES = error_sites()


# ---------------------------------------------------------------------------------------
# The source reader


SAMPLE = """
from pydantic import BaseModel

KIND = "gamma"
BUSY = {1: ("eta", "a message, not a code"), 2: ("theta", "another")}
KNOWN = frozenset({"iota"})


class ApiError(Exception):
    def __init__(self, status, code, message, params=None):
        self.code = code


class ErrorMessage(BaseModel):
    code: str
    params: dict = {}
    message: str


class Busy(Exception):
    code = "zeta"


def _error(connection, code, message, params=None):
    connection.send(ErrorMessage(code=code, message=message, params=params or {}))


def _throttled(code, retry_after):
    raise ApiError(429, code, "later", {"retry_after": retry_after})


def handler():
    raise ApiError(404, "alpha", "no such table", {"table_id": "x"})


def other(connection):
    _error(connection, "beta", "not now")
    _throttled("kappa", 3)


def third():
    raise ApiError(400, KIND, "m")


def fourth(status, kind, error):
    code = {404: "delta"}.get(status, "epsilon")
    reason, message = BUSY[kind]
    _error(None, reason, message)
    _error(None, error.code, "passed on")
    return {"code": code, "message": "m", "params": {"a": 1}}


def fifth(error):
    name = error.type
    return {"code": name if name in KNOWN else "lambda", "message": "m"}
"""


def _read(tmp_path: Path, source: str) -> list[ErrorSite]:
    root = tmp_path / "server"
    root.mkdir(exist_ok=True)
    (root / "sample.py").write_text(source, encoding="utf-8")
    return error_sites(root)


def test_the_reader_follows_helpers_tables_and_constants(tmp_path: Path) -> None:
    sites = {site.code: site for site in _read(tmp_path, SAMPLE)}
    assert set(sites) == {
        "alpha",
        "beta",
        "gamma",
        "delta",
        "epsilon",
        "zeta",
        "eta",
        "theta",
        "iota",
        "kappa",
        "lambda",
    }
    alpha = sites["alpha"]
    assert (alpha.via, alpha.status, alpha.params, alpha.transport) == (
        "ApiError",
        404,
        frozenset({"table_id"}),
        "http",
    )
    assert (sites["beta"].via, sites["beta"].params) == ("_error", frozenset())
    assert sites["beta"].transport == "websocket"  # _error passes its code to ErrorMessage
    assert (sites["kappa"].params, sites["kappa"].transport) == (None, "http")  # made inside
    assert sites["delta"].params == frozenset({"a"}) and sites["zeta"].via == "Busy"


@pytest.mark.parametrize(
    "line",
    [
        'raise ApiError(400, f"bad_{kind}", "m")',
        'raise ApiError(400, "bad_" + kind, "m")',
        "raise ApiError(400, kind.upper(), 'm')",
        "code = compute()\n    raise ApiError(400, code, 'm')",
    ],
)
def test_the_reader_refuses_a_code_it_cannot_read(tmp_path: Path, line: str) -> None:
    source = SAMPLE + f"\n\ndef computed(kind):\n    {line}\n"
    with pytest.raises(UnreadableCode, match=r"sample\.py:\d+"):
        _read(tmp_path, source)


def test_the_reader_finds_the_servers_own_places() -> None:
    vias = {site.via for site in SITES}
    assert {"ApiError", "TableError", "ProtocolError", "ErrorMessage", "dict"} <= vias
    codes = {site.code for site in SITES}
    assert {"no_session", "stale_state", "bad_json", "table_full", "http_error"} <= codes
    assert len(SITES) > 60
    assert not [site for site in SITES if site.where.startswith("server/protocol/error_codes.py")]


# ---------------------------------------------------------------------------------------
# The source against the catalogue


def test_every_code_the_server_names_is_in_the_catalogue() -> None:
    missing = sorted(
        {f"{site.code} ({site.where})" for site in SITES if site.code not in ERROR_CODES}
    )
    assert missing == [], "add these to rummykit.server.protocol.error_codes (and translate them)"


def test_statuses_in_the_source_are_the_catalogues() -> None:
    wrong = [
        (site.where, site.code, site.status, ERROR_CODES[site.code].status)
        for site in SITES
        if site.status is not None and site.code in ERROR_CODES
        if ERROR_CODES[site.code].status != site.status
    ]
    assert wrong == []


def test_params_in_the_source_are_the_catalogues() -> None:
    """Literal params name only catalogued parameters and carry every one a translation
    may use (those not marked optional)."""
    wrong = []
    for site in SITES:
        entry = ERROR_CODES.get(site.code)
        if entry is None or site.params is None:
            continue
        if not site.params <= entry.param_names or not entry.required_params <= site.params:
            wrong.append((site.where, site.code, sorted(site.params), sorted(entry.param_names)))
    assert wrong == []


def test_transports_in_the_source_are_the_catalogues() -> None:
    wrong = [
        (site.where, site.code, site.transport)
        for site in SITES
        if site.code in ERROR_CODES
        if (site.transport == "http" and not ERROR_CODES[site.code].http)
        or (site.transport == "websocket" and not ERROR_CODES[site.code].websocket)
    ]
    assert wrong == []


def test_table_errors_are_answered_with_the_catalogues_status() -> None:
    from rummykit.server.api.lobby import table_error
    from rummykit.server.protocol.refusals import TableError

    for code in sorted({site.code for site in SITES if site.via == "TableError"}):
        assert ERROR_CODES[code].status is not None, code
        assert table_error(TableError(code, "m")).status == ERROR_CODES[code].status, code


# ---------------------------------------------------------------------------------------
# The catalogue itself


def test_each_entry_is_well_formed() -> None:
    assert PROTOCOL_ERROR_CODES is ERROR_CODES
    for code, entry in ERROR_CODES.items():
        assert code == entry.code and re.fullmatch(r"[a-z]+(_[a-z]+)*", code), code
        assert entry.http or entry.websocket, code
        if entry.http and code != "http_error":
            assert entry.status is not None and 400 <= entry.status <= 599, code
        if not entry.http:
            assert entry.status is None, code
        names = [param.name for param in entry.params]
        assert len(names) == len(set(names)), code
        assert set(PLACEHOLDER.findall(entry.message)) <= entry.required_params, code
        assert entry.message == entry.message.strip() and not entry.message.endswith("."), code


def test_only_game_over_is_also_an_engine_refusal() -> None:
    """A client looks a socket error up among the engine's refusals first: a server code
    that is also an engine code shows the engine's text, so it must mean the same."""
    engine_codes = {site.code for site in refusal_sites()}
    assert set(ERROR_CODES) & engine_codes == {"game_over"}


def test_english_messages_fill_their_params() -> None:
    assert english("stale_state", {"state_number": 7, "sent": 5}) == (
        "the table is at state 7, not 5"
    )
    assert english("chat_rate") == (
        "too many chat messages (at most {per_minute} a minute); wait a little"
    )
    error = ProtocolError("message_too_large", params={"max_bytes": 4096})
    assert error.message == "the message is over 4096 bytes"
    assert error.to_message(3).model_dump()["params"] == {"max_bytes": 4096}
    with pytest.raises(KeyError):
        english("no_such_code")


# ---------------------------------------------------------------------------------------
# docs/protocol.md


def _documented_table() -> str:
    text = DOC.read_text(encoding="utf-8")
    assert text.count(TABLE_START) == 1 and text.count(TABLE_END) == 1
    start = text.index(TABLE_START) + len(TABLE_START)
    return text[start : text.index(TABLE_END)].strip("\n") + "\n"


def test_the_protocol_doc_table_is_the_catalogue() -> None:
    assert _documented_table() == markdown_table(), (
        "docs/protocol.md's error table is out of date: paste the output of"
        " `python -m rummykit.server.protocol.error_codes --markdown` between its markers"
    )


def test_the_command_prints_the_table() -> None:
    printed = subprocess.run(
        [sys.executable, "-m", "rummykit.server.protocol.error_codes", "--markdown"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert printed == markdown_table()
    rows = [line for line in printed.splitlines() if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == list(ERROR_CODES)
