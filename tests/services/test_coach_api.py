"""The coach over HTTP: asking for a finished game's analysis, its errors, the job on its own queue, and the
result read back, also once the game is archived."""

from __future__ import annotations

import json
import random
import uuid

import pytest
from fastapi.testclient import TestClient
from rq import Queue

from domain.catalog import load_games
from services.adapters.api.app import create_app
from services.adapters.workers import jobs
from services.infrastructure.archive import Archiver, DirectoryStore
from services.infrastructure.settings import jobs_run_with

from .helpers import Kernel
from .test_api import wait_for

load_games()


def _seat_send(kernel: Kernel, gid: str, command: dict, seat: int) -> None:
    """A command as a person at ``seat`` sends it (a seat token's actor), settled at once."""
    command_id = kernel.bus.submit(gid, command, seat=seat, actor=f"seat:{seat}")
    kernel.pump()
    outcome = kernel.bus.outcome(gid, command_id)
    assert outcome is not None and outcome.accepted, outcome


def _short_game(kernel: Kernel, game: str, options: dict, seed: str, finish: bool = True) -> str:
    gid = uuid.uuid4().hex[:10]
    created = kernel.send(gid, {"type": "taproom.CreateGame", "game": game, "options": options,
                                "seats": [{"name": "Ann"}, {"name": "Bob"}], "seed_commitment": ""}, dev_seed=seed)
    assert created.accepted, created
    chooser = random.Random(seed)
    while finish:
        record = kernel.processor.repo.current(gid).record
        if record.status != "active":
            break
        seat = chooser.choice(record.to_act())
        command = chooser.choice(record.game.legal_commands(record.state, seat))
        _seat_send(kernel, gid, command.model_dump(mode="json"), seat)
    if finish:
        assert kernel.send(gid, {"type": "taproom.ScoreGame"}).accepted
    return gid



def _bearer(app, gid: str, seat: int) -> dict:
    token = app.state.context.issue_token({"kind": "seat", "game_id": gid, "seat": seat})
    return {"Authorization": f"Bearer {token}"}


def test_a_running_game_an_unknown_game_and_a_stranger_are_refused(fake_client, settings) -> None:
    kernel = Kernel(fake_client, settings)
    running = _short_game(kernel, "carcassonne", {"stack_size": 4}, "coach-running", finish=False)
    app = create_app(fake_client, settings)
    with TestClient(app) as api:
        mine = _bearer(app, running, 0)
        asked = api.post(f"/games/{running}/analysis", headers=mine)
        assert (asked.status_code, asked.json()["code"]) == (409, "game_not_over")
        read = api.get(f"/games/{running}/analysis")
        assert (read.status_code, read.json()["code"]) == (409, "game_not_over")
        assert not fake_client.exists(kernel.keys.analysis(running))
        assert Queue(settings.coach_queue, connection=fake_client).count == 0
        for method in (api.post, api.get):
            unknown = method("/games/nosuchgame/analysis", headers=mine)
            assert (unknown.status_code, unknown.json()["code"]) == (404, "game_not_found")
        assert api.post(f"/games/{running}/analysis").status_code == 401
        other = _short_game(kernel, "carcassonne", {"stack_size": 4}, "coach-other")
        stranger = api.post(f"/games/{other}/analysis", headers=mine)  # a seat of another game
        assert (stranger.status_code, stranger.json()["code"]) == (403, "not_your_seat")
        nothing = api.get(f"/games/{other}/analysis")
        assert (nothing.status_code, nothing.json()["code"]) == (404, "no_analysis")


