"""A tournament of pairs (Burraco for four): a player enters as a pair awaiting a
partner and another joins the pair with its consent (its link, or an invitation by
name), never uninvited; a first player who withdraws leaves the pair to the partner, who
is told; computers fill the
places and partners still empty at the start; each table seats two pairs with partners
opposite, every table of a round plays the same deal, and the standings count each
pair once, by its team's total."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from fastapi.testclient import TestClient

from tests.kit.players import as_player, connect, new_player, registered
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
    link = pair["pair_token"]
    # cyd joins ann's pair with its link; eve cannot take the place after that
    joined = _register(client, cyd, tournament_id, pair=link).json()
    assert joined["registered"] is True
    assert [(e["name"], e["partner"]) for e in joined["entries"]] == [("ann", "cyd")]
    taken = _register(client, eve, tournament_id, pair=link)
    assert taken.json()["error"]["code"] == "not_registered"
    # a partner who withdraws frees the place, tells ann, and may come back
    as_player(client, cyd).post(f"/api/tournaments/{tournament_id}/withdraw")
    [left] = as_player(client, ann).get(f"/api/tournaments/{tournament_id}").json()["entries"]
    assert (left["name"], left["partner"], left["partner_left"]) == ("ann", None, "cyd")
    assert _register(client, cyd, tournament_id, pair=link).status_code == 200
    # bob and dee make the second pair
    second = _register(client, bob, tournament_id).json()
    bob_pair = next(e for e in second["entries"] if e["name"] == "bob")
    assert _register(client, dee, tournament_id, pair=bob_pair["pair_token"]).status_code == 200
    assert client.get(f"/api/tournaments/{tournament_id}").json()["entrants"] == 2
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


def _pairs_event(client: TestClient, creator: str) -> tuple[str, dict[str, Any]]:
    """A tournament of pairs that ``creator`` entered: its id and the creator's pair."""
    body = tournament_body(
        QUICK_BURRACO, name="Pairs", format="swiss", rounds=1, table_size=4, capacity=4
    )
    made = as_player(client, creator).post("/api/tournaments", json=body)
    assert made.status_code == 200, made.text
    [pair] = made.json()["entries"]
    return made.json()["id"], pair


def test_nobody_joins_a_pair_uninvited_and_an_invitation_is_accepted(client: TestClient) -> None:
    ann, ann_id = registered(client, "ann_pairs")
    cyd, _cyd_id = registered(client, "cyd_pairs")
    eve = new_player(client, "eve")
    tournament_id, pair = _pairs_event(client, ann)
    url = f"/api/tournaments/{tournament_id}"
    # naming the pair's first player is not consent
    uninvited = _register(client, eve, tournament_id, partner=ann_id)
    assert uninvited.status_code == 403 and uninvited.json()["error"]["code"] == "not_invited"
    wrong_link = _register(client, eve, tournament_id, pair="x" * 16)
    assert wrong_link.json()["error"]["code"] == "not_registered"
    # the link's token and the invitation are the pair's own: others never see them
    [seen] = as_player(client, eve).get(url).json()["entries"]
    assert seen["pair_token"] is None and seen["invited"] is None and not seen["invites_you"]
    [anonymous] = client.get(url).json()["entries"]
    assert anonymous["pair_token"] is None and not anonymous["invites_you"]
    assert pair["pair_token"] and len(pair["pair_token"]) >= 16
    # ann invites cyd by name: cyd sees it and accepts; eve still may not
    invited = as_player(client, ann).post(f"{url}/invite", json={"name": "CYD_pairs"})
    assert invited.status_code == 200, invited.text
    assert invited.json()["entries"][0]["invited"] == "cyd_pairs"
    assert as_player(client, cyd).get(url).json()["entries"][0]["invites_you"] is True
    assert _register(client, eve, tournament_id, partner=ann_id).status_code == 403
    accepted = _register(client, cyd, tournament_id, partner=ann_id)
    assert accepted.status_code == 200, accepted.text
    [whole] = accepted.json()["entries"]
    assert (whole["name"], whole["partner"], whole["you"]) == ("ann_pairs", "cyd_pairs", True)
    # a whole pair invites nobody, and nobody unknown is invited
    again = as_player(client, ann).post(f"{url}/invite", json={"name": "eve"})
    assert again.json()["error"]["code"] == "unknown_player"
    full = as_player(client, ann).post(f"{url}/invite", json={"name": "cyd_pairs"})
    assert full.json()["error"]["code"] == "not_pair_leader"


def test_a_first_player_who_withdraws_leaves_the_pair_to_the_partner(client: TestClient) -> None:
    ann, cyd, eve = (new_player(client, n) for n in ("ann", "cyd", "eve"))
    tournament_id, pair = _pairs_event(client, ann)
    url = f"/api/tournaments/{tournament_id}"
    assert _register(client, cyd, tournament_id, pair=pair["pair_token"]).status_code == 200
    assert as_player(client, ann).post(f"{url}/withdraw").status_code == 200
    [kept] = as_player(client, cyd).get(url).json()["entries"]
    assert (kept["name"], kept["partner"], kept["you"]) == ("cyd", None, True)
    assert kept["partner_left"] == "ann"  # cyd is told who left
    # the old link is dead; cyd's new one takes a new partner
    assert kept["pair_token"] != pair["pair_token"]
    old = _register(client, eve, tournament_id, pair=pair["pair_token"])
    assert old.json()["error"]["code"] == "not_registered"
    joined = _register(client, eve, tournament_id, pair=kept["pair_token"])
    assert [(e["name"], e["partner"]) for e in joined.json()["entries"]] == [("cyd", "eve")]
    assert as_player(client, ann).get(url).json()["registered"] is False


def test_people_racing_for_one_pair_link_make_one_partner(any_client: TestClient) -> None:
    client = any_client
    ann = new_player(client, "ann")
    racers = [new_player(client, f"racer{i}") for i in range(6)]
    tournament_id, pair = _pairs_event(client, ann)
    client.cookies.clear()

    def join(cookie: str) -> int:
        response = client.post(
            f"/api/tournaments/{tournament_id}/register",
            json={"pair": pair["pair_token"]},
            headers={"cookie": f"rummykit_session={cookie}"},
        )
        return int(response.status_code)

    with ThreadPoolExecutor(6) as pool:
        codes = list(pool.map(join, racers))
    assert sorted(codes) == [200] + [409] * 5
    [whole] = client.get(f"/api/tournaments/{tournament_id}").json()["entries"]
    assert whole["partner"] in {f"racer{i}" for i in range(6)}
