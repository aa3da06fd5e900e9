"""A tournament of pairs (Burraco for four): a player enters as a pair awaiting a
partner and another joins the pair by naming its first player; computers fill the
places and partners still empty at the start; each table seats two pairs with partners
opposite, every table of a round plays the same deal, and the standings count each
pair once, by its team's total."""

from __future__ import annotations

from functools import partial
from typing import Any

from fastapi.testclient import TestClient

from tests.kit.players import as_player, connect, new_player
from tests.kit.scripted import play_to_end, random_policy
from tests.kit.threads import run_in_threads
from tests.kit.tournaments import QUICK_BURRACO, played_event, tournament_body, until_over
from tests.kit.wait import wait_until


def _register(client: TestClient, cookie: str, tournament_id: str, **body: Any) -> Any:
    return as_player(client, cookie).post(f"/api/tournaments/{tournament_id}/register", json=body)


def test_pairs_register_together_and_play_duplicate_deals(client: TestClient) -> None:
    ann, bob, cyd, dee, eve = (new_player(client, n) for n in ("ann", "bob", "cyd", "dee", "eve"))
    body = tournament_body(
        QUICK_BURRACO,
        name="Pairs",
        format="swiss",
        rounds=1,
        table_size=4,
        capacity=4,
        bot_level="random",
    )
    made = as_player(client, ann).post("/api/tournaments", json=body)
    assert made.status_code == 200, made.text
    tournament_id = made.json()["id"]
    [pair] = made.json()["entries"]
    assert (pair["name"], pair["partner"], pair["you"]) == ("ann", None, True)
    # cyd joins ann's pair by naming her; eve cannot take the place after that
    joined = _register(client, cyd, tournament_id, partner=pair["player_id"]).json()
    assert joined["registered"] is True
    assert [(e["name"], e["partner"]) for e in joined["entries"]] == [("ann", "cyd")]
    taken = _register(client, eve, tournament_id, partner=pair["player_id"])
    assert taken.json()["error"]["code"] == "not_registered"
    # a partner who withdraws frees the place, and may come back
    left = as_player(client, cyd).post(f"/api/tournaments/{tournament_id}/withdraw").json()
    assert [(e["name"], e["partner"]) for e in left["entries"]] == [("ann", None)]
    assert _register(client, cyd, tournament_id, partner=pair["player_id"]).status_code == 200
    # bob and dee make the second pair
    second = _register(client, bob, tournament_id).json()
    bob_id = next(e["player_id"] for e in second["entries"] if e["name"] == "bob")
    assert _register(client, dee, tournament_id, partner=bob_id).json()["entrants"] == 2
    # the creator starts it: two pairs of computers fill the places
    started = as_player(client, ann).post(f"/api/tournaments/{tournament_id}/start").json()
    assert started["status"] == "running"
    entries = started["entries"]
    assert len(entries) == 4 and all(e["partner"] for e in entries)
    assert [e["partner_kind"] for e in entries] == ["human", "human", "bot", "bot"]

    def play(cookie: str) -> None:
        def seated() -> str | None:
            client.cookies.clear()
            view = client.get(
                f"/api/tournaments/{tournament_id}",
                headers={"cookie": f"rummykit_session={cookie}"},
            ).json()
            return view["your_table"]  # type: ignore[no-any-return]

        table_id = wait_until(seated, 60, what="the pair's table")
        with connect(client, f"/ws/tables/{table_id}", cookie) as ws:
            play_to_end(ws, random_policy(len(cookie)))

    run_in_threads(*(partial(play, c) for c in (ann, bob, cyd, dee)), timeout=300)
    view = until_over(client, tournament_id)
    [first_round] = view["round_list"]
    assert len(first_round["tables"]) == 2
    records = [
        client.get(f"/api/tables/{table['table_id']}/record").json()
        for table in first_round["tables"]
    ]
    assert len({record["seed"] for record in records}) == 1  # one deal for the round
    names = {e["entry"]: (e["name"], e["partner"]) for e in view["entries"]}
    for table, record in zip(first_round["tables"], records, strict=True):
        a, b = table["entries"]
        # partners opposite: the first pair at seats 0 and 2, the second at 1 and 3
        assert record["players"] == [names[a][0], names[b][0], names[a][1], names[b][1]]
        assert record["rules"]["players"] == 4
        assert table["totals"] == [float(t) for t in record["totals"][:2]]
    standings = view["standings"]
    assert sorted(s["entry"] for s in standings) == [0, 1, 2, 3]
    assert {s["name"] for s in standings} == {f"{n} & {p}" for n, p in names.values()}


def test_a_knockout_of_computer_pairs_runs_to_its_final(client: TestClient) -> None:
    ann = new_player(client, "ann")
    body = tournament_body(
        QUICK_BURRACO,
        name="Pairs knockout",
        format="knockout",
        table_size=4,
        capacity=4,
        bot_level="random",
        enter=False,
    )
    view = played_event(client, ann, body)
    assert [len(r["tables"]) for r in view["round_list"]] == [2, 1]
    final = view["round_list"][1]["tables"][0]
    winners = [
        next(t for t in view["round_list"][0]["tables"] if e in t["entries"])
        for e in final["entries"]
    ]
    assert len(winners) == 2 and winners[0] is not winners[1]  # one pair from each semi-final
    for table in [*view["round_list"][0]["tables"], final]:
        record = client.get(f"/api/tables/{table['table_id']}/record").json()
        assert len(record["players"]) == 4 and len(table["totals"]) == 2
    champion = view["standings"][0]
    assert champion["out"] is None and champion["entry"] in final["entries"]
    assert " & " in champion["name"]
