"""Schema fuzzing (issue 16): schemathesis against the running app (every part running, in one process).

Two runs, both counting requests, 5xx answers and schema violations, and both asserting none of either:

* every operation of the OpenAPI schema with generated valid and invalid input (a seeded sample; more with
  ``--soak-full``);
* stateful sequences (seeded random walks) that register players, create games of every registered
  title, join them, and act in them with legal and fuzzed commands, reading everything between.

What a response is checked against is what its route documents, so the check tightens by itself as routes
document more: a response whose status and media type the route documents must match its schema (FastAPI's
stock 422 body, which this API never sends, is the one schema not taken at its word); a route that
documents its error answers must also answer only documented statuses and media types.
"""

from __future__ import annotations

import functools
import inspect
import random
import uuid
from collections import Counter
from typing import Any

import pytest
import schemathesis
from fastapi.routing import iter_route_contexts
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import content_type_conformance, response_schema_conformance, status_code_conformance
from schemathesis.core import NOT_SET
from schemathesis.core.failures import FailureGroup

from domain.catalog import load_games
from domain.core import all_games

load_games()
STOCK_VALIDATION_ERROR = "#/components/schemas/HTTPValidationError"
STREAM_SECONDS = 0.05
"""Event streams are asked to end this soon: the fuzzer reads every body whole."""

pytestmark = [pytest.mark.soak, pytest.mark.timeout(900)]


@pytest.fixture(params=["fake"])
def clients(request, prefix):  # the in-process server: the pipeline and the API are the same
    import fakeredis

    server = fakeredis.FakeServer()
    yield lambda: fakeredis.FakeRedis(server=server)


@pytest.fixture
def app(service, clients, settings):
    from services.adapters.api.app import create_app

    return create_app(clients(), settings)


@pytest.fixture
def schema(app):
    return schemathesis.openapi.from_asgi("/openapi.json", app)


