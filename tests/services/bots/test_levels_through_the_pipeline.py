"""Bots of every level against every level, through the whole pipeline (API, processor, reactor, rq worker)
to the final scores, then the record verified by replay.

By default each game plays two of the six pairings, so every pairing runs once (a seeded sample), on
fakeredis, and its first pairing also on the real Redis; ``--soak-full`` plays all six pairings in
every game on both.
"""

from __future__ import annotations

import time
from itertools import combinations_with_replacement

import pytest

from services.application.bots import LEVELS
from services.infrastructure.audit import export_lines, parse_lines, verify
from services.infrastructure.eventstore import EventStore, Keys

from ..conftest import client_factory

PAIRINGS = list(combinations_with_replacement(sorted(LEVELS), 2))
GAMES = [("carcassonne", {"hills_and_sheep": True}), ("heaven-and-ale", {"kegs_and_more": True}),
         ("tiefenthal", {})]
SAMPLE = {  # every pairing once across the three games
    "carcassonne": [("greedy", "search"), ("random", "random")],
    "heaven-and-ale": [("random", "search"), ("greedy", "greedy")],
    "tiefenthal": [("greedy", "random"), ("search", "search")],
}
THINK_SECONDS = 0.02
"""A short search budget: these tests check the pipeline, not the strength (bench/arena.py does)."""


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "pairing" in metafunc.fixturenames:
        full = metafunc.config.getoption("--soak-full")
        cases = []
        for game, options in GAMES:
            for i, pairing in enumerate(PAIRINGS if full else SAMPLE[game]):
                for backend in ("fake", "real") if full or i == 0 else ("fake",):
                    marks = [pytest.mark.integration] if backend == "real" else []
                    cases.append(pytest.param(game, options, pairing, backend, marks=marks,
                                              id=f"{game}-{pairing[0]}-vs-{pairing[1]}-{backend}"))
        metafunc.parametrize("game,options,pairing,backend", cases)


@pytest.fixture
def clients(backend: str, prefix: str):
    """Only the backends chosen per case above (the shared fixture would run every case on both)."""
    with client_factory(backend, prefix) as factory:
        yield factory


@pytest.fixture
def settings(settings):
    return settings.model_copy(update={"bot_think_seconds": THINK_SECONDS})


def test_sample_covers_every_pairing() -> None:
    assert sorted(sorted(p) for pairs in SAMPLE.values() for p in pairs) == [list(p) for p in PAIRINGS]


def test_bots_of_two_levels_finish_a_game(api, clients, settings, game, options, pairing) -> None:
    host = api.post("/players", json={"name": "host"}).json()["token"]  # games with bots need a player token
    created = api.post("/games", headers={"Authorization": f"Bearer {host}"},
                       json={"game": game, "options": options, "seed": f"levels-{game}-{pairing}",
                             "seats": [{"bot": level} for level in pairing]})
    assert created.status_code == 201, created.text
    gid = created.json()["game_id"]
    deadline = time.monotonic() + 300
    public = api.get(f"/games/{gid}").json()
    while public.get("status") != "scored" and time.monotonic() < deadline:
        time.sleep(0.05)
        public = api.get(f"/games/{gid}").json()
    assert public.get("status") == "scored", f"stuck at {public.get('status')} version {public.get('version')}"
    assert sorted(s["seat"] for s in public["scores"]) == [0, 1]
    assert all(s["breakdown"] for s in public["scores"])
    store = EventStore(clients(), Keys(settings.key_prefix, settings.shards))
    commands = [c for c in store.command_records(gid) if c.get("actor", "").startswith("bot:")]
    assert {c["actor"] for c in commands} == {f"bot:{level}" for level in pairing}
    report = verify(*parse_lines(export_lines(store, gid)))
    assert report.ok and report.replay_ok and report.seed_ok, report.problems
