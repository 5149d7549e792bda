"""Seats over HTTP: invitations by handle, hot-seat games, bot names (fakeredis, then the real Redis)."""

from __future__ import annotations

from .conftest import until_taken
from .test_api import bearer, wait_for
from .test_identity import register


def open_game(api, creator: dict, seats: int = 3, **extra) -> str:
    body = {"game": "counter", "options": {"target": 30}, "seed": "s",
            "seats": [{"me": True}] + [{} for _ in range(seats - 1)], **extra}
    response = until_taken(lambda: api.post("/games", headers=bearer(creator["token"]), json=body))
    assert response.status_code == 201, response.text
    return response.json()["game_id"]


def seat_of(api, gid: str, seat: int, until=lambda s: True, timeout: float = 10.0) -> dict:
    return wait_for(api, f"/games/{gid}", until=lambda b: until(b["seats"][seat]), timeout=timeout)["seats"][seat]


def test_an_invited_player_sees_the_invitation_in_the_inbox_and_accepting_takes_the_seat(api):
    ann, bob = register(api, "Ann"), register(api, "Bob", "bob_b")
    gid = open_game(api, ann, seats=2)
    invited = api.post(f"/games/{gid}/invitations", headers=bearer(ann["token"]), json={"handle": "BOB_B"})
    assert invited.status_code == 201, invited.text
    body = invited.json()
    assert body["seat"] == 1 and body["invitee"] == {"player_id": bob["player_id"], "name": "Bob", "handle": "bob_b"}

    inbox = wait_for(api, "/inbox", bearer(bob["token"]), lambda b: bool(b["invitations"]))
    [item] = inbox["invitations"]
    assert item["game_id"] == gid and item["seat"] == 1 and item["invited_by"]["handle"] == ann["handle"]
    assert api.get("/players/me/invitations", headers=bearer(bob["token"])).json()["invitations"][0]["game_id"] == gid
    assert api.get("/inbox", headers=bearer(ann["token"])).json()["invitations"] == []  # only the invitee's
    notes = wait_for(api, "/players/me/notifications", bearer(bob["token"]), lambda b: bool(b["notifications"]))
    assert [(n["kind"], n["game_id"], n["seat"]) for n in notes["notifications"]] == [("invited", gid, 1)]

    accepted = api.post(item["accept"], headers=bearer(bob["token"]))
    assert accepted.status_code == 200, accepted.text
    seat = seat_of(api, gid, 1, lambda s: not s["open"] and s["player_id"])
    assert seat["player_id"] == bob["player_id"] and seat["name"] == "Bob" and seat["invited"] is None
    assert wait_for(api, f"/games/{gid}", until=lambda b: b["status"] == "active")["status"] == "active"
    assert api.get("/inbox", headers=bearer(bob["token"])).json()["invitations"] == []
    again = api.post(item["accept"], headers=bearer(bob["token"]))  # the same answer again changes nothing
    assert again.status_code in (200, 404)


def test_an_invited_seat_is_reserved_while_guests_still_join_with_a_seat_token(api):
    ann, bob, cat = register(api, "Ann"), register(api, "Bob"), register(api, "Cat")
    gid = open_game(api, ann, seats=3)
    assert api.post(f"/games/{gid}/invitations", headers=bearer(ann["token"]),
                    json={"handle": bob["handle"], "seat": 1}).status_code == 201
    seat_of(api, gid, 1, lambda s: s["invited"] is not None)
    taken = api.post(f"/games/{gid}/join", headers=bearer(cat["token"]), json={"seat": 1})
    assert taken.status_code == 409 and taken.json()["code"] in ("seat_taken", "seat_reserved")
    guest = api.post(f"/games/{gid}/join", json={"name": "Guest"})  # the next open seat, not the reserved one
    assert guest.status_code == 200 and guest.json()["seat"] == 2 and guest.json()["token"]
    full = api.post(f"/games/{gid}/join", headers=bearer(cat["token"]), json={})
    assert full.status_code == 409
    assert api.get(f"/games/{gid}").json()["status"] == "open"  # the invitee's seat keeps the game waiting


