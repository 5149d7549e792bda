"""Leak scan (issue 16): play every registered title over HTTP and look for secrets in everything a client gets.

Seats are human and played at random from their legal commands, with illegal ones in between (their error
bodies are scanned too). For every seat and for a spectator, every response (views, legal commands, history,
replays, lobby, command answers and errors, the event stream) and every log line is scanned for:

* the game's secret seed, before the game ends;
* the private fields of events (a tile buried under a hill …) that this reader may not see: every event a reader
  gets must carry them as ``"hidden"``, and no unredacted payload may appear anywhere (log lines included).

Decks, stacks and bags hold no order to leak: draws are made from multisets when needed, from the seed.
By default each title plays a bounded number of moves (seeded); ``--soak-full`` plays every game to its end.
"""

from __future__ import annotations

import importlib
import json
import logging
import random
from collections.abc import Iterator
from typing import Any

import orjson
import pytest
import structlog

from domain.catalog import GAME_PACKAGES, load_games
from domain.core import get_game
from services.infrastructure.eventstore import Envelope, EventStore, Keys
from tests.services.helpers import game_moves

load_games()
TITLES = [importlib.import_module(package).GAME.id for package in GAME_PACKAGES]
FINISHED = ("ended", "scored")


@pytest.fixture(params=["fake"])
def clients(request, prefix):  # the in-process server is enough: the pipeline is the same
    import fakeredis

    server = fakeredis.FakeServer()
    yield lambda: fakeredis.FakeRedis(server=server)


def _all_options_on(game_id: str) -> dict[str, bool]:
    """Every switchable expansion on: the most hidden information there is."""
    game = get_game(game_id)
    return {name: True for name, field in game.Options.model_fields.items() if field.annotation is bool}


def _json_documents(text: str) -> Iterator[Any]:
    """The JSON documents in a response body or an event stream's ``data:`` lines."""
    try:
        yield json.loads(text)
        return
    except ValueError:
        pass
    for line in text.splitlines():
        if line.startswith("data: "):
            yield json.loads(line[len("data: "):])


def _events_in(document: Any) -> Iterator[dict[str, Any]]:
    if isinstance(document, dict):
        if isinstance(document.get("type"), str) and isinstance(document.get("payload"), dict):
            yield document
        for value in document.values():
            yield from _events_in(value)
    elif isinstance(document, list):
        for value in document:
            yield from _events_in(value)


class Scan:
    """What each reader got, checked against the secrets of the moment."""

    def __init__(self, store: EventStore, keys: Keys, client, game_id: str) -> None:
        self.store, self.keys, self.client, self.gid = store, keys, client, game_id
        self.documents = 0

    def _hidden_from(self, reader: int | None) -> dict[int, Envelope]:
        """The stored events whose private fields ``reader`` may not see now, by version."""
        return {e.version: e for e in self.store.read(self.gid)
                if e.visibility == "private" and (reader is None or reader not in e.private_to)}

    def secrets(self, reader: int | None) -> tuple[str, list[bytes]]:
        """The seed (hex) and the unredacted payloads ``reader`` may not see now."""
        seed = self.client.get(self.keys.seed(self.gid)).hex()
        return seed, [orjson.dumps(e.payload) for e in self._hidden_from(reader).values()]

    def check(self, reader: int | None, texts: list[str]) -> None:
        seed, hidden = self.secrets(reader)
        private = self._hidden_from(reader)
        for text in texts:
            assert seed not in text, f"the seed reached reader {reader}: {text[:200]}"
            compact = text.replace(" ", "").encode()
            assert not any(payload in compact for payload in hidden), f"a private payload reached reader {reader}"
            for document in _json_documents(text):
                self.documents += 1
                for event in _events_in(document):
                    stored = private.get(event.get("version"))  # type: ignore[arg-type]
                    if stored is not None and stored.type == event["type"]:
                        for name in stored.private_fields:
                            assert event["payload"].get(name, "hidden") == "hidden", \
                                f"{event['type']}.{name} reached reader {reader}"


def _reads(api, gid: str, auth: dict[str, str] | None, version: int) -> list[str]:
    texts = [api.get(f"/games/{gid}").text, api.get(f"/games/{gid}/events", headers=auth).text,
             api.get(f"/games/{gid}/at/{max(1, version)}", headers=auth).text, api.get("/lobby").text,
             api.get(f"/games/{gid}/clock").text]
    if auth:
        texts += [api.get(f"/games/{gid}/view", headers=auth).text, api.get(f"/games/{gid}/legal", headers=auth).text]
    with api.stream("GET", f"/games/{gid}/stream", params={"after": 0, "timeout": 0.05}, headers=auth) as stream:
        texts.append("".join(stream.iter_text()))
    return texts


@pytest.mark.soak
@pytest.mark.parametrize("title", TITLES)
def test_no_secret_reaches_a_client(api, settings, clients, title, soak, caplog):
    moves = soak(100_000, 30)
    keys = Keys(settings.key_prefix, settings.shards)
    store = EventStore(clients(), keys)
    created = api.post("/games", json={"game": title, "options": _all_options_on(title), "seed": f"leak-{title}",
                                       "seats": [{"name": "ann"}, {"name": "bob"}]})
    assert created.status_code == 201, created.text
    gid = created.json()["game_id"]
    tokens = [s["token"] for s in created.json()["seats"]]
    auths = [{"Authorization": f"Bearer {t}"} for t in tokens]
    scan = Scan(store, keys, clients(), gid)
    chooser = random.Random(title)
    played = 0
    caplog.set_level(logging.DEBUG)
    with structlog.testing.capture_logs() as logs:
        while played < moves:
            public = api.get(f"/games/{gid}").json()
            if public.get("status") in FINISHED:
                break
            if played % 5 == 0:
                scan.check(None, _reads(api, gid, None, public.get("version", 1)))
                for seat, auth in enumerate(auths):
                    scan.check(seat, _reads(api, gid, auth, public.get("version", 1)))
            for seat, auth in enumerate(auths):
                legal = api.get(f"/games/{gid}/legal", headers=auth).json()
                if not game_moves(legal):
                    other = api.post(f"/games/{gid}/commands", headers=auth, json={"type": "Pass"})
                    scan.check(seat, [other.text])  # an error body: not your turn, or no such command
                    continue
                command = chooser.choice(game_moves(legal))
                wrong = {**command, **{k: -7 for k, v in command.items() if isinstance(v, int) and k != "seat"}}
                if wrong != command:  # an illegal variant first: its error body is scanned too
                    refused = api.post(f"/games/{gid}/commands", headers=auth, json=wrong)
                    assert refused.status_code in (409, 422), refused.text
                    scan.check(seat, [refused.text])
                answer = api.post(f"/games/{gid}/commands", headers=auth, json=command)
                assert answer.status_code == 200, answer.text
                scan.check(seat, [answer.text])
                played += 1
                break
        status = api.get(f"/games/{gid}").json().get("status")
        if status not in FINISHED:  # the logs of the whole run, while the seed is still secret
            seed, hidden = scan.secrets(None)
            lines = [orjson.dumps(entry, default=str).decode() for entry in logs] + caplog.messages
            assert not any(seed in line for line in lines), "the seed was logged"
            assert not any(payload.decode() in line.replace(" ", "") for line in lines for payload in hidden)
    assert played > 0 and scan.documents > 0
