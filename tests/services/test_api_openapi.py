"""The OpenAPI schema describes every route's real answers: a walk over every route (successes and errors)
validates each response against the schema, so a route that answers something undocumented fails here."""

from __future__ import annotations

import re
import time

import pytest
from openapi_schema_validator import OAS31Validator
from openapi_spec_validator import validate as validate_spec

from domain.catalog import load_games
from tests.services.helpers import game_moves

from .test_api import bearer, wait_for

load_games()


@pytest.fixture(params=["fake"])
def clients(request, prefix):  # the schema does not depend on the backend; the real server runs test_api
    import fakeredis

    server = fakeredis.FakeServer()
    yield lambda: fakeredis.FakeRedis(server=server)


class Checked:
    """A TestClient wrapper that validates every answer against the app's own OpenAPI schema."""

    def __init__(self, api) -> None:
        self.api = api
        self.spec = api.get("/openapi.json").json()
        self.routes = [(re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$"), path)
                       for path in sorted(self.spec["paths"], key=lambda p: p.count("{"))]
        self.seen: set[tuple[str, str, int]] = set()

    def template(self, path: str) -> str:
        for pattern, template in self.routes:
            if pattern.match(path):
                return template
        raise AssertionError(f"{path} matches no documented route")

    def check(self, response):
        method = response.request.method.lower()
        template = self.template(response.request.url.path)
        operation = self.spec["paths"][template][method]
        status = str(response.status_code)
        assert status in operation["responses"], f"{method} {template} answered {status}, not documented"
        self.seen.add((method, template, response.status_code))
        if response.status_code == 204:
            return response
        media = response.headers["content-type"].split(";")[0]
        content = operation["responses"][status]["content"]
        assert media in content, f"{method} {template} {status}: {media} not documented ({list(content)})"
        if media == "application/json":
            schema = {**content[media]["schema"], "components": self.spec["components"]}
            errors = list(OAS31Validator(schema).iter_errors(response.json()))
            assert not errors, f"{method} {template} {status}: {errors[0].message} at {list(errors[0].path)}"
        return response

    def __getattr__(self, verb):
        call = getattr(self.api, verb)
        return lambda *args, **kwargs: self.check(call(*args, **kwargs))


def test_the_schema_is_valid_and_documents_every_route(api):
    spec = api.get("/openapi.json").json()
    validate_spec(spec)
    scheme = spec["components"]["securitySchemes"]["token"]
    assert (scheme["type"], scheme["scheme"]) == ("http", "bearer") and "player token" in scheme["description"]
    assert "HTTPValidationError" not in spec["components"]["schemas"]  # errors are {code, message}, not FastAPI's
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            assert [s for s in responses if s.startswith("2")], f"{method} {path} documents no success"
            successes = [s for s in responses if s.startswith("2") and s != "204"]  # 204: no body to describe
            for status in successes:
                schema = next(iter(responses[status]["content"].values()))["schema"]
                assert schema, f"{method} {path} {status} has an empty schema"
            for status, answer in responses.items():
                if status[0] in "45":
                    error_schema = answer["content"]["application/json"]["schema"]
                    assert error_schema == {"$ref": "#/components/schemas/ErrorBody"}
            assert "500" in responses
    description = spec["info"]["description"]
    assert "open` (seats to fill" in description and "`ended`" in description and "scores_pending" in description
    for game in ("carcassonne", "heaven-and-ale", "tiefenthal"):
        assert f"(`{game}`)" in description
    assert "Coordinates" in description


def test_leaving_a_game_is_documented_with_its_codes(api):
    spec = api.get("/openapi.json").json()
    commands = spec["paths"]["/games/{game_id}/commands"]["post"]
    assert "taproom.Resign" in commands["description"] and "already_resigned" in commands["description"]
    assert "`already_resigned`" in commands["responses"]["409"]["description"]
    assert "`game_not_active`" in commands["responses"]["409"]["description"]
    assert "taproom.Resign" in spec["paths"]["/games/{game_id}/legal"]["get"]["description"]
    seat = spec["components"]["schemas"]["SeatInfo"]["properties"]
    assert {"left", "left_order", "absent", "vote_choices"} <= set(seat)


def test_docs_and_redoc_work_offline(api):
    for page in ("/docs", "/redoc"):
        html = api.get(page)
        assert html.status_code == 200
        assets = re.findall(r"""(?:src|href)=["']([^"']+)["']""", html.text) + re.findall(r"url: *'([^']+)'", html.text)
        assert assets and not [a for a in assets if a.startswith(("http:", "https:", "//"))], assets
        for asset in assets:
            assert api.get(asset).status_code == 200, asset


def test_every_route_answers_as_its_schema_says(api):
    c = Checked(api)
    c.get("/health"), c.get("/livez"), c.get("/metrics"), c.get("/games/types")
    c.get("/games/types/carcassonne/description"), c.get("/games/types/counter/description")  # 200, 404
    ann = c.post("/players", json={"name": "Ann"}).json()
    bob = c.post("/players", json={"name": "Bob"}).json()
    c.post("/players", json={"name": ""})  # 422
    c.post("/players", headers={"content-type": "application/json"}, content=b"{oops")  # 400
    game = c.post("/games", headers=bearer(ann["token"]), json={
        "game": "counter", "options": {"target": 12}, "seed": "schema", "seats": [{"me": True}, {}, {"bot": "random"}]})
    gid = game.json()["game_id"]
    c.post("/games", json={"game": "chess", "seats": [{"name": "x"}]})  # 400 unknown game
    c.get("/lobby")
    c.post(f"/games/{gid}/join", headers=bearer(bob["token"]), json={})
    c.post(f"/games/{gid}/join", json={"name": "late"})  # 409
    c.get("/games/nosuchgame")  # 404
    wait_for(api, f"/games/{gid}", until=lambda b: b.get("status") == "active" and b.get("to_act"))
    c.get(f"/games/{gid}"), c.get(f"/games/{gid}/view", headers=bearer(ann["token"]))
    c.get(f"/games/{gid}/view")  # 401
    c.get(f"/games/{gid}/view", headers=bearer(ann["token"]), params={"seat": 1})  # 403
    c.get("/inbox", headers=bearer(ann["token"])), c.get("/inbox")
    players = {0: ann["token"], 1: bob["token"]}
    moved = 0
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        public = c.get(f"/games/{gid}").json()
        if public["status"] == "scored":
            break
        for _seat, token in players.items():
            legal = c.get(f"/games/{gid}/legal", headers=bearer(token)).json()
            if game_moves(legal):
                answer = c.post(f"/games/{gid}/commands", headers=bearer(token),
                                json={**game_moves(legal)[0], "command_id": f"m{moved}"})
                moved += answer.status_code == 200
                if moved == 1:
                    c.get(f"/games/{gid}/commands/m0", headers=bearer(token))
                    c.post(f"/games/{gid}/commands", headers=bearer(token),
                           json={**game_moves(legal)[0], "command_id": "m0", "amount": 3})  # 409 reused
                    c.post(f"/games/{gid}/commands", headers=bearer(token), json={"type": "Add", "amount": 9})
                    c.post(f"/games/{gid}/commands", headers=bearer(token), json={"type": "Nope"})
                    c.post(f"/games/{gid}/commands", headers=bearer(token),
                           content=b'{"type": "Add", "pad": "' + b"x" * 70_000 + b'"}')  # 413
                    c.get(f"/games/{gid}/clock"), c.post(f"/games/{gid}/reclaim", headers=bearer(token))
                    c.get(f"/games/{gid}/record", headers=bearer(token))
        time.sleep(0.01)
    assert c.get(f"/games/{gid}").json()["status"] == "scored" and moved > 0
    head = c.get(f"/games/{gid}/events", headers=bearer(bob["token"])).json()["version"]
    c.get(f"/games/{gid}/events", params={"after": -1})  # 422
    for version in (0, 2, head, head + 1):
        c.get(f"/games/{gid}/at/{version}", headers=bearer(ann["token"]))
    c.get(f"/games/{gid}/record")
    # the web client's routes and the games' static descriptions
    c.post(f"/games/{gid}/stream-ticket", headers=bearer(ann["token"])), c.get(f"/games/{gid}/verify")
    c.get("/games/types/tiefenthal/rules"), c.get("/games/types/tiefenthal/description")
    c.get("/games/types/counter/description")  # 404 no_description
    with api.stream("GET", f"/games/{gid}/stream", params={"after": head - 1}) as s:
        c.check(s)
    c.get(f"/games/{gid}/stream", headers={"Last-Event-ID": "x"})  # 422
    # the web client's routes: a stream ticket, the audit verdict, rules notes
    ticket = c.post(f"/games/{gid}/stream-ticket", headers=bearer(ann["token"])).json()["ticket"]
    with api.stream("GET", f"/games/{gid}/stream", params={"after": head - 1, "ticket": ticket}) as s:
        c.check(s)
    c.post(f"/games/{gid}/stream-ticket")  # 401
    c.get(f"/games/{gid}/verify"), c.get("/games/nosuchgame/verify")  # 200, 404
    c.get("/games/types/tiefenthal/rules"), c.get("/games/types/chess/rules")  # 200, 400
    for route in ("webhook", "notifications", "vacation"):
        c.get(f"/players/me/{route}", headers=bearer(ann["token"]))
    c.put("/players/me/webhook", headers=bearer(ann["token"]), json={"url": "https://93.184.216.34/hook"})
    c.delete("/players/me/webhook", headers=bearer(ann["token"]))
    c.post("/players/me/vacation", headers=bearer(ann["token"]), json={"days": 1})
    c.delete("/players/me/vacation", headers=bearer(ann["token"]))
    c.delete("/players/me/vacation", headers=bearer(ann["token"]))  # 404: not on vacation any more
    c.get("/lobby"), c.get("/inbox", headers=bearer(bob["token"]))
    # a seat the autopilot took over (after one timeout, by this pace; the service's TimeOut is sent here
    # directly): another seat votes and withdraws the vote, and the holder takes the seat back
    z_and_y = c.post("/games", headers=bearer(ann["token"]), json={
        "game": "counter", "options": {"target": 30}, "seed": "t",
        "seats": [{"me": True}, {"name": "z"}, {"name": "y"}],
        "pace": {"per_move_seconds": 3600, "takeover_after": 1, "takeover_vote": "end"}}).json()
    tid, z = z_and_y["game_id"], z_and_y["seats"][1]["token"]
    version = wait_for(api, f"/games/{tid}", until=lambda b: b.get("to_act") == [0])["version"]
    outcome = api.app.state.context.bus.send(tid, {"type": "taproom.TimeOut", "for_seat": 0, "at_version": version,
                                                   "move": {"type": "Add", "amount": 1}}, seat=-1, actor="test")
    assert outcome is not None and outcome.accepted, outcome
    assert c.post(f"/games/{tid}/votes", headers=bearer(z), json={"about_seat": 0, "choice": "end"}).status_code == 200
    assert c.delete(f"/games/{tid}/votes/0", headers=bearer(z)).status_code == 200
    assert c.post(f"/games/{tid}/reclaim", headers=bearer(ann["token"])).status_code == 200
    c.get(f"/games/{tid}/clock")
    # a tutorial: a casual game with hints (its hints are POST /games/{id}/hint, in coach_routes)
    coached = c.post("/games", headers=bearer(ann["token"]), json={
        "game": "counter", "options": {"target": 12}, "seed": "coach", "tutorial": True,
        "seats": [{"me": True}, {"bot": "random"}]}).json()["game_id"]
    wait_for(api, f"/games/{coached}", until=lambda b: b.get("status") == "active")
    summary = c.get(f"/games/{coached}").json()
    assert (summary["tutorial"], summary["rated"], summary["hints"]) == (True, False, True)
    identity_routes(c, api)
    notification_routes(c, api, ann["token"])
    social_routes(c, gid, ann, bob)
    coach_routes(c, api, ann, bob)
    documented = {(m, p) for p, ops in c.spec["paths"].items() for m in ops}
    answered = {(m, p) for m, p, status in c.seen if status < 300}
    assert documented == answered, f"routes never answered successfully here: {documented - answered}"


def coach_routes(c: Checked, api, ann: dict, bob: dict) -> None:
    """The coach (issue 36): asking for the analysis of a (very short) finished Carcassonne game, and reading it."""
    made = c.post("/games", headers=bearer(ann["token"]), json={
        "game": "carcassonne", "options": {"stack_size": 1}, "seed": "coach", "seats": [{"me": True}, {}]}).json()
    gid = made["game_id"]
    c.post(f"/games/{gid}/join", headers=bearer(bob["token"]), json={})
    wait_for(api, f"/games/{gid}", until=lambda b: b.get("status") == "active")
    c.post(f"/games/{gid}/analysis", headers=bearer(ann["token"]))  # 409 game_not_over
    for move in range(20):
        if c.get(f"/games/{gid}").json()["status"] != "active":
            break
        for token in (ann["token"], bob["token"]):
            moves = [m for m in c.get(f"/games/{gid}/legal", headers=bearer(token)).json()["commands"]
                     if not m["type"].startswith("taproom.")]  # not Resign
            if moves:
                c.post(f"/games/{gid}/commands", headers=bearer(token), json={**moves[0], "command_id": f"c{move}"})
    wait_for(api, f"/games/{gid}", until=lambda b: b.get("status") == "scored")
    c.get(f"/games/{gid}/analysis")  # 404 no_analysis
    c.post(f"/games/{gid}/analysis", headers=bearer(ann["token"]))  # 202
    c.get(f"/games/{gid}/analysis")
    done = wait_for(api, f"/games/{gid}/analysis", until=lambda b: b.get("status") == "done", timeout=120)
    decision = next((s["seat"], d["version"]) for s in done["seats"] for d in s["decisions"])
    c.get(f"/games/{gid}/analysis/better?seat={decision[0]}&version={decision[1]}", headers=bearer(ann["token"]))
    c.get(f"/games/{gid}/analysis/better?seat={decision[0]}&version=99999")  # 404
    c.post(f"/games/{gid}/hint", headers=bearer(ann["token"]))  # 409 hints_off
    casual = c.post("/games", headers=bearer(ann["token"]), json={
        "game": "carcassonne", "options": {"stack_size": 1}, "seed": "hint", "rated": False, "hints": True,
        "seats": [{"me": True}, {"name": "Guest"}]}).json()
    wait_for(api, f"/games/{casual['game_id']}", until=lambda b: b.get("to_act") == [0])
    c.post(f"/games/{casual['game_id']}/hint", headers=bearer(ann["token"]))  # 200


def social_routes(c: Checked, gid: str, ann: dict, bob: dict) -> None:
    """Chat, mutes, rematch, leaderboards and profiles (issue 19) on the finished game ``gid``."""
    said = c.post(f"/games/{gid}/chat", headers=bearer(ann["token"]), json={"text": "good game"}).json()
    c.post(f"/games/{gid}/chat", headers=bearer(ann["token"]), json={"text": ""})  # 422
    c.get(f"/games/{gid}/chat"), c.get(f"/games/{gid}/chat", params={"channel": "spectators"}, headers=bearer(bob["token"]))
    c.post("/chat/mutes", headers=bearer(bob["token"]), json={"author": said["author"]})
    c.get("/chat/mutes", headers=bearer(bob["token"])), c.delete(f"/chat/mutes/{said['author']}", headers=bearer(bob["token"]))
    c.get(f"/games/{gid}/chat/replay", headers=bearer(bob["token"])), c.get(f"/games/{gid}/chat/replay", params={"upto": 2})
    c.post(f"/games/{gid}/chat/reports", headers=bearer(bob["token"]), json={"message_id": said["id"], "reason": "x"})
    c.post(f"/games/{gid}/chat/reports", headers=bearer(bob["token"]), json={"message_id": "1-0"})  # 404
    c.post("/players/me/blocks", headers=bearer(bob["token"]), json={"player_id": ann["player_id"]})
    c.get("/players/me/blocks", headers=bearer(bob["token"]))
    c.delete(f"/players/me/blocks/{ann['player_id']}", headers=bearer(bob["token"]))
    c.post(f"/games/{gid}/rematch", headers=bearer(ann["token"])), c.post("/games/nosuchgame/rematch", headers=bearer(ann["token"]))
    c.get("/games/types/counter/leaderboard"), c.get("/games/types/chess/leaderboard")  # 200, 400
    c.get(f"/players/{ann['player_id']}/profile"), c.get("/players/nobody/profile")  # 200, 404


def identity_routes(c: Checked, api) -> None:
    """Handles, recovery, token rotation and invitations (built on branch identity), through the checker."""
    dan = c.post("/players", json={"name": "Dan", "handle": "dan_d"}).json()
    eve = c.post("/players", json={"name": "Eve", "handle": "eve_e"}).json()
    c.post("/players", json={"name": "Dan again", "handle": "DAN_D"})  # 409 handle taken
    c.get("/players/me", headers=bearer(dan["token"])), c.get("/players/by-handle/EVE_E")
    c.get("/players/by-handle/nobody_zz")  # 404
    gid = c.post("/games", headers=bearer(dan["token"]), json={
        "game": "counter", "options": {"target": 12}, "seats": [{"me": True}, {}, {}]}).json()["game_id"]
    c.post(f"/games/{gid}/invitations", headers=bearer(dan["token"]), json={"handle": "eve_e"})
    c.get("/players/me/invitations", headers=bearer(eve["token"]))
    c.post(f"/games/{gid}/invitations/1/decline", headers=bearer(eve["token"]))
    c.post(f"/games/{gid}/invitations", headers=bearer(dan["token"]), json={"handle": "eve_e", "seat": 2})
    c.delete(f"/games/{gid}/invitations/2", headers=bearer(dan["token"]))
    c.post(f"/games/{gid}/invitations", headers=bearer(dan["token"]), json={"handle": "eve_e", "seat": 1})
    wait_for(api, "/inbox", bearer(eve["token"]), lambda b: bool(b["invitations"]))
    c.get("/inbox", headers=bearer(eve["token"]))
    c.post(f"/games/{gid}/invitations/1/accept", headers=bearer(eve["token"]))
    code = c.post("/players/me/recovery-code", headers=bearer(dan["token"])).json()["recovery_code"]
    c.post("/players/recover", json={"handle": "dan_d", "recovery_code": "wrong"})  # refused
    recovered = c.post("/players/recover", json={"handle": "dan_d", "recovery_code": code}).json()
    c.post("/players/me/token", headers=bearer(recovered["token"]))


def test_the_documented_conventions_hold():
    """What the per-game pages promise, checked against the games themselves."""
    from domain.carcassonne import tiles
    from domain.carcassonne.state import FIGURE, OVER, PLACE, TEND
    from domain.core import get_game, rng_for
    from domain.heaven_and_ale import state as ha
    from services.adapters.api.docs import conventions

    assert tiles.EDGES == "NESW" and tiles.STEP[0] == (0, 1)  # y grows to the north
    assert tiles.TILES["D"].spec.edges == "CRFR" and tiles.TILES["D"].rotations[1].edges == "RCRF"  # clockwise
    carcassonne = get_game("carcassonne")
    start = carcassonne.view(carcassonne.fold(None, carcassonne.setup(carcassonne.parse_options({}), 2,
                                                                        rng_for(b"c", 0))), 0)
    assert (start["board"][0]["x"], start["board"][0]["y"]) == (0, 0)
    text = conventions(carcassonne)
    assert all(f"`{phase}`" in text for phase in (PLACE, FIGURE, TEND, OVER))
    text = conventions(get_game("heaven-and-ale"))
    steps = (ha.STEP_MOVE, ha.STEP_BUY, ha.STEP_DISC, ha.STEP_BARREL, ha.STEP_STORAGE, ha.STEP_SHED)
    assert all(f"`{name}`" in text for name in (ha.PLACING, ha.ARRANGING, ha.PLAYING, ha.OVER, *steps))
    text = conventions(get_game("tiefenthal"))
    assert all(f"`{phase}`" in text for phase in ("A", "B", "C", "D", "E", "F", "end"))
    for game in ("carcassonne", "heaven-and-ale", "tiefenthal"):
        text = conventions(get_game(game))
        for command in get_game(game)._command_index():  # every command a client can send is named
            assert f"`{command}" in text, (game, command)


def _job_anywhere(queue, func_suffix: str):
    """A job of ``queue`` wherever it is now: still queued, or already taken by the pipeline's worker thread
    (running, scheduled for a retry after the closed SMTP port, failed or finished)."""
    from rq.job import Job

    registries = (queue.started_job_registry, queue.scheduled_job_registry, queue.failed_job_registry,
                  queue.finished_job_registry, queue.deferred_job_registry)
    ids = queue.job_ids + [job_id for registry in registries for job_id in registry.get_job_ids()]
    jobs = [j for j in Job.fetch_many(ids, connection=queue.connection) if j and j.func_name.endswith(func_suffix)]
    assert jobs, f"no {func_suffix} job in the queue or its registries"
    return jobs[0]


def notification_routes(c: Checked, api, token: str) -> None:
    """E-mail and Web Push settings; SMTP and VAPID configured for this walk only (the mail job is not run)."""
    import base64

    from rq import Queue

    from services.infrastructure.settings import AsyncSettings

    def b64(raw: bytes) -> str:
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

    c.get("/push/key")  # 404: no VAPID key
    api.app.state.async_settings = AsyncSettings(smtp_host="127.0.0.1", smtp_port=9, vapid_public_key=b64(b"\x04" * 65),
                                                 webhook_allow_private=True, public_url="https://t.test")
    c.get("/players/me/notification-settings", headers=bearer(token))
    c.put("/players/me/notification-settings", headers=bearer(token), json={"kinds": ["your_turn"]})
    c.put("/players/me/notification-settings", headers=bearer(token), json={"kinds": ["gossip"]})  # 422
    c.put("/players/me/email", headers=bearer(token), json={"address": "ann@example.org"})
    c.put("/players/me/email", headers=bearer(token), json={"address": "not an address"})  # 422
    queue = Queue(api.app.state.context.settings.rq_queue, connection=api.app.state.context.redis)
    job = _job_anywhere(queue, "deliver_verification")
    c.get("/email/verify", params={"token": job.args[1]})
    c.get("/email/verify", params={"token": job.args[1]})  # 404: used
    c.get("/email/unsubscribe", params={"token": "x"})
    c.post("/email/unsubscribe", params={"token": "x"})  # 404
    from services.application.notifications.mail import Addresses

    ctx = api.app.state.context
    player = api.get("/players/me", headers=bearer(token)).json()["player_id"]
    unsubscribe = Addresses(ctx.redis, ctx.keys, api.app.state.async_settings).unsubscribe_token(player, "your_turn")
    c.post("/email/unsubscribe", params={"token": unsubscribe})
    c.get("/push/key")
    sub = {"endpoint": "http://127.0.0.1:9/p", "keys": {"p256dh": b64(b"\x04" * 65), "auth": b64(b"a" * 16)}}
    added = c.post("/players/me/push-subscriptions", headers=bearer(token), json=sub).json()
    c.delete(f"/players/me/push-subscriptions/{added['id']}", headers=bearer(token))
    c.delete("/players/me/push-subscriptions/nope", headers=bearer(token))  # 404
    c.delete("/players/me/email", headers=bearer(token))
    del api.app.state.async_settings


def test_a_method_a_path_does_not_take_is_405_naming_the_ones_it_does(api):
    """RFC 9110: a 405 carries ``Allow``, the methods the path does take (all of them, whichever route of the
    path the router tried first); the web client's files and page too."""
    paths = api.get("/openapi.json").json()["paths"]
    for path, item in paths.items():
        url = path.replace("{game}", "counter").replace("{version}", "1").replace("{about_seat}", "0")
        url = "/".join("x1" if part.startswith("{") else part for part in url.split("/"))
        taken = {m.upper() for m in item if m in ("get", "put", "post", "delete", "patch")}
        answer = api.request("PATCH", url)
        if "PATCH" in taken:
            continue
        assert (answer.status_code, answer.json()["code"]) == (405, "method_not_allowed"), (path, answer.text)
        assert set(answer.headers["Allow"].replace(" ", "").split(",")) == taken, (path, answer.headers)
    for url, taken in [("/", {"GET"}), ("/static/app.css", {"GET", "HEAD"}), ("/sw.js", {"GET"})]:
        answer = api.post(url)
        assert answer.status_code == 405 and set(answer.headers["Allow"].replace(" ", "").split(",")) == taken, \
            (url, answer.status_code, answer.headers)
