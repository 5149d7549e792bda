"""Carcassonne (C2) with Hills & Sheep and the River: the game's face (the decider)."""

from __future__ import annotations

import random
from typing import Any

from pydantic import BaseModel, ConfigDict

from domain.core import Command, Event, Game, GameNotActive, IllegalMove, InvalidCommand, NotYourTurn, RuleError, Score

from . import view as view_module
from .board import can_place, is_placeable, node_of, place_tile, placements, rotated_at, start_river
from .messages import (COMMAND_TYPES, EVENT_TYPES, FeatureScored, FigureSkipped, FlockFieldExtended, FlockGathered,
                       FlockScattered, FollowerPlaced, GameEnded, GameStarted, Pass, PlaceFigure, PlaceTile,
                       ShepherdPlaced, TendFlock, TileBuried, TileDiscarded, TileDrawn, TilePlaced, TokenDrawn)
from .rules import MAX_PLAYERS, MIN_PLAYERS
from .scoring import completed_by, final_scoring
from .shepherds import WOLF, closed_fields, draw_token, flock_field_extended, gather, scatter, seats_in_field
from .state import FIGURE, OVER, PLACE, TEND, CarcassonneState
from .tiledefs import SHEEP_TOKENS
from .tiles import FIELD, LAKE, SPRING, START_TILE, TILES, tile_counts

CATEGORY_OF = {"road": "roads", "city": "cities", "monastery": "monasteries", "field": "fields"}


