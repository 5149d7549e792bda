"""The kernel's record of one hosted game (seats, status, the game's state) and how events fold into it.

    apply(record, event) -> record    fold one event (never fails)
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, Protocol

from pydantic import BeforeValidator

from . import codec
from .codec import as_tuples
from .game import Game, Score
from .kernel_messages import (
    GameCreated,
    GameEnded,
    GameExpired,
    GameScored,
    GameStarted,
    HintAsked,
    LeftHow,
    ReclaimSeat,
    Resign,
    SeatAbsent,
    SeatAutopiloted,
    SeatClaimed,
    SeatLeft,
    SeatReclaimed,
    SeatReturned,
    SeedRevealed,
    TurnTimedOut,
    Vote,
    VoteCast,
    VotePassed,
    VoteWithdrawn,
    WithdrawVote,
)
from .messages import Command, Event
from .pace import Pace, TimeoutPolicy
from .registry import get_game
from .seating import Invitation, InvitationEnded, SeatInvited, invitation_of
from .undo import MoveUndone, Undo, UndoTrail, after_game_event, before_game_event, undo_point, undone


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
    timeouts: int = 0  # consecutive timed-out turns; a move or reclaim of the holder resets it
    overdue: Annotated[tuple[Any, ...] | None, BeforeValidator(as_tuples)] = None
    """(turn key,) of the timed-out turn the policy is finishing."""
    last_timeout: int = 0  # version of the seat's latest TurnTimedOut
    votes: tuple[int, ...] = ()  # seats that voted about this taken-over (or absent) seat
    choices: tuple[str, ...] = ()  # each vote's choice, in the order of ``votes`` (empty in records from before)
    absent: bool = False  # an untimed game's seat to act for the service's "abandoned" time: the table may vote
    left: int = 0  # 0: in the game; n: the n-th seat of the game to leave it (resigned or abandoned), last place
    left_how: LeftHow | None = None

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
    tutorial: bool | None = None
    """A guided first game (``CreateGame.tutorial``): always casual with hints; a client shows its coach panel."""
    rated: bool = True
    """False: a casual game (``CreateGame.rated``), left out of the ratings."""
    hints: bool = False
    min_reliability: int | None = None
    """Reliability (per cent) a player needs to take a seat (``CreateGame.min_reliability``); None: anyone."""
    hints_asked: dict[int, int] = field(default_factory=dict)
    """Hints each seat asked for (``taproom.HintAsked``)."""
    undo: UndoTrail | None = None
    """The acting seat's stretch of undoable commands (see ``domain.core.undo``); snapshots are taken only
    while there is none, so a snapshot never needs to carry one."""
    acting: int | None = None  # the seat whose command is being folded, until its first game event
    ended_by: Literal["vote"] | None = None
    """``vote``: the table voted to end the game (about a seat taken over or absent); the ratings' fair-play
    policy does not rate the seats still playing when it ended before ``projections.ratings.EARLY_END_LINE``."""

    @property
    def game(self) -> Game[Any]:
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
    """Seats that vote about a taken-over or absent seat: the other human seats whose holders play them."""
    return [i for i, s in enumerate(record.seats)
            if i != about_seat and s.taken and s.bot is None and s.autopilot is None and not s.absent]


def vote_choices(record: GameRecord, about_seat: int) -> tuple[str, ...]:
    """What the table may vote for about ``about_seat`` now: about an absent seat either (end the game, the
    seat last; or a bot for it), about a taken-over one what the pace says; () when no vote is open."""
    target = record.seats[about_seat]
    if target.absent:
        return ("end", "replace")
    choice = record.pace.vote if record.pace else "none"
    return (choice,) if target.autopilot is not None and choice != "none" else ()


def may_resign(record: GameRecord, seat: int) -> bool:
    """A human seat still in an active game may resign (at any point, its turn or not)."""
    if record.status != "active" or not 0 <= seat < len(record.seats):
        return False
    info = record.seats[seat]
    return info.taken and info.bot is None and not info.left


def kernel_commands(record: GameRecord, seat: int) -> list[Command]:
    """The kernel commands ``seat`` may send now (taking its seat back, votes), for clients to discover."""
    if record.status != "active" or not 0 <= seat < len(record.seats):
        return []
    out: list[Command] = []
    if undo_point(record, seat) is not None:
        out.append(Undo(seat=seat))
    info = record.seats[seat]
    if info.bot is None and (info.autopilot is not None or info.timeouts or info.overdue is not None or info.absent):
        out.append(ReclaimSeat(seat=seat))
    for about, target in enumerate(record.seats):
        choices = vote_choices(record, about)
        if not choices or seat not in voters(record, about):
            continue
        if seat in target.votes:
            out.append(WithdrawVote(seat=seat, about_seat=about))
        else:
            out += [Vote(seat=seat, about_seat=about, choice=choice) for choice in choices]
    if may_resign(record, seat):
        out.append(Resign(seat=seat))
    return out


# -- folding events ------------------------------------------------------------

def apply(record: GameRecord | None, game_id: str, event: Event) -> GameRecord:
    """Fold one event into the record (version + 1)."""
    if isinstance(event, GameCreated):
        record = GameRecord(game_id=game_id, game_type=event.game, options=event.options,
                            seats=[Seat(name=s.name, bot=s.bot, player_id=s.player_id) for s in event.seats],
                            seed_commitment=event.seed_commitment, pace=event.pace, creator=event.creator,
                            hot_seat=event.hot_seat, tutorial=event.tutorial, rated=event.rated is not False,
                            hints=bool(event.hints), min_reliability=event.min_reliability)
    else:
        assert record is not None
        fold = _FOLDS.get(type(event))
        if fold is None:  # the game's event: it also extends or ends the acting seat's undo trail
            before_game_event(record)
            record.state = record.game.evolve(record.state, event)
            after_game_event(record, event)
        else:
            if record.undo is not None and not isinstance(event, _KEEP_TRAIL):
                record.undo = None  # the lifecycle moved (a timeout, a vote, the end): nothing before it is undone
            fold(record, event)
    record.version += 1
    return record


_KEEP_TRAIL = (MoveUndone, SeatReclaimed, HintAsked)
"""Kernel events that leave the undo trail as it is (a move of a seat back from a timeout starts with a reclaim)."""


def _status(status: Literal["active", "ended", "expired"]) -> Callable[[GameRecord, Any], None]:
    def fold(record: GameRecord, event: Any) -> None:
        record.status = status
    return fold


def _claimed(record: GameRecord, event: SeatClaimed) -> None:
    record.seats[event.seat] = Seat(name=event.name, player_id=event.player_id)


def _scored(record: GameRecord, event: GameScored) -> None:
    record.status = "scored"
    record.scores = list(event.scores)
    record.places = dict(event.places)


def _revealed(record: GameRecord, event: SeedRevealed) -> None:
    record.seed = event.seed


def _timed_out(record: GameRecord, event: TurnTimedOut) -> None:
    info = record.seats[event.seat]
    info.timeouts += 1
    info.last_timeout = record.version + 1
    if info.autopilot is None:  # the policy plays this turn (folded before the moves that follow)
        info.overdue = turn_of(record, event.seat)


def _autopiloted(record: GameRecord, event: SeatAutopiloted) -> None:
    info = record.seats[event.seat]
    info.autopilot = event.policy
    info.overdue = None  # taken over: every turn is the policy's now, not only this one


def _reclaimed(record: GameRecord, event: SeatReclaimed) -> None:
    info = record.seats[event.seat]
    info.autopilot = None
    info.timeouts = 0
    info.overdue = None
    info.votes = info.choices = ()
    info.absent = False


def _returned(record: GameRecord, event: SeatReturned) -> None:
    record.seats[event.seat].overdue = None


def _vote_cast(record: GameRecord, event: VoteCast) -> None:
    info = record.seats[event.about_seat]
    info.choices = (*info.choices, *[""] * (len(info.votes) - len(info.choices)), event.choice)
    info.votes += (event.seat,)


def _vote_withdrawn(record: GameRecord, event: VoteWithdrawn) -> None:
    info = record.seats[event.about_seat]
    ballots = [(s, c) for s, c in zip(info.votes, info.choices or [""] * len(info.votes)) if s != event.seat]
    info.votes = tuple(s for s, _ in ballots)
    info.choices = tuple(c for _, c in ballots) if info.choices else ()


def _vote_passed(record: GameRecord, event: VotePassed) -> None:
    info = record.seats[event.about_seat]
    info.votes = info.choices = ()
    if event.choice == "end":
        record.ended_by = "vote"
    if event.choice == "replace":  # a bot plays the seat for good; the player keeps the record of it
        info.bot = event.level or "random"
        info.autopilot = None
        info.overdue = None
        info.timeouts = 0


def _left(record: GameRecord, event: SeatLeft) -> None:
    """The seat leaves for good: the next place from the bottom, a bot for it when the game goes on."""
    info = record.seats[event.seat]
    info.left = max(s.left for s in record.seats) + (0 if event.together else 1)
    info.left_how = event.how
    info.absent = False
    info.votes = info.choices = ()
    info.autopilot = info.overdue = None
    info.timeouts = 0
    if event.level is not None:
        info.bot = event.level


def _absent(record: GameRecord, event: SeatAbsent) -> None:
    record.seats[event.seat].absent = True


def _invited(record: GameRecord, event: SeatInvited) -> None:
    record.seats[event.seat].invitation = invitation_of(event)


def _invitation_ended(record: GameRecord, event: InvitationEnded) -> None:
    record.seats[event.seat].invitation = None


def _hint_asked(record: GameRecord, event: HintAsked) -> None:
    record.hints_asked[event.seat] = record.hints_asked.get(event.seat, 0) + 1


_FOLDS: dict[type[Event], Callable[[GameRecord, Any], None]] = {
    SeatClaimed: _claimed, GameStarted: _status("active"), GameEnded: _status("ended"), GameScored: _scored,
    SeedRevealed: _revealed, TurnTimedOut: _timed_out, SeatAutopiloted: _autopiloted, SeatReclaimed: _reclaimed,
    SeatReturned: _returned, VoteCast: _vote_cast, VoteWithdrawn: _vote_withdrawn, VotePassed: _vote_passed,
    GameExpired: _status("expired"), SeatInvited: _invited, InvitationEnded: _invitation_ended,
    MoveUndone: undone, SeatLeft: _left, SeatAbsent: _absent, HintAsked: _hint_asked,
}
"""Kernel events and how each folds into the record; any other event is the game's."""


