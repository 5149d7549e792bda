"""Webhooks: signed with HMAC-SHA256, retried with backoff as rq jobs; "your turn", "deadline in N hours"
and "game over" messages through the pipeline. Deliveries go to a local HTTP server only."""

from __future__ import annotations

import orjson
import pytest
from rq.job import Job

from domain.core import InvalidCommand
from services.application.notifications.notify import SIGNATURE_HEADER, Webhooks, sign, verify_signature
from services.infrastructure.urls import check_url

from .conftest import HOUR, Table


def url_of(server) -> str:  # type: ignore[no-untyped-def]
    return f"http://127.0.0.1:{server.server_address[1]}/hook"


def test_a_delivery_is_signed_and_retried_with_backoff(table: Table, receiver) -> None:  # type: ignore[no-untyped-def]
    secret = Webhooks(table.client, table.reactor.async_play.keys).register("alice", url_of(receiver),
                                                                          allow_private=True)
    receiver.statuses.extend([500, 503])
    notifier = table.reactor.async_play.notifier
    assert notifier.send("alice", "your_turn", {"game_id": "g1", "seat": 0}, dedupe="turn:g1:0:3")
    assert not notifier.send("alice", "your_turn", {"game_id": "g1", "seat": 0}, dedupe="turn:g1:0:3")  # once
    table.settle()
    assert len(receiver.received) == 1
    job = Job.fetch(table.queue.scheduled_job_registry.get_job_ids()[0], connection=table.jobs)
    assert job.get_status() == "scheduled" and job.retries_left == 4
    table.tick(8)
    assert len(receiver.received) == 1  # the first backoff is 10 s (rq schedules to the second)
    table.tick(3)
    assert len(receiver.received) == 2
    table.tick(31)  # then 30 s
    assert len(receiver.received) == 3 and job.get_status() == "finished"
    bodies = {body for _, body in receiver.received}
    assert len(bodies) == 1  # every attempt carries the same body and delivery id
    headers, body = receiver.received[-1]
    message = orjson.loads(body)
    assert message["kind"] == "your_turn" and message["game_id"] == "g1"
    assert headers["X-Taproom-Event"] == "your_turn" and headers["X-Taproom-Delivery"] == message["delivery"]
    assert verify_signature(secret, body, headers[SIGNATURE_HEADER])
    assert not verify_signature("another secret", body, headers[SIGNATURE_HEADER])
    assert not verify_signature(secret, body + b" ", headers[SIGNATURE_HEADER])
    assert headers[SIGNATURE_HEADER] == sign(secret, body)


def test_your_turn_deadline_soon_and_game_over_reach_the_player(table: Table, receiver) -> None:  # type: ignore[no-untyped-def]
    secret = Webhooks(table.client, table.reactor.async_play.keys).register("alice", url_of(receiver),
                                                                          allow_private=True)
    gid = table.create([{"name": "alice", "player_id": "alice"}, {"bot": "random"}], pace="1d", target=8)
    table.tick(12 * HOUR + 60)  # 12 hours before the deadline
    while table.record(gid).status == "active":
        assert table.add(gid, 0, 3).accepted
    kinds = [orjson.loads(body)["kind"] for _, body in receiver.received]
    assert kinds[0] == "your_turn" and kinds[1] == "deadline_soon" and kinds[-1] == "game_over"
    assert kinds.count("deadline_soon") == 1 and kinds.count("game_over") == 1
    alice_moves = [e for e in table.events(gid, "Added") if e["seat"] == 0]
    assert kinds.count("your_turn") == len(alice_moves) >= 2  # one per wait, not one per version
    over = orjson.loads(receiver.received[-1][1])
    assert over["game_id"] == gid and over["place"] in (1, 2) and len(over["scores"]) == 2
    assert all(verify_signature(secret, body, headers[SIGNATURE_HEADER]) for headers, body in receiver.received)
    recent = table.reactor.async_play.notifier.recent("alice")
    assert [m["kind"] for m in reversed(recent)] == kinds  # the same messages, kept without a webhook too


def test_webhook_urls_are_checked() -> None:
    for bad in ("ftp://example.org/x", "file:///etc/passwd", "http:///nohost"):
        with pytest.raises(InvalidCommand):
            check_url(bad, allow_private=True)
    for private in ("http://127.0.0.1:9/x", "http://10.1.2.3/x", "http://[::1]/x", "http://169.254.169.254/"):
        with pytest.raises(InvalidCommand):
            check_url(private, allow_private=False)
        check_url(private, allow_private=True)


class Crash(Exception):
    """The process died here."""


def _fail_once(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> None:
    real = getattr(owner, name)
    calls = []

    def fail_first(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) == 1:
            raise Crash(name)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, fail_first)


