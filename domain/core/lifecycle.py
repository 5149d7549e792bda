"""The game aggregate: a game's lifecycle around its rules (pure, like the games).

A hosted game is created with seats (humans, bots or open), starts when every
seat is taken, runs the game's own decider, ends when the game says so, and
is scored (the seed revealed) by a system command. Kernel commands and
events live here, named ``taproom.*`` so no game can collide with them.

Asynchronous play (the clock itself lives in the service: the domain has no
clock): a game may carry a :class:`Pace`. When a seat's time runs out the
service sends ``TimeOut`` (a system command) and the table's policy
(``autopilot``: a bot's move carried in the command; ``skip``: the most
neutral legal move, see :func:`skip_move`) plays the overdue *turn*, and only
that turn: its further steps come as ``PlayFor``, and when the turn is over
``SeatReturned`` gives the seat back to its holder, whose next turn has a
fresh deadline. A turn is what :func:`turn_of` says: the stretch of commands
during which the seat stays in the game's ``to_act`` and the game's
``turn_key`` stays the same (a tile and its figure in Carcassonne; a move and
all it leads to in Heaven & Ale; a whole planning phase in Tiefenthal) — never
a count of commands. After ``Pace.takeover_after`` consecutive timeouts
(``TurnTimedOut`` while the holder made no move in between) the seat is
*taken over* (``SeatAutopiloted``): the policy plays all its turns until the
holder comes back (``ReclaimSeat``, or any accepted command of that seat,
which also resets the count). While a seat is taken over, the other human
seats may ``Vote`` to end the game as it stands or to replace the player with
a bot (``Pace.takeover_vote`` fixes which); the vote passes when all of them
agree. An open game nobody fills is closed by ``ExpireGame``.

    execute(record, command, dice) -> (events, record)   validate, decide, fold
    apply(record, event) -> record                       fold one event (never fails)

``execute`` folds the events into ``record`` in place (it only changes it once
the command is accepted): the processor keeps records cached and drops one
whenever its append is refused.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, model_serializer

from .errors import GameNotActive, IllegalMove, InvalidCommand, NotYourTurn, RuleError, plain_errors
from .game import Game, Score, rank
from .messages import SYSTEM_SEAT, Command, Event
from .pace import (  # re-exported: the pace is part of the aggregate's vocabulary
    PACE_PRESETS,
    TAKEOVER_AFTER,
    TAKEOVER_VOTE,
    Pace,
    TakeoverVote,
    TimeoutPolicy,
    new_game_pace,
    parse_pace,
)
from .registry import get_game
from .rng import commitment
from .seating import (
    EndInvitation,
    Invitation,
    InvitationEnded,
    InviteToSeat,
    SeatInvited,
    check_claim,
    check_creation,
    check_seat_free,
    decide_end,
    decide_invite,
    invitation_of,
    superseded,
)


class StaleVersion(RuleError):
    code = "stale_version"


class SeatSpec(BaseModel):
    """A seat at creation: a named human (player_id may be bound), a bot, or open (name None)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str | None = Field(default=None, max_length=64)
    bot: str | None = None
    player_id: str | None = None


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
    """The holder of ``seat`` takes it back from the autopilot (and clears its count of timeouts)."""

    type: Literal["taproom.ReclaimSeat"] = "taproom.ReclaimSeat"


class Vote(Command):
    """``seat`` votes to end the game as it stands, or to replace the player of the taken-over
    ``about_seat`` with a bot; ``choice`` must be what the game's pace allows."""

    type: Literal["taproom.Vote"] = "taproom.Vote"
    about_seat: int
    choice: Literal["end", "replace"]


class WithdrawVote(Command):
    type: Literal["taproom.WithdrawVote"] = "taproom.WithdrawVote"
    about_seat: int


class ExpireGame(Command):
    """System: an open game nobody filled in time is closed."""

    type: Literal["taproom.ExpireGame"] = "taproom.ExpireGame"


KERNEL_COMMANDS: dict[str, type[Command]] = {
    c.model_fields["type"].default: c
    for c in (CreateGame, ClaimSeat, ScoreGame, TimeOut, PlayFor, ReclaimSeat, ExpireGame, InviteToSeat,
              EndInvitation, Vote, WithdrawVote)
}
SYSTEM_ONLY = (ScoreGame, TimeOut, PlayFor, ExpireGame)
PLAYER_KERNEL_COMMANDS: tuple[str, ...] = ("taproom.ReclaimSeat", "taproom.Vote", "taproom.WithdrawVote")
"""Kernel commands a seat's holder may send like a move (the others are the service's own)."""


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
    """The holder is back: the away policy stops, the count of timeouts and the votes about the seat clear."""

    type: Literal["taproom.SeatReclaimed"] = "taproom.SeatReclaimed"
    seat: int


class SeatReturned(Event):
    """The timed-out turn is over: the seat is its holder's again (its next turn has a fresh deadline)."""

    type: Literal["taproom.SeatReturned"] = "taproom.SeatReturned"
    seat: int


