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
agree. An open game nobody fills is closed by ``ExpireGame``. Leaving for good (``Resign``, a seat an
untimed game waited for too long, a game that ended idle) and how a seat that left is placed last:
:mod:`.leaving`.

    execute(record, command, dice) -> (events, record)   validate, decide, fold
    apply(record, event) -> record                       fold one event (never fails)

The parts live by concern: ``kernel_messages`` (the ``taproom.*`` commands and events), ``record`` (the
record and the fold), ``timeouts`` (timed-out and away seats), ``votes``, ``seating`` (claims and
invitations) and ``pace``; this module decides a command and re-exports the vocabulary.

``execute`` folds the events into ``record`` in place (it only changes it once
the command is accepted): the processor keeps records cached and drops one
whenever its append is refused.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from .errors import GameNotActive, IllegalMove, InvalidCommand, NotYourTurn, RuleError, plain_errors
from .game import Game
from .kernel_messages import (
    KERNEL_COMMANDS,
    KERNEL_EVENTS,
    PLAYER_KERNEL_COMMANDS,
    SYSTEM_ONLY,
    ClaimSeat,
    CreateGame,
    EndIdleGame,
    ExpireGame,
    GameCreated,
    GameEnded,
    GameExpired,
    GameScored,
    GameStarted,
    Hint,
    HintAsked,
    MarkAbsent,
    PlayFor,
    ReclaimSeat,
    Resign,
    ScoreGame,
    SeatAbsent,
    SeatAutopiloted,
    SeatClaimed,
    SeatLeft,
    SeatReclaimed,
    SeatReturned,
    SeatSpec,
    SeedRevealed,
    StaleVersion,
    TimeOut,
    TurnTimedOut,
    Vote,
    VoteCast,
    VotePassed,
    VoteWithdrawn,
    WithdrawVote,
)
from .leaving import decide_end_idle, decide_mark_absent, decide_resign, final_places, places_of
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
from .record import Dice, GameRecord, Seat, apply, kernel_commands, turn_of, voters
from .registry import get_game
from .rng import commitment
from .seating import (
    EndInvitation,
    InvitationEnded,
    InviteToSeat,
    SeatInvited,
    check_claim,
    check_creation,
    check_seat_free,
    decide_end,
    decide_invite,
    superseded,
)
from .timeouts import decide_play_for, decide_reclaim, missed, skip_move
from .undo import MoveUndone, Undo, actor_seat, begin_command, decide_undo, undo_point
from .votes import decide_vote


def parse_command(game: Game[Any] | None, data: dict[str, Any]) -> Command:
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


def execute(record: GameRecord | None, game_id: str, command: Command, dice: Dice,
            actor: str | None = None) -> tuple[list[Event], GameRecord]:
    """Decide ``command`` and fold its events; a refused command raises RuleError and changes nothing.

    ``actor`` is what the command's envelopes will say acted (``player:<id>``, ``seat:<n>``, ``bot:<level>``,
    ...): undo trails follow it, the same way a replay of the envelopes does (``begin_command``)."""
    events = _decide(record, game_id, command, dice)
    begin_command(record, actor_seat(record, actor))
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
    kernel = _KERNEL_DECIDERS.get(type(command))
    if kernel is not None:
        return kernel(record, command, dice)
    if record.status != "active":
        raise GameNotActive(f"game {game_id} is {record.status} at version {record.version}")
    game = record.game
    if command.seat not in game.to_act(record.state):
        raise NotYourTurn(f"seat {command.seat} may not act at version {record.version}")
    events = list(game.decide(record.state, command, dice.rng(record.version)))
    if missed(record.seats[command.seat]):
        # the holder is back: their move takes the seat back and ends the run of timeouts
        events.insert(0, SeatReclaimed(seat=command.seat))
    return events


