"""The API's side of the durability rule (``services.infrastructure.durability``): a write request's success
leaves only once its writes are durable, and a write request refused for durability changed nothing.

A pure ASGI middleware right around the routes, for ``POST``/``PUT``/``PATCH``/``DELETE``:

- before the route runs, :meth:`Durability.confirm` checks that writes can be made durable now (every master
  has its replicas): after a failover, until the promoted master has a replica again, a write is refused
  before it writes anything, so a refusal is never half-done (a rotated token the client never received, a
  recovery code replaced by one nobody knows);
- when the route answers 2xx, the answer's start is held back while :meth:`Durability.confirm` runs again
  (in a thread: it blocks on ``WAIT``).

Not reached in time: 503 ``write_not_durable`` with ``Retry-After`` (the held answer is dropped). So no route
has to remember the rule, and a new write route follows it by itself. A replica lost in the instant between
the two checks is the one case where a refused write may have happened. Every write is made safe for it one
of two ways (the table is in docs/internals.md, "Acknowledged writes"):

- **idempotent**: by a key the client sends (a registration's ``client_key``, the ``Idempotency-Key`` of a
  token rotation, a recovery code, a chat message; a command's ``command_id``) or by value (settings, an
  invitation standing for the same player, mutes, blocks, a report): the client's retry answers the outcome
  of the refused try, never a second one;
- **undone**: a route that has no such key registers what takes its write back with :func:`undo_on_refusal`;
  a refused answer runs it before the 503 leaves (an unkeyed chat message is deleted).

Commands answered by the hot path never come here: their appends already wait (``EventStore``); error answers
go out at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import structlog
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from services.adapters.api.errors import not_durable_response, unavailable_response
from services.infrastructure.durability import Durability, WriteNotDurable
from services.infrastructure.resilience import UNAVAILABLE

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
UNDO = "undo_on_refusal"
log = structlog.get_logger(__name__)


def undo_on_refusal(request: Request, undo: Callable[[], None]) -> None:
    """Have ``undo`` run if this request's write is refused for durability (its answer is then a 503)."""
    request.scope.setdefault("state", {}).setdefault(UNDO, []).append(undo)


class DurableWrites:
    def __init__(self, app: Any, durability: Durability) -> None:
        self.app = app
        self.durability = durability

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] not in WRITE_METHODS or not self._waits():
            await self.app(scope, receive, send)
            return
        if not await self._confirmed(scope, receive, send):  # refused before anything was written
            return
        refused = [False]

        async def confirming(message: dict) -> None:
            if refused[0]:
                return  # the body of the answer that was replaced
            if message["type"] == "http.response.start" and 200 <= message["status"] < 300:
                if not await self._confirmed(scope, receive, send, undo=True):
                    refused[0] = True
                    return
            await send(message)

        await self.app(scope, receive, confirming)

    def _waits(self) -> bool:
        """Whether writes wait; False while the store cannot even be asked (the route then answers its own 503
        with Retry-After, and nothing it tries can be written meanwhile)."""
        try:
            return self.durability.waits
        except UNAVAILABLE:
            return False

    async def _confirmed(self, scope: dict, receive: Any, send: Any, undo: bool = False) -> bool:
        """True once everything written so far is durable; else (after the route's undo actions, with ``undo``)
        answers 503 and returns False."""
        try:
            await run_in_threadpool(self.durability.confirm)
            return True
        except WriteNotDurable as exc:
            refusal = not_durable_response(exc)
        except UNAVAILABLE as exc:  # a master went away meanwhile
            refusal = unavailable_response(f"the service cannot reach its store ({type(exc).__name__}); "
                                           "try again shortly")
        if undo:
            await _undo(scope)
        await refusal(scope, receive, send)
        return False


async def _undo(scope: dict) -> None:
    for action in scope.get("state", {}).get(UNDO, []):
        try:
            await run_in_threadpool(action)
        except Exception as exc:  # the 503 goes out whatever (an unkeyed retry then makes a copy)
            log.warning("undo_failed", error=type(exc).__name__, detail=str(exc)[:200])
