"""Invitations to a seat: the use cases behind the HTTP routes (invite, accept, decline, withdraw, list).

The rules (who may invite, a reserved seat only for its invitee, one seat
per player) live in the domain (``domain.core.seating``); this layer finds
the invited player by handle, stamps the expiry from the service's clock,
and sends the kernel commands through the command stream. Accepting and
declining use command ids derived from the invitation, so repeating one
(after a timeout, say) applies it once.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import redis

from domain.core import Command, GameNotActive, RuleError
from domain.core.lifecycle import ClaimSeat, GameRecord
from domain.core.seating import EndInvitation, Invitation, InviteToSeat
from projections.read_models import GameMeta, load_meta
from services.application.commands import poll_path
from services.application.results import Accepted, accepted_or_raise, result_of
from services.infrastructure.clock import Clock
from services.infrastructure.commands import CommandBus, new_reply
from services.infrastructure.eventstore import Keys
from services.infrastructure.players import Player, Players
from services.infrastructure.redisconn import mget

T = TypeVar("T")
WithRecord = Callable[[str, Callable[[GameRecord, int], T]], T]
"""``with_record(game_id, use)``: run ``use(record, version)`` on the game's current record."""


@dataclass(frozen=True)
class Pending:
    """One invitation as its invitee sees it in the inbox."""

    game_id: str
    game: str
    seat: int
    expires_at: float
    invited_by: Player | None
    seats: list[dict[str, Any]]