class VoteCast(Event):
    type: Literal["taproom.VoteCast"] = "taproom.VoteCast"
    seat: int
    about_seat: int
    choice: Literal["end", "replace"]


class VoteWithdrawn(Event):
    type: Literal["taproom.VoteWithdrawn"] = "taproom.VoteWithdrawn"
    seat: int
    about_seat: int


class VotePassed(Event):
    """Every other human seat agreed: the game ends as it stands (``GameEnded`` follows), or a bot at
    ``level`` takes ``about_seat`` for good."""

    type: Literal["taproom.VotePassed"] = "taproom.VotePassed"
    about_seat: int
    choice: Literal["end", "replace"]
    level: str | None = None


class GameExpired(Event):
    type: Literal["taproom.GameExpired"] = "taproom.GameExpired"


KERNEL_EVENTS: dict[str, type[Event]] = {
    e.model_fields["type"].default: e
    for e in (GameCreated, SeatClaimed, GameStarted, GameEnded, GameScored, SeedRevealed,
              TurnTimedOut, SeatAutopiloted, SeatReclaimed, GameExpired, SeatInvited, InvitationEnded,
              SeatReturned, VoteCast, VoteWithdrawn, VotePassed)
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
    autopilot: str | None = None  # the away policy playing for this seat, None while its holder plays
    invitation: Invitation | None = None  # an open seat reserved for an invited player
    # Plain defaults (no factories), so records pickled before these fields existed load with them.
    timeouts: int = 0  # consecutive timed-out turns; a move or reclaim of the holder resets it
    overdue: tuple[Hashable] | None = None  # (turn key,) of the timed-out turn the policy is finishing
    last_timeout: int = 0  # version of the seat's latest TurnTimedOut
    votes: tuple[int, ...] = ()  # seats that voted about this taken-over seat

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
        # Between GameStarted and the game's first setup event (a replay can stop there) there is no state yet.
        return self.game.to_act(self.state) if self.status == "active" and self.state is not None else []

    def open_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if not s.taken]

    def played_for(self, seat: int) -> TimeoutPolicy | None:
        """The policy playing ``seat`` now instead of its holder: the away policy of a seat taken over,
        or the table's timeout policy while it finishes the seat's timed-out turn; None: the holder plays."""
        info = self.seats[seat]
        if info.autopilot is not None:
            return "skip" if info.autopilot == "skip" else "autopilot"
        if info.overdue is not None and self.pace is not None:
            return self.pace.on_timeout
        return None


def turn_of(record: GameRecord, seat: int) -> tuple[Hashable] | None:
    """The turn ``seat`` is in, as ``(turn key,)``; None when it is not to act.

    Two states are in the same turn of a seat when it is to act in both, with equal
    :meth:`~domain.core.game.Game.turn_key`, and (the caller's part) to act at every command between.
    """
    if seat not in record.to_act():
        return None
    return (record.game.turn_key(record.state, seat),)


def voters(record: GameRecord, about_seat: int) -> list[int]:
    """Seats that vote about a taken-over seat: the other human seats whose holders play them."""
    return [i for i, s in enumerate(record.seats)
            if i != about_seat and s.taken and s.bot is None and s.autopilot is None]


def kernel_commands(record: GameRecord, seat: int) -> list[Command]:
    """The kernel commands ``seat`` may send now (taking its seat back, votes), for clients to discover."""
    if record.status != "active" or not 0 <= seat < len(record.seats):
        return []
    out: list[Command] = []
    info = record.seats[seat]
    if info.bot is None and (info.autopilot is not None or info.timeouts or info.overdue is not None):
        out.append(ReclaimSeat(seat=seat))
    choice = record.pace.vote if record.pace else "none"
    if choice == "none":
        return out
    for about, target in enumerate(record.seats):
        if target.autopilot is None or seat not in voters(record, about):
            continue
        if seat in target.votes:
            out.append(WithdrawVote(seat=seat, about_seat=about))
        else:
            out.append(Vote(seat=seat, about_seat=about, choice=choice))
    return out


