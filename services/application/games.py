"""Use cases of a game's table: create a game, take a seat, submit a move, the seat's kernel commands.

Each takes typed input (kernel or game command models, seat specs), checks what the service can check
cheaply before queueing (raising :class:`domain.core.RuleError` with a stable code), sends the kernel
command through the command stream and answers with :mod:`.results`. Authentication (which seats a
token holds) and abuse limits stay with the adapters; a limit that must be undone when the command is
rejected is passed in as an :class:`Admission`.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import orjson

from domain.core import SYSTEM_SEAT, Command, InvalidCommand, RuleError, get_game
from domain.core.lifecycle import (
    PLAYER_KERNEL_COMMANDS,
    ClaimSeat,
    CreateGame,
    ReclaimSeat,
    SeatSpec,
    new_game_pace,
)
from domain.core.seating import bot_seat_names
from projections.read_models import GameMeta
from services.application.bots import LEVELS
from services.application.commands import actor_of, poll_path, send
from services.application.ratings import Ratings
from services.application.results import Accepted, CommandResult, Queued, Rejected, result_of
from services.application.seating import check_one_seat
from services.infrastructure.async_commands import AsyncCommandBus, CommandIdReused
from services.infrastructure.bootstrap import Root
from services.infrastructure.commands import CommandMessage, CommandOutcome
from services.infrastructure.eventstore import Envelope


class Admission(Protocol):
    """A limit an adapter holds a new game or seat to (bot games per player, guest seats per address):
    ``admit`` raises a RuleError to refuse; ``release`` gives the place back when the command is rejected."""

    def admit(self, game_id: str, seat: int | None) -> None: ...

    def release(self, game_id: str) -> None: ...


@dataclass(frozen=True)
class CreatedSeat:
    seat: int
    name: str | None
    bot: str | None = None
    token: str | None = None
    """A named human seat's token (shown once); None for bots, open seats and the creator's own seats."""


@dataclass(frozen=True)
class NewGame:
    """A game as asked for: the kernel's seat specs (``player_id`` set on the creator's own seats)."""

    game: str
    seats: Sequence[SeatSpec]
    options: dict[str, Any] = field(default_factory=dict)
    pace: str | dict[str, Any] | None = None
    hot_seat: bool = False
    creator: str | None = None
    dev_seed: str | None = None
    rated: bool = True
    hints: bool = False
    tutorial: bool = False
    """A guided first game: always casual with hints (:func:`_as_tutorial`)."""
    min_reliability: int | None = None
    """Admit only players at or above this reliability (per cent; :func:`check_reliability`)."""


@dataclass(frozen=True)
class GameCreation:
    game_id: str
    seats: list[CreatedSeat]
    result: CommandResult


@dataclass(frozen=True)
class SeatTaken:
    game_id: str
    seat: int
    token: str | None
    result: CommandResult


def _check_level(level: str, what: str) -> None:
    if level not in LEVELS:
        raise RuleError(f"{what}: unknown bot level {level!r}; known: {', '.join(sorted(LEVELS))}",
                        code="invalid_request")


def player_name(root: Root, player_id: str) -> str:
    player = root.players.get(player_id)
    return player.name if player else "player"


def _creation_command(root: Root, new: NewGame) -> CreateGame:
    """The kernel's CreateGame for ``new``, after the checks the service makes before queueing."""
    if new.tutorial:
        new = _as_tutorial(new)
    game = get_game(new.game)
    options = game.parse_options(new.options)
    game.check_seats(options, len(new.seats))
    _check_flags(root, new)
    pace = new_game_pace(new.pace)  # this version's defaults (takeover after 3 timeouts ...) written in
    if pace is not None:
        _check_level(pace.autopilot_level, "autopilot")
    seats = []
    bot_names = bot_seat_names([(s.name, s.bot) for s in new.seats])
    for index, spec in enumerate(new.seats):
        if spec.bot is not None:
            _check_level(spec.bot, f"seat {index}")
            if spec.player_id is not None:
                raise RuleError(f"seat {index} cannot be both a bot and yours", code="invalid_request")
        if spec.player_id is not None and spec.player_id != new.creator:
            raise RuleError(f"seat {index}: only the creator's own seats are bound at creation", code="invalid_request")
        name = bot_names[index] or spec.name or (player_name(root, spec.player_id) if spec.player_id else None)
        seats.append(SeatSpec(name=name, bot=spec.bot, player_id=spec.player_id))
    return CreateGame(game=game.id, options=options.model_dump(mode="json"), seats=seats, seed_commitment="",
                      creator=new.creator, hot_seat=new.hot_seat, pace=pace, tutorial=True if new.tutorial else None,
                      rated=None if new.rated else False, hints=True if new.hints else None,
                      min_reliability=new.min_reliability)


