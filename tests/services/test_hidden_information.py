"""Hidden information through the whole service: a tile buried under a hill (Carcassonne with
Hills & Sheep) never reaches any client before the game ends: not in views, history, replays,
command answers or the event stream; after the end, the record is complete."""

from __future__ import annotations

import random

import pytest

from domain.catalog import load_games
from tests.services.helpers import game_moves

load_games()


@pytest.fixture(params=["fake"])
def clients(request, prefix):  # the in-process server is enough here; the pipeline is the same
    import fakeredis

    server = fakeredis.FakeServer()
    yield lambda: fakeredis.FakeRedis(server=server)


def test_buried_tiles_stay_hidden_until_the_end(api, settings, clients):
    from services.infrastructure.eventstore import EventStore, Keys

    created = api.post("/games", json={"game": "carcassonne", "options": {"hills_and_sheep": True},
                                       "seed": "hidden", "seats": [{"name": "ann"}, {"name": "bob"}]}).json()
    gid = created["game_id"]
    tokens = [s["token"] for s in created["seats"]]
    store = EventStore(clients(), Keys(settings.key_prefix, settings.shards))
    chooser = random.Random(7)
    buried_seen = 0
    while True:
        buried = [e for e in store.read(gid) if e.type == "TileBuried"]
        secrets = {e.payload["tile"] for e in buried}
        texts = [api.get(f"/games/{gid}").text, api.get(f"/games/{gid}/events").text]
        for token in tokens:
            auth = {"Authorization": f"Bearer {token}"}
            texts += [api.get(f"/games/{gid}/view", headers=auth).text,
                      api.get(f"/games/{gid}/events", headers=auth).text]
        status = api.get(f"/games/{gid}").json()["status"]
        if status in ("ended", "scored"):
            break
        for text in texts:
            for event in buried:
                assert f'"tile":"{event.payload["tile"]}","type":"TileBuried"' not in text.replace(" ", "")
            assert '"TileBuried"' not in text or '"tile":"hidden"' in text.replace(" ", "")
        buried_seen = len(secrets)
        for token in tokens:  # the read models may lag a moment: ask each seat for its legal commands
            auth = {"Authorization": f"Bearer {token}"}
            legal = api.get(f"/games/{gid}/legal", headers=auth).json()
            if game_moves(legal):
                answer = api.post(f"/games/{gid}/commands", headers=auth, json=chooser.choice(game_moves(legal)))
                assert answer.status_code == 200, answer.text
                assert all(e["payload"].get("tile") == "hidden"
                           for e in answer.json()["events"] if e["type"] == "TileBuried")
                break
    assert buried_seen > 0, "the seeded game buried no tile: pick another seed"
    import time

    for _ in range(300):
        if api.get(f"/games/{gid}").json()["status"] == "scored":
            break
        time.sleep(0.02)
    history = api.get(f"/games/{gid}/events").json()["events"]
    revealed = [e["payload"]["tile"] for e in history if e["type"] == "TileBuried"]
    assert revealed and "hidden" not in revealed
