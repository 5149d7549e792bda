"""Replay over HTTP: ``GET /games/{id}/at/{version}`` answers at every version of whole seeded games.

The property: for every game, every version from 0 to the head answers 200 for the public and for every
seat; past the head it is 404; and at every command boundary the replayed view equals the live view the
projector wrote then (the live views are the ones the golden playthroughs and leak tests pin), so a replay
shows a seat no more than it saw while playing.
"""

from __future__ import annotations

import random
import uuid

import pytest
from fastapi.testclient import TestClient

from domain.catalog import load_games
from projections.read_models import load_view
from services.adapters.api.app import create_app

from .helpers import Kernel

load_games()
GAMES = [("carcassonne", {"hills_and_sheep": True}, 2), ("heaven-and-ale", {"kegs_and_more": True}, 2),
         ("tiefenthal", {}, 2), ("counter", {"target": 12}, 3)]


def play_whole_game(kernel: Kernel, game: str, options: dict, seats: int, seed: str):
    """Play a seeded game to its score, synchronously; returns (game_id, {version: {seat: live view}})."""
    gid = uuid.uuid4().hex[:10]
    created = kernel.send(gid, {"type": "taproom.CreateGame", "game": game, "options": options,
                                "seats": [{"name": f"p{i}"} for i in range(seats)], "seed_commitment": ""},
                          dev_seed=seed)
    assert created.accepted, created
    chooser = random.Random(seed)
    live: dict[int, dict] = {}

    def snapshot() -> None:
        version = kernel.store.head(gid)[0]
        live[version] = {s: load_view(kernel.client.get(kernel.keys.view(gid, s)))
                         for s in [None, *range(seats)]}

    snapshot()
    while True:
        record = kernel.processor.repo.current(gid).record
        if record.status != "active":
            break
        seat = chooser.choice(record.to_act())
        command = chooser.choice(record.game.legal_commands(record.state, seat))
        outcome = kernel.send(gid, command.model_dump(mode="json"), seat=seat)
        assert outcome.accepted, outcome
        snapshot()
    assert kernel.send(gid, {"type": "taproom.ScoreGame"}).accepted
    snapshot()
    return gid, live


@pytest.mark.parametrize("game,options,seats", GAMES, ids=[g for g, _, _ in GAMES])
def test_every_version_of_a_whole_game_replays_for_every_caller(fake_client, settings, game, options, seats):
    kernel = Kernel(fake_client, settings)
    gid, live = play_whole_game(kernel, game, options, seats, seed=f"replay-{game}")
    head = kernel.store.head(gid)[0]
    app = create_app(fake_client, settings)
    tokens = {s: app.state.context.issue_token({"kind": "seat", "game_id": gid, "seat": s}) for s in range(seats)}
    callers = {None: {}, **{s: {"Authorization": f"Bearer {t}"} for s, t in tokens.items()}}
    with TestClient(app) as api:
        for version in range(head + 1):
            for seat, headers in callers.items():
                response = api.get(f"/games/{gid}/at/{version}", headers=headers)
                assert response.status_code == 200, (version, seat, response.text)
                body = response.json()
                assert body["version"] == version and body["seat"] == seat
                if version in live:
                    expected = live[version][seat]
                    assert {**body, "updated": 0} == {**expected, "updated": 0}, (version, seat)
        missing = api.get(f"/games/{gid}/at/{head + 1}")
        assert missing.status_code == 404 and missing.json()["code"] == "not_found"
        # one seat's token does not open another seat's replay
        other = api.get(f"/games/{gid}/at/{head // 2}", params={"seat": 1}, headers=callers[0])
        assert other.status_code == 403 and other.json()["code"] == "not_your_seat"
    assert len(live) > 5  # the game really was played move by move
