"""The game aggregate: a game's lifecycle around its rules (pure, like the games).

A hosted game is created with seats (humans, bots or open), starts when every
seat is taken, runs the game's own decider, ends when the game says so, and
is scored (the seed revealed) by a system command. Kernel commands and
events live here, named ``taproom.*`` so no game can collide with them.

    execute(record, command, dice) -> (events, record)   validate, decide, fold
    apply(record, event) -> record                       fold one event (never fails)

``execute`` folds the events into ``record`` in place (it only changes it once
the command is accepted): the processor keeps records cached and drops one
whenever its append is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from .errors import GameNotActive, IllegalMove, InvalidCommand, NotYourTurn, RuleError
from .game import Game, Score, rank
from .messages import SYSTEM_SEAT, Command, Event
from .registry import get_game
from .rng import commitment

class StaleVersion(RuleError):
    code = "stale_version"


class SeatSpec(BaseModel):
    """A seat at creation: a named human (player_id may be bound), a bot, or open (name None)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str | None = Field(default=None, max_length=64)
    bot: str | None = None
    player_id: str | None = None


# -- kernel commands -------------------------------------------------------

class CreateGame(Command):
    type: Literal["taproom.CreateGame"] = "taproom.CreateGame"
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatSpec]
    seed_commitment: str


class ClaimSeat(Command):
    type: Literal["taproom.ClaimSeat"] = "taproom.ClaimSeat"
    name: str = Field(max_length=64)
    player_id: str | None = None


class ScoreGame(Command):
    type: Literal["taproom.ScoreGame"] = "taproom.ScoreGame"


KERNEL_COMMANDS: dict[str, type[Command]] = {c.model_fields["type"].default: c for c in (CreateGame, ClaimSeat, ScoreGame)}


# -- kernel events ---------------------------------------------------------

class GameCreated(Event):
    type: Literal["taproom.GameCreated"] = "taproom.GameCreated"
    game: str
    options: dict[str, Any]
    seats: list[SeatSpec]
    seed_commitment: str


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


KERNEL_EVENTS: dict[str, type[Event]] = {
    e.model_fields["type"].default: e
    for e in (GameCreated, SeatClaimed, GameStarted, GameEnded, GameScored, SeedRevealed)
}


class Dice(Protocol):
    """What the aggregate needs of the secret seed: RNGs per version, and the seed at the end."""

    def rng(self, version: int) -> Any: ...

    def reveal(self) -> bytes: ...


@dataclass
class Seat:
    name: str | None
    bot: str | None = None
    player_id: str | None = None

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
    status: Literal["open", "active", "ended", "scored"] = "open"
    state: Any = None
    scores: list[Score] = field(default_factory=list)
    places: dict[int, int] = field(default_factory=dict)
    seed: str | None = None

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
    if isinstance(command, ClaimSeat):
        return _claim(record, command, dice)
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
    return list(game.decide(record.state, command, dice.rng(record.version)))


def _create(command: CreateGame, dice: Dice) -> list[Event]:
    game = get_game(command.game)
    options = game.parse_options(command.options)
    game.check_seats(options, len(command.seats))
    seats = [SeatSpec(name=s.name or (f"{s.bot} bot" if s.bot else None), bot=s.bot, player_id=s.player_id)
             for s in command.seats]
    created = GameCreated(game=game.id, options=options.model_dump(mode="json"), seats=seats,
                          seed_commitment=command.seed_commitment)
    events: list[Event] = [created]
    if all(s.name for s in seats):
        events += _start(game, options, len(seats), dice, version=0)
    return events


def _claim(record: GameRecord, command: ClaimSeat, dice: Dice) -> list[Event]:
    seat = command.seat
    if record.status != "open":
        raise GameNotActive(f"game {record.game_id} has no open seat (it is {record.status})")
    if not 0 <= seat < len(record.seats) or record.seats[seat].taken:
        raise IllegalMove(f"seat {seat} is not open; open seats: {record.open_seats()}")
    events: list[Event] = [SeatClaimed(seat=seat, name=command.name, player_id=command.player_id)]
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
                            seed_commitment=event.seed_commitment)
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
        else:
            record.state = record.game.evolve(record.state, event)
    record.version += 1
    return record


def check_reveal(record: GameRecord) -> bool:
    """True when the revealed seed matches the commitment published at creation."""
    return record.seed is not None and commitment(bytes.fromhex(record.seed)) == record.seed_commitment


__all__ = [
    "ClaimSeat", "CreateGame", "Dice", "GameCreated", "GameEnded", "GameRecord", "GameScored",
    "GameStarted", "KERNEL_COMMANDS", "KERNEL_EVENTS", "ScoreGame", "Seat", "SeatClaimed", "SeatSpec",
    "SeedRevealed", "StaleVersion", "SYSTEM_SEAT", "apply", "check_reveal", "execute", "parse_command", "parse_event",
]
