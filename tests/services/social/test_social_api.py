"""Chat, rematch, ratings and profiles over HTTP (fakeredis, then the real Redis)."""

from __future__ import annotations

import time

import orjson

from tests.services.helpers import game_moves
from tests.services.test_api import bearer, settled, wait_for
from tests.services.test_identity import register


def two_player_game(api, ann: dict, bob: dict, target: int = 30) -> str:
    made = api.post("/games", headers=bearer(ann["token"]), json={
        "game": "counter", "options": {"target": target}, "seed": "s", "seats": [{"me": True}, {}]})
    gid = made.json()["game_id"]
    # a 202 (the command still queued after the short wait: a loaded machine) is followed to its outcome
    assert settled(api, made).status_code in (200, 201), made.text
    joined = api.post(f"/games/{gid}/join", headers=bearer(bob["token"]), json={})
    assert settled(api, joined).status_code == 200, joined.text
    active = wait_for(api, f"/games/{gid}", until=lambda b: b["status"] == "active", timeout=120)
    assert active["status"] == "active"
    return gid


def say(api, gid: str, who: dict, text: str, channel: str = "seats"):
    return api.post(f"/games/{gid}/chat", headers=bearer(who["token"]), json={"text": text, "channel": channel})


def test_chat_channels_limits_mutes_and_the_log(api, settings) -> None:
    ann, bob, cat = register(api, "Ann"), register(api, "Bob"), register(api, "Cat")
    gid = two_player_game(api, ann, bob)
    assert say(api, gid, ann, "  good luck \x07 ").status_code == 201
    assert say(api, gid, bob, "you too").status_code == 201
    too_long = say(api, gid, bob, "x" * (settings.chat_max_chars + 1))
    assert too_long.status_code == 422 and too_long.json()["code"] == "invalid_request"
    assert say(api, gid, bob, "   ").status_code == 422
    # a spectator reads the table but writes among the spectators only; the seats never read them mid-game
    assert say(api, gid, cat, "hint: play 3").status_code == 403
    assert say(api, gid, cat, "nice opening", "spectators").status_code == 201
    assert say(api, gid, ann, "me too", "spectators").status_code == 403
    assert api.get(f"/games/{gid}/chat", params={"channel": "spectators"}, headers=bearer(ann["token"])).status_code == 403
    spect = api.get(f"/games/{gid}/chat", params={"channel": "spectators"}, headers=bearer(cat["token"])).json()
    assert [m["text"] for m in spect["messages"]] == ["nice opening"] and spect["can_write"]
    table = api.get(f"/games/{gid}/chat", headers=bearer(cat["token"])).json()
    assert [(m["name"], m["seat"], m["text"]) for m in table["messages"]] == [("Ann", 0, "good luck"), ("Bob", 1, "you too")]
    assert not table["can_write"]
    # Ann mutes Bob: his messages are gone for her only
    bob_key = table["messages"][1]["author"]
    assert api.post("/chat/mutes", headers=bearer(ann["token"]), json={"author": bob_key}).json()["muted"] == [bob_key]
    say(api, gid, bob, "are you there?")
    mine = api.get(f"/games/{gid}/chat", headers=bearer(ann["token"])).json()["messages"]
    assert [m["text"] for m in mine] == ["good luck"]
    assert len(api.get(f"/games/{gid}/chat", headers=bearer(cat["token"])).json()["messages"]) == 3
    assert api.delete(f"/chat/mutes/{bob_key}", headers=bearer(ann["token"])).json()["muted"] == []
    # nothing of it is in the game's event log
    events = api.get(f"/games/{gid}/events", headers=bearer(ann["token"])).json()["events"]
    assert not any("good luck" in orjson.dumps(e).decode() or "chat" in e["type"].lower() for e in events)


def test_chat_is_rate_limited_per_player(api, settings) -> None:
    settings.rate_limit_chat = "3/minute"
    ann, bob = register(api, "Ann"), register(api, "Bob")
    gid = two_player_game(api, ann, bob)
    codes = [say(api, gid, ann, f"m{i}").status_code for i in range(4)]
    assert codes == [201, 201, 201, 429]
    assert say(api, gid, bob, "still me").status_code == 201  # per player: Bob has his own count


