"""Write the browser client's type declarations (src/rummykit/web/js/protocol-types.d.ts).

The client is plain ES modules with JSDoc types, checked by ``tsc --checkJs`` (``npm run
check``).  What it reads from the server is typed here, from the sources the server and
the engine keep, never by hand:

- the table protocol: its JSON Schema, :func:`rummykit.server.protocol.messages.json_schema`
  (what ``/api/protocol/schema`` publishes);
- the lobby's HTTP API: the application's OpenAPI document (``/openapi.json``), every
  named body and, in ``ApiRoutes``, each route's request and answer;
- the observations and events inside ``state`` messages: the field tables of
  docs/observations.md (which tests/test_observation_docs.py holds to what real games
  emit), and each game's ``Rules`` dataclass for the ``rules`` object.

``python scripts/client_types.py`` rewrites the file; ``--check`` only compares and exits
with status 1 when the committed file is not what this script makes now
(tests/test_client_types.py runs the same comparison).  A schema construct, a documented
type or an object field this script does not know stops it with an error rather than
being typed loosely.  It writes nothing else and starts no server.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import sys
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, Final

from rummykit.games import burraco, three_thirteen
from rummykit.games.options import omitted_at_default
from rummykit.games.visibility import VERSION as OBSERVATION_VERSION
from rummykit.server.app import create_app
from rummykit.server.protocol import messages as protocol
from rummykit.server.settings import Settings
from rummykit.server.table.views import WATCHER_DROPPED

ROOT: Final = Path(__file__).resolve().parents[1]
OUTPUT: Final = ROOT / "src" / "rummykit" / "web" / "js" / "protocol-types.d.ts"
OBSERVATIONS_DOC: Final = ROOT / "docs" / "observations.md"

JsonSchema = Mapping[str, Any]


class SchemaError(ValueError):
    """A source this script cannot turn into a type without guessing."""


# ---------------------------------------------------------------------------------------
# Doc comments


def _rst_to_markdown(text: str) -> str:
    """Python docstring markup as a doc comment shows it: ``x`` and :data:`x` become `x`,
    and doctest examples (a paragraph that opens with ``>>>``) are left out."""
    text = re.sub(r":[a-z]+:`~?([^`]+)`", r"`\1`", text)
    paragraphs = re.split(r"\n\s*\n", text.replace("``", "`"))
    return "\n\n".join(p for p in paragraphs if not p.lstrip().startswith(">>>"))


def doc_comment(text: str | None, indent: str = "") -> list[str]:
    """``text`` as a ``/** ... */`` block (nothing for no text)."""
    if not text or not text.strip():
        return []
    lines = _rst_to_markdown(text.strip()).replace("*/", "*\\/").splitlines()
    if len(lines) == 1:
        return [f"{indent}/** {lines[0].strip()} */"]
    return [f"{indent}/**", *(f"{indent} * {line}".rstrip() for line in lines), f"{indent} */"]


# ---------------------------------------------------------------------------------------
# JSON Schema (the subset pydantic writes) to TypeScript

_SCALARS: Final = {
    "string": "string",
    "integer": "number",
    "number": "number",
    "boolean": "boolean",
    "null": "null",
}
_KNOWN_KEYS: Final = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "anyOf",
        "oneOf",
        "discriminator",
        "const",
        "enum",
        "$ref",
        "title",
        "description",
        "default",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
        "pattern",
        "format",
    }
)
_CONSTRAINTS: Final = (
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "pattern",
)


def _literal(value: object) -> str:
    if isinstance(value, bool | int | str) or value is None:
        return json.dumps(value)
    raise SchemaError(f"no TypeScript literal for {value!r}")


def _union(parts: list[str]) -> str:
    unique = list(dict.fromkeys(parts))
    return " | ".join(f"({part})" if "=>" in part else part for part in unique)


def _array(item: str) -> str:
    return f"({item})[]" if " " in item else f"{item}[]"


class SchemaTranslator:
    """Turns JSON Schema nodes into TypeScript type expressions; ``$ref`` names stay names.

    ``ref_name`` maps a ``$ref`` to the name the file declares for it.
    """

    def __init__(self, ref_name: Callable[[str], str]) -> None:
        self.ref_name = ref_name

    def type_of(self, node: JsonSchema) -> str:
        unknown = set(node) - _KNOWN_KEYS
        if unknown:
            raise SchemaError(f"unknown JSON Schema keywords {sorted(unknown)} in {node}")
        if "$ref" in node:
            return self.ref_name(node["$ref"])
        if "const" in node:
            return _literal(node["const"])
        if "enum" in node:
            return _union([_literal(value) for value in node["enum"]])
        for key in ("anyOf", "oneOf"):
            if key in node:
                return _union([self.type_of(part) for part in node[key]])
        kind = node.get("type")
        if kind is None:
            return "unknown"
        if isinstance(kind, list):
            return _union([self.type_of({**node, "type": one}) for one in kind])
        if kind in _SCALARS:
            return _SCALARS[kind]
        if kind == "array":
            return _array(self.type_of(node.get("items", {})))
        if kind == "object":
            return self.object_type(node)
        raise SchemaError(f"unknown JSON Schema type {kind!r}")

    def object_type(self, node: JsonSchema, indent: str = "") -> str:
        """An object node as an inline type (``{ ... }``, or a record type)."""
        properties = node.get("properties")
        extra = node.get("additionalProperties", True)
        if not properties:
            if extra is True or extra == {}:
                return "{ [key: string]: unknown }"
            if extra is False:
                return "Record<string, never>"
            return f"{{ [key: string]: {self.type_of(extra)} }}"
        if extra not in (True, False):
            raise SchemaError(f"properties with typed additionalProperties: {node}")
        return "{\n" + "\n".join(self.members(node, indent + "  ")) + f"\n{indent}}}"

    def members(self, node: JsonSchema, indent: str) -> Iterator[str]:
        """The lines declaring each property of an object node, with its doc comment."""
        required = set(node.get("required", ()))
        for name, field in node.get("properties", {}).items():
            notes = [field["description"]] if "description" in field else []
            limits = [f"{key} {field[key]}" for key in _CONSTRAINTS if key in field]
            if limits:
                notes.append(", ".join(limits))
            if "default" in field:
                notes.append(f"default {json.dumps(field['default'])}")
            yield from doc_comment("; ".join(notes), indent)
            optional = "" if name in required else "?"
            yield f"{indent}{name}{optional}: {self.type_of(field)};"


class Declarations:
    """The names the file declares so far: a model both the protocol and the API use
    (``ReasonPhrase``) is declared once, and two different types of one name stop it."""

    def __init__(self) -> None:
        self.declared: dict[str, list[str]] = {}

    def declare(self, name: str, node: JsonSchema, translator: SchemaTranslator) -> list[str]:
        """``export interface name`` for an object with properties, else ``export type``,
        then a blank line; nothing if ``name`` is already declared the same way."""
        lines = doc_comment(node.get("description"))
        if node.get("type") == "object" and node.get("properties"):
            lines.append(f"export interface {name} {{")
            lines.extend(translator.members(node, "  "))
            lines.append("}")
        else:
            lines.append(f"export type {name} = {translator.type_of(node)};")
        known = self.declared.setdefault(name, lines)
        if known != lines:
            raise SchemaError(f"two different types named {name}")
        return [] if known is not lines else [*lines, ""]


# ---------------------------------------------------------------------------------------
# The table protocol


def protocol_section(declarations: Declarations) -> list[str]:
    schema = protocol.json_schema()
    translator = SchemaTranslator(lambda ref: ref.removeprefix("#/$defs/"))
    lines = [
        "// ---------------------------------------------------------------------------------",
        "// The table protocol: rummykit.server.protocol.messages.json_schema()",
        "// (served at /api/protocol/schema)",
        "",
        "/** The protocol version these types describe (`PROTOCOL_VERSION`). */",
        f"export type ProtocolVersion = {schema['protocol_version']};",
        "",
    ]
    definitions: dict[str, JsonSchema] = {}
    for side in ("client", "server"):
        for name, node in schema[side].get("$defs", {}).items():
            if definitions.setdefault(name, node) != node:
                raise SchemaError(f"two different protocol types named {name}")
    for side, name, summary in (
        ("client", "ClientMessage", "What a client sends over the table's WebSocket."),
        ("server", "ServerMessage", "What the server sends over the table's WebSocket."),
    ):
        union = {key: value for key, value in schema[side].items() if key != "$defs"}
        lines += declarations.declare(name, {**union, "description": summary}, translator)
    for name in sorted(definitions):
        lines += declarations.declare(name, definitions[name], translator)
    return lines


# ---------------------------------------------------------------------------------------
# The lobby's HTTP API


def openapi_document() -> dict[str, Any]:
    """The server's OpenAPI document; building the app opens no database."""
    app = create_app(Settings(database_url="sqlite+aiosqlite:///:memory:"))
    document: dict[str, Any] = app.openapi()
    return document


