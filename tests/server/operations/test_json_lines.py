"""The JSON lines a log collector reads: one object a line, a server event's table,
worker and fields as data, a traceback inside its line."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest

from rummykit.cli.serve_logs import levels
from rummykit.server.operations.events_log import LOGGER, current_worker, log_event, set_worker
from rummykit.server.operations.json_lines import JsonLines


@pytest.fixture
def lines() -> Iterator[io.StringIO]:
    """What the server's event logger writes, as JSON lines, while the test runs."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonLines())
    level, before = LOGGER.level, current_worker()
    LOGGER.addHandler(handler)
    LOGGER.setLevel(logging.INFO)
    yield stream
    LOGGER.removeHandler(handler)
    LOGGER.setLevel(level)
    set_worker(before)


def parsed(stream: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_an_event_is_one_object_with_its_table_worker_and_fields(lines: io.StringIO) -> None:
    set_worker("web1:42:abcd")
    log_event("00112233aabbccdd", "seat_taken", seat=1, player="p1", message="a field")
    log_event(None, "guest", player="p2")
    seated, guest = parsed(lines)
    assert seated["event"] == "seat_taken" and seated["table"] == "00112233aabbccdd"
    assert seated["worker"] == "web1:42:abcd" and seated["level"] == "INFO"
    assert (seated["seat"], seated["player"]) == (1, "p1")
    assert seated["message_"] == "a field"  # a field never hides the line's own names
    assert seated["time"].endswith("Z") and "message" not in seated
    assert guest["table"] is None and guest["player"] == "p2"


def test_an_events_own_worker_field_stands(lines: io.StringIO) -> None:
    set_worker(None)
    log_event("00112233aabbccdd", "taken_over", worker="web2:7:ffff")
    (line,) = parsed(lines)
    assert line["worker"] == "web2:7:ffff"


def test_other_lines_carry_their_message_and_a_traceback_stays_in_its_line(
    lines: io.StringIO,
) -> None:
    try:
        raise RuntimeError("boom\nsecond line")
    except RuntimeError:
        LOGGER.exception("the %s failed", "sweep")
    assert len(lines.getvalue().splitlines()) == 1
    (line,) = parsed(lines)
    assert line["message"] == "the sweep failed" and line["level"] == "ERROR"
    assert "RuntimeError: boom" in line["exception"] and "event" not in line


def test_levels_of_the_terminal_and_the_file() -> None:
    """Unset: warnings in the terminal, INFO kept; a level set is both; verbose is DEBUG."""
    assert levels(None, verbose=False) == (logging.WARNING, logging.INFO)
    assert levels("info", verbose=False) == (logging.INFO, logging.INFO)
    assert levels("INFO", verbose=True) == (logging.DEBUG, logging.DEBUG)
