"""``/metrics`` as a host's monitoring scrapes it: off unless asked for, guarded by its
token, in Prometheus's text format (parsed here by the client library's own parser),
every figure named in docs/scale-out.md present, and the figures moving while a game is
played."""

from __future__ import annotations

from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from tests.kit.apps import OpenClient
from tests.kit.factories import HUMAN, table_body
from tests.kit.players import connect, new_player
from tests.kit.scripted import play_to_end

TOKEN = "scrape-me"
NAMED = {
    "rummykit_events",
    "rummykit_action_seconds",
    "rummykit_bot_wait_seconds",
    "rummykit_bot_calls",
    "rummykit_sockets",
    "rummykit_tables_hosted",
    "rummykit_tables_relayed",
    "rummykit_bot_calls_now",
    "rummykit_loop_lag_seconds",
    "rummykit_loop_lag_worst_seconds",
}


def scrape(client: TestClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a scrape, by name and labels."""
    answer = client.get("/metrics", headers={"authorization": f"Bearer {TOKEN}"})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain")
    samples = {}
    families = set()
    for family in text_string_to_metric_families(answer.text):
        families.add(family.name)
        for sample in family.samples:
            samples[sample.name, tuple(sorted(sample.labels.items()))] = sample.value
    assert families >= NAMED, NAMED - families
    return samples


def test_metrics_are_off_unless_asked_for(client: TestClient) -> None:
    assert client.get("/metrics").status_code == 404


def test_a_scrape_needs_the_token(open_client: OpenClient) -> None:
    client = open_client(metrics=True, metrics_token=TOKEN)
    assert client.get("/metrics").status_code == 401
    wrong = client.get("/metrics", headers={"authorization": "Bearer nope"})
    assert (wrong.status_code, wrong.json()["error"]["code"]) == (401, "metrics_token")
    assert "/metrics" not in client.get("/openapi.json").json()["paths"]


def test_the_figures_move_while_a_game_is_played(open_client: OpenClient) -> None:
    client = open_client(metrics=True, metrics_token=TOKEN)
    before = scrape(client)
    ann = new_player(client, "ann")
    client.cookies.set("rummykit_session", ann)
    body = table_body("three-thirteen", HUMAN, "greedy", rules={"first_round": 3, "last_round": 3})
    created = client.post("/api/tables", json=body).json()
    client.cookies.clear()
    with connect(client, created["ws_url"], ann) as ws:
        play_to_end(ws)
        during = scrape(client)
        assert during["rummykit_sockets", ()] == before.get(("rummykit_sockets", ()), 0) + 1
        assert during["rummykit_tables_hosted", ()] >= 1
    after = scrape(client)

    def moved(name: str, labels: tuple[tuple[str, str], ...] = ()) -> float:
        return after.get((name, labels), 0) - before.get((name, labels), 0)

    assert moved("rummykit_events_total", (("event", "action"),)) >= 2
    assert moved("rummykit_events_total", (("event", "game_over"),)) == 1
    assert moved("rummykit_action_seconds_count") >= 1  # the person's own moves
    decisions = (("kind", "decision"), ("outcome", "done"))
    assert moved("rummykit_bot_calls_total", decisions) >= 1
    assert moved("rummykit_bot_wait_seconds_count", (("kind", "decision"),)) >= 1
    assert moved("rummykit_loop_lag_seconds_count") > 0  # the loop's watch samples on