def test_the_stream_carries_chat_without_muted_authors(api) -> None:
    ann, bob = register(api, "Ann"), register(api, "Bob")
    gid = two_player_game(api, ann, bob)
    bob_key = f"player:{bob['player_id']}"
    api.post("/chat/mutes", headers=bearer(ann["token"]), json={"author": bob_key})
    ticket = api.post(f"/games/{gid}/stream-ticket", headers=bearer(ann["token"])).json()["ticket"]
    say(api, gid, ann, "before")  # said before the stream opened: read from GET /chat instead
    with api.stream("GET", f"/games/{gid}/stream", params={"ticket": ticket, "timeout": 1.5}) as stream:
        say(api, gid, bob, "muted words")
        say(api, gid, ann, "hello stream")
        lines = list(stream.iter_lines())
    chats = [orjson.loads(lines[i + 1][6:]) for i, line in enumerate(lines) if line == "event: chat"]
    assert [m["text"] for m in chats] == ["hello stream"]


def test_rematch_rotates_seats_invites_the_others_and_rates_the_game(api) -> None:
    ann, bob = register(api, "Ann"), register(api, "Bob")
    gid = two_player_game(api, ann, bob, target=3)
    assert api.post(f"/games/{gid}/rematch", headers=bearer(ann["token"])).json()["code"] == "game_not_active"
    deadline = time.monotonic() + 20
    while api.get(f"/games/{gid}").json()["status"] != "scored" and time.monotonic() < deadline:
        for who in (ann, bob):
            legal = game_moves(api.get(f"/games/{gid}/legal", headers=bearer(who["token"])).json())
            if legal:
                api.post(f"/games/{gid}/commands", headers=bearer(who["token"]), json={"type": "Add", "amount": 1})
        time.sleep(0.01)
    scored = wait_for(api, f"/games/{gid}", until=lambda b: b["status"] == "scored")
    winner = ann["player_id"] if scored["places"]["0"] == 1 else bob["player_id"]

    made = api.post(f"/games/{gid}/rematch", headers=bearer(ann["token"]))
    assert made.status_code == 200, made.text
    new = made.json()
    assert new["created"] and new["seat"] == 1 and new["invited"] == [0]
    meta = wait_for(api, f"/games/{new['game_id']}", until=lambda b: b["seats"][0]["invited"] is not None)
    assert meta["options"] == {"target": 3} and meta["seats"][1]["player_id"] == ann["player_id"]
    inbox = wait_for(api, "/inbox", bearer(bob["token"]), lambda b: bool(b["invitations"]))
    assert [i["game_id"] for i in inbox["invitations"]] == [new["game_id"]]
    # Bob asks too: the same rematch, and asking accepts his seat
    again = api.post(f"/games/{gid}/rematch", headers=bearer(bob["token"])).json()
    assert again["game_id"] == new["game_id"] and not again["created"] and again["seat"] == 0
    assert wait_for(api, f"/games/{new['game_id']}", until=lambda b: b["status"] == "active")["status"] == "active"

    # the finished game was rated by the end-game job, and both profiles show it (provisional: one game, so no
    # leaderboard lists either player yet)
    profile = wait_for(api, f"/players/{ann['player_id']}/profile", until=lambda b: b["games_played"] == 1)
    assert api.get("/games/types/counter/leaderboard").json()["rows"] == []
    assert profile["games_played"] == 1 and profile["wins"] == (winner == ann["player_id"])
    assert profile["finished"][0]["game_id"] == gid and profile["finished"][0]["replay"] == f"/#/game/{gid}"
    assert len(profile["history"]["counter"]) == 1 and profile["ratings"][0]["games"] == 1
    row = profile["ratings"][0]
    assert row["provisional"] is True and row["rank"] is None and row["display"] == max(0, round(1000 + 40 * row["rating"]))
    assert profile["reliability"] == {"started": 1, "finished": 1, "percent": 100}
    assert api.get("/players/nobody/profile").status_code == 404