def _check_flags(root: Root, new: NewGame) -> None:
    """The service's checks of a new game's flags: a chosen seed, hints, the creator's own reliability."""
    if new.dev_seed is not None and not root.settings.allow_client_seed:
        raise RuleError("this server keeps seeds secret; a chosen seed is for development only",
                        code="seed_not_allowed")
    if new.hints and new.rated:
        raise RuleError("hints are for casual games: create the game with rated false to allow them",
                        code="hints_in_rated_game")
    if new.min_reliability is not None and new.creator is not None:
        check_reliability(root, new.creator, new.min_reliability)


def check_reliability(root: Root, player_id: str | None, minimum: int) -> None:
    """A game with ``min_reliability`` admits a registered player at or above it (one with no finished game yet
    too: nothing speaks against them); a guest has no record to show and is refused."""
    if player_id is None:
        raise RuleError(f"this game admits registered players with a reliability of at least {minimum}%; "
                        "sign in to take a seat", code="reliability_too_low")
    found = Ratings(root.redis, root.keys).reliability(player_id)
    if not found.admits(minimum):
        raise RuleError(f"this game admits players with a reliability of at least {minimum}%; yours is "
                        f"{found.percent}% ({found.finished} of {found.started} games finished)",
                        code="reliability_too_low")


def _as_tutorial(new: NewGame) -> NewGame:
    """A tutorial is a casual game with hints, one player's own seat against bots, untimed: the hints it offers
    are only ever that player's, nobody else sits at a table where one seat is coached, and it is never rated."""
    mine = [s for s in new.seats if s.player_id is not None]
    if new.creator is None or len(mine) != 1 or any(s.bot is None and s.player_id is None for s in new.seats):
        raise RuleError("a tutorial is your own seat (me) against bots only", code="invalid_request")
    if new.pace is not None:
        raise RuleError("a tutorial is untimed: leave the pace out", code="invalid_request")
    return replace(new, rated=False, hints=True)


def keyed_game_id(creator: str | None, key: str) -> str:
    """The id of the game a creation under the client's ``key`` makes: the same for every retry of it."""
    return hashlib.sha256(f"{creator or ''}\0{key}".encode()).hexdigest()[:12]


def _admit_bots(admission: Admission | None, command: CreateGame, game_id: str) -> Admission | None:
    """``admission`` asked for a game with bots (they cost worker time); the one to release if it is refused."""
    if admission is None or not any(s.bot for s in command.seats):
        return None
    admission.admit(game_id, None)
    return admission


def _held_already(game_id: str, meta: GameMeta, player_id: str | None, held: Sequence[int],
                  seat: int | None) -> SeatTaken | None:
    """The seat a player holds when they ask to join again (none, or the one held): a retry whose answer was
    lost or refused (503) answers the seat it took, never a second one (hot-seat games take several)."""
    if not player_id or not held or meta.hot_seat or (seat is not None and seat not in held):
        return None
    version = meta.version
    return SeatTaken(game_id=game_id, seat=held[0], token=None,
                     result=Accepted(game_id=game_id, command_id="", from_version=version, version=version))


