"""The life cycle a client sees (open -> active -> ended -> scored) and the event stream around it:
scores pending in the view between ended and scored, a distinct `scored` stream event, `Last-Event-ID`
honoured, and an explicit `end` event, also when the stream times out."""

from __future__ import annotations

import orjson
import pytest
from fastapi.testclient import TestClient

from services.adapters.api.app import create_app

from .helpers import Kernel


def sse_messages(text: str) -> list[dict]:
    """Parse an event stream into messages ({id?, event, data}); comments are dropped."""
    messages = []
    for block in text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if line and not line.startswith(":"))
        if fields:
            messages.append({**fields, "data": orjson.loads(fields["data"])})
    return messages


@pytest.fixture
def ended(fake_client, settings):
    """A counter game played to its end but not yet scored, and an app over the same Redis."""
    kernel = Kernel(fake_client, settings)
    gid = kernel.create(seats=2, target=8, seed="life")
    seat = 0
    while kernel.processor.repo.current(gid).record.status == "active":
        assert kernel.add(gid, seat, amount=2).accepted
        seat = 1 - seat
    with TestClient(create_app(fake_client, settings)) as api:
        yield kernel, gid, api


def test_the_view_says_scores_are_pending_between_ended_and_scored(ended):
    kernel, gid, api = ended
    view = api.get(f"/games/{gid}").json()
    assert view["status"] == "ended" and view["scores_pending"] is True and view.get("scores") is None
    assert kernel.send(gid, {"type": "taproom.ScoreGame"}).accepted
    view = api.get(f"/games/{gid}").json()
    assert view["status"] == "scored" and view["scores_pending"] is False and len(view["scores"]) == 2


def test_a_stream_that_times_out_ends_with_an_event_that_says_reconnect(ended):
    kernel, gid, api = ended
    head = kernel.store.head(gid)[0]
    with api.stream("GET", f"/games/{gid}/stream", params={"after": head - 2, "timeout": 0.3}) as s:
        messages = sse_messages("".join(s.iter_text()))
    # the events, then the view they lead to (the public one: no token), then the end
    assert [m["event"] for m in messages] == ["game_event", "game_event", "view", "end"]
    assert messages[2]["data"]["view"]["version"] == head and "legal" not in messages[2]["data"]
    assert messages[-1]["data"] == {"reason": "timeout", "reconnect": True, "last_event_id": head}


def test_last_event_id_resumes_the_stream_and_the_final_scores_have_their_own_event(ended):
    kernel, gid, api = ended
    head = kernel.store.head(gid)[0]
    assert kernel.send(gid, {"type": "taproom.ScoreGame"}).accepted
    # an EventSource reconnecting sends Last-Event-ID with the URL it first opened (here after=0)
    with api.stream("GET", f"/games/{gid}/stream", params={"after": 0}, headers={"Last-Event-ID": str(head)}) as s:
        messages = sse_messages("".join(s.iter_text()))
    assert [(m["event"], m.get("id")) for m in messages] == [
        ("game_event", str(head + 1)), ("scored", None), ("game_event", str(head + 2)), ("view", None), ("end", None)]
    assert messages[0]["data"]["type"] == "taproom.GameScored"
    scored = messages[1]["data"]
    assert scored["version"] == head + 1 and {s["seat"] for s in scored["scores"]} == {0, 1} and scored["places"]
    assert messages[-1]["data"] == {"reason": "game_over", "reconnect": False, "last_event_id": head + 2}


def test_a_bad_last_event_id_is_refused(ended):
    _, gid, api = ended
    answer = api.get(f"/games/{gid}/stream", headers={"Last-Event-ID": "abc"})
    assert answer.status_code == 422 and answer.json()["code"] == "invalid_request"
    assert "Last-Event-ID" in answer.json()["message"]