def test_a_declined_invitation_opens_the_seat_again(api):
    ann, bob, cat = register(api, "Ann"), register(api, "Bob"), register(api, "Cat")
    gid = open_game(api, ann, seats=2)
    api.post(f"/games/{gid}/invitations", headers=bearer(ann["token"]), json={"handle": bob["handle"]})
    stranger = api.post(f"/games/{gid}/invitations/1/decline", headers=bearer(cat["token"]))
    assert stranger.status_code == 404 and stranger.json()["code"] == "invitation_not_found"
    declined = api.post(f"/games/{gid}/invitations/1/decline", headers=bearer(bob["token"]))
    assert declined.status_code == 200, declined.text
    assert seat_of(api, gid, 1, lambda s: s["open"])["invited"] is None
    late = api.post(f"/games/{gid}/invitations/1/accept", headers=bearer(bob["token"]))
    assert late.status_code == 404 and late.json()["code"] == "invitation_not_found"
    assert wait_for(api, "/inbox", bearer(bob["token"]), lambda b: not b["invitations"])["invitations"] == []
    joined = api.post(f"/games/{gid}/join", headers=bearer(cat["token"]), json={"seat": 1})
    assert joined.status_code == 200, joined.text


def test_the_creator_withdraws_and_nobody_else_invites(api):
    ann, bob, cat = register(api, "Ann"), register(api, "Bob"), register(api, "Cat")
    gid = open_game(api, ann, seats=3)
    other = api.post(f"/games/{gid}/invitations", headers=bearer(cat["token"]), json={"handle": bob["handle"]})
    assert other.status_code == 403 and other.json()["code"] == "forbidden"
    unknown = api.post(f"/games/{gid}/invitations", headers=bearer(ann["token"]), json={"handle": "nobody_zz"})
    assert unknown.status_code == 404 and unknown.json()["code"] == "player_not_found"
    seated = api.post(f"/games/{gid}/invitations", headers=bearer(ann["token"]), json={"handle": ann["handle"]})
    assert seated.status_code == 409 and seated.json()["code"] == "already_seated"
    taken = api.post(f"/games/{gid}/invitations", headers=bearer(ann["token"]),
                     json={"handle": bob["handle"], "seat": 0})
    assert taken.status_code == 409 and taken.json()["code"] == "seat_taken"
    assert api.post(f"/games/{gid}/invitations", headers=bearer(ann["token"]),
                    json={"handle": bob["handle"], "seat": 1}).status_code == 201
    twice = api.post(f"/games/{gid}/invitations", headers=bearer(ann["token"]),
                     json={"handle": bob["handle"], "seat": 2})
    assert twice.status_code == 409 and twice.json()["code"] == "already_invited"
    reserved = api.post(f"/games/{gid}/invitations", headers=bearer(ann["token"]),
                        json={"handle": cat["handle"], "seat": 1})
    assert reserved.status_code == 409 and reserved.json()["code"] == "seat_reserved"
    not_creator = api.delete(f"/games/{gid}/invitations/1", headers=bearer(bob["token"]))
    assert not_creator.status_code == 403
    withdrawn = api.delete(f"/games/{gid}/invitations/1", headers=bearer(ann["token"]))
    assert withdrawn.status_code == 200, withdrawn.text
    assert seat_of(api, gid, 1, lambda s: s["open"])["invited"] is None


def test_an_unanswered_invitation_lapses_and_the_seat_opens_again(api, settings, clock):
    settings.invitation_ttl_seconds = 3600  # the app reads it per request; well inside the game's own expiry
    ann, bob = register(api, "Ann"), register(api, "Bob")
    gid = open_game(api, ann, seats=2)
    api.post(f"/games/{gid}/invitations", headers=bearer(ann["token"]), json={"handle": bob["handle"]})
    wait_for(api, "/inbox", bearer(bob["token"]), lambda b: bool(b["invitations"]))
    clock.advance(3600 + 60)
    late = api.post(f"/games/{gid}/invitations/1/accept", headers=bearer(bob["token"]))
    assert late.status_code in (404, 410) and late.json()["code"] in ("invitation_expired", "invitation_not_found")
    assert api.get("/inbox", headers=bearer(bob["token"])).json()["invitations"] == []
    seat = seat_of(api, gid, 1, lambda s: s["open"], timeout=30)  # the expiry job (scheduler, worker) ended it
    assert seat["open"] and seat["invited"] is None
    kinds = [e["type"] for e in api.get(f"/games/{gid}/events").json()["events"]]
    assert kinds[-1] == "taproom.InvitationEnded"