def create_game(root: Root, new: NewGame, *, admission: Admission | None = None, issue_seat_tokens: bool = True,
                actor: str | None = None, wait: float | None = None, key: str | None = None) -> GameCreation:
    """Create a game: named human seats that are not the creator's get a seat token (shown once), bots and
    open seats none. ``admission`` is asked for a game with bots (they cost worker time). A rejected
    creation revokes the tokens and releases the admission. With the client's ``key`` (its Idempotency-Key)
    the game's id and its creation's command id come from the key, so a retry (its answer lost, or a 503)
    answers the game the first try made, never a second game (its seat tokens are issued anew: the first
    ones were never shown)."""
    command = _creation_command(root, new)
    game_id = keyed_game_id(new.creator, key) if key else uuid.uuid4().hex[:12]
    bot_admission = _admit_bots(admission, command, game_id)
    tokens = {i: root.tokens.issue_seat(game_id, i) for i, s in enumerate(command.seats)
              if issue_seat_tokens and s.name and not s.bot and s.player_id is None}
    result = send(root, game_id, command, seat=SYSTEM_SEAT, actor=actor or actor_of(new.creator),
                  command_id="create" if key else None, dev_seed=new.dev_seed, poll=poll_path(game_id), wait=wait)
    if isinstance(result, Rejected):
        for token in tokens.values():
            root.tokens.revoke(token)
        if bot_admission is not None:
            bot_admission.release(game_id)
    seats = [CreatedSeat(seat=i, name=s.name, bot=s.bot, token=tokens.get(i)) for i, s in enumerate(command.seats)]
    return GameCreation(game_id=game_id, seats=seats, result=result)


def join_game(root: Root, game_id: str, meta: GameMeta, *, seat: int | None, name: str | None,
              player_id: str | None, held: Sequence[int] = (), seat_token: bool,
              admission: Admission | None = None) -> SeatTaken:
    """Take an open seat (the first unless ``seat``) as ``player_id`` or as a named guest; a guest gets a seat
    token (``seat_token``). ``meta`` is the game's read model; ``held``: the seats the caller's token holds."""
    if (taken := _held_already(game_id, meta, player_id, held, seat)) is not None:
        return taken
    if player_id and not name:
        name = player_name(root, player_id)
    if not name:
        raise RuleError("a guest must give a name", code="invalid_request")
    if player_id is None:  # a player's seats are the domain's rule (one each unless hot-seat)
        check_one_seat(held, game_id, meta.hot_seat)
    if meta.min_reliability is not None:
        check_reliability(root, player_id, meta.min_reliability)
    chosen = _open_seat(game_id, meta, seat)
    if admission is not None:
        admission.admit(game_id, chosen)
    token = root.tokens.issue_seat(game_id, chosen) if seat_token else None
    result = send(root, game_id, ClaimSeat(name=name, player_id=player_id), seat=chosen, actor=actor_of(player_id),
                  poll=poll_path(game_id))
    if isinstance(result, Rejected):
        if token:
            root.tokens.revoke(token)
        if admission is not None:
            admission.release(game_id)
    return SeatTaken(game_id=game_id, seat=chosen, token=token, result=result)


def _open_seat(game_id: str, meta: GameMeta, seat: int | None) -> int:
    """``seat`` when it is open, else the first open seat when none was asked for."""
    open_seats = [s.seat for s in meta.seats if s.open]
    if not open_seats:
        raise RuleError(f"game {game_id} has no open seat", code="no_open_seat")
    chosen = seat if seat is not None else open_seats[0]
    if chosen not in open_seats:
        raise RuleError(f"seat {chosen} is not open; open seats: {open_seats}", code="seat_taken")
    return chosen


def scoped_command_id(game_id: str, seat: int, command_id: str) -> str:
    """A client's command id is scoped to the game and seat it was sent for."""
    return f"{game_id}:{seat}:{command_id}"


def check_player_command_type(kind: str) -> None:
    """Refuse the service's own kernel commands (scoring, timeouts ...) from a seat."""
    if kind.startswith("taproom.") and kind not in PLAYER_KERNEL_COMMANDS:
        raise InvalidCommand(f"service commands cannot be submitted here; a player's are: "
                             f"{', '.join(PLAYER_KERNEL_COMMANDS)}")


