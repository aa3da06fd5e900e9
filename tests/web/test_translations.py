"""The browser client's translations: refusal messages, the server's error codes and rule
pages in three languages.

The refusal files (``rummykit/web/i18n/refusals.<lang>.json``) must cover every refusal
code the engines can raise, each placeholder must name a parameter that the code really
carries, and the three languages must have the same keys.  Every code of the server's
error catalogue (``rummykit.server.protocol.error_codes``) must have its ``error.<code>`` message in
each language (``rummykit/web/i18n/<lang>.json``), using only parameters the code always
carries, the same ones in every language.  The rule pages
(``rummykit/web/rules/<game>.<lang>.html``) must exist for every game and language, be
well-formed, describe every option of the game's ``Rules`` and agree with the engine's
point tables.  ``render`` below is the lookup the client performs.
"""

from __future__ import annotations

import dataclasses
import glob
import json
import random
import re
import tomllib
from collections.abc import Iterator, Mapping
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

import rummykit
from rummykit.cards import BURRACO_POINTS, CARD_COUNT, DEADWOOD_POINTS, JOKER, RANKS, parse_card
from rummykit.games import burraco, three_thirteen
from rummykit.games.core import ParamValue, Refusal
from rummykit.games.registry import GAMES
from rummykit.games.three_thirteen.rules import hand_size, wild_rank
from rummykit.server.protocol.error_codes import ERROR_CODES
from tests.web.refusal_sites import RefusalSite, UnreadableRefusal, refusal_sites

PACKAGE = Path(rummykit.__file__).parent
I18N = PACKAGE / "web" / "i18n"
RULE_PAGES = PACKAGE / "web" / "rules"
LANGUAGES = ("en", "hu", "ru")
PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
CYRILLIC = re.compile("[\u0400-\u04ff]")

SITES = refusal_sites()
CODES = sorted({site.code for site in SITES})