# -- the record's JSON codec (snapshots) -------------------------------------------------------------

def encode_record(record: GameRecord) -> bytes:
    """The kernel record as JSON, with the shape it was written in (:func:`record_shape`); its game state is
    encoded by its game (``Game.encode_state``)."""
    body = codec.adapter(GameRecord).dump_python(dataclasses.replace(record, state=None), mode="json")
    state = None if record.state is None else record.game.encode_state(record.state).decode()
    return codec.adapter(dict[str, Any]).dump_json({"record": body, "state": state,
                                                   "shape": record_shape(record.game_type)})


def decode_record(data: bytes | str) -> GameRecord:
    """A record written by :func:`encode_record` in today's shape; ValueError (pydantic's, or a shape of
    other code) when the data is not one."""
    raw = codec.adapter(dict[str, Any]).validate_json(data)
    record: GameRecord = codec.adapter(GameRecord).validate_python(raw["record"])
    if raw.get("shape") != record_shape(record.game_type):
        raise ValueError(f"a record of another shape ({raw.get('shape')}, today {record_shape(record.game_type)})")
    if raw["state"] is not None:
        record.state = record.game.decode_state(raw["state"])
    return record


@functools.cache
def record_shape(game_type: str) -> str:
    """What a record of ``game_type`` holds, as a fingerprint: the JSON schemas of the kernel record and of the
    game's state (their fields, types and defaults). A record written in another shape is not read back (its
    snapshot is then ignored and the log replayed): a field added since would read as its default, as
    ``ended_by`` read as "not ended by a vote" in snapshots written before it existed."""
    state_type = get_game(game_type).state_type
    schemas = [codec.adapter(GameRecord).json_schema(mode="serialization"),
               None if state_type is None else codec.adapter(state_type).json_schema(mode="serialization")]
    digest = hashlib.sha256(codec.adapter(list[Any]).dump_json(schemas))
    return digest.hexdigest()[:16]
