"""The browser client's type declarations are what scripts/client_types.py makes now.

``src/rummykit/web/js/protocol-types.d.ts`` is generated from the protocol's JSON
Schema, the lobby's OpenAPI document, docs/observations.md and the games' rule options;
``tsc --checkJs`` (``npm run check``) holds the client to it.  A change to any of those
sources without running the script fails here, so the declarations cannot drift from
what the server sends.  The translation itself is checked on small inputs: what it
cannot type stops it.
"""

from __future__ import annotations

import importlib.util
import re
import sys
import typing
from pathlib import Path
from types import ModuleType

import pytest

from rummykit.games.burraco import events as burraco_events
from rummykit.games.three_thirteen import events as three_thirteen_events
from rummykit.server.protocol.messages import CLIENT_TYPES

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "client_types.py"


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("client_types", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


client_types = load_script()


@pytest.fixture(scope="module")
def rendered() -> str:
    text: str = client_types.render()
    return text


def test_the_committed_declarations_are_what_the_script_makes_now(rendered: str) -> None:
    committed = client_types.OUTPUT.read_text(encoding="utf-8")
    assert committed == rendered, (
        "src/rummykit/web/js/protocol-types.d.ts is out of date: run python scripts/client_types.py"
    )


def test_the_check_option_reports_a_stale_file(tmp_path: Path, monkeypatch) -> None:
    stale = tmp_path / "protocol-types.d.ts"
    stale.write_text("// an old version\n", encoding="utf-8")
    monkeypatch.setattr(client_types, "OUTPUT", stale)
    assert client_types.main(["--check"]) == 1
    assert client_types.main([]) == 0
    assert client_types.main(["--check"]) == 0


def declared_names(text: str) -> set[str]:
    return set(re.findall(r"^export (?:interface|type) (\w+)", text, flags=re.MULTILINE))


def test_every_message_and_every_event_kind_is_declared(rendered: str) -> None:
    names = declared_names(rendered)
    for kind in CLIENT_TYPES:
        assert f'type?: "{kind}";' in rendered
    for name in ("StateMessage", "ErrorMessage", "GameOverMessage", "HintMessage", "TableMessage"):
        assert name in names
    for game, module in (("Burraco", burraco_events), ("ThreeThirteen", three_thirteen_events)):
        for event_class in typing.get_args(module.Event):
            kind = event_class.__name__
            pascal = re.sub(r"(?<!^)(?=[A-Z])", "_", kind).lower()
            assert f"{game}{client_types._pascal(pascal)}Event" in names, kind


def test_every_api_route_with_a_model_has_its_answer_typed(rendered: str) -> None:
    routes = rendered.split("export interface ApiRoutes {", 1)[1]
    assert '"GET /api/games/catalog": {\n    request: undefined;\n    response: Catalog;' in routes
    assert '"POST /api/tables": {\n    request: CreateTable;\n    response: TableCreated;' in routes
    assert '"GET /api/tables": {\n    request: undefined;\n    response: TableSummary[];' in routes


def test_documented_strings_with_listed_values_become_literal_unions(rendered: str) -> None:
    assert 'phase: "draw" | "play" | "discard" | "over";' in rendered
    assert 'reason: "closed" | "stock_exhausted" | "stalemate";' in rendered
    assert 'mode: "quick" | "target";' in rendered  # from burraco.Rules' Literal


SCHEMAS = [
    ({"type": "integer"}, "number"),
    ({"anyOf": [{"type": "string"}, {"type": "null"}]}, "string | null"),
    ({"enum": ["a", "b"], "type": "string"}, '"a" | "b"'),
    (
        {"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "integer"}]}},
        "(string | number)[]",
    ),
    ({"type": "object", "additionalProperties": {"type": "boolean"}}, "{ [key: string]: boolean }"),
    ({"$ref": "#/$defs/Thing"}, "Thing"),
    ({}, "unknown"),
]


@pytest.mark.parametrize(("schema", "expected"), SCHEMAS)
def test_json_schema_nodes_become_typescript_types(schema, expected: str) -> None:
    translator = client_types.SchemaTranslator(lambda ref: ref.rsplit("/", 1)[1])
    assert translator.type_of(schema) == expected


def test_an_object_with_properties_marks_what_it_may_omit() -> None:
    translator = client_types.SchemaTranslator(lambda ref: ref)
    node = {
        "type": "object",
        "properties": {"seat": {"type": "integer", "minimum": 0}, "name": {"type": "string"}},
        "required": ["seat"],
    }
    lines = client_types.Declarations().declare("Seat", node, translator)
    assert lines == [
        "export interface Seat {",
        "  /** minimum 0 */",
        "  seat: number;",
        "  name?: string;",
        "}",
        "",
    ]


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "patternProperties": {"^x": {"type": "string"}}},
        {"type": "tuple"},
        {"const": 1.5},
    ],
)
def test_what_the_translation_does_not_know_stops_it(schema) -> None:
    translator = client_types.SchemaTranslator(lambda ref: ref)
    with pytest.raises(client_types.SchemaError):
        translator.type_of(schema)


def test_one_name_for_two_different_types_stops_it() -> None:
    translator = client_types.SchemaTranslator(lambda ref: ref)
    declarations = client_types.Declarations()
    declarations.declare("A", {"type": "string"}, translator)
    assert declarations.declare("A", {"type": "string"}, translator) == []
    with pytest.raises(client_types.SchemaError):
        declarations.declare("A", {"type": "integer"}, translator)


PAGE = """
### Both games: observation

| field | type | meaning |
|---|---|---|
| `player` | player | whose view this is |
| `melds` | [object] | the melds (per game below) |

### Burraco observation

| field | type | meaning |
|---|---|---|
| `hands` | [[card] \\| null] per player | each hand; `null` except the viewer's own |
| `kind` | string | `"set"` or `"run"` |

### Burraco `melds[]` entry

| field | type | meaning |
|---|---|---|
| `cards` | [card] | the cards |
"""


def test_a_documented_table_becomes_an_interface() -> None:
    tables = client_types.documented_tables(PAGE)
    types = client_types.ObservationTypes(tables, "Burraco")
    fields = {field.name: types.field_type(field) for field in types.fields("Burraco observation")}
    assert fields == {
        "player": "Seat",
        "melds": "BurracoTableMeld[]",
        "hands": "(Card[] | null)[]",
        "kind": '"set" | "run"',
    }


def test_an_object_field_without_its_table_stops_it() -> None:
    tables = client_types.documented_tables(PAGE.replace("### Burraco `melds[]` entry", "### x"))
    types = client_types.ObservationTypes(tables, "Burraco")
    with pytest.raises(client_types.SchemaError):
        [types.field_type(field) for field in types.fields("Burraco observation")]


def test_an_unknown_documented_type_stops_it() -> None:
    tables = client_types.documented_tables(PAGE.replace("| [card] |", "| [suit] |"))
    types = client_types.ObservationTypes(tables, "Burraco")
    with pytest.raises(client_types.SchemaError):
        [types.field_type(field) for field in types.fields("Burraco `melds[]` entry")]
