"""The game aggregate: a game's lifecycle around its rules (pure, like the games).

A hosted game is created with seats (humans, bots or open), starts when every
seat is taken, runs the game's own decider, ends when the game says so, and
is scored (the seed revealed) by a system command. Kernel commands and
events live here, named ``taproom.*`` so no game can collide with them.

Asynchronous play (the clock itself lives in the service: the domain has no
clock): a game may carry a :class:`Pace`. When a seat's time runs out the
service sends ``TimeOut`` (a system command); the seat then is *away* and the
table's policy plays for it (``autopilot``: a bot's move carried in the
command; ``skip``: the most neutral legal move, see :func:`skip_move`) through
``PlayFor`` until its holder comes back (``ReclaimSeat``, or any accepted
command of that seat). An open game nobody fills is closed by ``ExpireGame``.

    execute(record, command, dice) -> (events, record)   validate, decide, fold
    apply(record, event) -> record                       fold one event (never fails)

``execute`` folds the events into ``record`` in place (it only changes it once
the command is accepted): the processor keeps records cached and drops one
whenever its append is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, model_serializer, model_validator

from .errors import GameNotActive, IllegalMove, InvalidCommand, InvalidOptions, NotYourTurn, RuleError
from .game import Game, Score, rank
from .messages import SYSTEM_SEAT, Command, Event
from .registry import get_game
from .rng import commitment
from .seating import (EndInvitation, Invitation, InvitationEnded, InviteToSeat, SeatInvited, check_claim,
                      check_creation, check_seat_free, decide_end, decide_invite, invitation_of,
                      superseded)

class StaleVersion(RuleError):
    code = "stale_version"


class SeatSpec(BaseModel):
    """A seat at creation: a named human (player_id may be bound), a bot, or open (name None)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str | None = Field(default=None, max_length=64)
    bot: str | None = None
    player_id: str | None = None


TimeoutPolicy = Literal["autopilot", "skip"]


class Pace(BaseModel):
    """How long a seat may take, and what happens when it runs out (chosen at creation).

    Either a fixed time per move (``per_move_seconds``) or a time bank
    (``bank_seconds``, plus ``increment_seconds`` after each move); neither
    means untimed. ``open_expiry_seconds`` closes an open game nobody fills
    (the service has a default when it is not given).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    per_move_seconds: int | None = Field(default=None, ge=1, le=30 * 86400)
    bank_seconds: int | None = Field(default=None, ge=1, le=90 * 86400)
    increment_seconds: int = Field(default=0, ge=0, le=30 * 86400)
    on_timeout: TimeoutPolicy = "autopilot"
    autopilot_level: str = Field(default="random", max_length=32)
    open_expiry_seconds: int | None = Field(default=None, ge=1, le=365 * 86400)

    @model_validator(mode="after")
    def _one_clock(self) -> "Pace":
        if self.per_move_seconds is not None and self.bank_seconds is not None:
            raise ValueError("choose per_move_seconds or bank_seconds, not both")
        if self.increment_seconds and self.bank_seconds is None:
            raise ValueError("increment_seconds needs a time bank (bank_seconds)")
        return self

    @property
    def timed(self) -> bool:
        return self.per_move_seconds is not None or self.bank_seconds is not None


PACE_PRESETS: dict[str, Pace] = {
    "1h": Pace(per_move_seconds=3600),
    "1d": Pace(per_move_seconds=86400),
    "3d": Pace(per_move_seconds=3 * 86400),
    "bank": Pace(bank_seconds=7 * 86400, increment_seconds=12 * 3600),
}
"""Named paces a client may give instead of a full :class:`Pace` (``"1d"``: a day per move)."""


def parse_pace(raw: Pace | str | dict[str, Any] | None) -> Pace | None:
    """A pace from a preset name, a dict or a model (None: untimed)."""
    if raw is None or isinstance(raw, Pace):
        return raw
    if isinstance(raw, str):
        if raw not in PACE_PRESETS:
            raise InvalidOptions(f"unknown pace {raw!r}; presets: {', '.join(PACE_PRESETS)}")
        return PACE_PRESETS[raw]
    try:
        return Pace.model_validate(raw)
    except Exception as exc:
        raise InvalidOptions(f"invalid pace: {exc}") from None


def _without_none_pace(data: dict[str, Any]) -> dict[str, Any]:
    """Records made before paces, creators and the hot-seat flag existed carry none of these keys; a game
    without them keeps it that way (so old records serialize, hash and verify as they were)."""
    for key in ("pace", "creator", "hot_seat"):
        if data.get(key, 0) is None:
            del data[key]
    return data


# -- kernel commands -------------------------------------------------------

class CreateGame(Command):
    type: Literal["taproom.CreateGame"] = "taproom.CreateGame"
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatSpec]
    seed_commitment: str
    pace: Pace | str | None = None
    creator: str | None = None
    hot_seat: bool | None = None
    """False: a player holds one seat; True: one device may play several; None: a game from before the rule."""

    @model_serializer(mode="wrap")
    def _dump(self, handler: Any) -> dict[str, Any]:
        return _without_none_pace(handler(self))


class ClaimSeat(Command):
    type: Literal["taproom.ClaimSeat"] = "taproom.ClaimSeat"
    name: str = Field(max_length=64)
    player_id: str | None = None


class ScoreGame(Command):
    type: Literal["taproom.ScoreGame"] = "taproom.ScoreGame"


class TimeOut(Command):
    """System: ``for_seat`` ran out of time at ``at_version``; the table's policy plays this turn.

    ``move`` is the autopilot's move (a bot chose it from the seat's view);
    the skip policy needs none (the kernel picks the neutral move).
    """

    type: Literal["taproom.TimeOut"] = "taproom.TimeOut"
    for_seat: int
    at_version: int
    move: dict[str, Any] | None = None


class PlayFor(Command):
    """System: the away policy's move for a seat that timed out and has not come back."""

    type: Literal["taproom.PlayFor"] = "taproom.PlayFor"
    for_seat: int
    at_version: int
    move: dict[str, Any] | None = None


