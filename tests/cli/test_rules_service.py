"""The JSON Lines rules service: every op, its examples, and malformed lines."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from typing import Any

import pytest

from rummykit.cli import rules_service
from rummykit.cli.rules_service import answer, serve


def ask(request: dict[str, Any] | str) -> dict[str, Any]:
    line = request if isinstance(request, str) else json.dumps(request)
    return answer(line)


def test_burraco_meld_example() -> None:
    assert ask({"game": "burraco", "op": "meld", "cards": ["2h", "3h", "4h", "2c"]}) == {
        "ok": True,
        "valid": True,
        "kind": "run",
        "clean": False,
        "points": 50,
        "order": ["2h", "3h", "4h", "2c"],
    }


def test_burraco_illegal_meld_has_a_reason() -> None:
    reply = ask({"game": "burraco", "op": "meld", "cards": ["2c", "4h", "5h", "6h", "2d"]})
    assert reply["ok"] is True and reply["valid"] is False
    assert isinstance(reply["reason"], str) and reply["reason"]


def test_burraco_meld_set_and_natural_two() -> None:
    reply = ask({"game": "burraco", "op": "meld", "cards": ["Kc", "Kd", "Ks"]})
    assert reply["valid"] and reply["kind"] == "set" and reply["clean"] and reply["points"] == 30
    reply = ask({"game": "burraco", "op": "meld", "cards": ["2h", "4h", "5h", "6h", "2c"]})
    assert reply["valid"] and reply["order"] == ["2h", "2c", "4h", "5h", "6h"]
    assert not ask({"game": "burraco", "op": "meld", "cards": ["2s", "2h", "2d"]})["valid"]


def test_burraco_extend_example() -> None:
    reply = ask(
        {"game": "burraco", "op": "extend", "meld": ["7h", "8h", "9h", "2c"], "add": ["5h"]}
    )
    assert reply == {
        "ok": True,
        "valid": True,
        "kind": "run",
        "order": ["5h", "2c", "7h", "8h", "9h"],
        "clean": False,
        "points": 50,
    }


def test_burraco_extend_natural_two_turns_wild_and_back() -> None:
    meld = ["2d", "3d", "4d", "5d", "6d", "7d"]
    reply = ask({"game": "burraco", "op": "extend", "meld": meld, "add": ["9d"]})
    assert reply["valid"] and not reply["clean"]
    assert reply["order"] == ["3d", "4d", "5d", "6d", "7d", "2d", "9d"]
    reply = ask({"game": "burraco", "op": "extend", "meld": meld, "add": ["9d", "8d"]})
    assert reply["valid"] and reply["clean"]
    refused = ask({"game": "burraco", "op": "extend", "meld": meld, "add": ["Jd"]})
    assert refused["ok"] and not refused["valid"] and refused["reason"]


def test_burraco_extend_of_an_illegal_meld_is_an_error() -> None:
    reply = ask({"game": "burraco", "op": "extend", "meld": ["7h", "9c", "Kd"], "add": ["5h"]})
    assert reply["ok"] is False and "meld" in reply["error"]


def test_burraco_score_example() -> None:
    request = {
        "game": "burraco",
        "op": "score",
        "melds": [["3h", "4h", "5h", "6h", "7h", "8h", "9h"]],
        "hand": ["Qh"],
        "took_pozzetto": True,
        "closed": False,
    }
    reply = ask(request)
    assert reply["ok"] and reply["score"] == 235


def test_burraco_score_worked_example_of_the_rule_book() -> None:
    closer = {
        "game": "burraco",
        "op": "score",
        "melds": [
            ["3h", "4h", "5h", "6h", "7h", "8h", "9h"],
            ["Kc", "Kd", "Ks"],
            ["9s", "Ts", "Jk"],
        ],
        "hand": [],
        "took_pozzetto": True,
        "closed": True,
    }
    assert ask(closer)["score"] == 425
    other = {
        "game": "burraco",
        "op": "score",
        "melds": [["5c", "5d", "5s", "2h"], ["Ad", "2d", "3d", "4d", "5d", "6d", "7d"]],
        "hand": ["Qh", "Jk", "4c"],
        "took_pozzetto": True,
        "closed": False,
    }
    assert ask(other)["score"] == 250


def test_burraco_score_errors() -> None:
    closed_without_burraco = {
        "game": "burraco",
        "op": "score",
        "melds": [["Kc", "Kd", "Ks"]],
        "hand": [],
        "took_pozzetto": True,
        "closed": True,
    }
    assert ask(closed_without_burraco)["ok"] is False
    illegal_meld = dict(closed_without_burraco, melds=[["Kc", "Qd", "2s", "2h"]], closed=False)
    assert ask(illegal_meld)["ok"] is False
    not_bool = dict(closed_without_burraco, closed="no")
    assert ask(not_bool)["ok"] is False


def test_three_thirteen_meld_example() -> None:
    reply = ask({"game": "three-thirteen", "op": "meld", "round": 1, "cards": ["Ah", "2h", "3s"]})
    assert reply == {"ok": True, "valid": True, "kind": "run"}


def test_three_thirteen_meld_kinds_and_variants() -> None:
    def meld(cards: list[str], round_number: int, **variant: Any) -> dict[str, Any]:
        request: dict[str, Any] = {"game": "three-thirteen", "op": "meld", "round": round_number}
        request["cards"] = cards
        if variant:
            request["variant"] = variant
        return ask(request)

    assert meld(["5h", "5c", "8h"], 6)["kind"] == "set"
    assert meld(["Qh", "Kh", "Ah"], 1)["valid"] is False
    assert meld(["Qh", "Kh", "Ah"], 1, ace_high=True)["kind"] == "run"
    assert meld(["3c", "3d", "3h"], 1)["valid"] is False
    assert meld(["3c", "3d", "3h"], 1, wild_only_melds=True)["valid"] is True


def test_three_thirteen_arrange_example() -> None:
    reply = ask(
        {
            "game": "three-thirteen",
            "op": "arrange",
            "round": 6,
            "cards": ["Ah", "2h", "4h", "5h", "7h", "8h", "Th", "Tc"],
        }
    )
    assert reply["ok"] and reply["deadwood"] == 19
    melded = [card for meld in reply["melds"] for card in meld]
    assert sorted(melded + reply["unmelded"]) == sorted(
        ["Ah", "2h", "4h", "5h", "7h", "8h", "Th", "Tc"]
    )


def test_three_thirteen_two_deck_duplicates_are_accepted() -> None:
    reply = ask(
        {"game": "three-thirteen", "op": "arrange", "round": 1, "cards": ["7h", "7h", "7c"]}
    )
    assert reply["ok"] and reply["deadwood"] == 0
    one_deck = {
        "game": "three-thirteen",
        "op": "arrange",
        "round": 1,
        "cards": ["7h", "7h", "7c"],
        "variant": {"players": 2},
    }
    assert ask(one_deck)["ok"] is False


MALFORMED = [
    "",
    "not json",
    "[1, 2]",
    "42",
    '{"game":"chess","op":"meld","cards":[]}',
    '{"op":"meld","cards":["2h"]}',
    '{"game":"burraco","op":"fly","cards":["2h"]}',
    '{"game":"burraco","cards":["2h"]}',
    '{"game":"burraco","op":"meld"}',
    '{"game":"burraco","op":"meld","cards":"2h 3h 4h"}',
    '{"game":"burraco","op":"meld","cards":["2h","3h","1h"]}',
    '{"game":"burraco","op":"meld","cards":[2,3,4]}',
    '{"game":"burraco","op":"meld","cards":["7h","7h","7h"]}',
    '{"game":"burraco","op":"meld","cards":["Jk","Jk","Jk","7h"]}',
    '{"game":"burraco","op":"meld","cards":["2h","3h","4h"],"variant":{"jokers":3}}',
    '{"game":"burraco","op":"meld","cards":["2h","3h","4h"],"variant":{"colour":"red"}}',
    '{"game":"burraco","op":"meld","cards":["2h","3h","4h"],"variant":[]}',
    '{"game":"burraco","op":"extend","meld":["7h","8h","9h"],"add":[]}',
    '{"game":"burraco","op":"score","melds":"none","hand":[],"took_pozzetto":true,"closed":false}',
    '{"game":"three-thirteen","op":"meld","round":0,"cards":["Ah","2h","3h"]}',
    '{"game":"three-thirteen","op":"meld","round":"6","cards":["Ah","2h","3h"]}',
    '{"game":"three-thirteen","op":"meld","round":true,"cards":["Ah","2h","3h"]}',
    '{"game":"three-thirteen","op":"arrange","round":6}',
    '{"game":"three-thirteen","op":"arrange","round":6,"cards":["Jk","Ah","2h"]}',
    '{"game":"three-thirteen","op":"score","round":6,"cards":[]}',
    '{"game":"three-thirteen","op":"arrange","round":11,"cards":'
    + json.dumps(["Ah", "2h", "3h", "4h", "5h", "6h", "7h", "8h", "9h", "Th", "Jh", "Qh", "Kh"] * 2)
    + "}",
    "[" * 100_000 + "]" * 100_000,
    '{"game":"burraco","op":"meld","cards":["2h","3h","4h"]',
]


@pytest.mark.parametrize("line", MALFORMED)
def test_malformed_lines_get_a_typed_error(line: str) -> None:
    reply = answer(line)
    assert reply["ok"] is False
    assert isinstance(reply["error"], str) and reply["error"]
    assert "internal error" not in reply["error"]


def test_service_answers_every_line_in_order() -> None:
    requests = [
        json.dumps({"game": "burraco", "op": "meld", "cards": ["Kc", "Kd", "Ks"]}),
        "garbage",
        json.dumps(
            {"game": "three-thirteen", "op": "meld", "round": 1, "cards": ["Ah", "2h", "3s"]}
        ),
    ]
    sink = io.StringIO()
    serve(io.BytesIO(("\n".join(requests) + "\n").encode()), sink)
    answers = [json.loads(line) for line in sink.getvalue().splitlines()]
    assert [a["ok"] for a in answers] == [True, False, True]
    assert answers[0]["kind"] == "set" and answers[2]["kind"] == "run"


def test_the_command_runs_as_a_process() -> None:
    lines = (
        "not json\n"
        + json.dumps({"game": "burraco", "op": "meld", "cards": ["Kc", "Kd", "Ks"]})
        + "\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "rummykit", "rules"],
        input=lines,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a["ok"] for a in answers] == [False, True]
    assert "Traceback" not in done.stderr


def test_a_line_that_is_not_utf8_is_answered_and_the_rest_of_the_chunk_too() -> None:
    good = json.dumps({"game": "burraco", "op": "meld", "cards": ["Kc", "Kd", "Ks"]}).encode()
    chunk = good + b"\n\xff\xfe\n" + good + b"\n"
    sink = io.StringIO()
    serve(io.BytesIO(chunk), sink)
    answers = [json.loads(line) for line in sink.getvalue().splitlines()]
    assert [a["ok"] for a in answers] == [True, False, True]
    assert "not UTF-8" in answers[1]["error"]


def test_not_utf8_under_strict_decoding_in_a_process() -> None:
    good = json.dumps({"game": "burraco", "op": "meld", "cards": ["Kc", "Kd", "Ks"]}).encode()
    done = subprocess.run(
        [sys.executable, "-m", "rummykit", "rules"],
        input=good + b"\n\xff\n" + good + b"\n",
        capture_output=True,
        timeout=60,
        check=False,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert [a["ok"] for a in answers] == [True, False, True]
    assert b"Traceback" not in done.stderr


def test_an_overlong_line_is_refused_without_losing_the_next(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(rules_service, "MAX_LINE", 100)
    good = json.dumps({"game": "burraco", "op": "meld", "cards": ["Kc", "Kd", "Ks"]}).encode()
    sink = io.StringIO()
    serve(io.BytesIO(b"[" * 350 + b"\n" + good + b"\n"), sink)
    answers = [json.loads(line) for line in sink.getvalue().splitlines()]
    assert answers[0] == {"ok": False, "error": "the request line is too long"}
    assert answers[1]["ok"] is True and len(answers) == 2


@pytest.mark.parametrize(
    "line",
    [
        '{"game":"three-thirteen","op":"arrange","round":' + "9" * 5000 + ',"cards":["Ah"]}',
        '{"game":"burraco","op":"meld","cards":["Kc","Kd","Ks"],"x":-' + "1" * 4400 + "}",
    ],
)
def test_numbers_past_the_digit_limit_get_a_plain_error(line: str) -> None:
    reply = answer(line)
    assert reply["ok"] is False
    assert "too many digits" in reply["error"]
