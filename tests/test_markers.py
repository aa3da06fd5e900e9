"""The test markers: registered in pyproject.toml, set by tests/conftest.py, and the
lists of slow tests and of the longest browser tests name tests that exist."""

from __future__ import annotations

import ast
import functools
import tomllib
from pathlib import Path

import pytest

from tests.conftest import LONG_BROWSER_TESTS, SLOW, WEB_TESTS, is_slow, markers_of

ROOT = Path(__file__).resolve().parents[1]


def test_the_markers_are_registered() -> None:
    options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    ini = options["tool"]["pytest"]["ini_options"]
    assert "--strict-markers" in ini["addopts"]
    assert {line.split(":")[0] for line in ini["markers"]} == {"browser", "postgres", "slow"}


def test_browser_tests_are_those_under_tests_web_that_start_a_browser_or_server() -> None:
    page = WEB_TESTS / "test_play_burraco.py"
    node = "tests/web/test_play_burraco.py::test_x"
    started = ("new_page", "browser", "playwright", "live_server")
    assert markers_of(page, node, started, {}) == {"browser"}
    assert markers_of(page, node, ("live_server",), {}) == {"browser"}
    assert markers_of(page, node, ("pages", "whole_browser", "playwright"), {}) == {"browser"}
    words = WEB_TESTS / "test_words.py"
    assert markers_of(words, "tests/web/test_words.py::test_x", ("request",), {}) == set()
    engine = ROOT / "tests" / "burraco" / "test_turns.py"
    assert markers_of(engine, "tests/burraco/test_turns.py::test_x", ("browser",), {}) == set()


@pytest.mark.parametrize(
    ("fixtures", "params", "expected"),
    [
        (("postgres_schema", "tmp_path"), {}, {"postgres"}),
        (("request",), {"backend": "postgresql"}, {"postgres"}),
        (("request",), {"settings": "postgresql", "game": "burraco"}, {"postgres"}),
        (("request", "sqlite_url"), {"backend": "sqlite"}, set()),
        (("request",), {"count": 3}, set()),
    ],
)
def test_postgres_tests_are_those_that_use_it(
    fixtures: tuple[str, ...], params: dict[str, object], expected: set[str]
) -> None:
    path = ROOT / "tests" / "server" / "test_persistence.py"
    node_id = "tests/server/storage/test_persistence.py::test_x"
    assert markers_of(path, node_id, fixtures, params) == expected


def test_a_test_named_for_postgres_is_a_postgres_test() -> None:
    file = "tests/server/site/test_load_benchmark.py"
    node_id = f"{file}::test_the_load_benchmark_runs_on_postgresql"
    assert "postgres" in markers_of(ROOT / file, node_id, ("request",), {})
    other = "tests/server/test_postgres_notes.py"
    node_id = f"{other}::test_sqlite_only[burraco]"
    assert markers_of(ROOT / other, node_id, (), {}) == set()


def test_a_listed_test_is_slow_in_every_case() -> None:
    file = "tests/burraco/test_playouts.py"
    assert "test_random_playouts" in SLOW[file]
    assert "slow" in markers_of(ROOT / file, f"{file}::test_random_playouts[target]", (), {})
    assert "slow" not in markers_of(ROOT / file, f"{file}::test_random_playouts_x", (), {})
    assert is_slow("tests/conformance/test_games.py::test_burraco_conformance[3]")
    assert not is_slow("tests/test_markers.py::test_a_listed_test_is_slow_in_every_case")


LISTED_TESTS = [
    (file, name)
    for listed in (SLOW, LONG_BROWSER_TESTS)
    for file, names in listed.items()
    for name in names or ("",)
]


@functools.cache
def functions_of(file: str) -> frozenset[str]:
    """The names of the functions defined in ``file`` (read once)."""
    tree = ast.parse((ROOT / file).read_text(encoding="utf-8"))
    functions = ast.FunctionDef | ast.AsyncFunctionDef
    return frozenset(node.name for node in ast.walk(tree) if isinstance(node, functions))


@pytest.mark.parametrize(("file", "name"), LISTED_TESTS)
def test_every_listed_entry_names_a_test_that_exists(file: str, name: str) -> None:
    assert (ROOT / file).is_file(), file
    if name:
        assert name in functions_of(file)