class Invitations:
    def __init__(self, client: redis.Redis, keys: Keys, bus: CommandBus, with_record: WithRecord[Any],
                 wait_seconds: float, ttl_seconds: float, clock: Clock) -> None:
        self.redis = client
        self.clock = clock
        self.keys = keys
        self.bus = bus
        self.with_record = with_record
        self.wait_seconds = wait_seconds
        self.ttl_seconds = ttl_seconds
        self.players = Players(client, keys)

    def invite(self, game_id: str, by: str, handle: str, seat: int | None) -> tuple[int, Invitation, int]:
        """Reserve ``seat`` (default: the first open one) for the player with ``handle``; returns
        (seat, invitation, version). Idempotent by value: while ``by``'s invitation of that player stands (for
        ``seat``, when given), asking again answers it (a retry after a 503 or a lost answer reserves no second
        seat). Refused (``invitation_refused``) when the invitee blocked ``by``."""
        invitee = self.players.by_handle(handle)
        if invitee is None:
            raise RuleError(f"no player with handle {handle!r}", code="player_not_found")
        if self.redis.sismember(self.keys.blocks(f"player:{invitee.player_id}"), f"player:{by}"):
            raise RuleError(f"{invitee.name} does not take invitations from you", code="invitation_refused")

        def choose(record: GameRecord, version: int) -> tuple[int, Invitation | None, int]:
            if record.status != "open":
                raise GameNotActive(f"game {game_id} is {record.status}; invitations are for open games")
            for i, s in enumerate(record.seats):  # the same invitation asked again (a retry): the same answer
                if s.invitation is not None and s.invitation.player_id == invitee.player_id \
                        and s.invitation.by == by and seat in (None, i):
                    return i, s.invitation, version
            free = [i for i, s in enumerate(record.seats) if not s.taken and s.invitation is None]
            if seat is not None:
                return seat, None, version  # the domain says why a chosen seat cannot be reserved
            if not free:
                raise RuleError(f"game {game_id} has no open seat", code="no_open_seat")
            return free[0], None, version

        chosen, standing, at = self.with_record(game_id, choose)
        if standing is not None:
            return chosen, standing, at
        invitation = Invitation(player_id=invitee.player_id, name=invitee.name, handle=invitee.handle,
                                expires_at=self.clock.now() + self.ttl_seconds, by=by)
        command = InviteToSeat(for_seat=chosen, player_id=invitation.player_id, name=invitation.name,
                               handle=invitation.handle, expires_at=invitation.expires_at, by=by)
        outcome = self._send(game_id, command, f"invite:{uuid.uuid4().hex}", f"player:{by}")
        return chosen, invitation, outcome.version or 0

    def standing(self, game_id: str, seat: int, player_id: str | None = None) -> Invitation:
        """The invitation standing for ``seat`` (of ``player_id`` when given), or ``invitation_not_found``."""

        def find(record: GameRecord, _: int) -> Invitation | None:
            if record.status != "open" or not 0 <= seat < len(record.seats):
                return None
            return record.seats[seat].invitation

        found = self.with_record(game_id, find)
        if found is None or (player_id is not None and found.player_id != player_id):
            raise RuleError(f"no invitation to seat {seat} of game {game_id} stands for you",
                            code="invitation_not_found")
        return found

    def accept(self, game_id: str, seat: int, player_id: str) -> int:
        """Take the reserved seat; returns the game's version."""
        invitation = self.standing(game_id, seat, player_id)
        if self.clock.now() >= invitation.expires_at:
            raise RuleError(f"the invitation to seat {seat} of game {game_id} has expired",
                            code="invitation_expired")
        player = self.players.get(player_id)
        command = ClaimSeat(name=player.name if player else invitation.name, player_id=player_id)
        outcome = self._send(game_id, command,
                             f"accept:{game_id}:{seat}:{player_id}:{invitation.expires_at!r}", f"player:{player_id}",
                             seat=seat)
        return outcome.version or 0

    def decline(self, game_id: str, seat: int, player_id: str) -> int:
        invitation = self.standing(game_id, seat, player_id)
        return self._end(game_id, seat, invitation, "declined", by=player_id)

    def withdraw(self, game_id: str, seat: int, by: str) -> int:
        return self._end(game_id, seat, self.standing(game_id, seat), "withdrawn", by=by)

    def _end(self, game_id: str, seat: int, invitation: Invitation, reason: str, by: str) -> int:
        command = EndInvitation(for_seat=seat, player_id=invitation.player_id, reason=reason,  # type: ignore[arg-type]
                                by=by)
        outcome = self._send(game_id, command,
                             # whose request it is belongs in the id: a refused stranger's must not answer for the creator
                             f"{reason}:{game_id}:{seat}:{invitation.player_id}:{invitation.expires_at!r}:{by}",
                             f"player:{by}")
        return outcome.version or 0

    def pending(self, player_id: str, limit: int = 100) -> list[Pending]:
        """The invitations standing for the player, soonest to lapse first; ended ones are dropped here."""
        key = self.keys.invitations(player_id)
        rows: Any = self.redis.zrange(key, 0, limit - 1, withscores=True)
        entries: list[tuple[str, float]] = [(m.decode(), float(score)) for m, score in rows]
        if not entries:
            return []
        metas = mget(self.redis, [self.keys.meta(m.rpartition(":")[0]) for m, _ in entries])
        now = self.clock.now()
        found, stale = [], []
        for (member, expires_at), raw in zip(entries, metas):
            judged = self._judge(member, expires_at, load_meta(raw) if raw else None, player_id, now)
            if judged == "stale":
                stale.append(member)
            elif isinstance(judged, Pending):
                found.append(judged)
        if stale:
            self.redis.zrem(key, *stale)
        return found

    def _judge(self, member: str, expires_at: float, meta: GameMeta | None, player_id: str,
               now: float) -> Pending | str | None:
        """One entry of the player's list against its game's meta: the invitation to show, "stale" to drop, or
        None to leave it unshown for now.

        An entry is dropped only when the meta contradicts it (the game left "open", or the seat is invited for
        someone else or anew) or when it has lapsed anyway. A meta that merely does not show it yet may lag behind
        the projection's fold: dropping it then would lose it for good."""
        game_id, _, seat_text = member.rpartition(":")
        seat = int(seat_text)
        invited = meta.seats[seat].invited if meta and seat < len(meta.seats) else None
        contradicted = meta is not None and (meta.status != "open" or (invited is not None and (
            invited.player_id != player_id or invited.expires_at != expires_at)))
        if contradicted or (invited is None and now >= expires_at):
            return "stale"
        if meta is None or invited is None or now >= expires_at:
            return None  # not shown yet (or withdrawn: it lapses with its expiry), or its expiry job is due
        inviter = self.players.get(meta.creator or "")
        return Pending(game_id=game_id, game=meta.game, seat=seat, expires_at=expires_at, invited_by=inviter,
                       seats=[s.model_dump(mode="json", exclude_unset=True) for s in meta.seats])

    def _send(self, game_id: str, command: Command, command_id: str, actor: str, seat: int = -1) -> Accepted:
        reply = new_reply()
        self.bus.submit(game_id, command, seat=seat, actor=actor, command_id=command_id, reply=reply)
        outcome = self.bus.wait(game_id, command_id, self.wait_seconds, reply=reply)
        return accepted_or_raise(result_of(outcome, game_id, command_id, poll_path(game_id)))
