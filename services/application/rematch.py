"""Rematch: one request makes the next game of a finished table (use case behind ``POST /games/{id}/rematch``).

The new game has the same game, options, pace and hot-seat rule; its seats are the old ones rotated by one
(old seat 1 sits first, old seat 0 last), so a different player starts wherever seat order decides it.
The asking player takes their seat at once; every other registered player's seat is reserved for them
with the invitations machinery (``taproom.InviteToSeat``: it shows in their inbox, they accept or decline);
bots keep their levels; a guest's seat (no player behind it) is left open to join. The new game's id is
stored with the old game (``Keys.rematch``, set once), so every player of the table who asks gets the same
rematch, and asking for it accepts one's own invitation.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from domain.core import SYSTEM_SEAT, Command, RuleError
from domain.core.lifecycle import CreateGame, GameRecord
from domain.core.seating import InviteToSeat
from services.application.commands import actor_of, poll_path, send
from services.application.games import Admission
from services.application.invitations import Invitations
from services.application.moderation import Blocks
from services.application.results import StillQueued, accepted_or_raise
from services.infrastructure.bootstrap import REMATCH_SIDE_NAME, Root

WithRecord = Callable[[str, Callable[[GameRecord, int], Any]], Any]
REMATCH_OF = ("ended", "scored")


def rotated(n: int) -> list[int]:
    """Old seat for each new seat: new seat i is old seat i + 1 (mod n)."""
    return [(i + 1) % n for i in range(n)]


class Rematches:
    def __init__(self, root: Root, with_record: WithRecord, admission: Admission | None = None) -> None:
        self.root = root
        self.redis = root.redis
        self.keys = root.keys
        self.with_record = with_record
        self.admission = admission  # a rematch with bots counts as a bot game of its creator
        self.settings = root.settings
        self.invitations = Invitations(root.redis, root.keys, root.bus, with_record, root.settings.command_wait_seconds,
                                       root.settings.invitation_ttl_seconds, root.clock)

    def rematch(self, game_id: str, player_id: str) -> dict[str, Any]:
        old: GameRecord = self.with_record(game_id, lambda record, _: _copy_of(record))
        mine = [i for i, s in enumerate(old.seats) if s.player_id == player_id and not s.bot]
        if not mine:
            raise RuleError(f"only a player of game {game_id} asks for its rematch", code="not_your_seat")
        if old.status not in REMATCH_OF:
            raise RuleError(f"game {game_id} is {old.status}; a rematch follows a finished game",
                            code="game_not_active")
        new_id = uuid.uuid4().hex[:12]
        if self._existing(game_id) is not None or not self.redis.set(self.keys.rematch(game_id), new_id, nx=True):
            return self._join_existing(game_id, player_id)
        try:
            invited = self._create(old, new_id, player_id)
        except StillQueued:
            raise  # it will be decided: the key stays, asking again answers with this game
        except Exception:
            self.redis.delete(self.keys.rematch(game_id))  # nothing was made: the next request tries again
            raise
        seat = next(i for i, o in enumerate(rotated(len(old.seats))) if o in mine)
        return {"game_id": new_id, "of": game_id, "seat": seat, "created": True, "invited": invited}

    def _join_existing(self, game_id: str, player_id: str) -> dict[str, Any]:
        new_id = self._existing(game_id)
        assert new_id is not None
        record: GameRecord = self.with_record(new_id, lambda record, _: _copy_of(record))
        seat = next((i for i, s in enumerate(record.seats) if s.player_id == player_id), None)
        if seat is None:
            seat = next((i for i, s in enumerate(record.seats)
                         if s.invitation is not None and s.invitation.player_id == player_id), None)
            if seat is not None:
                self.invitations.accept(new_id, seat, player_id)
        invited = [i for i, s in enumerate(record.seats) if s.invitation is not None and i != seat]
        return {"game_id": new_id, "of": game_id, "seat": seat, "created": False, "invited": invited}

    def _existing(self, game_id: str) -> str | None:
        """The id of the game's rematch: in Redis, or in the game's archive once it was archived with it."""
        raw: Any = self.redis.get(self.keys.rematch(game_id))
        if raw is not None:
            return raw.decode() if isinstance(raw, bytes) else str(raw)
        if not self.redis.exists(self.keys.archived(game_id)):
            return None
        side = self.root.store.archived_side(game_id, REMATCH_SIDE_NAME)
        return str(side["value"]) if side else None

    def _create(self, old: GameRecord, new_id: str, player_id: str) -> list[int]:
        players = self.root.players
        seats, to_invite = _new_seats(old, player_id, players.get(player_id))
        has_bots = any(s.get("bot") for s in seats)
        if has_bots and self.admission is not None:
            self.admission.admit(new_id, None)
        command = _same_terms(old, seats, player_id)
        try:
            self._send(new_id, command, f"rematch:{old.game_id}", player_id, poll_path(new_id))
        except Exception:
            if has_bots and self.admission is not None:
                self.admission.release(new_id)
            raise
        expires = self.root.clock.now() + self.settings.invitation_ttl_seconds
        blocks = Blocks(self.root.redis, self.root.keys)
        # a player who blocked the asker is not invited (their seat stays open, as for a guest)
        to_invite = [(seat, i) for seat, i in to_invite if not blocks.is_blocked(player_id, by=i)]
        for seat, invitee_id in to_invite:
            invitee = players.get(invitee_id)
            name = invitee.name if invitee else (old.seats[rotated(len(old.seats))[seat]].name or "player")
            invite = InviteToSeat(for_seat=seat, player_id=invitee_id, name=name,
                                  handle=invitee.handle if invitee else None, expires_at=expires, by=player_id)
            self._send(new_id, invite, f"rematch-invite:{new_id}:{seat}", player_id, poll_path(new_id))
        return [seat for seat, _ in to_invite]

    def _send(self, game_id: str, command: Command, command_id: str, player_id: str, poll: str) -> None:
        """Sent as the service on the asker's behalf (a queued one answers 202: asking again is safe)."""
        accepted_or_raise(send(self.root, game_id, command, seat=SYSTEM_SEAT, actor=actor_of(player_id),
                               command_id=command_id, poll=poll))