def play_to_the_score(api, gid: str, *players: dict) -> None:
    deadline = time.monotonic() + 20
    while api.get(f"/games/{gid}").json()["status"] != "scored" and time.monotonic() < deadline:
        for who in players:
            if game_moves(api.get(f"/games/{gid}/legal", headers=bearer(who["token"])).json()):
                api.post(f"/games/{gid}/commands", headers=bearer(who["token"]), json={"type": "Add", "amount": 1})
        time.sleep(0.01)
    wait_for(api, f"/games/{gid}", until=lambda b: b["status"] == "scored")


def test_chat_and_rematch_travel_with_the_archive_and_the_chat_closes(api, tmp_path) -> None:
    from services.infrastructure.archive import Archiver, DirectoryStore

    ann, bob, cat = register(api, "Ann"), register(api, "Bob"), register(api, "Cat")
    gid = two_player_game(api, ann, bob, target=3)
    assert say(api, gid, ann, "good luck").status_code == 201
    assert say(api, gid, cat, "tense!", "spectators").status_code == 201
    play_to_the_score(api, gid, ann, bob)
    assert say(api, gid, bob, "well played").status_code == 201
    assert say(api, gid, cat, "what a finish", "spectators").status_code == 201
    rematch = api.post(f"/games/{gid}/rematch", headers=bearer(ann["token"])).json()
    bob_key = api.get(f"/games/{gid}/chat").json()["messages"][1]["author"]
    assert api.post("/chat/mutes", headers=bearer(cat["token"]), json={"author": bob_key}).status_code == 200

    def reads() -> list:
        return [api.get(f"/games/{gid}/chat", params=params, headers=headers).json()["messages"] for params, headers in
                [({}, {}), ({}, bearer(cat["token"])), ({"channel": "spectators"}, bearer(cat["token"])),
                 ({"channel": "spectators"}, bearer(ann["token"])),
                 ({"channel": "spectators", "limit": 1}, bearer(ann["token"]))]]

    before = reads()
    assert [m["text"] for m in before[0]] == ["good luck", "well played"] and len(before[1]) == 1
    assert [m["text"] for m in before[3]] == ["tense!", "what a finish"]
    ctx = api.app.state.context
    assert Archiver(ctx.store, DirectoryStore(tmp_path)).archive(gid).status == "archived"
    assert not any(ctx.redis.exists(k) for k in [*ctx.keys.chat_side_keys(gid), ctx.keys.rematch(gid)])
    assert reads() == before  # read back from the archive, mutes, windows and all
    after = api.get(f"/games/{gid}/chat", params={"channel": "spectators", "after": before[3][0]["id"]},
                    headers=bearer(ann["token"])).json()["messages"]
    assert [m["text"] for m in after] == ["what a finish"]
    # nobody writes to an archived game's chat, and nothing comes back to Redis
    for who, channel in ((bob, "seats"), (cat, "spectators")):
        refused = say(api, gid, who, "anyone here?", channel)
        assert (refused.status_code, refused.json()["code"]) == (409, "game_archived")
    assert not any(ctx.redis.exists(k) for k in ctx.keys.chat_side_keys(gid))
    # the rematch was archived with the game: asking again answers with the same one
    again = api.post(f"/games/{gid}/rematch", headers=bearer(bob["token"])).json()
    assert again["game_id"] == rematch["game_id"] and not again["created"]
    assert not ctx.redis.exists(ctx.keys.rematch(gid))


def test_an_unknown_game_has_no_leaderboard(api) -> None:
    assert api.get("/games/types/nope/leaderboard").json()["code"] == "unknown_game"