class Handlers:
    """Counts the calls of the app's route handlers (and of the hot path's answer functions, which its front
    calls without FastAPI), so a request can be told to have reached one: past routing, authentication and
    the validation of its parameters and body."""

    def __init__(self, app: Any) -> None:
        self.calls = 0
        wrapped: set[int] = set()
        for context in iter_route_contexts(app.router.routes):
            # the route as declared, and the one the app serves (an included router's route is copied)
            for dependant in (getattr(context.original_route, "dependant", None), getattr(context, "dependant", None)):
                if dependant is not None and dependant.call is not None and id(dependant) not in wrapped:
                    wrapped.add(id(dependant))
                    dependant.call = self._counted(dependant.call)

    def counting_hot_answers(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from services.adapters.api.routers import play

        for name in ("command_answer", "legal_answer", "view_answer"):
            monkeypatch.setattr(play, name, self._counted(getattr(play, name)))

    def _counted(self, function: Any) -> Any:
        if inspect.iscoroutinefunction(function):
            @functools.wraps(function)
            async def counted_async(*args: Any, **kwargs: Any) -> Any:
                self.calls += 1
                return await function(*args, **kwargs)
            return counted_async

        @functools.wraps(function)
        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            return function(*args, **kwargs)
        return counted


@pytest.fixture
def handlers(app, monkeypatch):
    counted = Handlers(app)
    counted.counting_hot_answers(monkeypatch)
    return counted


# -- what a response is held to ----------------------------------------------------------------------------

def _media(documented: dict[str, Any]) -> set[str]:
    return set((documented.get("content") or {}).keys())


def _documents_errors(responses: dict[str, Any]) -> bool:
    """True once the route documents its own error answers (not just FastAPI's stock 422)."""
    return "default" in responses or any(
        code[0] in "45" and _schema_ref(body) != STOCK_VALIDATION_ERROR for code, body in responses.items())


def _schema_ref(documented: dict[str, Any]) -> str | None:
    schema = (documented.get("content") or {}).get("application/json", {}).get("schema") or {}
    return schema.get("$ref")


def documented_conformance(ctx, response, case) -> bool | None:
    """Hold a response to what its route documents (see the module docstring)."""
    responses = case.operation.definition.raw.get("responses", {})
    if _documents_errors(responses):
        status_code_conformance(ctx, response, case)
        content_type_conformance(ctx, response, case)
    documented = responses.get(str(response.status_code))
    if documented is None or _schema_ref(documented) == STOCK_VALIDATION_ERROR:
        return None
    media = (response.headers.get("content-type") or [""])[0].split(";")[0].strip()
    if media not in _media(documented) or media == "text/event-stream":
        # schemathesis reads an event stream's schema as each event's; the routes document the stream as a
        # whole (its events are checked by the stream and leak-scan tests)
        return None
    return response_schema_conformance(ctx, response, case)


UNSAID = "integer out of range"
"""The one refusal of a request the schema admits that the schema cannot say: an integer past 2**53 nested
anywhere in a body a game defines (its options, its commands: free-form objects in the schema), refused by
``services.adapters.api.bounds`` naming its path. Every declared field states its bounds instead."""

CREDENTIAL_ROUTES = {"POST /players/me/token", "POST /players/recover"}
"""Routes that replace the caller's token: the fuzzer takes the new one from their answer and goes on with it
(a run that rotated its own token once answered 401 to everything after)."""


class Tally:
    def __init__(self, handlers: Handlers | None = None) -> None:
        self.requests = 0
        self.statuses: Counter[int] = Counter()
        self.answers: Counter[tuple[str, int]] = Counter()
        self.server_errors: list[str] = []
        self.violations: list[str] = []
        self.handlers = handlers
        self.reached = 0
        self.valid = 0  # requests generated to satisfy the schema
        self.valid_reached = 0
        self.refused_valid: list[str] = []  # ... that the server refused before any handler: schema and server disagree
        self.token: str | None = None  # the credentials every generated request carries

    def call(self, case, valid: bool | None = None) -> Any:
        query = case.query or {}
        if isinstance(query.get("timeout"), (int, float)):
            query["timeout"] = min(query["timeout"], STREAM_SECONDS)
        if self.token is not None and valid is not None:
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {self.token}"}
        if case.headers:  # an optional header's None is rendered as the text "null"; on the wire None is absence
            case.headers = {name: value for name, value in case.headers.items() if value != "null"}
        before = self.handlers.calls if self.handlers else 0
        response = case.call()
        reached = self.handlers is not None and self.handlers.calls > before
        self._count(case, response, valid, reached)
        self._keep_credentials(case, response)
        return response

    def _count(self, case, response, valid: bool | None, reached: bool) -> None:
        self.requests += 1
        self.reached += reached
        self.statuses[response.status_code] += 1
        self.answers[(case.operation.label, response.status_code)] += 1
        where = f"{case.operation.label} -> {response.status_code}"
        if valid:
            self.valid += 1
            self.valid_reached += reached
            if not reached and response.status_code in (400, 422) and UNSAID not in response.text:
                self.refused_valid.append(f"{where}: {response.text[:200]} (path={case.path_parameters}, "
                                          f"query={case.query}, headers={dict(case.headers or {})!r:.200}, "
                                          f"body={case.body!r:.200})")
        if response.status_code >= 500:
            self.server_errors.append(f"{where}: {response.text[:300]} (query={case.query}, body={case.body!r:.300})")
        if response.status_code == 405 and not response.headers.get("allow"):
            self.violations.append(f"{where}: a 405 without Allow")
        try:
            case.validate_response(response, checks=[documented_conformance])
        except (AssertionError, FailureGroup) as exc:  # how schemathesis reports failed checks
            self.violations.append(f"{where}: {str(exc)[:500]}")

    def _keep_credentials(self, case, response) -> None:
        if case.operation.label in CREDENTIAL_ROUTES and response.status_code in (200, 201):
            self.token = response.json()["token"]

    def share_reached(self) -> float:
        return self.reached / self.requests if self.requests else 0.0

    def report(self, title: str) -> str:
        valid = f"{self.valid_reached}/{self.valid}" if self.valid else "-"
        return (f"{title}: {self.requests} requests, {self.reached} reached a handler "
                f"({100 * self.share_reached():.1f}%; of those generated valid: {valid}), "
                f"{len(self.server_errors)} 5xx, {len(self.violations)} schema violations, "
                f"{len(self.refused_valid)} valid by the schema yet refused; "
                f"statuses {dict(sorted(self.statuses.items()))}")

    def assert_clean(self, title: str) -> None:
        print(self.report(title))
        assert self.server_errors == [], self.report(title) + "\n" + "\n".join(self.server_errors[:10])
        assert self.violations == [], self.report(title) + "\n" + "\n".join(self.violations[:10])
        assert self.refused_valid == [], self.report(title) + "\n" + "\n".join(self.refused_valid[:10])


def sign_up(schema: Any, tally: Tally) -> None:
    """Register the player whose token every generated request carries (and keeps: see CREDENTIAL_ROUTES)."""
    case = schema["/players"]["POST"].Case(body={"name": "fuzzer"}, media_type="application/json")
    answer = tally.call(case)
    assert answer.status_code == 201, answer.text
    tally.token = answer.json()["token"]


REACHED_GOAL = 0.9
"""The share of the requests generated valid by the schema that must reach a route's handler (the rest stop at
routing, authentication or validation: a fuzzer that lost its token or a schema that admits what the server
refuses would fall below it)."""


def test_every_operation_with_generated_input(schema, handlers, soak):
    tally = Tally(handlers)
    sign_up(schema, tally)
    examples = soak(200, 6)
    for result in schema.get_all_operations():
        operation = result.ok()
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            @given(case=operation.as_strategy(generation_mode=mode))
            @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
                      phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
            def run(case) -> None:
                tally.call(case, mode == GenerationMode.POSITIVE)

            try:
                run()
            except Unsatisfiable:  # an operation without inputs has no invalid ones
                assert mode == GenerationMode.NEGATIVE
    tally.assert_clean("stateless")
    assert tally.valid_reached >= REACHED_GOAL * tally.valid, tally.report("stateless")


# -- stateful sequences ------------------------------------------------------------------------------------

TITLES = sorted(g.id for g in all_games())


def random_json(rng: random.Random, depth: int = 0) -> Any:
    """A JSON value of any shape, integers past 64 bits included."""
    kind = rng.randrange(7 if depth < 2 else 4)
    if kind == 0:
        return rng.choice([None, True, False])
    if kind == 1:
        return rng.choice([0, -1, 1, 3, 2**31, 2**63, 2**70, -(2**70)])
    if kind == 2:
        return rng.choice(["", "x", "hidden", "Pass", "ü" * 5, "0" * 40])
    if kind == 3:
        return rng.uniform(-1e9, 1e9)
    if kind in (4, 5):
        return {rng.choice(["x", "y", "seat", "type", "amount", "tile", "rotation", "k"]): random_json(rng, depth + 1)
                for _ in range(rng.randrange(4))}
    return [random_json(rng, depth + 1) for _ in range(rng.randrange(4))]


class Walk:
    """One stateful sequence: players register, create games of every title, join them and act in them with
    legal and fuzzed commands, reading everything between. Chosen by a seeded random walk (hypothesis's
    rule-based machines spend a short run mostly on their first rules)."""

    def __init__(self, schema: Any, tally: Tally, seed: str) -> None:
        self.schema, self.tally, self.rng = schema, tally, random.Random(seed)
        self.players: list[str] = []
        self.games: list[dict[str, Any]] = []  # {"id", "game", "tokens": {seat: token}, "commands": [ids]}

    def call(self, method: str, path: str, *, params: dict | None = None, token: str | None = None,
             query: dict | None = None, body: Any = NOT_SET) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else None
        case = self.schema[path][method].Case(path_parameters=params, query=query, headers=headers, body=body,
                                              media_type="application/json" if body is not NOT_SET else None)
        return self.tally.call(case)

    def run(self, steps: int) -> None:
        self.register()
        actions = [(self.register, 1), (self.create_game, 2), (self.join, 2), (self.play, 6), (self.fuzz, 3),
                   (self.read, 6)]
        for _ in range(steps):
            action = self.rng.choices([a for a, _ in actions], [w for _, w in actions])[0]
            if action in (self.register, self.create_game) or self.games:
                action()
            else:
                self.create_game()

    def register(self) -> None:
        answer = self.call("POST", "/players", body={"name": self.rng.choice(["ann", "bob", "ü", "x" * 64])})
        if answer.status_code == 201:
            self.players.append(answer.json()["token"])

    def create_game(self) -> None:
        rng = self.rng
        title = rng.choice(TITLES)
        game = next(g for g in all_games() if g.id == title)
        kinds = [rng.choice(["named", "open", "bot", "me"]) for _ in range(rng.randint(game.min_players,
                                                                                      game.max_players))]
        if "me" in kinds:  # one seat per player
            kinds = [k if k != "me" or i == kinds.index("me") else "open" for i, k in enumerate(kinds)]
        seats = [{"me": True} if k == "me" else {"bot": "random"} if k == "bot" else {} if k == "open"
                 else {"name": f"seat{i}"} for i, k in enumerate(kinds)]
        host = rng.choice(self.players)
        body = {"game": title, "seats": seats, "seed": str(rng.random())}
        answer = self.call("POST", "/games", token=host, body=body)
        if answer.status_code in (201, 202):
            body = answer.json()
            tokens = {s["seat"]: s["token"] for s in body["seats"] if s.get("token")}
            if "me" in kinds:
                tokens[kinds.index("me")] = host
            self.games.append({"id": body["game_id"], "game": title, "tokens": tokens, "commands": []})

    def join(self) -> None:
        game = self.rng.choice(self.games)
        token = self.rng.choice(self.players) if self.rng.random() < 0.5 else None
        answer = self.call("POST", "/games/{game_id}/join", params={"game_id": game["id"]}, token=token,
                           body={} if token else {"name": "guest"})
        if answer.status_code in (200, 202):
            game["tokens"][answer.json()["seat"]] = answer.json().get("token") or token

    def _seat(self) -> tuple[dict[str, Any], int, str] | None:
        playable = [g for g in self.games if g["tokens"]]
        if not playable:
            return None
        game = self.rng.choice(playable)
        seat = self.rng.choice(sorted(game["tokens"]))
        return game, seat, game["tokens"][seat]

    def play(self) -> None:
        chosen = self._seat()
        if chosen is None:
            return
        game, seat, token = chosen
        legal = self.call("GET", "/games/{game_id}/legal", params={"game_id": game["id"]}, token=token,
                          query={"seat": seat})
        commands = legal.json().get("commands") if legal.status_code == 200 else None
        if not commands:
            return
        command = dict(self.rng.choice(commands))
        reuse = game["commands"] and self.rng.random() < 0.2  # a command id sent again
        command["command_id"] = self.rng.choice(game["commands"]) if reuse else uuid.uuid4().hex[:10]
        game["commands"].append(command["command_id"])
        self.call("POST", "/games/{game_id}/commands", params={"game_id": game["id"]}, token=token,
                  query={"seat": seat}, body=command)

    def fuzz(self) -> None:
        chosen = self._seat()
        if chosen is None:
            return
        game, seat, token = chosen
        types = sorted(next(g for g in all_games() if g.id == game["game"])._command_index())
        body = random_json(self.rng, 1)
        body = body if isinstance(body, dict) else {"value": body}
        body["type"] = self.rng.choice(types + ["taproom.CreateGame", "Nope"])
        if self.rng.random() < 0.3:
            body["expected_version"] = random_json(self.rng, 2)
        self.call("POST", "/games/{game_id}/commands", params={"game_id": game["id"]}, token=token, body=body)

    def read(self) -> None:
        rng = self.rng
        game = rng.choice(self.games)
        token = rng.choice([None, *game["tokens"].values(), *self.players])
        gid = {"game_id": game["id"]}
        number = rng.choice([0, 1, 2, 3, 5, 8, 20, 2**53, 2**64])
        which = rng.choice(["public", "view", "events", "at", "stream", "clock", "outcome", "lobby", "inbox",
                            "reclaim", "notifications"])
        if which == "public":
            self.call("GET", "/games/{game_id}", params=gid)
        elif which == "view":
            self.call("GET", "/games/{game_id}/view", params=gid, token=token)
        elif which == "events":
            self.call("GET", "/games/{game_id}/events", params=gid, token=token, query={"after": number})
        elif which == "at":
            self.call("GET", "/games/{game_id}/at/{version}", params={**gid, "version": max(1, number)}, token=token)
        elif which == "stream":
            self.call("GET", "/games/{game_id}/stream", params=gid, token=token,
                      query={"after": number, "timeout": STREAM_SECONDS})
        elif which == "clock":
            self.call("GET", "/games/{game_id}/clock", params=gid)
        elif which == "outcome":
            self.call("GET", "/games/{game_id}/commands/{command_id}",
                      params={**gid, "command_id": rng.choice(game["commands"] or ["none"])}, token=token)
        elif which == "lobby":
            self.call("GET", "/lobby")
        elif which == "inbox":
            self.call("GET", "/inbox", token=token)
        elif which == "reclaim":
            self.call("POST", "/games/{game_id}/reclaim", params=gid, token=token)
        else:
            self.call("GET", "/players/me/notifications", token=token)


def test_stateful_sequences_create_games_and_act_in_them(schema, handlers, soak):
    tally = Tally(handlers)
    for index in range(soak(60, 4)):
        Walk(schema, tally, f"walk-{index}").run(soak(120, 40))
    assert tally.answers[("POST /games", 201)] and tally.answers[("POST /games/{game_id}/commands", 200)], \
        "the walks created no game or played no command"
    tally.assert_clean("stateful")


def test_the_check_holds_responses_to_what_their_route_documents():
    """On a small app: a documented body that does not match, and an undocumented status on a route that
    documents its errors, are violations; FastAPI's stock 422 and a route's undocumented errors are not (yet)."""
    from fastapi import FastAPI
    from fastapi.responses import JSONResponse
    from pydantic import BaseModel

    from services.adapters.api.errors import install_error_handlers

    class Named(BaseModel):
        name: str

    app = FastAPI()
    install_error_handlers(app)  # 422 answers {code, message}, not FastAPI's documented shape

    @app.get("/good", response_model=Named)
    def good() -> Any:
        return {"name": "x"}

    @app.get("/lies", response_model=Named)
    def lies() -> Any:
        return JSONResponse({"nom": 1})

    @app.get("/stock")
    def stock(x: int) -> Any:
        return {"x": x}

    @app.get("/quiet")
    def quiet() -> Any:
        return JSONResponse({"code": "gone"}, status_code=410)

    @app.get("/documented", responses={404: {"model": Named}})
    def documented() -> Any:
        return JSONResponse({"code": "gone"}, status_code=410)

    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    tally = Tally()
    for path, query in [("/good", None), ("/lies", None), ("/stock", {"x": "abc"}), ("/quiet", None),
                        ("/documented", None)]:
        tally.call(schema[path]["GET"].Case(query=query))
    assert tally.statuses == {200: 2, 422: 1, 410: 2}
    assert [v.split(":")[0] for v in tally.violations] == ["GET /lies -> 200", "GET /documented -> 410"]