def test_a_creator_takes_one_seat_unless_the_game_is_hot_seat(api):
    ann = register(api, "Ann")
    two = {"game": "counter", "options": {"target": 10}, "seed": "s", "seats": [{"me": True}, {"me": True}]}
    refused = api.post("/games", headers=bearer(ann["token"]), json=two)
    assert refused.status_code == 409 and refused.json()["code"] == "already_seated"
    gid = open_game(api, ann, seats=2)
    again = api.post(f"/games/{gid}/join", headers=bearer(ann["token"]), json={"seat": 1})
    assert again.status_code == 409 and again.json()["code"] == "already_seated"
    held = api.post(f"/games/{gid}/join", headers=bearer(ann["token"]), json={})  # no seat asked: the one held
    assert (held.status_code, held.json()["seat"]) == (200, 0)

    hot = api.post("/games", headers=bearer(ann["token"]), json={**two, "hot_seat": True})
    assert hot.status_code == 201, hot.text
    meta = wait_for(api, f"/games/{hot.json()['game_id']}", until=lambda b: b["status"] == "active")
    assert meta["hot_seat"] is True and [s["player_id"] for s in meta["seats"]] == [ann["player_id"]] * 2


def test_bot_seats_get_distinct_names_that_say_their_level(api):
    host = api.post("/players", json={"name": "host"}).json()["token"]  # games with bots need a player token
    created = api.post("/games", headers={"Authorization": f"Bearer {host}"}, json={
        "game": "counter", "options": {"target": 50}, "seed": "s", "seats": [
            {"bot": "random"}, {"bot": "greedy"}, {"bot": "random"}, {"name": "Rex", "bot": "search"}]})
    assert created.status_code == 201, created.text
    names = [s["name"] for s in created.json()["seats"]]
    assert names == ["Random bot 1", "Greedy bot", "Random bot 2", "Rex (search bot)"]
    meta = api.get(f"/games/{created.json()['game_id']}").json()
    assert [s["name"] for s in meta["seats"]] == names


def test_an_invitation_the_meta_does_not_show_yet_is_kept_until_it_does(client, settings, clock):
    """A read racing the projection (the inbox entry is there, the meta not yet) must not lose the invitation;
    a meta that contradicts it (the game started) or its lapse drops it."""
    import orjson

    from services.application.invitations import Invitations
    from services.infrastructure.eventstore import Keys

    keys = Keys(settings.key_prefix, settings.shards)
    invitations = Invitations(client, keys, bus=None, with_record=None, wait_seconds=1, ttl_seconds=60, clock=clock)  # type: ignore[arg-type]
    expires = clock.now() + 60
    seats = [{"seat": 0, "name": "Ann", "open": False, "invited": None},
             {"seat": 1, "name": None, "open": False, "invited": None}]
    meta = {"game_id": "g1", "game": "counter", "options": {}, "version": 2, "status": "open", "seats": seats,
            "to_act": [], "seed_commitment": "", "updated": 1.0, "creator": None}  # a meta as stored (typed)
    client.set(keys.meta("g1"), orjson.dumps(meta))
    client.zadd(keys.invitations("p1"), {"g1:1": expires})

    assert invitations.pending("p1") == []  # not shown yet ...
    assert client.zscore(keys.invitations("p1"), "g1:1") == expires  # ... and not lost
    seats[1]["invited"] = {"player_id": "p1", "name": "Pia", "expires_at": expires}
    client.set(keys.meta("g1"), orjson.dumps(meta))
    [shown] = invitations.pending("p1")
    assert (shown.game_id, shown.seat, shown.expires_at) == ("g1", 1, expires)

    meta["status"] = "active"  # the game started: the entry goes
    client.set(keys.meta("g1"), orjson.dumps(meta))
    assert invitations.pending("p1") == [] and client.zcard(keys.invitations("p1")) == 0

    client.zadd(keys.invitations("p1"), {"g2:0": expires})  # a withdrawn one the meta never shows lapses
    clock.advance(61)
    assert invitations.pending("p1") == [] and client.zcard(keys.invitations("p1")) == 0