class CarcassonneOptions(BaseModel):
    """Game options: the Hills & Sheep expansion and the River mini-expansion (Abbot: not offered, see notes)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    hills_and_sheep: bool = False
    river: bool = False


def draw_tile(stack: dict[str, int], rng: random.Random) -> str:
    """A uniformly random tile of the multiset ``stack`` (no order ever exists)."""
    pick = rng.randrange(sum(stack.values()))
    for tile in sorted(stack):
        if pick < stack[tile]:
            return tile
        pick -= stack[tile]
    raise AssertionError("empty stack")  # pragma: no cover


def _take(stack: dict[str, int], tile: str) -> None:
    left = stack[tile] - 1
    if left:
        stack[tile] = left
    else:
        del stack[tile]


class _Turn:
    """Events of one decision, folded into a scratch copy as they are produced (later ones depend on earlier)."""

    def __init__(self, game: "CarcassonneGame", state: CarcassonneState) -> None:
        self.game = game
        self.state = state.clone()
        self.events: list[Event] = []

    def emit(self, *events: Event) -> None:
        for event in events:
            self.events.append(event)
            self.game.evolve(self.state, event)


class CarcassonneGame(Game[CarcassonneState]):
    id = "carcassonne"
    title = "Carcassonne + Hills & Sheep"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    Options = CarcassonneOptions
    command_types = COMMAND_TYPES
    event_types = EVENT_TYPES

    # -- setup ---------------------------------------------------------------
    def setup(self, options: BaseModel, n_seats: int, rng: random.Random) -> list[Event]:
        assert isinstance(options, CarcassonneOptions)
        self.check_seats(options, n_seats)
        tiles = tile_counts("base")
        if options.hills_and_sheep:
            tiles.update(tile_counts("hills_and_sheep"))
        river_tiles: dict[str, int] = {}
        if options.river:
            start = SPRING
            river_tiles = {t: c for t, c in tile_counts("river").items() if t not in (SPRING, LAKE)}
        else:
            start = START_TILE
            _take(tiles, START_TILE)
        bag = {str(v): c for v, c in SHEEP_TOKENS.items()} if options.hills_and_sheep else {}
        started = GameStarted(players=n_seats, hills_and_sheep=options.hills_and_sheep, river=options.river,
                              start_tile=start, tiles=tiles, river_tiles=river_tiles, lake=options.river, bag=bag)
        turn = _Turn(self, self.evolve(None, started))
        turn.events.append(started)
        self._next_tile(turn, 0, rng)
        return turn.events

    # -- validation (the one source of truth for legality) --------------------
    def _check(self, state: CarcassonneState, command: Command) -> None:
        if state.phase == OVER:
            raise GameNotActive("the game is over")
        if command.seat != state.turn_seat:
            raise NotYourTurn(f"seat {command.seat} may not act; seat {state.turn_seat} is to {state.phase}")
        if isinstance(command, PlaceTile):
            if state.phase != PLACE:
                raise IllegalMove(f"the tile is already placed; now {self._phase_hint(state)}")
            assert state.current_tile is not None
            if not can_place(state, state.current_tile, command.x, command.y, command.rotation):
                raise IllegalMove(f"tile {state.current_tile} does not fit at ({command.x}, {command.y}) "
                                  f"with rotation {command.rotation}")
        elif isinstance(command, (PlaceFigure, Pass)):
            if state.phase != FIGURE:
                raise IllegalMove(f"no figure step now; {self._phase_hint(state)}")
            if isinstance(command, PlaceFigure):
                self._check_figure(state, command)
        elif isinstance(command, TendFlock):
            if state.phase != TEND:
                raise IllegalMove(f"no flock to tend now; {self._phase_hint(state)}")
        else:
            raise InvalidCommand(f"unknown command {type(command).__name__} for {self.id}")

    @staticmethod
    def _phase_hint(state: CarcassonneState) -> str:
        return {PLACE: "place the drawn tile", FIGURE: "place a figure or pass",
                TEND: "grow or gather your flock"}.get(state.phase, state.phase)

    def _check_figure(self, state: CarcassonneState, command: PlaceFigure) -> None:
        """Figures go on an unoccupied feature of the tile just placed (§5.2 step 2; H&S shepherd placement)."""
        rt = rotated_at(state, state.placed)
        index = TILES[rt.tile].local_index.get(command.feature)
        if index is None:
            names = ", ".join(f.local_id for f in rt.features)
            raise InvalidCommand(f"tile {rt.tile} has no feature {command.feature!r}; it has {names}")
        node = state.tile_base[state.placed] + index
        if command.figure == "follower":
            if state.supply[command.seat] <= 0:
                raise IllegalMove("no follower left in your supply")
            if state.occupied[state.root[node]]:
                raise IllegalMove(f"feature {command.feature} already holds a follower")
            return
        if not state.hills_and_sheep:
            raise IllegalMove("shepherds are only in play with Hills & Sheep")
        if rt.features[index].kind != FIELD:
            raise IllegalMove(f"a shepherd stands on a field; {command.feature} is not a field")
        if command.seat in state.shepherds:
            raise IllegalMove("your shepherd is already on the board")
        if seats_in_field(state, state.root[node]):
            raise IllegalMove(f"field {command.feature} already holds a shepherd")

    def is_legal(self, state: CarcassonneState, command: Command) -> bool:
        try:
            self._check(state, command)
        except RuleError:
            return False
        return True

    def legal_commands(self, state: CarcassonneState, seat: int) -> list[Command]:
        if state.phase == OVER or seat != state.turn_seat:
            return []
        if state.phase == PLACE:
            assert state.current_tile is not None
            return [PlaceTile(seat=seat, x=x, y=y, rotation=r) for x, y, r in placements(state, state.current_tile)]
        if state.phase == TEND:
            return [TendFlock(seat=seat, action="grow"), TendFlock(seat=seat, action="gather")]
        out: list[Command] = [Pass(seat=seat)]
        rt = rotated_at(state, state.placed)
        base = state.tile_base[state.placed]
        followers = state.supply[seat] > 0
        shepherd = state.hills_and_sheep and seat not in state.shepherds
        for i, f in enumerate(rt.features):
            node = base + i
            if followers and not state.occupied[state.root[node]]:
                out.append(PlaceFigure(seat=seat, figure="follower", feature=f.local_id))
            if shepherd and f.kind == FIELD and not seats_in_field(state, state.root[node]):
                out.append(PlaceFigure(seat=seat, figure="shepherd", feature=f.local_id))
        return out

    # -- decide ----------------------------------------------------------------
    def decide(self, state: CarcassonneState, command: Command, rng: random.Random) -> list[Event]:
        self._check(state, command)
        seat = command.seat
        if isinstance(command, PlaceTile):
            tile = state.current_tile
            assert tile is not None
            events: list[Event] = [TilePlaced(seat=seat, x=command.x, y=command.y, rotation=command.rotation,
                                              tile=tile)]
            if TILES[tile].spec.hill and state.remaining:
                # H&S: a random stack tile goes under the hill; a hill placed last buries nothing (§9.4)
                events.append(TileBuried(seat=seat, x=command.x, y=command.y, tile=draw_tile(state.remaining, rng)))
            return events
        turn = _Turn(self, state)
        if isinstance(command, TendFlock):
            self._tend(turn, seat, command.action, rng)
        else:
            self._figure(turn, command, rng)
            if turn.state.hills_and_sheep and flock_field_extended(turn.state, seat):
                turn.emit(FlockFieldExtended(seat=seat))
                return turn.events
        self._end_turn(turn, rng)
        return turn.events

    def _figure(self, turn: _Turn, command: Command, rng: random.Random) -> None:
        seat = command.seat
        if isinstance(command, Pass):
            turn.emit(FigureSkipped(seat=seat))
            return
        assert isinstance(command, PlaceFigure)
        x, y, _, _ = turn.state.placements[turn.state.placed]
        if command.figure == "follower":
            turn.emit(FollowerPlaced(seat=seat, x=x, y=y, feature=command.feature))
            return
        turn.emit(ShepherdPlaced(seat=seat, x=x, y=y, feature=command.feature))
        token = draw_token(turn.state.bag, rng)
        turn.emit(TokenDrawn(seat=seat, token=token, reason="placed"))
        if token == WOLF:
            turn.emit(FlockScattered(seats=[seat], tokens=[]))

    def _tend(self, turn: _Turn, seat: int, action: str, rng: random.Random) -> None:
        """Grow the flock (draw; a wolf scatters the whole field) or guide it to the stable (H&S)."""
        s = turn.state
        root = s.root[s.shepherds[seat]]
        if action == "gather":
            turn.emit(gather(s, root))
            return
        token = draw_token(s.bag, rng)
        turn.emit(TokenDrawn(seat=seat, token=token, reason="grow"))
        if token == WOLF:
            turn.emit(scatter(s, root))

    def _end_turn(self, turn: _Turn, rng: random.Random) -> None:
        """Closed fields gather, completed features score, the next seat draws (§7.4 steps 4-6)."""
        s = turn.state
        if s.hills_and_sheep:
            for root in closed_fields(s):
                turn.emit(gather(s, root, closed=True))
        turn.emit(*completed_by(s, s.placed))
        self._next_tile(turn, (s.turn_seat + 1) % s.players, rng)

    def _next_tile(self, turn: _Turn, seat: int, rng: random.Random) -> None:
        """Draw until a tile fits (unplaceable ones are discarded); with none left, score the end (§5.5)."""
        s = turn.state
        while s.tiles_left():
            if s.river_remaining:
                tile = draw_tile(s.river_remaining, rng)
            elif s.lake_pending:
                tile = LAKE
            else:
                tile = draw_tile(s.remaining, rng)
            if is_placeable(s, tile):
                turn.emit(TileDrawn(seat=seat, tile=tile))
                return
            turn.emit(TileDiscarded(seat=seat, tile=tile))
        turn.emit(*final_scoring(s))
        turn.emit(GameEnded(scores=list(s.scores)))

    # -- evolve ----------------------------------------------------------------
    def evolve(self, state: CarcassonneState | None, event: Event) -> CarcassonneState:
        if isinstance(event, GameStarted):
            return self._started(event)
        assert state is not None
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            handler(state, event)
        return state

    @staticmethod
    def _started(e: GameStarted) -> CarcassonneState:
        s = CarcassonneState.new(e.players, e.hills_and_sheep, e.river)
        s.remaining = dict(e.tiles)
        s.river_remaining = dict(e.river_tiles)
        s.lake_pending = e.lake
        s.bag = [e.bag.get(str(v), 0) for v in range(5)]
        place_tile(s, 0, 0, e.start_tile, 0)
        if e.start_tile == SPRING:
            start_river(s, 0, 0, TILES[SPRING].rotations[0])
        return s

    # -- queries ---------------------------------------------------------------
    def to_act(self, state: CarcassonneState) -> list[int]:
        return [] if state.phase == OVER else [state.turn_seat]

    def is_over(self, state: CarcassonneState) -> bool:
        return state.phase == OVER

    def scores(self, state: CarcassonneState) -> list[Score]:
        return [Score.of(seat, dict(state.breakdown[seat])) for seat in range(state.players)]

    def view(self, state: CarcassonneState, seat: int | None) -> dict[str, Any]:
        return view_module.build(state, seat)

    def clone(self, state: CarcassonneState) -> CarcassonneState:
        return state.clone()


# -- evolve handlers (facts only: no checks, no randomness) ---------------------


def _remove_from_stack(s: CarcassonneState, tile: str) -> None:
    if tile in s.river_remaining:
        _take(s.river_remaining, tile)
    elif tile == LAKE and s.lake_pending:
        s.lake_pending = False
    else:
        _take(s.remaining, tile)


def _drawn(s: CarcassonneState, e: TileDrawn) -> None:
    _remove_from_stack(s, e.tile)
    s.current_tile = e.tile
    s.turn_seat = e.seat
    s.phase = PLACE
    s.placed = -1
    s.shepherd_placed = False
    s.turns += 1


def _discarded(s: CarcassonneState, e: TileDiscarded) -> None:
    _remove_from_stack(s, e.tile)
    s.discarded.append(e.tile)


def _placed(s: CarcassonneState, e: TilePlaced) -> None:
    s.placed = place_tile(s, e.x, e.y, e.tile, e.rotation)
    s.current_tile = None
    s.phase = FIGURE


def _buried(s: CarcassonneState, e: TileBuried) -> None:
    _take(s.remaining, e.tile)
    s.buried.append(e.tile)


def _follower(s: CarcassonneState, e: FollowerPlaced) -> None:
    node = node_of(s, e.x, e.y, e.feature)
    assert node is not None
    s.followers[node] = e.seat
    s.supply[e.seat] -= 1
    s.occupied[s.root[node]] += 1


def _shepherd(s: CarcassonneState, e: ShepherdPlaced) -> None:
    node = node_of(s, e.x, e.y, e.feature)
    assert node is not None
    s.shepherds[e.seat] = node
    s.flocks[e.seat] = []
    s.shepherd_placed = True


def _token(s: CarcassonneState, e: TokenDrawn) -> None:
    if e.token != WOLF:
        s.flocks[e.seat].append(e.token)
        s.bag[e.token] -= 1


def _extended(s: CarcassonneState, e: FlockFieldExtended) -> None:
    s.phase = TEND


def _home(s: CarcassonneState, seats: list[int], tokens: list[int]) -> None:
    for seat in seats:
        s.shepherds.pop(seat, None)
        s.flocks.pop(seat, None)
    for t in tokens:
        s.bag[t] += 1


def _scattered(s: CarcassonneState, e: FlockScattered) -> None:
    _home(s, e.seats, e.tokens)


def _gathered(s: CarcassonneState, e: FlockGathered) -> None:
    for seat in e.seats:
        s.scores[seat] += e.points
        s.breakdown[seat]["sheep"] += e.points
    _home(s, e.seats, e.tokens)


def _scored(s: CarcassonneState, e: FeatureScored) -> None:
    category = CATEGORY_OF[e.kind]
    for seat in e.winners:
        s.scores[seat] += e.points
        s.breakdown[seat][category] += e.points - e.bonus
        s.breakdown[seat]["vineyards"] += e.bonus
    for seat, x, y, local in e.returned:
        node = node_of(s, x, y, local)
        assert node is not None
        del s.followers[node]
        s.supply[seat] += 1
        s.occupied[s.root[node]] -= 1


def _ended(s: CarcassonneState, e: GameEnded) -> None:
    s.phase = OVER
    s.current_tile = None


_HANDLERS: dict[type, Any] = {
    TileDrawn: _drawn, TileDiscarded: _discarded, TilePlaced: _placed, TileBuried: _buried,
    FollowerPlaced: _follower, ShepherdPlaced: _shepherd, FigureSkipped: lambda s, e: None, TokenDrawn: _token,
    FlockFieldExtended: _extended, FlockScattered: _scattered, FlockGathered: _gathered, FeatureScored: _scored,
    GameEnded: _ended,
}

GAME = CarcassonneGame()