def _new_seats(old: GameRecord, player_id: str, me: Any) -> tuple[list[dict[str, Any]], list[tuple[int, str]]]:
    """The rematch's seats, rotated (the next player starts): the same bots, the asker in their seat, the other
    players' seats open; and those seats with the player to invite to each."""
    seats: list[dict[str, Any]] = []
    to_invite: list[tuple[int, str]] = []
    for new_seat, old_seat in enumerate(rotated(len(old.seats))):
        info = old.seats[old_seat]
        if info.bot and not info.player_id:
            seats.append({"name": info.name, "bot": info.bot})
        elif info.player_id == player_id:
            seats.append({"name": me.name if me else info.name, "player_id": player_id})
        else:
            seats.append({})
            if info.player_id:
                to_invite.append((new_seat, info.player_id))
    return seats, to_invite


def _same_terms(old: GameRecord, seats: list[dict[str, Any]], player_id: str) -> CreateGame:
    """The rematch's creation, on the terms of the game it follows: casual stays casual (with its hints), rated
    keeps its reliability bar."""
    return CreateGame(game=old.game_type, options=old.options, seats=seats, seed_commitment="", pace=old.pace,
                      creator=player_id, hot_seat=old.hot_seat, rated=None if old.rated else False,
                      hints=old.hints or None, min_reliability=old.min_reliability)


def _copy_of(record: GameRecord) -> GameRecord:
    """What the rematch needs of a record, detached from the shared cached one (no game state)."""
    return GameRecord(game_id=record.game_id, game_type=record.game_type, options=dict(record.options),
                      seats=list(record.seats), seed_commitment=record.seed_commitment, status=record.status,
                      pace=record.pace, creator=record.creator, hot_seat=record.hot_seat, rated=record.rated,
                      hints=record.hints, min_reliability=record.min_reliability)
