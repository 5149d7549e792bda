"""Chat in the replay and the archive (each message at its place, to whoever could read it then), reports of a
message (and the operator's listing), blocks (chat hidden, invitations refused) and their limits (issue 34)."""

from __future__ import annotations

import pytest

from services.infrastructure.archive import Archiver, DirectoryStore
from tests.services.social.test_social_api import play_to_the_score, say, two_player_game
from tests.services.test_api import bearer, wait_for
from tests.services.test_identity import register


def add_one(api, gid: str, who: dict) -> int:
    """Who is to act adds one; returns the game's version after it."""
    done = api.post(f"/games/{gid}/commands", headers=bearer(who["token"]), json={"type": "Add", "amount": 1})
    assert done.status_code == 200, done.text
    return done.json()["version"]


def replay(api, gid: str, who: dict | None = None, **params) -> list[tuple[int, str, str]]:
    answer = api.get(f"/games/{gid}/chat/replay", params=params, headers=bearer(who["token"]) if who else {})
    assert answer.status_code == 200, answer.text
    return [(m["version"], m["channel"], m["text"]) for m in answer.json()["messages"]]


@pytest.mark.cluster  # the post script's keys and the mutes' and blocks' SUNION share a slot each
def test_the_replay_shows_each_message_at_its_place_to_whoever_could_read_it(api, tmp_path) -> None:
    ann, bob, cat = register(api, "Ann"), register(api, "Bob"), register(api, "Cat")
    gid = two_player_game(api, ann, bob, target=4)
    start = api.get(f"/games/{gid}").json()["version"]
    assert say(api, gid, ann, "good luck").json()["version"] == start
    first = add_one(api, gid, ann)
    assert say(api, gid, cat, "bold start", "spectators").status_code == 201
    said = say(api, gid, bob, "hm")
    assert said.json()["version"] == first
    play_to_the_score(api, gid, ann, bob)
    end = api.get(f"/games/{gid}").json()["version"]
    assert say(api, gid, bob, "well played").status_code == 201
    assert say(api, gid, cat, "what a game", "spectators").status_code == 201

    table = [(start, "seats", "good luck"), (first, "seats", "hm")]
    # a spectator (or anyone without a seat) read both channels as they went
    everything = [*table[:1], (first, "spectators", "bold start"), table[1], (end, "seats", "well played"),
                  (end, "spectators", "what a game")]
    assert replay(api, gid, cat) == everything
    assert replay(api, gid) == everything
    # the seats never read the spectators while the game ran; what they said after the end, the seats read
    seat_view = [*table, (end, "seats", "well played"), (end, "spectators", "what a game")]
    assert replay(api, gid, ann) == replay(api, gid, bob) == seat_view
    # up to a version: what had been said by then
    assert replay(api, gid, ann, upto=first) == table
    assert replay(api, gid, cat, upto=start) == table[:1]

    # the archive takes the chat along, and the replay reads it back, the same for everyone
    ctx = api.app.state.context
    assert Archiver(ctx.store, DirectoryStore(tmp_path)).archive(gid).status == "archived"
    assert not any(ctx.redis.exists(k) for k in ctx.keys.chat_side_keys(gid))
    assert replay(api, gid, cat) == replay(api, gid) == everything
    assert replay(api, gid, ann) == seat_view
    assert replay(api, gid, bob, upto=first) == table