def _json_schema_of(content: Mapping[str, Any] | None) -> JsonSchema | None:
    if not content:
        return None
    body: JsonSchema | None = content.get("content", {}).get("application/json", {}).get("schema")
    return body


def api_section(declarations: Declarations) -> list[str]:
    document = openapi_document()
    schemas: dict[str, JsonSchema] = document["components"]["schemas"]
    translator = SchemaTranslator(lambda ref: ref.removeprefix("#/components/schemas/"))
    lines = [
        "// ---------------------------------------------------------------------------------",
        "// The lobby's HTTP API: the server's OpenAPI document (/openapi.json)",
        "",
    ]
    for name in sorted(schemas):
        lines += declarations.declare(name, schemas[name], translator)
    lines += [
        "/**",
        ' * Each route ("METHOD /path", path parameters in braces): the JSON body it takes',
        " * (`undefined` for none) and the JSON it answers with status 200.",
        " */",
        "export interface ApiRoutes {",
    ]
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            request = _json_schema_of(operation.get("requestBody"))
            answer = _json_schema_of(operation.get("responses", {}).get("200"))
            lines += doc_comment(operation.get("summary"), "  ")
            lines += [
                f'  "{method.upper()} {path}": {{',
                f"    request: {'undefined' if request is None else translator.type_of(request)};",
                f"    response: {'unknown' if answer is None else translator.type_of(answer)};",
                "  };",
            ]
    lines += ["}", ""]
    return lines