class ReclaimSeat(Command):
    """The holder of ``seat`` takes it back from the autopilot."""

    type: Literal["taproom.ReclaimSeat"] = "taproom.ReclaimSeat"


class ExpireGame(Command):
    """System: an open game nobody filled in time is closed."""

    type: Literal["taproom.ExpireGame"] = "taproom.ExpireGame"


KERNEL_COMMANDS: dict[str, type[Command]] = {
    c.model_fields["type"].default: c
    for c in (CreateGame, ClaimSeat, ScoreGame, TimeOut, PlayFor, ReclaimSeat, ExpireGame, InviteToSeat,
              EndInvitation)
}
SYSTEM_ONLY = (ScoreGame, TimeOut, PlayFor, ExpireGame)


# -- kernel events ---------------------------------------------------------

class GameCreated(Event):
    type: Literal["taproom.GameCreated"] = "taproom.GameCreated"
    game: str
    options: dict[str, Any]
    seats: list[SeatSpec]
    seed_commitment: str
    pace: Pace | None = None
    creator: str | None = None
    hot_seat: bool | None = None

    @model_serializer(mode="wrap")
    def _dump(self, handler: Any) -> dict[str, Any]:
        return _without_none_pace(handler(self))


class SeatClaimed(Event):
    type: Literal["taproom.SeatClaimed"] = "taproom.SeatClaimed"
    seat: int
    name: str
    player_id: str | None = None


class GameStarted(Event):
    type: Literal["taproom.GameStarted"] = "taproom.GameStarted"


class GameEnded(Event):
    type: Literal["taproom.GameEnded"] = "taproom.GameEnded"


class GameScored(Event):
    type: Literal["taproom.GameScored"] = "taproom.GameScored"
    scores: list[Score]
    places: dict[int, int]


class SeedRevealed(Event):
    type: Literal["taproom.SeedRevealed"] = "taproom.SeedRevealed"
    seed: str  # hex


class TurnTimedOut(Event):
    type: Literal["taproom.TurnTimedOut"] = "taproom.TurnTimedOut"
    seat: int
    policy: TimeoutPolicy


