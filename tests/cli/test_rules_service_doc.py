"""docs/rules-service.md: every example runs as written and every op is documented."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rummykit.cli.rules_service import HANDLERS, answer

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules-service.md"


def examples() -> list[tuple[str, str]]:
    """The ``> request`` / ``< answer`` pairs of the document, in order."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    pairs = []
    for number, line in enumerate(lines):
        if line.startswith("> "):
            assert lines[number + 1].startswith("< "), f"line {number + 2} must be an answer"
            pairs.append((line[2:], lines[number + 1][2:]))
    return pairs


@pytest.mark.parametrize(("request_line", "expected"), examples())
def test_each_documented_example_gives_the_documented_answer(
    request_line: str, expected: str
) -> None:
    assert answer(request_line) == json.loads(expected)


def test_the_examples_run_through_the_command_as_written() -> None:
    pairs = examples()
    done = subprocess.run(
        [sys.executable, "-m", "rummykit", "rules"],
        input="".join(request + "\n" for request, _ in pairs),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert done.stdout.splitlines() == [expected for _, expected in pairs]


def test_every_op_has_a_section_and_examples() -> None:
    text = DOC.read_text(encoding="utf-8")
    requests = [json.loads(request) for request, _ in examples() if request.startswith("{")]
    for game, ops in HANDLERS.items():
        for op in ops:
            assert re.search(rf"^### `{op}`", text, re.MULTILINE), (game, op)
            assert any(r.get("game") == game and r.get("op") == op for r in requests), (game, op)
    assert any(r.get("variant") for r in requests)


def test_the_readme_links_the_document() -> None:
    readme = (DOC.parents[1] / "README.md").read_text(encoding="utf-8")
    assert "docs/rules-service.md" in readme