# ---------------------------------------------------------------------------------------
# Rule options


def _python_type(annotation: object) -> str:
    if annotation is bool:
        return "boolean"
    if annotation is int or annotation is float:
        return "number"
    if annotation is str:
        return "string"
    if annotation is type(None):
        return "null"
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return _union([_literal(value) for value in typing.get_args(annotation)])
    if origin in (typing.Union, types.UnionType):
        return _union([_python_type(part) for part in typing.get_args(annotation)])
    raise SchemaError(f"no TypeScript type for the rule option type {annotation!r}")


def rules_declaration(name: str, rules_type: type, title: str) -> list[str]:
    """The JSON object ``rules_to_json`` writes for ``rules_type``: every option, one
    marked ``omit_default`` (``options.option``) optional, for it is left out at its
    default."""
    hints = typing.get_type_hints(rules_type)
    lines = [f"/** {title}'s rule options, as `rules_to_json` writes them (docs/engine.md). */"]
    lines.append(f"export interface {name} {{")
    for field in dataclasses.fields(rules_type):
        if omitted_at_default(field):
            lines.append(f"  /** default {json.dumps(field.default)}, left out at its default */")
            lines.append(f"  {field.name}?: {_python_type(hints[field.name])};")
            continue
        lines.append(f"  /** default {json.dumps(field.default)} */")
        lines.append(f"  {field.name}: {_python_type(hints[field.name])};")
    lines.append("}")
    return lines


# ---------------------------------------------------------------------------------------
# Observations and events: the tables of docs/observations.md

SHARED_HEADING: Final = "Both games: observation"
GAMES: Final = {"Burraco": "Burraco", "Three-Thirteen": "ThreeThirteen"}
RULES_TYPES: Final = {"Burraco": burraco.Rules, "Three-Thirteen": three_thirteen.Rules}
OBJECT_NAMES: Final = {
    "observation": "Observation",
    "`melds[]` entry": "TableMeld",
    "meld (in `melded` and `extended` events)": "Meld",
    "`discard_history[]` entry": "PileMove",
    "`hand_results[]` entry": "HandResult",
    "`breakdown[]` entry": "ScoreBreakdown",
    "`players[]` entry": "PlayerResult",
}
"""The type name of each table (after the game's name); events are named by their kind."""


@dataclasses.dataclass(frozen=True)
class Field:
    name: str
    kind: str
    meaning: str