def _hint(record: GameRecord, command: Hint) -> list[Event]:
    """A seat to act asks for a hint: only in a game created with hints (never a rated one)."""
    if not record.hints:
        raise RuleError(f"game {record.game_id} was created without hints", code="hints_off")
    if record.status != "active":
        raise GameNotActive(f"game {record.game_id} is {record.status} at version {record.version}")
    if command.seat not in record.game.to_act(record.state):
        raise NotYourTurn(f"seat {command.seat} may ask for a hint on its own turn only (version {record.version})")
    return [HintAsked(seat=command.seat)]


def _expire(record: GameRecord, command: ExpireGame, dice: Dice) -> list[Event]:
    if record.status != "open":
        raise GameNotActive(f"game {record.game_id} is {record.status}; only an open game expires")
    # Its seed is revealed as a scored game's is: nothing was dealt from it (the game never started), and
    # with it the game's record verifies whole, so it is archived and leaves Redis like a scored one.
    return [GameExpired(), SeedRevealed(seed=dice.reveal().hex())]


def _score(record: GameRecord, command: ScoreGame, dice: Dice) -> list[Event]:
    if record.status != "ended":
        raise GameNotActive(f"game {record.game_id} is {record.status}; only an ended game is scored")
    scores = record.game.scores(record.state)
    return [GameScored(scores=scores, places=places_of(record, scores)), SeedRevealed(seed=dice.reveal().hex())]


_KERNEL_DECIDERS: dict[type[Command], Callable[[GameRecord, Any, Dice], list[Event]]] = {
    ClaimSeat: lambda record, command, dice: _claim(record, command, dice),
    InviteToSeat: lambda record, command, dice: decide_invite(record, command),
    EndInvitation: lambda record, command, dice: decide_end(record, command),
    ExpireGame: _expire,
    TimeOut: decide_play_for,
    PlayFor: decide_play_for,
    ReclaimSeat: lambda record, command, dice: decide_reclaim(record, command),
    Vote: lambda record, command, dice: decide_vote(record, command),
    WithdrawVote: lambda record, command, dice: decide_vote(record, command),
    ScoreGame: _score,
    Undo: lambda record, command, dice: list(decide_undo(record, command)),
    Resign: lambda record, command, dice: decide_resign(record, command),
    MarkAbsent: lambda record, command, dice: decide_mark_absent(record, command),
    EndIdleGame: lambda record, command, dice: decide_end_idle(record, command),
    Hint: lambda record, command, dice: _hint(record, command),
}
"""The kernel commands after creation, each with its decider (record, command, dice) -> events."""


def _create(command: CreateGame, dice: Dice) -> list[Event]:
    game = get_game(command.game)
    options = game.parse_options(command.options)
    game.check_seats(options, len(command.seats))
    check_creation([s.player_id for s in command.seats], command.hot_seat)
    if command.hints and command.rated is not False:
        raise RuleError("hints are for casual games: create the game with rated false to allow them",
                        code="hints_in_rated_game")
    if command.tutorial and (command.rated is not False or not command.hints):
        raise RuleError("a tutorial is a casual game with hints: rated false, hints true", code="invalid_request")
    seats = [SeatSpec(name=s.name or (f"{s.bot} bot" if s.bot else None), bot=s.bot, player_id=s.player_id)
             for s in command.seats]
    created = GameCreated(game=game.id, options=options.model_dump(mode="json"), seats=seats,
                          seed_commitment=command.seed_commitment, pace=parse_pace(command.pace),
                          creator=command.creator, hot_seat=command.hot_seat, tutorial=command.tutorial,
                          rated=command.rated, hints=command.hints, min_reliability=command.min_reliability)
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


def _start(game: Game[Any], options: BaseModel, n_seats: int, dice: Dice, version: int) -> list[Event]:
    setup = game.setup(options, n_seats, dice.rng(version))
    return [GameStarted(), *setup]


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
    "turn_of", "voters", "Undo", "MoveUndone", "begin_command", "actor_seat", "undo_point",
    "Resign", "MarkAbsent", "EndIdleGame", "SeatLeft", "SeatAbsent", "final_places",
]