def test_a_report_is_kept_with_the_game_once_per_reporter_and_listed_for_the_operator(api, tmp_path) -> None:
    from services.application.chat import Chat
    from services.application.moderation import Reports

    ann, bob, cat = register(api, "Ann"), register(api, "Bob"), register(api, "Cat")
    gid = two_player_game(api, ann, bob, target=2)
    rude = say(api, gid, bob, "you play like a potato").json()
    mine = say(api, gid, ann, "gl").json()

    def report(who: dict, message: dict, reason: str = "", channel: str = "seats"):
        return api.post(f"/games/{gid}/chat/reports", headers=bearer(who["token"]),
                        json={"channel": channel, "message_id": message["id"], "reason": reason})

    first = report(ann, rude, "  insults\n my play ")
    assert first.status_code == 201 and first.json()["created"], first.text
    again = report(ann, rude, "changed my mind")  # a retry, or a second click: the same report, nothing new
    assert again.status_code == 201 and not again.json()["created"]
    assert again.json()["report_id"] == first.json()["report_id"]
    assert report(cat, rude).json()["created"]  # a spectator reads the table chat, so may report it
    own = report(ann, mine)
    assert (own.status_code, own.json()["code"]) == (422, "invalid_request")
    missing = report(ann, {"id": "1-0"})
    assert (missing.status_code, missing.json()["code"]) == (404, "message_not_found")
    assert api.post(f"/games/{gid}/chat/reports", json={"message_id": rude["id"]}).status_code == 401

    ctx = api.app.state.context
    reports = Reports(ctx.store, Chat(ctx.store))
    found = reports.latest()
    assert [(r.reporter_name, r.author_name, r.text, r.reason) for r in found] == [
        ("Cat", "Bob", "you play like a potato", ""), ("Ann", "Bob", "you play like a potato", "insults my play")]
    # the reports travel with the game's archive and are listed from there
    play_to_the_score(api, gid, ann, bob)
    assert Archiver(ctx.store, DirectoryStore(tmp_path)).archive(gid).status == "archived"
    assert not ctx.redis.exists(ctx.keys.chat_reports(gid))
    assert reports.latest() == found


def test_the_cli_lists_reports_with_the_message_the_reporter_the_game_and_the_time(api, settings, monkeypatch) -> None:
    from click.testing import CliRunner

    from services.adapters.cli import main
    from services.infrastructure import bootstrap

    ann, bob = register(api, "Ann"), register(api, "Bob")
    gid = two_player_game(api, ann, bob)
    rude = say(api, gid, bob, "rude words here").json()
    api.post(f"/games/{gid}/chat/reports", headers=bearer(ann["token"]),
             json={"message_id": rude["id"], "reason": "rude"})
    # the operator's command, against the same store the API writes to
    client = api.app.state.context.store.redis
    monkeypatch.setattr(main, "get_settings", lambda: settings.model_copy(update={"redis_url": "redis://the-store"}))
    monkeypatch.setattr(bootstrap, "client_factory", lambda _: lambda: client)
    shown = CliRunner().invoke(main.cli, ["reports"])
    assert shown.exit_code == 0, shown.output
    assert f"game {gid} (seats chat, message {rude['id']})" in shown.output
    assert f"reported by Ann (player:{ann['player_id']}): rude" in shown.output
    assert f"Bob (player:{bob['player_id']}) wrote: rude words here" in shown.output
    assert " UTC " in shown.output
    as_json = CliRunner().invoke(main.cli, ["reports", "--json", "--game", gid])
    assert '"text": "rude words here"' in as_json.output


def test_a_block_hides_the_players_chat_everywhere_and_refuses_their_invitations(api) -> None:
    ann, bob, cat = register(api, "Ann"), register(api, "Bob"), register(api, "Cat")
    gid = two_player_game(api, ann, bob)
    say(api, gid, bob, "before the block")
    say(api, gid, ann, "hello")
    blocked = api.post("/players/me/blocks", headers=bearer(ann["token"]), json={"player_id": bob["player_id"]})
    assert blocked.status_code == 200, blocked.text
    assert [p["name"] for p in blocked.json()["blocked"]] == ["Bob"]
    say(api, gid, bob, "after the block")
    # hidden for Ann: the live chat and the replay, whenever it was said; not for anyone else
    assert [m["text"] for m in api.get(f"/games/{gid}/chat", headers=bearer(ann["token"])).json()["messages"]] == ["hello"]
    assert [t for _, _, t in replay(api, gid, ann)] == ["hello"]
    assert len(api.get(f"/games/{gid}/chat", headers=bearer(cat["token"])).json()["messages"]) == 3
    # Bob's invitations to Ann are refused, with words; Cat's are not
    for inviter, expected in ((bob, 403), (cat, 201)):
        made = api.post("/games", headers=bearer(inviter["token"]), json={
            "game": "counter", "options": {"target": 3}, "seats": [{"me": True}, {}]}).json()
        invited = api.post(f"/games/{made['game_id']}/invitations", headers=bearer(inviter["token"]),
                           json={"handle": ann["handle"]})
        assert invited.status_code == expected, invited.text
        if expected == 403:
            assert invited.json()["code"] == "invitation_refused"
            assert not wait_for(api, f"/games/{made['game_id']}", until=lambda b: True)["seats"][1].get("invited")
    # unblocked: Bob's chat shows again, his invitation goes through
    after = api.delete(f"/players/me/blocks/{bob['player_id']}", headers=bearer(ann["token"]))
    assert after.json()["blocked"] == []
    assert len(api.get(f"/games/{gid}/chat", headers=bearer(ann["token"])).json()["messages"]) == 3
    made = api.post("/games", headers=bearer(bob["token"]), json={
        "game": "counter", "options": {"target": 3}, "seats": [{"me": True}, {}]}).json()
    assert api.post(f"/games/{made['game_id']}/invitations", headers=bearer(bob["token"]),
                    json={"handle": ann["handle"]}).status_code == 201