@pytest.mark.parametrize("crash_at", ["enqueue", "mark"])
def test_a_send_interrupted_between_its_steps_is_completed_by_the_repeat(  # type: ignore[no-untyped-def]
        table: Table, receiver, monkeypatch: pytest.MonkeyPatch, crash_at: str) -> None:
    Webhooks(table.client, table.reactor.async_play.keys).register("alice", url_of(receiver), allow_private=True)
    notifier = table.reactor.async_play.notifier
    if crash_at == "enqueue":  # the delivery job never reached the queue
        _fail_once(monkeypatch, notifier.queue, "enqueue")
    else:  # the job is queued, the "sent" marker and the recent entry are not written
        _fail_once(monkeypatch, notifier, "_mark_sent")
    with pytest.raises(Crash):
        notifier.send("alice", "your_turn", {"game_id": "g1", "seat": 0}, dedupe="turn:g1:0:3")
    assert notifier.send("alice", "your_turn", {"game_id": "g1", "seat": 0}, dedupe="turn:g1:0:3")  # the repeat
    assert not notifier.send("alice", "your_turn", {"game_id": "g1", "seat": 0}, dedupe="turn:g1:0:3")
    table.settle()
    assert len(receiver.received) == 1  # delivered, and once
    assert [m["kind"] for m in notifier.recent("alice")] == ["your_turn"]


def test_your_turn_lost_to_a_crash_is_sent_when_the_reactor_looks_again(  # type: ignore[no-untyped-def]
        table: Table, receiver, monkeypatch: pytest.MonkeyPatch) -> None:
    Webhooks(table.client, table.reactor.async_play.keys).register("alice", url_of(receiver), allow_private=True)
    notifier = table.reactor.async_play.notifier
    _fail_once(monkeypatch, notifier.queue, "enqueue")  # the reactor's "your turn" fails half way
    gid = table.create([{"name": "alice", "player_id": "alice"}, {"name": "bob", "player_id": "bob"}], pace="1d")
    assert table.reactor.async_play.clocks.wait(gid, 0) is not None and receiver.received == []
    table.reactor.react(gid)  # handled again (a restarted reactor re-reads its unconfirmed feed entries)
    table.settle()
    assert [orjson.loads(body)["kind"] for _, body in receiver.received] == ["your_turn"]
    assert [m["seat"] for m in notifier.recent("alice")] == [0]


def test_an_untimed_game_reads_what_sending_needs_of_the_told_player_only(table: Table, receiver) -> None:  # type: ignore[no-untyped-def]
    """Without a pace a game's only messages are "your turn": the reactor reads the preferences and webhook of
    the player whose turn begins (with the check that it was not told yet), not of every seated player, and
    still honours them: bob switched "your turn" off, alice has a webhook."""
    from services.application.notifications.prefs import NotificationPrefs, Preferences

    keys = table.reactor.async_play.keys
    Webhooks(table.client, keys).register("alice", url_of(receiver), allow_private=True)
    Preferences(table.client, keys).put("bob", NotificationPrefs(kinds=["game_over"]))
    gid = table.create([{"name": "alice", "player_id": "alice"}, {"name": "bob", "player_id": "bob"}], target=50)
    read: list[str] = []
    queue_reads = table.reactor.async_play.notifier.queue_reads

    def counted(pipe, players):  # type: ignore[no-untyped-def]
        read.extend(players)
        return queue_reads(pipe, players)

    table.reactor.async_play.notifier.queue_reads = counted  # type: ignore[method-assign]
    for seat in (0, 1, 0, 1):
        assert table.add(gid, seat, 1).accepted
    assert read == ["bob", "alice", "bob", "alice"]  # once per batch, the player told only
    turns = [orjson.loads(body) for _, body in receiver.received]
    assert [(m["kind"], m["player_id"], m["version"]) for m in turns][-2:] == \
        [("your_turn", "alice", table.record(gid).version - 4), ("your_turn", "alice", table.record(gid).version)]
    notifier = table.reactor.async_play.notifier
    assert all(m["kind"] == "your_turn" for m in notifier.recent("bob"))  # kept, not delivered
    assert not any(orjson.loads(body)["player_id"] == "bob" for _, body in receiver.received)


def test_a_url_check_names_what_the_url_is_for(monkeypatch) -> None:
    """A push endpoint that does not resolve is a push endpoint's problem, not a "webhook host"'s; a port out of
    range is refused like any other bad URL (it used to raise past the check)."""
    import socket

    def unresolvable(*_: object, **__: object) -> None:
        raise socket.gaierror("no such host")

    monkeypatch.setattr(socket, "getaddrinfo", unresolvable)
    with pytest.raises(InvalidCommand, match="cannot resolve the push endpoint's host 'push.invalid'"):
        check_url("https://push.invalid/x", allow_private=False, what="push endpoint")
    with pytest.raises(InvalidCommand, match="webhook"):
        check_url("https://hook.invalid/x", allow_private=False)
    for bad_port in ("http://example.org:99999/x", "http://example.org:x/"):
        with pytest.raises(InvalidCommand, match="push endpoint"):
            check_url(bad_port, allow_private=True, what="push endpoint")