class SeatAutopiloted(Event):
    """The seat is away: ``policy`` plays its turns until its holder reclaims it."""

    type: Literal["taproom.SeatAutopiloted"] = "taproom.SeatAutopiloted"
    seat: int
    policy: TimeoutPolicy
    level: str | None = None


class SeatReclaimed(Event):
    type: Literal["taproom.SeatReclaimed"] = "taproom.SeatReclaimed"
    seat: int


class GameExpired(Event):
    type: Literal["taproom.GameExpired"] = "taproom.GameExpired"


KERNEL_EVENTS: dict[str, type[Event]] = {
    e.model_fields["type"].default: e
    for e in (GameCreated, SeatClaimed, GameStarted, GameEnded, GameScored, SeedRevealed,
              TurnTimedOut, SeatAutopiloted, SeatReclaimed, GameExpired, SeatInvited, InvitationEnded)
}

SKIP_TYPES: tuple[str, ...] = ("Pass", "EndTurn", "EndBuying", "DeclinePrivilege", "FinishPlanning")
"""Command types that give a turn up; the skip policy plays one of them when the rules offer it."""


class Dice(Protocol):
    """What the aggregate needs of the secret seed: RNGs per version, and the seed at the end."""

    def rng(self, version: int) -> Any: ...

    def reveal(self) -> bytes: ...


@dataclass
class Seat:
    name: str | None
    bot: str | None = None
    player_id: str | None = None
    autopilot: str | None = None  # the away policy playing for this seat, None while its holder plays
    invitation: Invitation | None = None  # an open seat reserved for an invited player

    @property
    def taken(self) -> bool:
        return self.name is not None


@dataclass
class GameRecord:
    """Everything the kernel knows of one hosted game at ``version``."""

    game_id: str
    game_type: str
    options: dict[str, Any]
    seats: list[Seat]
    seed_commitment: str
    version: int = 0
    status: Literal["open", "active", "ended", "scored", "expired"] = "open"
    state: Any = None
    scores: list[Score] = field(default_factory=list)
    places: dict[int, int] = field(default_factory=dict)
    seed: str | None = None
    pace: Pace | None = None
    creator: str | None = None
    hot_seat: bool | None = None

    @property
    def game(self) -> Game:
        return get_game(self.game_type)

    def to_act(self) -> list[int]:
        return self.game.to_act(self.state) if self.status == "active" else []

    def open_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if not s.taken]


def parse_command(game: Game | None, data: dict[str, Any]) -> Command:
    """Kernel or game command from JSON."""
    kind = data.get("type")
    if isinstance(kind, str) and kind in KERNEL_COMMANDS:
        try:
            return KERNEL_COMMANDS[kind].model_validate(data)
        except Exception as exc:
            raise InvalidCommand(f"invalid {kind} command: {exc}") from None
    if game is None:
        raise InvalidCommand(f"unknown command type {kind!r}")
    return game.parse_command(data)


def parse_event(game_type: str, data: dict[str, Any]) -> Event:
    kind = data["type"]
    if kind in KERNEL_EVENTS:
        return KERNEL_EVENTS[kind].model_validate(data)
    return get_game(game_type).parse_event(data)


def execute(record: GameRecord | None, game_id: str, command: Command, dice: Dice) -> tuple[list[Event], GameRecord]:
    """Decide ``command`` and fold its events; a refused command raises RuleError and changes nothing."""
    events = _decide(record, game_id, command, dice)
    for event in events:
        record = apply(record, game_id, event)
    assert record is not None
    if record.status == "active" and record.game.is_over(record.state):
        ended = GameEnded()
        record = apply(record, game_id, ended)
        events.append(ended)
    return events, record