def parse_command(game: Game | None, data: dict[str, Any]) -> Command:
    """Kernel or game command from JSON."""
    kind = data.get("type")
    if isinstance(kind, str) and kind in KERNEL_COMMANDS:
        try:
            return KERNEL_COMMANDS[kind].model_validate(data)
        except Exception as exc:
            raise InvalidCommand(f"invalid {kind} command: {plain_errors(exc)}") from None
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
    for seat, info in enumerate(record.seats):
        if info.overdue is not None and turn_of(record, seat) != info.overdue:
            returned = SeatReturned(seat=seat)  # the timed-out turn ended with this command
            record = apply(record, game_id, returned)
            events.append(returned)
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
        if not 0 <= command.seat < len(record.seats) or not _missed(record.seats[command.seat]):
            raise IllegalMove(f"seat {command.seat} is not on autopilot and has no missed turn "
                              f"at version {record.version}")
        return [SeatReclaimed(seat=command.seat)]
    if isinstance(command, (Vote, WithdrawVote)):
        return _vote(record, command)
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
    if _missed(record.seats[command.seat]):
        # the holder is back: their move takes the seat back and ends the run of timeouts
        events.insert(0, SeatReclaimed(seat=command.seat))
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
    info = record.seats[seat]
    events: list[Event] = []
    if isinstance(command, TimeOut):
        if pace is None or not pace.timed:
            raise IllegalMove(f"game {record.game_id} is untimed; no seat times out")
        if info.overdue is not None:
            raise IllegalMove(f"seat {seat} timed out in this turn already (version {info.last_timeout})")
        policy = pace.on_timeout
        events.append(TurnTimedOut(seat=seat, policy=policy))
        if info.autopilot is None and info.timeouts + 1 >= pace.timeouts_to_takeover:
            level = pace.autopilot_level if policy == "autopilot" else None
            events.append(SeatAutopiloted(seat=seat, policy=policy, level=level))
    else:
        policy_or_none = record.played_for(seat)
        if policy_or_none is None:
            raise IllegalMove(f"seat {seat} is neither on autopilot nor in a timed-out turn "
                              f"at version {record.version}")
        policy = policy_or_none
    game = record.game
    if policy == "skip":
        move = skip_move(game, record.state, seat)
    else:
        if command.move is None:
            raise InvalidCommand(f"{command.type} for an autopiloted seat needs the autopilot's move")
        move = game.parse_command({**command.move, "seat": seat})
    events += game.decide(record.state, move, dice.rng(record.version))
    return events


def _missed(info: Seat) -> bool:
    """The seat has something to take back: it is taken over, or its holder missed a deadline since moving."""
    return info.autopilot is not None or info.timeouts > 0 or info.overdue is not None


def _vote(record: GameRecord, command: Vote | WithdrawVote) -> list[Event]:
    if record.status != "active":
        raise GameNotActive(f"game {record.game_id} is {record.status}; votes are held while it runs")
    about = command.about_seat
    if not 0 <= about < len(record.seats):
        raise InvalidCommand(f"no seat {about} in game {record.game_id}")
    target = record.seats[about]
    if isinstance(command, WithdrawVote):
        if command.seat not in target.votes:
            raise IllegalMove(f"seat {command.seat} has no vote about seat {about} to withdraw")
        return [VoteWithdrawn(seat=command.seat, about_seat=about)]
    allowed = record.pace.vote if record.pace else "none"
    if allowed == "none":
        raise IllegalMove(f"game {record.game_id}'s pace allows no vote about a taken-over seat")
    if command.choice != allowed:
        raise IllegalMove(f"game {record.game_id}'s pace lets seats vote to {allowed}, not to {command.choice}")
    if target.autopilot is None:
        raise IllegalMove(f"seat {about} is not taken over by the autopilot at version {record.version}")
    eligible = voters(record, about)
    if command.seat not in eligible:
        raise IllegalMove(f"seat {command.seat} may not vote about seat {about}; voters: {eligible}")
    if command.seat in target.votes:
        raise IllegalMove(f"seat {command.seat} has voted about seat {about} already")
    events: list[Event] = [VoteCast(seat=command.seat, about_seat=about, choice=command.choice)]
    if set(eligible) <= {*target.votes, command.seat}:  # unanimous: nobody is voted out by a minority
        level = record.pace.autopilot_level if record.pace and command.choice == "replace" else None
        events.append(VotePassed(about_seat=about, choice=command.choice, level=level))
        if command.choice == "end":
            events.append(GameEnded())
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
    for kind in game.pass_commands:
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
            info = record.seats[event.seat]
            info.timeouts += 1
            info.last_timeout = record.version + 1
            if info.autopilot is None:  # the policy plays this turn (folded before the moves that follow)
                info.overdue = turn_of(record, event.seat)
        elif isinstance(event, SeatAutopiloted):
            info = record.seats[event.seat]
            info.autopilot = event.policy
            info.overdue = None  # taken over: every turn is the policy's now, not only this one
        elif isinstance(event, SeatReclaimed):
            info = record.seats[event.seat]
            info.autopilot = None
            info.timeouts = 0
            info.overdue = None
            info.votes = ()
        elif isinstance(event, SeatReturned):
            record.seats[event.seat].overdue = None
        elif isinstance(event, VoteCast):
            record.seats[event.about_seat].votes += (event.seat,)
        elif isinstance(event, VoteWithdrawn):
            info = record.seats[event.about_seat]
            info.votes = tuple(s for s in info.votes if s != event.seat)
        elif isinstance(event, VotePassed):
            info = record.seats[event.about_seat]
            info.votes = ()
            if event.choice == "replace":  # a bot plays the seat for good; the player keeps the record of it
                info.bot = event.level or "random"
                info.autopilot = None
                info.overdue = None
                info.timeouts = 0
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
    "PLAYER_KERNEL_COMMANDS", "SeatReturned", "TAKEOVER_AFTER", "TAKEOVER_VOTE", "TakeoverVote", "TimeoutPolicy",
    "Vote", "VoteCast", "VotePassed", "VoteWithdrawn", "WithdrawVote", "kernel_commands", "new_game_pace",
    "turn_of", "voters",
]
