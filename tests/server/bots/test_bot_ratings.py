"""The bot levels' published ratings: the figures of docs/competition.md's ladders, and
offered by the catalog where a player picks a bot."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from rummykit.server.bots.ratings import PUBLISHED

COMPETITION = Path(__file__).resolve().parents[3] / "docs" / "competition.md"


def documented_ladders(heading: str) -> dict[str, dict[str, list[int]]]:
    """Each game's measured ladder rows under ``heading`` in the docs: a bot's rating in
    each of the two runs."""
    text = COMPETITION.read_text(encoding="utf-8")
    part = text.split(f"#### {heading}\n")[1].split("\n#")[0]
    sections = {
        "burraco": part.split("\nBurraco (")[1].split("\nThree-Thirteen (")[0],
        "three-thirteen": part.split("\nThree-Thirteen (")[1],
    }
    ladders: dict[str, dict[str, list[int]]] = {}
    for game, section in sections.items():
        for row in re.finditer(
            r"^\| ([a-z:=0-9]+) \| ([0-9,]+) \| .*? \| ([0-9,]+) \|", section, re.M
        ):
            runs = [int(row.group(2).replace(",", "")), int(row.group(3).replace(",", ""))]
            ladders.setdefault(game, {})[row.group(1)] = runs
    return ladders


def test_the_published_ratings_are_the_documented_ladders_means() -> None:
    ladders = documented_ladders("The levels without the search")
    assert set(ladders) == set(PUBLISHED)
    for game, levels in PUBLISHED.items():
        assert set(levels) == {"random", "easy", "greedy"} == set(ladders[game])
        for level, rating in levels.items():
            runs = ladders[game][level]
            assert rating == round(sum(runs) / len(runs)), (game, level)
    # the search was measured at 100 iterations a move, not as the site plays it
    searched = documented_ladders("The search at 100 iterations")
    for game in PUBLISHED:
        assert "ismcts:iterations=100" in searched[game]


def test_the_catalog_offers_the_published_ratings(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games/catalog").json()["games"]}
    for game, levels in PUBLISHED.items():
        assert games[game]["bot_ratings"] == dict(levels)
        assert set(levels) <= set(games[game]["bot_levels"])
