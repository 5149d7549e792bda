"""Every hosted game through the service: humans over HTTP and bots through rq, to the final score,
then the game record verified (hash chain, seed commitment, replay of every command)."""

from __future__ import annotations

import json
import random
import time

import pytest
from click.testing import CliRunner

from domain.catalog import GAME_PACKAGES, load_games
from services.adapters.cli.main import cli
from services.infrastructure.audit import export_lines, parse_lines, verify
from services.infrastructure.eventstore import EventStore, Keys
from tests.services.helpers import game_moves

load_games()
GAMES = [("carcassonne", {"hills_and_sheep": True}), ("heaven-and-ale", {"kegs_and_more": True}),
         ("tiefenthal", {})]


def test_every_game_package_is_registered():
    from domain.core import all_games

    assert {g.id for g in all_games()} >= {"carcassonne", "heaven-and-ale", "tiefenthal"}
    assert len(GAME_PACKAGES) == 3


@pytest.mark.parametrize("game,options", GAMES, ids=[g for g, _ in GAMES])
def test_humans_and_bots_play_a_whole_game_over_http(api, game, options, settings, clients):
    host = api.post("/players", json={"name": "host"}).json()["token"]  # games with bots need a player token
    created = api.post("/games", headers={"Authorization": f"Bearer {host}"},
                       json={"game": game, "options": options, "seed": f"http-{game}",
                             "seats": [{"name": "ann"}, {"bot": "random"}, {"name": "cat"}]})
    assert created.status_code == 201, created.text
    gid = created.json()["game_id"]
    tokens = {s["seat"]: s["token"] for s in created.json()["seats"] if s["token"]}
    chooser = random.Random(game)
    deadline = time.monotonic() + 240
    moves = 0
    while time.monotonic() < deadline:
        public = api.get(f"/games/{gid}").json()
        if public.get("status") == "scored":
            break
        acted = False
        for _seat, token in tokens.items():
            legal = api.get(f"/games/{gid}/legal", headers={"Authorization": f"Bearer {token}"}).json()
            if game_moves(legal):
                command = chooser.choice(game_moves(legal))
                response = api.post(f"/games/{gid}/commands", headers={"Authorization": f"Bearer {token}"},
                                    json={**command, "expected_version": legal["version"]})
                # a bot may have moved in between (simultaneous phases): then the version is stale
                assert response.status_code in (200, 202, 409), response.text
                moves += response.status_code == 200
                acted = True
        if not acted:
            time.sleep(0.01)
    final = api.get(f"/games/{gid}").json()
    assert final["status"] == "scored", f"{game} did not finish: {final.get('status')} at {final.get('version')}"
    assert moves > 5
    assert sorted(s["seat"] for s in final["scores"]) == [0, 1, 2]
    assert all(s["breakdown"] for s in final["scores"])
    store = EventStore(clients(), Keys(settings.key_prefix, settings.shards))
    report = verify(*parse_lines(export_lines(store, gid)))
    assert report.ok and report.replay_ok and report.seed_ok, report.problems


@pytest.mark.parametrize("game,players", [("carcassonne", 4), ("heaven-and-ale", 3), ("tiefenthal", 3)])
def test_taproom_play_runs_a_full_bot_game(game, players, monkeypatch, tmp_path):
    monkeypatch.delenv("REDIS_URL", raising=False)
    record = tmp_path / "record.jsonl"
    result = CliRunner().invoke(cli, ["play", game, "--players", str(players), "--bot", "random", "--seed", "cli",
                                      "--json", "--export", str(record)])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output.strip().splitlines()[-1])
    assert summary["game"] == game and len(summary["scores"]) == players
    assert all(summary["breakdown"][seat] for seat in summary["scores"])
    verified = CliRunner().invoke(cli, ["verify", str(record)])
    assert verified.exit_code == 0, verified.output