def load_refusals(language: str) -> dict[str, Any]:
    data = json.loads((I18N / f"refusals.{language}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


FILES = {language: load_refusals(language) for language in LANGUAGES}


def template_for(entry: object, params: Mapping[str, object]) -> str:
    """The message of a refusal entry for these params: a string, or an object that
    picks a case by the value of the parameter named ``by`` (``other`` otherwise)."""
    if isinstance(entry, str):
        return entry
    assert isinstance(entry, dict)
    cases = entry["cases"]
    value = params.get(entry["by"])
    if isinstance(value, str) and value in cases:
        return str(cases[value])
    return str(entry["other"])


def render(language: str, refusal: Refusal) -> str:
    """The refusal in ``language``: placeholders replaced by the params (a list of
    cards joined by spaces), as the client does before drawing card names."""
    template = template_for(FILES[language]["refusals"][refusal.code], refusal.params)

    def value(match: re.Match[str]) -> str:
        param = refusal.params[match.group(1)]
        return " ".join(param) if isinstance(param, tuple) else str(param)

    return PLACEHOLDER.sub(value, template)


def entry_texts(entry: object) -> Iterator[tuple[str, str]]:
    """(case, text) for every text of an entry; a plain string is the case ``""``."""
    if isinstance(entry, str):
        yield "", entry
    else:
        assert isinstance(entry, dict)
        yield from entry["cases"].items()
        yield "other", entry["other"]


def key_paths(value: object, prefix: str = "") -> set[str]:
    if not isinstance(value, dict):
        return {prefix}
    paths = set()
    for key, inner in value.items():
        paths |= key_paths(inner, f"{prefix}/{key}")
    return paths


# ---------------------------------------------------------------------------------------
# Refusal messages against the engine's source


READER_SAMPLE = """
from rummykit.games.core import Refusal


def refusal(code, message, **params):
    return Refusal(code, params, message)


def named(card):
    return refusal("alpha", f"no {card}", card=card, reason="empty_hand")


def direct(player):
    return Refusal("beta", {"player": player}, "not now")
"""


def test_the_source_reader_follows_helpers_and_refuses_what_it_cannot_read(
    tmp_path: Path,
) -> None:
    root = tmp_path / "games"
    root.mkdir()
    (root / "sample.py").write_text(READER_SAMPLE, encoding="utf-8")
    found = {(site.code, tuple(sorted(site.params.items()))) for site in refusal_sites(root)}
    assert found == {
        ("alpha", (("card", None), ("reason", "empty_hand"))),
        ("beta", (("player", None),)),
    }
    (root / "computed.py").write_text(
        "from rummykit.games.core import Refusal\n\n"
        "def f(code):\n    return Refusal(code.upper(), {}, '')\n",
        encoding="utf-8",
    )
    with pytest.raises(UnreadableRefusal, match="not a string literal"):
        refusal_sites(root)


def test_the_source_reader_finds_both_engines_refusals() -> None:
    places = {site.where.split("/")[1].split(".py")[0] for site in SITES}
    assert places == {"burraco", "three_thirteen", "core"}
    assert {"wrong_phase", "card_not_in_hand", "illegal_meld", "cannot_go_out"} <= set(CODES)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_code_has_a_message(language: str) -> None:
    messages = FILES[language]["refusals"]
    missing = [code for code in CODES if code not in messages]
    unknown = [code for code in messages if code not in CODES]
    assert not missing, f"refusals.{language}.json lacks {missing}"
    assert not unknown, f"refusals.{language}.json has codes no engine raises: {unknown}"


def test_the_three_files_have_the_same_keys() -> None:
    english = key_paths(FILES["en"])
    for language in LANGUAGES[1:]:
        assert key_paths(FILES[language]) == english, language
        for code, entry in FILES["en"]["refusals"].items():
            if isinstance(entry, dict):
                assert FILES[language]["refusals"][code]["by"] == entry["by"], (language, code)


def _sites_for_case(
    sites: list[RefusalSite], by: str, case: str, cases: set[str]
) -> list[RefusalSite]:
    """The sites that can produce ``case`` of a case-picking entry (``other``: any value
    that is not one of ``cases``); a site with a computed value can produce any."""
    found = []
    for site in sites:
        value = site.params[by]
        if value is None or (value == case if case != "other" else value not in cases):
            found.append(site)
    return found


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("code", CODES)
def test_placeholders_name_params_the_code_carries(language: str, code: str) -> None:
    entry = FILES[language]["refusals"][code]
    sites = [site for site in SITES if site.code == code]
    if isinstance(entry, dict):
        assert set(entry) == {"by", "cases", "other"}, entry
        by = entry["by"]
        assert all(by in site.params for site in sites), f"{code} does not always carry {by}"
        literal = {site.params[by] for site in sites} - {None}
        assert literal <= set(entry["cases"]), (
            f"{code}: no case for {literal - set(entry['cases'])}"
        )
    for case, text in entry_texts(entry):
        assert isinstance(text, str) and text.strip(), (code, case)
        assert text.count("{") == text.count("}") == len(PLACEHOLDER.findall(text)), text
        producing = (
            sites if not case else _sites_for_case(sites, entry["by"], case, set(entry["cases"]))
        )
        if case and case != "other":
            assert producing, f"{code}: no refusal can have {entry['by']}={case!r}"
        for name in PLACEHOLDER.findall(text):
            lacking = [site.where for site in producing if name not in site.params]
            assert not lacking, (
                f"{language} {code} ({case or 'message'}) uses {{{name}}}; absent at {lacking}"
            )


@pytest.mark.parametrize("language", ["hu", "ru"])
def test_messages_are_translated(language: str) -> None:
    for code in CODES:
        english = dict(entry_texts(FILES["en"]["refusals"][code]))
        for case, text in entry_texts(FILES[language]["refusals"][code]):
            assert text != english[case], (language, code, case)
            if language == "ru":
                assert CYRILLIC.search(text), (code, case)


def test_card_and_action_words_cover_every_rank_and_suit() -> None:
    for language in LANGUAGES:
        data = FILES[language]
        assert set(data["ranks"]) == set(data["rank_symbols"]) == set(RANKS), language
        assert set(data["suits"]) == set("cdhs"), language
        assert all(isinstance(v, str) and v for v in data["ranks"].values())
        assert isinstance(data["joker"], str) and data["joker"]


# ---------------------------------------------------------------------------------------
# Refusals met in play


def _burraco_probes(state: burraco.State, rng: random.Random) -> Iterator[object]:
    yield burraco.DrawStock()
    yield burraco.TakePile()
    yield object()
    yield burraco.Discard(CARD_COUNT + 7)
    yield burraco.Meld(())
    yield burraco.Meld(("7h",))  # type: ignore[arg-type]
    for card in range(CARD_COUNT):
        yield burraco.Discard(card)
    observation = state.observation(state.current_player or 0)
    hand = list(observation.hand)
    for _ in range(25):
        size = rng.randint(1, min(len(hand), 8)) if hand else 1
        chosen = tuple(rng.sample(hand, size)) if hand else (JOKER,)
        yield burraco.Meld(chosen)
        yield burraco.Meld((*chosen, rng.randrange(CARD_COUNT)))
    for meld_id in range(len(observation.melds) + 2):
        for card in rng.sample(hand, min(len(hand), 4)):
            yield burraco.Extend(meld_id, (card,))
        yield burraco.Extend(meld_id, tuple(hand[:2]))


def _three_thirteen_probes(state: three_thirteen.State, rng: random.Random) -> Iterator[object]:
    yield three_thirteen.DrawStock()
    yield three_thirteen.TakeDiscard()
    yield object()
    yield three_thirteen.Discard(CARD_COUNT + 7)
    for card in range(CARD_COUNT):
        yield three_thirteen.Discard(card)
        yield three_thirteen.GoOut(card)


def _refusals_in_play(game: str, games: int, seed: int) -> list[Refusal]:
    """The distinct refusals met by probing many actions at every step of random games."""
    rng = random.Random(seed)
    found: dict[tuple[str, str], Refusal] = {}
    for number in range(games):
        if game == "burraco":
            state: Any = burraco.State.new(burraco.Rules(), seed=seed + number)
            probes: Any = _burraco_probes
        else:
            rules = three_thirteen.Rules(players=3, last_round=4)
            state = three_thirteen.State.new(rules, seed=seed + number)
            probes = _three_thirteen_probes
        for _ in range(400):
            actions = list(probes(state, rng))
            seats = range(state.num_players + 1)  # the last one is no seat at the table
            checks: list[tuple[object, int | None]] = [(action, None) for action in actions]
            checks += [(rng.choice(actions), seat) for seat in seats]
            for action, seat in checks:
                refusal = state.check(action, player=seat)
                if refusal is not None:
                    found[refusal.code, repr(sorted(refusal.params.items()))] = refusal
            if state.game_over:
                break
            state.apply(rng.choice(list(state.legal_actions())))
    return list(found.values())


@pytest.mark.parametrize("game", sorted(GAMES))
def test_refusals_met_in_play_are_known_and_render(game: str) -> None:
    refusals = _refusals_in_play(game, games=3, seed=20)
    codes = {refusal.code for refusal in refusals}
    assert len(codes) >= 6, codes
    for refusal in refusals:
        sites = [site for site in SITES if site.code == refusal.code]
        assert sites, f"{refusal.code} is raised in play but not found in the source"
        assert any(set(site.params) == set(refusal.params) for site in sites), refusal
        for language in LANGUAGES:
            entry = FILES[language]["refusals"][refusal.code]
            if isinstance(entry, dict):
                assert refusal.params[entry["by"]] in entry["cases"], (language, refusal)
            text = render(language, refusal)
            assert "{" not in text and "}" not in text, text


def test_render_fills_a_case_and_its_card() -> None:
    refusal = Refusal("no_way_to_end_turn", {"reason": "wild_left", "card": "2c"}, "")
    assert render("en", refusal) == (
        "That would leave you only 2c, and a wild card may not be the closing discard."
    )
    assert "2c" in render("hu", refusal) and "2c" in render("ru", refusal)
    unknown_reason: dict[str, ParamValue] = {"reason": "something_new"}
    assert (
        render("en", Refusal("no_way_to_end_turn", unknown_reason, ""))
        == (FILES["en"]["refusals"]["no_way_to_end_turn"]["other"])
    )


# ---------------------------------------------------------------------------------------
# The server's error codes

# Codes the client makes itself (no answer from the server at all).
CLIENT_CODES = {"network"}
COUNT_MEMBER = "count"  # in plural forms: the parameter that picks the form (js/i18n.js)


def load_messages(language: str) -> dict[str, Any]:
    data = json.loads((I18N / f"{language}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


MESSAGES = {language: load_messages(language) for language in LANGUAGES}


def plural_form(language: str, count: int) -> str:
    """The form ``Intl.PluralRules(language)`` picks for a whole number."""
    if language != "ru":
        return "one" if count == 1 else "other"
    if count % 10 == 1 and count % 100 != 11:
        return "one"
    if 2 <= count % 10 <= 4 and not 12 <= count % 100 <= 14:
        return "few"
    return "many"


def error_texts(entry: object) -> dict[str, str]:
    """The texts of an ``error.<code>`` message by plural form (``""`` for a plain one)."""
    if isinstance(entry, str):
        return {"": entry}
    assert isinstance(entry, dict), entry
    return {form: str(text) for form, text in entry.items() if form != COUNT_MEMBER}


def render_error(language: str, code: str, params: Mapping[str, object]) -> str:
    """An error in ``language`` as the client's errorText says it."""
    entry = MESSAGES[language][f"error.{code}"]
    if isinstance(entry, dict):
        count = params[entry.get(COUNT_MEMBER, "count")]
        assert isinstance(count, int)
        entry = entry[plural_form(language, count)]
    return PLACEHOLDER.sub(lambda match: str(params[match.group(1)]), str(entry))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_server_error_code_has_a_message(language: str) -> None:
    keys = {key.removeprefix("error.") for key in MESSAGES[language] if key.startswith("error.")}
    assert sorted(set(ERROR_CODES) - keys) == [], f"{language}.json lacks these error codes"
    # ``error.<code>.<rule>``: the words of one rule a refusal names (``params.rule``)
    variants = {key for key in keys if key.partition(".")[0] in ERROR_CODES and "." in key}
    assert sorted(keys - set(ERROR_CODES) - CLIENT_CODES - variants) == [], (
        "no server code is named so"
    )


@pytest.mark.parametrize("code", sorted(ERROR_CODES))
def test_error_messages_use_the_codes_params_alike_in_every_language(code: str) -> None:
    entry = ERROR_CODES[code]
    used = {}
    for language in LANGUAGES:
        message = MESSAGES[language][f"error.{code}"]
        names = {
            name for text in error_texts(message).values() for name in PLACEHOLDER.findall(text)
        }
        assert names <= entry.required_params, (language, code, names - entry.required_params)
        for form, text in error_texts(message).items():
            assert text.strip() and text.count("{") == text.count("}"), (language, code, form)
        if isinstance(message, dict):
            counted = message.get(COUNT_MEMBER, "count")
            kinds = {param.name: param.type for param in entry.params}
            assert kinds.get(counted) == "integer", (language, code, counted)
            assert counted in entry.required_params, (language, code, counted)
        used[language] = names
    assert used["hu"] == used["en"] and used["ru"] == used["en"], used


@pytest.mark.parametrize("language", ["hu", "ru"])
def test_error_messages_are_translated(language: str) -> None:
    for code in [*ERROR_CODES, *CLIENT_CODES]:
        english = set(error_texts(MESSAGES["en"][f"error.{code}"]).values())
        for text in error_texts(MESSAGES[language][f"error.{code}"]).values():
            assert text not in english, (language, code)
            if language == "ru":
                assert CYRILLIC.search(text), code


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("number", [1, 2, 5, 11, 21, 22, 25, 4096])
def test_error_messages_render_with_every_number(language: str, number: int) -> None:
    for code, entry in ERROR_CODES.items():
        params = {
            param.name: number if param.type == "integer" else "ann" for param in entry.params
        }
        text = render_error(language, code, params)
        assert "{" not in text and "}" not in text, (language, code, text)


def test_russian_counts_take_their_noun_forms() -> None:
    assert render_error("ru", "login_throttled", {"retry_after": 21}).endswith("21 секунду.")
    assert render_error("ru", "login_throttled", {"retry_after": 3}).endswith("3 секунды.")
    assert render_error("ru", "login_throttled", {"retry_after": 12}).endswith("12 секунд.")
    assert "4096 байт)" in render_error("ru", "message_too_large", {"max_bytes": 4096})
    assert render_error("en", "login_throttled", {"retry_after": 1}).endswith("1 second.")
    assert render_error("hu", "login_throttled", {"retry_after": 30}) == (
        "Túl sok sikertelen belépési kísérlet. Próbáld újra 30 másodperc múlva."
    )


# ---------------------------------------------------------------------------------------
# Rule pages

VOID_ELEMENTS = frozenset(
    {
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "source",
        "track",
        "wbr",
    }
)
FORBIDDEN_ELEMENTS = frozenset({"script", "style", "iframe", "object", "embed", "link", "meta"})


@dataclasses.dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    text: str = ""


class PageReader(HTMLParser):
    """Checks that a fragment is well-formed (every element closed in order, one root)
    and keeps its elements with their text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[Element] = []
        self.elements: list[Element] = []
        self.roots: list[Element] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {name: value or "" for name, value in attrs})
        self.elements.append(element)
        if not self.open:
            self.roots.append(element)
        if tag not in VOID_ELEMENTS:
            self.open.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in VOID_ELEMENTS:
            self.problems.append(f"<{tag}/> is not a void element")
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID_ELEMENTS:
            self.problems.append(f"</{tag}> closes a void element")
        elif not self.open or self.open[-1].tag != tag:
            expected = self.open[-1].tag if self.open else "nothing"
            self.problems.append(f"</{tag}> at line {self.getpos()[0]}, expected </{expected}>")
        else:
            self.open.pop()

    def handle_data(self, data: str) -> None:
        if not self.open and data.strip():
            self.problems.append(f"text outside the root: {data.strip()[:40]!r}")
        for element in self.open:
            element.text += data


def read_page(game: str, language: str) -> PageReader:
    path = RULE_PAGES / f"{game}.{language}.html"
    assert path.is_file(), f"missing rule page {path.name}"
    reader = PageReader()
    reader.feed(path.read_text(encoding="utf-8"))
    reader.close()
    if reader.open:
        reader.problems.append(f"unclosed <{reader.open[-1].tag}>")
    return reader


PAGES = [(game, language) for game in sorted(GAMES) for language in LANGUAGES]


@pytest.mark.parametrize(("game", "language"), PAGES)
def test_rule_page_is_a_well_formed_fragment(game: str, language: str) -> None:
    page = read_page(game, language)
    assert not page.problems, page.problems
    assert len(page.roots) == 1
    root = page.roots[0]
    assert (root.tag, root.attrs.get("lang"), root.attrs.get("data-game")) == (
        "article",
        language,
        game,
    )
    assert [e.tag for e in page.elements].count("h1") == 1
    assert [e.tag for e in page.elements].count("h2") >= 6
    for element in page.elements:
        assert element.tag not in FORBIDDEN_ELEMENTS, element.tag
        for name, value in element.attrs.items():
            assert not name.startswith("on"), name
            assert name not in ("src", "href") or value.startswith("#"), (name, value)


@pytest.mark.parametrize(("game", "language"), PAGES)
def test_rule_page_describes_every_rules_option(game: str, language: str) -> None:
    options = {
        e.attrs["data-option"]
        for e in read_page(game, language).elements
        if "data-option" in e.attrs
    }
    fields = {field.name for field in dataclasses.fields(GAMES[game].rules_type)}
    assert fields <= options, f"not described: {fields - options}"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_rule_pages_have_the_same_sections_in_every_language(game: str) -> None:
    shapes = {}
    for language in LANGUAGES:
        elements = read_page(game, language).elements
        headings = [e.text.strip() for e in elements if e.tag == "h2"]
        options = [e.attrs["data-option"] for e in elements if "data-option" in e.attrs]
        shapes[language] = (len(headings), options)
        if language == "ru":
            assert all(CYRILLIC.search(h) for h in headings), headings
    assert shapes["hu"] == shapes["ru"] == shapes["en"]


def _card_points(game: str, language: str) -> dict[str, int]:
    points: dict[str, int] = {}
    for element in read_page(game, language).elements:
        if "data-ranks" not in element.attrs:
            continue
        for rank in element.attrs["data-ranks"].split():
            assert rank not in points, f"{rank} twice in the points table"
            value = element.attrs["data-points"]
            points[rank] = RANKS.index(rank) + 1 if value == "face" else int(value)
            assert str(points[rank]) in element.text or value == "face", element
    return points


@pytest.mark.parametrize("language", LANGUAGES)
def test_rule_page_card_values_match_the_engine(language: str) -> None:
    def engine_points(table: tuple[int, ...]) -> dict[str, int]:
        faces = {rank: parse_card(rank + "c") for rank in RANKS}
        return {"Jk": table[JOKER]} | {rank: table[card] for rank, card in faces.items()}

    assert _card_points("burraco", language) == engine_points(BURRACO_POINTS)
    assert _card_points("three-thirteen", language) == engine_points(DEADWOOD_POINTS)


@pytest.mark.parametrize("language", LANGUAGES)
def test_rule_page_rounds_match_the_engine(language: str) -> None:
    rows = [
        e.attrs for e in read_page("three-thirteen", language).elements if "data-round" in e.attrs
    ]
    rounds = three_thirteen.Rules().rounds
    assert [int(row["data-round"]) for row in rows] == list(rounds)
    for row in rows:
        number = int(row["data-round"])
        assert int(row["data-cards"]) == hand_size(number)
        assert RANKS.index(row["data-wild"]) + 1 == wild_rank(number)


# ---------------------------------------------------------------------------------------
# Shipping


def test_the_package_data_ships_the_translations_and_rule_pages() -> None:
    pyproject = tomllib.loads((PACKAGE.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = pyproject["tool"]["setuptools"]["package-data"]["rummykit"]
    shipped = {
        Path(path)
        for pattern in patterns
        for path in glob.glob(str(PACKAGE / pattern), recursive=True)
    }
    wanted = [I18N / f"refusals.{language}.json" for language in LANGUAGES]
    wanted += [RULE_PAGES / f"{game}.{language}.html" for game, language in PAGES]
    assert [path for path in wanted if path not in shipped] == []


def test_the_protocol_doc_gives_the_newest_refusals_in_the_clients_words() -> None:
    """docs/protocol.md's table of refusals in three languages says what the client
    says: each row is a server code, each cell that language's message (its general
    plural form where it has several)."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text("utf-8")
    start = doc.index("<!-- refusals in three languages")
    rows = [
        line
        for line in doc[start : doc.index("<!-- end of refusals")].splitlines()
        if line.startswith("| `")
    ]
    assert len(rows) >= 9
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split(" | ")]
        code = cells[0].strip("`")
        assert code in ERROR_CODES
        for language, text in zip(LANGUAGES, cells[1:], strict=True):
            entry = MESSAGES[language][f"error.{code}"]
            assert (entry["other"] if isinstance(entry, dict) else entry) == text, code