def test_a_player_asks_once_the_job_runs_on_the_coach_queue_and_the_result_outlives_the_archive(
        fake_client, settings, tmp_path) -> None:
    kernel = Kernel(fake_client, settings)
    gid = _short_game(kernel, "carcassonne", {"stack_size": 3}, "coach-done")
    app = create_app(fake_client, settings)
    with TestClient(app) as api:
        asked = api.post(f"/games/{gid}/analysis", headers=_bearer(app, gid, 1))
        assert asked.status_code == 202, asked.text
        first = asked.json()
        assert first["status"] == "pending" and first["poll"] == f"/games/{gid}/analysis"
        again = api.post(f"/games/{gid}/analysis", headers=_bearer(app, gid, 0))
        assert again.status_code == 202 and again.json()["requested_at"] == first["requested_at"]
        coach_queue = Queue(settings.coach_queue, connection=fake_client)
        assert coach_queue.job_ids == [f"coach-{gid}"]  # one job, on the coach's queue
        assert f"coach-{gid}" not in Queue(settings.rq_queue, connection=fake_client).job_ids
        assert api.get(f"/games/{gid}/analysis").json()["status"] == "pending"
        with jobs_run_with(settings):
            ran = jobs.analyse_game(gid, connection=fake_client)
        assert ran["status"] == "done", ran
        done = api.get(f"/games/{gid}/analysis")
        assert done.status_code == 200
        body = done.json()
        assert body["status"] == "done" and [s["seat"] for s in body["seats"]] == [0, 1]
        for seat in body["seats"]:
            assert 0 <= seat["accuracy"] <= 100 and seat["decisions"]
            for row in seat["decisions"]:
                assert row["played"]["seat"] == seat["seat"] and row["loss"] >= 0
        assert body["cost"]["decisions"] == sum(len(s["decisions"]) for s in body["seats"])
        assert api.post(f"/games/{gid}/analysis", headers=_bearer(app, gid, 0)).status_code == 200

        # a turning point's ghost: the game as it would stand had the seat played the coach's move, on its own dice
        seat, row = next((s["seat"], d) for s in body["seats"] for d in s["decisions"] if d["best"]["type"] == "PlaceTile")
        ghost = api.get(f"/games/{gid}/analysis/better", params={"version": row["version"], "seat": seat})
        assert ghost.status_code == 200, ghost.text
        board = ghost.json()["board"]
        assert ghost.json()["version"] > row["version"]
        placed, best = board["last_placed"], row["best"]
        assert (placed["x"], placed["y"], placed["rotation"]) == (best["x"], best["y"], best["rotation"])
        nowhere = api.get(f"/games/{gid}/analysis/better", params={"version": 10**6, "seat": seat})
        assert nowhere.status_code == 404 and nowhere.json()["code"] == "not_found"
        archived = Archiver(kernel.store, DirectoryStore(tmp_path)).archive(gid)
        assert archived.status == "archived"
        assert not fake_client.exists(kernel.keys.analysis(gid))
        assert api.get(f"/games/{gid}/analysis").json() == body


# -- hints in casual games --------------------------------------------------------------------------------

def _casual_game(kernel: Kernel, hints: bool = True, rated: bool | None = False) -> str:
    gid = uuid.uuid4().hex[:10]
    created = kernel.send(gid, {"type": "taproom.CreateGame", "game": "carcassonne", "options": {"stack_size": 4},
                                "seats": [{"name": "Ann"}, {"name": "Bob"}], "seed_commitment": "",
                                "rated": rated, "hints": hints}, dev_seed="casual")
    assert created.accepted, created
    return gid


def _api_game(api, **flags) -> tuple[str, list[dict]]:
    """A Carcassonne game of two named seats through the running service; their seat tokens' headers."""
    made = api.post("/games", json={"game": "carcassonne", "options": {"stack_size": 4}, "seed": "casual",
                                    "seats": [{"name": "Ann"}, {"name": "Bob"}], **flags})
    assert made.status_code == 201, made.text
    body = made.json()
    gid = body["game_id"]
    wait_for(api, f"/games/{gid}", until=lambda b: b["status"] == "active" and b["to_act"], timeout=120)
    return gid, [{"Authorization": f"Bearer {s['token']}"} for s in body["seats"]]


def test_hints_are_refused_in_a_rated_game(api, fake_client, settings) -> None:
    kernel = Kernel(fake_client, settings)
    refused = kernel.send(uuid.uuid4().hex[:10], {
        "type": "taproom.CreateGame", "game": "carcassonne", "options": {}, "seats": [{"name": "Ann"}, {"name": "Bob"}],
        "seed_commitment": "", "hints": True})
    assert not refused.accepted and refused.code == "hints_in_rated_game"
    asked = api.post("/games", json={"game": "carcassonne", "hints": True, "seats": [{"name": "a"}, {"name": "b"}]})
    assert (asked.status_code, asked.json()["code"]) == (422, "hints_in_rated_game")
    plain, (ann, _) = _api_game(api)
    off = api.post(f"/games/{plain}/hint", headers=ann)
    assert (off.status_code, off.json()["code"]) == (409, "hints_off")


@pytest.mark.parametrize("flags", [{}, {"rated": False}])  # a rated game; a casual one without hints
def test_the_kernel_takes_a_tutorial_only_as_a_casual_game_with_hints(fake_client, settings, flags) -> None:
    """The application sets both for a tutorial; the kernel keeps it so for any other writer of the log."""
    refused = Kernel(fake_client, settings).send(uuid.uuid4().hex[:10], {
        "type": "taproom.CreateGame", "game": "carcassonne", "options": {}, "seats": [{"name": "Ann"}, {"bot": "greedy"}],
        "seed_commitment": "", "tutorial": True, **flags})
    assert not refused.accepted and refused.code == "invalid_request", refused


