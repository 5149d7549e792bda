"""No API process answers an older status than the log has (issue 35, defect 3): the views are written with
every append, scoring included, and no API process keeps a game's record, so one that read a game before its
final scoring answers ``scored`` once it is scored, and still after it is archived, like a fresh one."""

from __future__ import annotations

from fastapi.testclient import TestClient

from services.adapters.api.app import create_app
from services.infrastructure.archive import Archiver, DirectoryStore

from .helpers import Kernel


def _ended_counter(kernel: Kernel) -> str:
    """A counter game played to its end, not yet scored (``ended``: the scoring job is a moment away)."""
    gid = kernel.create(target=4)
    seat = 0
    while kernel.processor.repo.current(gid).record.status == "active":
        assert kernel.add(gid, seat, 2).accepted
        seat = 1 - seat
    return gid


def _statuses(api: TestClient, gid: str, token: str) -> tuple[str, str]:
    public = api.get(f"/games/{gid}")
    seat = api.get(f"/games/{gid}/view", headers={"Authorization": f"Bearer {token}"})
    assert public.status_code == seat.status_code == 200, (public.text, seat.text)
    return public.json()["status"], seat.json()["status"]


def test_two_api_processes_answer_scored_once_the_log_says_so_archived_or_not(client, settings, tmp_path):
    kernel = Kernel(client, settings)
    gid = _ended_counter(kernel)
    queue = getattr(client, "taproom_queue", None)
    first, second = create_app(client, settings, queue), create_app(client, settings, queue)
    token = first.state.context.issue_token({"kind": "seat", "game_id": gid, "seat": 0})
    with TestClient(first) as one, TestClient(second) as other:
        assert _statuses(one, gid, token) == ("ended", "ended")  # the first process has read the game
        assert kernel.send(gid, {"type": "taproom.ScoreGame"}).accepted
        assert _statuses(other, gid, token) == ("scored", "scored")
        assert Archiver(kernel.store, DirectoryStore(tmp_path)).archive(gid).status == "archived"
        # the first process reads the game again only now, scored and archived since it last did
        assert _statuses(one, gid, token) == _statuses(other, gid, token) == ("scored", "scored")
        legal = one.get(f"/games/{gid}/legal", headers={"Authorization": f"Bearer {token}"})
        assert legal.status_code == 200 and all(c["type"].startswith("taproom.") for c in legal.json()["commands"])