def test_undo_over_http_with_carcassonne(api) -> None:
    ann, bob = register(api, "Ann"), register(api, "Bob")
    made = api.post("/games", headers=bearer(ann["token"]), json={
        "game": "carcassonne", "seed": "undo", "seats": [{"me": True}, {}]}).json()
    gid = made["game_id"]
    api.post(f"/games/{gid}/join", headers=bearer(bob["token"]), json={})
    head = wait_for(api, f"/games/{gid}", until=lambda b: b["status"] == "active" and b["to_act"] == [0])["version"]
    me = bearer(ann["token"])

    def legal() -> list[dict]:
        return api.get(f"/games/{gid}/legal", headers=me).json()["commands"]

    # the projected views follow the log a moment later: wait for the version meant
    before = wait_for(api, f"/games/{gid}/view", me, lambda b: b["version"] == head)
    assert not any(c["type"] == "taproom.Undo" for c in legal())
    tile = next(c for c in legal() if c["type"] == "PlaceTile")
    assert api.post(f"/games/{gid}/commands", headers=me, json=tile).status_code == 200
    assert {"type": "taproom.Undo"} in legal()
    undone = api.post(f"/games/{gid}/commands", headers=me, json={"type": "taproom.Undo"})
    assert undone.status_code == 200 and undone.json()["events"][0]["type"] == "taproom.MoveUndone"
    after = wait_for(api, f"/games/{gid}/view", me, lambda b: b["version"] == head + 2)
    assert after["board"] == before["board"] and after["version"] == head + 2
    # a finished turn (the next tile is drawn for Bob) is not undone
    assert api.post(f"/games/{gid}/commands", headers=me, json=tile).status_code == 200
    assert api.post(f"/games/{gid}/commands", headers=me, json={"type": "Pass"}).status_code == 200
    assert not any(c["type"] == "taproom.Undo" for c in legal())
    refused = api.post(f"/games/{gid}/commands", headers=me, json={"type": "taproom.Undo"})
    assert refused.json()["code"] == "nothing_to_undo", refused.text
    # the replay of the log shows the same board at the undo's version as before the move
    version = after["version"]
    assert api.get(f"/games/{gid}/at/{version}", headers=me).json()["board"] == before["board"]


def test_mutes_are_capped_per_caller(api, settings) -> None:
    """At most ``max_chat_mutes`` authors muted per caller (409 ``too_many_mutes``); muting one again, or after
    unmuting another, is fine."""
    ann = register(api, "ann")
    cap = settings.max_chat_mutes
    for i in range(cap):
        assert api.post("/chat/mutes", headers=bearer(ann["token"]), json={"author": f"player:p{i}"}).status_code == 200
    over = api.post("/chat/mutes", headers=bearer(ann["token"]), json={"author": "player:one-more"})
    assert (over.status_code, over.json()["code"]) == (409, "too_many_mutes"), over.text
    assert api.post("/chat/mutes", headers=bearer(ann["token"]), json={"author": "player:p0"}).status_code == 200
    api.delete("/chat/mutes/player:p0", headers=bearer(ann["token"]))
    assert api.post("/chat/mutes", headers=bearer(ann["token"]), json={"author": "player:one-more"}).status_code == 200
    assert len(api.get("/chat/mutes", headers=bearer(ann["token"])).json()["muted"]) == cap


def test_a_rematch_keeps_the_terms_of_the_game_it_follows(api) -> None:
    """A casual game's rematch is casual too (a rematch once came back rated, whatever the game was)."""
    ann, bob = register(api, "Ann"), register(api, "Bob")
    made = api.post("/games", headers=bearer(ann["token"]), json={
        "game": "counter", "options": {"target": 3}, "seed": "s", "rated": False, "seats": [{"me": True}, {}]})
    assert settled(api, made).status_code in (200, 201), made.text
    gid = made.json()["game_id"]
    assert settled(api, api.post(f"/games/{gid}/join", headers=bearer(bob["token"]), json={})).status_code == 200
    deadline = time.monotonic() + 60
    while api.get(f"/games/{gid}").json()["status"] != "scored" and time.monotonic() < deadline:
        for who in (ann, bob):
            if game_moves(api.get(f"/games/{gid}/legal", headers=bearer(who["token"])).json()):
                api.post(f"/games/{gid}/commands", headers=bearer(who["token"]), json={"type": "Add", "amount": 1})
        time.sleep(0.01)
    assert wait_for(api, f"/games/{gid}", until=lambda b: b["status"] == "scored")["rated"] is False
    new = api.post(f"/games/{gid}/rematch", headers=bearer(ann["token"])).json()
    assert wait_for(api, f"/games/{new['game_id']}", until=lambda b: "rated" in b)["rated"] is False