def test_a_hint_is_in_the_log_and_its_answer_reaches_the_asking_seat_alone(api) -> None:
    gid, (ann, bob) = _api_game(api, rated=False, hints=True)
    public = api.get(f"/games/{gid}").json()
    assert public["rated"] is False and public["hints"] is True and public["to_act"] == [0]
    bob_before = api.get(f"/games/{gid}/view", headers=bob).json()
    not_his_turn = api.post(f"/games/{gid}/hint", headers=bob)
    assert (not_his_turn.status_code, not_his_turn.json()["code"]) == (409, "not_your_turn")
    answered = api.post(f"/games/{gid}/hint", headers=ann)
    assert answered.status_code == 200, answered.text
    body = answered.json()
    legal = api.get(f"/games/{gid}/legal", headers=ann).json()["commands"]
    assert body["command"] in legal and body["events"]
    # Bob sees that Ann asked, and nothing of the answer: his view's board is the same, the history's new event
    # names the seat alone, and so does the stream
    bob_after = wait_for(api, f"/games/{gid}/view", headers=bob, until=lambda b: b.get("hints_asked") == {"0": 1}, timeout=120)
    assert bob_after["board"] == bob_before["board"]
    history = api.get(f"/games/{gid}/events", headers=bob).json()["events"]
    asked = [e for e in history if e["type"] == "taproom.HintAsked"]
    assert [e["payload"] for e in asked] == [{"type": "taproom.HintAsked", "seat": 0}]
    assert history[-1]["type"] == "taproom.HintAsked"  # nothing after it carries the answer
    with api.stream("GET", f"/games/{gid}/stream", headers=bob,
                    params={"after": asked[0]["version"] - 1, "timeout": 1}) as stream:
        data = [line for line in stream.iter_lines() if line.startswith("data:") and '"version"' in line]
    # the run's one event, and Bob's view frame after it (his own view and commands): neither carries the answer
    events = [d for d in data if not d.startswith('data: {"view":')]
    assert len(events) == 1 and "taproom.HintAsked" in events[0]
    assert '"x"' not in events[0]
    (frame,) = [json.loads(d[len("data: "):]) for d in data if d.startswith('data: {"view":')]
    assert frame["view"]["board"] == bob_before["board"] and frame["legal"]["seat"] == 1  # his own, as before
    # the move is Ann's to play as it is
    assert api.post(f"/games/{gid}/commands", headers=ann, json=body["command"]).status_code == 200


def test_a_casual_game_is_not_rated(fake_client, settings) -> None:
    kernel = Kernel(fake_client, settings)
    gid = _casual_game(kernel, hints=False)
    chooser = random.Random(1)
    while (record := kernel.processor.repo.current(gid).record).status == "active":
        seat = record.to_act()[0]
        _seat_send(kernel, gid, chooser.choice(record.game.legal_commands(record.state, seat)).model_dump(mode="json"), seat)
    assert kernel.send(gid, {"type": "taproom.ScoreGame"}).accepted
    with jobs_run_with(settings):
        assert jobs.rate_game(gid, connection=fake_client) == {"rated": []}  # filed in the profiles, rates nobody


def test_with_coach_auto_the_reactor_asks_once_for_a_scored_game_with_a_human_seat(fake_client, settings) -> None:
    from services.adapters.reactor import Reactor

    kernel = Kernel(fake_client, settings)
    gid = _short_game(kernel, "carcassonne", {"stack_size": 2}, "coach-auto")
    queue = Queue(settings.rq_queue, connection=fake_client)
    coach_queue = Queue(settings.coach_queue, connection=fake_client)
    Reactor(fake_client, settings, queue=queue, name="r0").drain()
    assert coach_queue.count == 0  # off by default: a player asks
    auto = settings.model_copy(update={"coach_auto": True})
    reactor = Reactor(fake_client, auto, queue=queue, name="r1")
    reactor.react(gid)  # the game's events were read already (by r0): react to its state as the feed would
    assert coach_queue.job_ids == [f"coach-{gid}"] and f"coach-{gid}" not in queue.job_ids
    assert reactor.coach_automatic(reactor.repo.current(gid).record) == []  # asked once


def test_the_analysis_keeps_the_service_clock(fake_client, settings) -> None:
    """Times in the analysis record are the service's (the injected clock), not the machine's wall clock."""
    from services.infrastructure.clock import ShiftedClock

    kernel = Kernel(fake_client, settings)
    gid = _short_game(kernel, "carcassonne", {"stack_size": 3}, "coach-clock")
    clock = ShiftedClock()
    clock.advance(3 * 86400)
    app = create_app(fake_client, settings, clock=clock)
    with TestClient(app) as api:
        asked = api.post(f"/games/{gid}/analysis", headers=_bearer(app, gid, 0))
        assert asked.status_code == 202, asked.text
        assert asked.json()["requested_at"] >= clock.now() - 60  # three days ahead of the wall clock