async def submit_command_async(root: Root, bus: AsyncCommandBus, game_id: str, command: Command, *, actor: str,
                               command_id: str | None = None, expected_version: int | None = None) -> CommandResult:
    """A seat's move (or a kernel command a seat may send: reclaim, votes) under the client's ``command_id``:
    one id, one outcome forever; the same id with another command is refused (``command_id_reused``). On the
    event loop (``redis.asyncio``): the command id is claimed, the command queued and its outcome awaited in
    one round trip, and the processor hands the outcome over with the events it caused (no polling, no read
    of the log), and with them what the game is after them (``Accepted.after``). Queued: poll
    ``/games/{game_id}/commands/{command_id}``."""
    check_player_command_type(command.type)
    client_id = command_id or uuid.uuid4().hex
    if not 1 <= len(client_id) <= 80:
        raise RuleError("command_id must be a string of 1 to 80 characters", code="invalid_request")
    scoped = scoped_command_id(game_id, command.seat, client_id)
    body = command.model_dump(mode="json")
    # built from the body already dumped, unvalidated: every field is as the model says (CommandMessage.of would
    # dump the command a second time and validate what it built)
    message = CommandMessage.model_construct(game_id=game_id, command_id=scoped, command={
        k: v for k, v in body.items() if k != "seat"}, seat=command.seat, actor=actor, expected_version=expected_version)
    try:
        settled = await bus.submit_and_wait(message, root.settings.command_wait_seconds, body,
                                            claim=command_fingerprint(body, expected_version))
    except CommandIdReused:
        raise _reused(scoped) from None
    poll = poll_path(game_id, client_id)
    if settled is None:
        return Queued(game_id=game_id, command_id=client_id, poll=poll)
    events = [Envelope.trusted_values(values) for values in settled.events]
    if settled.outcome.accepted and not events:  # an outcome the id had already: its events from the log
        events = await bus.read(game_id, settled.outcome.from_version, settled.outcome.version)
    return result_of(settled.outcome, game_id, client_id, poll, events,
                     settled.after if settled.events else None)


async def refuse_malformed_async(bus: AsyncCommandBus, game_id: str, seat: int, command_id: str | None,
                                 body: dict[str, Any], expected: Any, error: RuleError) -> RuleError:
    """The answer to a request under ``command_id`` that names no command of the game (``error``, its 422): the id
    is used by it for good, like a rejected command's. The same body again gets ``error`` again; any other
    body, now or later, 409 ``command_id_reused`` (an id never changes its answer). Without an id (or with one
    too long to be an id), ``error`` alone."""
    if command_id is None or not 1 <= len(command_id) <= 80:
        return error
    scoped = scoped_command_id(game_id, seat, command_id)
    rejection = CommandOutcome.rejected(game_id, scoped, error.code, error.message)
    answer = await bus.spend(game_id, scoped, command_fingerprint(body, expected), rejection.to_json())
    return _reused(scoped) if answer == "reused" else error


def command_fingerprint(body: dict[str, Any], expected: int | None) -> str:
    """What a command id is claimed for: the command's body and the version it expects."""
    return hashlib.sha256(orjson.dumps([body, expected], option=orjson.OPT_SORT_KEYS)).hexdigest()


def _reused(command_id: str) -> RuleError:
    return RuleError(f"command id {command_id.rsplit(':', 1)[-1]!r} was already used for another command in "
                     "this game: choose a new id for a new command", code="command_id_reused")


def command_outcome(root: Root, game_id: str, seat: int, command_id: str) -> CommandResult:
    """The outcome of a command a seat submitted earlier under ``command_id`` (never changes once given)."""
    outcome = root.bus.outcome(game_id, scoped_command_id(game_id, seat, command_id))
    if outcome is None:
        return Queued(game_id=game_id, command_id=command_id, poll=poll_path(game_id, command_id))
    if not outcome.accepted:
        return Rejected(game_id=game_id, command_id=command_id, code=outcome.code or "rejected",
                        message=outcome.message or "command rejected", version=outcome.version)
    return Accepted(game_id=game_id, command_id=command_id, from_version=outcome.from_version,
                    version=outcome.version)


def seat_command(root: Root, game_id: str, command: Command, *, actor: str) -> CommandResult:
    """A kernel command of a seat's holder outside the turn order (take the seat back, vote about a
    taken-over seat, withdraw a vote), under a fresh id."""
    return send(root, game_id, command, seat=command.seat, actor=actor)


def reclaim_seat(root: Root, game_id: str, seat: int, *, actor: str) -> CommandResult:
    """Take ``seat`` back from the autopilot or after a missed deadline (its timeouts count from zero)."""
    return seat_command(root, game_id, ReclaimSeat(seat=seat), actor=actor)