def _decide(record: GameRecord | None, game_id: str, command: Command, dice: Dice) -> list[Event]:
    if isinstance(command, CreateGame):
        if record is not None:
            raise IllegalMove(f"game {game_id} already exists")
        return _create(command, dice)
    if record is None:
        raise InvalidCommand(f"game {game_id} does not exist")
    if isinstance(command, SYSTEM_ONLY) and command.seat != SYSTEM_SEAT:
        raise InvalidCommand(f"{command.type} is issued by the service, not by seat {command.seat}")
    if isinstance(command, ClaimSeat):
        return _claim(record, command, dice)
    if isinstance(command, InviteToSeat):
        return decide_invite(record, command)
    if isinstance(command, EndInvitation):
        return decide_end(record, command)
    if isinstance(command, ExpireGame):
        if record.status != "open":
            raise GameNotActive(f"game {game_id} is {record.status}; only an open game expires")
        return [GameExpired()]
    if isinstance(command, (TimeOut, PlayFor)):
        return _play_for(record, command, dice)
    if isinstance(command, ReclaimSeat):
        if record.status != "active":
            raise GameNotActive(f"game {game_id} is {record.status}; seats are reclaimed while it runs")
        if not 0 <= command.seat < len(record.seats) or record.seats[command.seat].autopilot is None:
            raise IllegalMove(f"seat {command.seat} is not on autopilot at version {record.version}")
        return [SeatReclaimed(seat=command.seat)]
    if isinstance(command, ScoreGame):
        if record.status != "ended":
            raise GameNotActive(f"game {game_id} is {record.status}; only an ended game is scored")
        scores = record.game.scores(record.state)
        return [GameScored(scores=scores, places=rank(scores)), SeedRevealed(seed=dice.reveal().hex())]
    if record.status != "active":
        raise GameNotActive(f"game {game_id} is {record.status} at version {record.version}")
    game = record.game
    if command.seat not in game.to_act(record.state):
        raise NotYourTurn(f"seat {command.seat} may not act at version {record.version}")
    events = list(game.decide(record.state, command, dice.rng(record.version)))
    if record.seats[command.seat].autopilot is not None:
        events.insert(0, SeatReclaimed(seat=command.seat))  # the holder is back: their move takes the seat back
    return events


def _play_for(record: GameRecord, command: TimeOut | PlayFor, dice: Dice) -> list[Event]:
    """A timed-out or away seat's turn, played by the table's policy."""
    if record.status != "active":
        raise GameNotActive(f"game {record.game_id} is {record.status} at version {record.version}")
    if command.at_version != record.version:
        raise StaleVersion(f"{command.type} for version {command.at_version}, but the game is at {record.version}")
    seat = command.for_seat
    if not 0 <= seat < len(record.seats) or seat not in record.to_act():
        raise NotYourTurn(f"seat {seat} is not to act at version {record.version}")
    pace = record.pace
    events: list[Event] = []
    if isinstance(command, TimeOut):
        if pace is None or not pace.timed:
            raise IllegalMove(f"game {record.game_id} is untimed; no seat times out")
        policy = pace.on_timeout
        events.append(TurnTimedOut(seat=seat, policy=policy))
        if record.seats[seat].autopilot is None:
            level = pace.autopilot_level if policy == "autopilot" else None
            events.append(SeatAutopiloted(seat=seat, policy=policy, level=level))
    else:
        policy_or_none = record.seats[seat].autopilot
        if policy_or_none is None:
            raise IllegalMove(f"seat {seat} is not on autopilot at version {record.version}")
        policy = "skip" if policy_or_none == "skip" else "autopilot"
    game = record.game
    if policy == "skip":
        move = skip_move(game, record.state, seat)
    else:
        if command.move is None:
            raise InvalidCommand(f"{command.type} for an autopiloted seat needs the autopilot's move")
        move = game.parse_command({**command.move, "seat": seat})
    events += game.decide(record.state, move, dice.rng(record.version))
    return events


def skip_move(game: Game, state: Any, seat: int) -> Command:
    """The move a skipped seat makes: a pass when the rules offer one, else the game's first legal move.

    Most of these games oblige a move (a drawn tile must be placed), so "skip"
    means giving up the turn where the rules allow it and the most neutral
    move (the first the game lists) where they do not.
    """
    legal = game.legal_commands(state, seat)
    if not legal:
        raise IllegalMove(f"seat {seat} has no legal move to skip with")
    for kind in SKIP_TYPES:
        for command in legal:
            if command.type == kind:
                return command
    return legal[0]