@pytest.mark.cluster
def test_the_stream_leaves_out_a_blocked_player(api) -> None:
    ann, bob = register(api, "Ann"), register(api, "Bob")
    gid = two_player_game(api, ann, bob)
    api.post("/players/me/blocks", headers=bearer(ann["token"]), json={"player_id": bob["player_id"]})
    ticket = api.post(f"/games/{gid}/stream-ticket", headers=bearer(ann["token"])).json()["ticket"]
    with api.stream("GET", f"/games/{gid}/stream", params={"ticket": ticket, "timeout": 1.5}) as stream:
        say(api, gid, bob, "blocked words")
        say(api, gid, ann, "hello stream")
        body = "".join(stream.iter_text())
    assert "hello stream" in body and "blocked words" not in body


def test_blocks_are_capped_and_checked(api, settings) -> None:
    settings.max_blocks = 2
    ann, *others = (register(api, n) for n in ("Ann", "Bob", "Cat", "Dan"))
    me = bearer(ann["token"])
    for other in others[:2]:
        assert api.post("/players/me/blocks", headers=me, json={"player_id": other["player_id"]}).status_code == 200
    over = api.post("/players/me/blocks", headers=me, json={"player_id": others[2]["player_id"]})
    assert (over.status_code, over.json()["code"]) == (409, "too_many_blocks"), over.text
    assert len(api.get("/players/me/blocks", headers=me).json()["blocked"]) == 2
    # blocking one again is no new block; after an unblock there is room
    assert api.post("/players/me/blocks", headers=me, json={"player_id": others[0]["player_id"]}).status_code == 200
    api.delete(f"/players/me/blocks/{others[0]['player_id']}", headers=me)
    assert api.post("/players/me/blocks", headers=me, json={"player_id": others[2]["player_id"]}).status_code == 200
    assert api.get("/players/me/blocks", headers=me).json()["limit"] == 2
    myself = api.post("/players/me/blocks", headers=me, json={"player_id": ann["player_id"]})
    assert myself.json()["code"] == "invalid_request"
    nobody = api.post("/players/me/blocks", headers=me, json={"player_id": "nobody"})
    assert (nobody.status_code, nobody.json()["code"]) == (404, "player_not_found")


def test_the_mute_list_names_the_authors(api) -> None:
    ann, bob = register(api, "Ann"), register(api, "Bob")
    me = bearer(ann["token"])
    api.post("/chat/mutes", headers=me, json={"author": f"player:{bob['player_id']}"})
    api.post("/chat/mutes", headers=me, json={"author": "seat:g1:1"})
    names = {a["author"]: a["name"] for a in api.get("/chat/mutes", headers=me).json()["authors"]}
    assert names == {f"player:{bob['player_id']}": "Bob", "seat:g1:1": "a guest (seat 2)"}


def test_a_rematch_does_not_invite_a_player_who_blocked_the_asker(api) -> None:
    ann, bob = register(api, "Ann"), register(api, "Bob")
    gid = two_player_game(api, ann, bob, target=2)
    play_to_the_score(api, gid, ann, bob)
    api.post("/players/me/blocks", headers=bearer(bob["token"]), json={"player_id": ann["player_id"]})
    rematch = api.post(f"/games/{gid}/rematch", headers=bearer(ann["token"]))
    assert rematch.status_code == 200, rematch.text
    assert rematch.json()["invited"] == []  # Bob's seat stays open, as for a guest
    assert api.get("/players/me/invitations", headers=bearer(bob["token"])).json()["invitations"] == []