def documented_tables(text: str) -> dict[str, list[Field]]:
    """Each ``### heading`` of the page that has a field table, with its rows in order."""
    tables: dict[str, list[Field]] = {}
    heading = None
    for line in text.splitlines():
        if line.startswith("### "):
            heading = line[4:].strip()
            continue
        match = re.match(r"\|\s*`([a-z_]+)`\s*\|(.*?[^\\])\|(.*)\|\s*$", line)
        if heading is not None and match:
            kind = match[2].replace("\\|", "|").strip()
            meaning = match[3].replace("\\|", "|").strip()
            tables.setdefault(heading, []).append(Field(match[1], kind, meaning))
    return tables


def _pascal(snake: str) -> str:
    return "".join(part.capitalize() for part in snake.split("_"))


def type_name(heading: str) -> str:
    """The declared name of the table under ``heading``."""
    for game, prefix in GAMES.items():
        if heading.startswith(f"{game} "):
            rest = heading.removeprefix(f"{game} ")
            event = re.fullmatch(r"event `([a-z_]+)`", rest)
            if event:
                return f"{prefix}{_pascal(event[1])}Event"
            if rest in OBJECT_NAMES:
                return prefix + OBJECT_NAMES[rest]
    raise SchemaError(f"docs/observations.md: no type name for the table {heading!r}")