def _create(command: CreateGame, dice: Dice) -> list[Event]:
    game = get_game(command.game)
    options = game.parse_options(command.options)
    game.check_seats(options, len(command.seats))
    check_creation([s.player_id for s in command.seats], command.hot_seat)
    seats = [SeatSpec(name=s.name or (f"{s.bot} bot" if s.bot else None), bot=s.bot, player_id=s.player_id)
             for s in command.seats]
    created = GameCreated(game=game.id, options=options.model_dump(mode="json"), seats=seats,
                          seed_commitment=command.seed_commitment, pace=parse_pace(command.pace),
                          creator=command.creator, hot_seat=command.hot_seat)
    events: list[Event] = [created]
    if all(s.name for s in seats):
        events += _start(game, options, len(seats), dice, version=0)
    return events


def _claim(record: GameRecord, command: ClaimSeat, dice: Dice) -> list[Event]:
    seat = command.seat
    if record.status != "open":
        raise GameNotActive(f"game {record.game_id} has no open seat (it is {record.status})")
    check_seat_free(record, seat)
    check_claim(record, seat, command.player_id)
    events: list[Event] = [SeatClaimed(seat=seat, name=command.name, player_id=command.player_id),
                           *superseded(record, seat, command.player_id)]
    if record.open_seats() == [seat]:
        game = record.game
        options = game.parse_options(record.options)
        events += _start(game, options, len(record.seats), dice, version=record.version)
    return events


def _start(game: Game, options: BaseModel, n_seats: int, dice: Dice, version: int) -> list[Event]:
    setup = game.setup(options, n_seats, dice.rng(version))
    return [GameStarted(), *setup]


def apply(record: GameRecord | None, game_id: str, event: Event) -> GameRecord:
    """Fold one event into the record (version + 1)."""
    if isinstance(event, GameCreated):
        record = GameRecord(game_id=game_id, game_type=event.game, options=event.options,
                            seats=[Seat(name=s.name, bot=s.bot, player_id=s.player_id) for s in event.seats],
                            seed_commitment=event.seed_commitment, pace=event.pace, creator=event.creator,
                            hot_seat=event.hot_seat)
    else:
        assert record is not None
        if isinstance(event, SeatClaimed):
            record.seats[event.seat] = Seat(name=event.name, player_id=event.player_id)
        elif isinstance(event, GameStarted):
            record.status = "active"
        elif isinstance(event, GameEnded):
            record.status = "ended"
        elif isinstance(event, GameScored):
            record.status = "scored"
            record.scores = list(event.scores)
            record.places = dict(event.places)
        elif isinstance(event, SeedRevealed):
            record.seed = event.seed
        elif isinstance(event, TurnTimedOut):
            pass  # the fact is in the log; what it changes comes in the events after it
        elif isinstance(event, SeatAutopiloted):
            record.seats[event.seat].autopilot = event.policy
        elif isinstance(event, SeatReclaimed):
            record.seats[event.seat].autopilot = None
        elif isinstance(event, GameExpired):
            record.status = "expired"
        elif isinstance(event, SeatInvited):
            record.seats[event.seat].invitation = invitation_of(event)
        elif isinstance(event, InvitationEnded):
            record.seats[event.seat].invitation = None
        else:
            record.state = record.game.evolve(record.state, event)
    record.version += 1
    return record


def check_reveal(record: GameRecord) -> bool:
    """True when the revealed seed matches the commitment published at creation."""
    return record.seed is not None and commitment(bytes.fromhex(record.seed)) == record.seed_commitment


__all__ = [
    "ClaimSeat", "CreateGame", "Dice", "EndInvitation", "ExpireGame", "GameCreated", "GameEnded", "GameExpired", "GameRecord",
    "GameScored", "GameStarted", "InvitationEnded", "InviteToSeat", "KERNEL_COMMANDS", "KERNEL_EVENTS", "PACE_PRESETS", "Pace", "PlayFor",
    "ReclaimSeat", "ScoreGame", "Seat", "SeatAutopiloted", "SeatClaimed", "SeatInvited", "SeatReclaimed", "SeatSpec",
    "SeedRevealed", "StaleVersion", "SYSTEM_SEAT", "TimeOut", "TurnTimedOut", "apply", "check_reveal", "execute",
    "parse_command", "parse_event", "parse_pace", "skip_move",
]