def _split_alternatives(kind: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for index, char in enumerate(kind):
        depth += {"[": 1, "]": -1}.get(char, 0)
        if char == "|" and depth == 0:
            parts.append(kind[start:index].strip())
            start = index + 1
    parts.append(kind[start:].strip())
    return parts


class ObservationTypes:
    """The observation and event types of one game, from the page's tables."""

    def __init__(self, tables: dict[str, list[Field]], game: str) -> None:
        self.tables = tables
        self.game = game

    def headings(self) -> list[str]:
        return [heading for heading in self.tables if heading.startswith(f"{self.game} ")]

    def fields(self, heading: str) -> list[Field]:
        if heading == f"{self.game} observation":
            return [*self.tables[SHARED_HEADING], *self.tables[heading]]
        return self.tables[heading]

    def entry_heading(self, field: Field) -> str:
        """The table that describes the object (or list of objects) ``field`` holds."""
        named = re.search(r"`([a-z_]+)\[\]` entr", field.meaning)
        candidates = [f"{self.game} `{named[1]}[]` entry"] if named else []
        # "each a `meld` of the `melded` event": the table of that event's object
        shaped = re.search(r"each a `([a-z_]+)` of the", field.meaning)
        if shaped:
            candidates += [
                heading
                for heading in self.tables
                if heading.startswith(f"{self.game} {shaped[1]} (")
            ]
        candidates.append(f"{self.game} `{field.name}[]` entry")
        candidates += [
            heading for heading in self.tables if heading.startswith(f"{self.game} {field.name} (")
        ]
        for heading in candidates:
            if heading in self.tables:
                return heading
        raise SchemaError(f"docs/observations.md: no table for the {self.game} field {field}")

    def string_type(self, field: Field) -> str:
        """A string field: the quoted values its meaning lists, or those of the field it
        is "as in", else any string."""
        same = re.fullmatch(r"as in a `([a-z_]+)\[\]` entry", field.meaning)
        if same:
            heading = f"{self.game} `{same[1]}[]` entry"
            for other in self.fields(heading):
                if other.name == field.name:
                    return self.field_type(other)
        values = re.findall(r'`"([a-z_]+)"`', field.meaning)
        return _union([json.dumps(value) for value in values]) if values else "string"

    def field_type(self, field: Field) -> str:
        kind = field.kind.removesuffix(" per player").removesuffix(" per team")
        return self.documented_type(kind.strip(), field)

    def documented_type(self, kind: str, field: Field) -> str:
        alternatives = _split_alternatives(kind)
        if len(alternatives) > 1:
            return _union([self.documented_type(part, field) for part in alternatives])
        if kind.startswith("[") and kind.endswith("]"):
            return _array(self.documented_type(kind[1:-1].strip(), field))
        if kind == "object":
            if field.name == "rules":
                return f"{GAMES[self.game]}Rules"
            return type_name(self.entry_heading(field))
        if kind == "string":
            return self.string_type(field)
        simple = {"int": "number", "bool": "boolean", "null": "null", "card": "Card"}
        if kind == "player":
            return "Seat"
        if kind == "team":
            return "Team"
        if kind in simple:
            return simple[kind]
        raise SchemaError(f"docs/observations.md: unknown type {kind!r} of {field}")

    def declarations(self) -> list[str]:
        prefix = GAMES[self.game]
        lines = [*rules_declaration(f"{prefix}Rules", RULES_TYPES[self.game], self.game), ""]
        events = []
        for heading in self.headings():
            name = type_name(heading)
            if name.endswith("Event"):
                events.append(name)
            lines.append(f"/** docs/observations.md, {heading.replace('`', '')}. */")
            lines.append(f"export interface {name} {{")
            for field in self.fields(heading):
                meaning = field.meaning
                if field.kind.endswith(" per player"):
                    meaning = f"(per player) {meaning}"
                elif field.kind.endswith(" per team"):
                    meaning = f"(per team) {meaning}"
                lines += doc_comment(meaning, "  ")
                lines.append(f"  {field.name}: {self.field_type(field)};")
            lines += ["}", ""]
        lines += [
            f"/** Every {self.game} event, told apart by `event`. */",
            f"export type {prefix}Event = {' | '.join(events)};",
            "",
        ]
        return lines


def observation_section() -> list[str]:
    text = OBSERVATIONS_DOC.read_text(encoding="utf-8")
    if f'"version": {OBSERVATION_VERSION}' not in text:
        raise SchemaError("docs/observations.md does not describe the engine's version")
    tables = documented_tables(text)
    dropped = " | ".join(json.dumps(name) for name in WATCHER_DROPPED)
    watcher_fields = " and ".join(f"`{name}`" for name in WATCHER_DROPPED)
    lines = [
        "// ---------------------------------------------------------------------------------",
        "// Observations and events inside `state` messages: docs/observations.md",
        "",
        "/** The observation JSON version these types describe (`visibility.VERSION`). */",
        f"export type ObservationVersion = {OBSERVATION_VERSION};",
        "",
        '/** A card by face: rank `A 2 3 4 5 6 7 8 9 T J Q K` then suit `c d h s` ("Th"),',
        ' * or "Jk" for a joker. */',
        "export type Card = string;",
        "",
        "/** A seat number, from 0. */",
        "export type Seat = number;",
        "",
        "/** A Burraco team: a seat's number modulo 2 (with two players, the player). */",
        "export type Team = 0 | 1;",
        "",
    ]
    for game in GAMES:
        lines += ObservationTypes(tables, game).declarations()
    lines += [
        "/** One player's view of either game. */",
        "export type Observation = BurracoObservation | ThreeThirteenObservation;",
        "",
        "/** An event of either game. */",
        "export type GameEvent = BurracoEvent | ThreeThirteenEvent;",
        "",
        "/**",
        " * What a watcher is sent in place of an observation: the part every seat's",
        " * observation shares, with each field that differs between seats null",
        f" * (rummykit.server.table.views), {watcher_fields} always.",
        " */",
        f"export type WatcherObservation = DistributiveOmit<Observation, {dropped}> & {{",
        *(f"  {name}: null;" for name in WATCHER_DROPPED),
        "};",
        "",
        "/** `Omit` applied to each member of a union. */",
        "type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;",
        "",
        "/** A `state` message with its observation and events typed (the protocol carries",
        " * them as the engine wrote them; a watcher's as `WatcherObservation`). */",
        "export type GameStateMessage = Omit<StateMessage, 'observation' | 'events'> & {",
        "  observation: Observation | WatcherObservation;",
        "  events: GameEvent[];",
        "};",
        "",
        "/** A server message, a `state` message with its observation and events typed. */",
        "export type TableMessage = GameStateMessage | Exclude<ServerMessage, StateMessage>;",
    ]
    return lines


# ---------------------------------------------------------------------------------------


HEADER: Final = """\
// The types of everything the browser client reads from the server.
// Generated by scripts/client_types.py: do not edit by hand; run
// `python scripts/client_types.py` after changing the protocol, the lobby API, a game's
// rule options or docs/observations.md (tests/test_client_types.py fails until then).
// Types only: no module imports this file at run time; modules name its types in a
// JSDoc tag, `@import { Name } from "./protocol-types"`.
"""


def render() -> str:
    """The whole file as this script makes it now."""
    declarations = Declarations()
    lines = [
        HEADER,
        *protocol_section(declarations),
        *api_section(declarations),
        *observation_section(),
    ]
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--check", action="store_true", help="compare with the committed file, change nothing"
    )
    arguments = parser.parse_args(argv)
    text = render()
    if arguments.check:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
        if current != text:
            print(f"{OUTPUT} is out of date: run python scripts/client_types.py", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
