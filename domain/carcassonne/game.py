"""Carcassonne (C2) with Hills & Sheep and the River: the game's face (the decider)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.core import (
    BotSupport,
    Command,
    Event,
    Game,
    GameNotActive,
    IllegalMove,
    InvalidCommand,
    NotYourTurn,
    RuleError,
    Score,
)
from domain.core.capabilities import THREE_TURNS
from domain.core.decision import Decision

from . import view as view_module
from .board import can_place, describe, is_placeable, placements, rotated_at
from .description import describe_game
from .evolve import HANDLERS, started, take
from .messages import (
    COMMAND_TYPES,
    EVENT_TYPES,
    AbbotPlaced,
    AbbotRecalled,
    FigureSkipped,
    FlockFieldExtended,
    FlockScattered,
    FollowerPlaced,
    GameEnded,
    GameStarted,
    Pass,
    PlaceFigure,
    PlaceTile,
    RecallAbbot,
    ShepherdPlaced,
    TendFlock,
    TileBuried,
    TileDiscarded,
    TileDrawn,
    TilePlaced,
    TokenDrawn,
)
from .rules import (
    CLOSED_FIELD_GATHERS,
    FARMERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RIVER_START_TILE_IN_STACK,
    SHEPHERD_WOLF_ENDS_FIGURE_STEP,
    TEND_BEFORE_CLOSED_GATHER,
)
from .scoring import completed_by, feature_value, final_scoring
from .shepherds import WOLF, closed_fields, draw_token, flock_field_extended, gather, scatter, seats_in_field
from .state import FIGURE, OVER, PLACE, TEND, CarcassonneState
from .tiledefs import SHEEP_TOKENS
from .tiles import FIELD, GARDEN, LAKE, MONASTERY, SPRING, START_TILE, TILES, tile_counts
from .view_models import VIEW_MODELS

SEARCH = dataclasses.replace(THREE_TURNS, simulations=320, determinizations=40, common_chance=True)
"""The search bot's settings: three turns deep on common random numbers, 320 simulations per move (CPU per
search move p50 0.56 s, p95 0.90 s, under the 1 s think time; against greedy 14.5 of 20 arena games, 72.5%,
95% interval 51-87%, mean 95.9 to 86.8: bench/strength_history.csv). Each paired round draws new tiles,
so the rounds are not capped at 24 (twice 12 determinizations) as before, which left 240 simulations mostly
unspent with six candidates; with racing (race_z=2) it won only 7 of 16 games against greedy, so racing is off.
Before the search judged its leaves by ``heuristics.search_evaluate`` it won 59.8% of 56 (46.8-71.6%, mean 92.5 to
84.6); with it 65.0% of 30 (47.1-79.5%, mean 86.4 to 75.0; CPU per search move unchanged on the same positions):
not yet clearly stronger, and short of issue 20's target (lower end 55%). With ``common_chance`` every candidate
of a round meets the same tiles in its playouts (before, the draws parted after the opponent's tile, so a round
compared candidates on different luck): 78.3% of 60 (66.4-86.9%, mean 90.0 to 74.7; CPU per search move p50
0.56 s, p95 0.98 s), issue 20's target met."""


class CarcassonneOptions(BaseModel):
    """Game options: the Hills & Sheep expansion and the River and Abbot mini-expansions of the C2 box."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    # titles and descriptions are what the web client's new-game form shows (GET /games/types: options_schema)
    hills_and_sheep: bool = Field(False, title="Hills & Sheep expansion", description=(
        "The expansion: hills hide a tile that breaks ties, vineyards raise monasteries, and a shepherd "
        "grows a flock on a field (beware the wolf)."))
    river: bool = Field(False, title="River", description="Start with the 12 River tiles, spring first, lake last.")
    abbot: bool = Field(False, title="Abbot", description=(
        "Each player also has an abbot for monasteries and gardens, which can be called back for its points."))
    stack_size: int | None = Field(None, ge=1, le=200, title="Short game: land tiles", description=(
        "Only this many land tiles, picked at random (empty: the whole stack)."))
    """Development and tutorial games: only this many land tiles, picked at random at setup (None = all)."""


def draw_tile(stack: dict[str, int], rng: random.Random) -> str:
    """A uniformly random tile of the multiset ``stack`` (no order ever exists)."""
    pick = rng.randrange(sum(stack.values()))
    for tile in sorted(stack):
        if pick < stack[tile]:
            return tile
        pick -= stack[tile]
    raise AssertionError("empty stack")  # pragma: no cover


def _sample(stack: dict[str, int], size: int, rng: random.Random) -> dict[str, int]:
    """``size`` tiles drawn from the multiset ``stack`` (a short game's stack, written into GameStarted)."""
    left, out = dict(stack), dict[str, int]()
    for _ in range(size):
        tile = draw_tile(left, rng)
        take(left, tile)
        out[tile] = out.get(tile, 0) + 1
    return dict(sorted(out.items()))


_FIGURE_COMMANDS: dict[tuple[int, str, str], PlaceFigure] = {}


def _place_figure(seat: int, figure: Literal["follower", "shepherd", "abbot"], feature: str) -> PlaceFigure:
    """The (frozen, so shared) figure command: a few dozen exist, built once instead of at every listing."""
    key = (seat, figure, feature)
    command = _FIGURE_COMMANDS.get(key)
    if command is None:
        command = _FIGURE_COMMANDS[key] = PlaceFigure(seat=seat, figure=figure, feature=feature)
    return command


@lru_cache(maxsize=1 << 16)
def _place_tile(seat: int, x: int, y: int, rotation: int) -> PlaceTile:
    """The (frozen, so shared) placement command: validating a new one at every listing was half its cost."""
    return PlaceTile(seat=seat, x=x, y=y, rotation=rotation)


Figure = Literal["follower", "shepherd", "abbot"]
SpotRule = Callable[[CarcassonneState, int, int], bool]
"""(state, feature kind, node) -> may the figure stand there."""


def _figure_rule(state: CarcassonneState, seat: int, figure: str, feature: str, kind: int, node: int) -> RuleError | None:
    """Why ``figure`` may not go on ``feature`` (of kind ``kind``, node ``node``) of the tile just placed."""
    return _figure_unavailable(state, seat, figure) or _spot_error(state, figure, feature, kind, node)


def _figures_in_hand(state: CarcassonneState, seat: int) -> list[tuple[Figure, SpotRule]]:
    """The part of the figure rule that depends on the seat only: the figures in play and in its hand (in
    listing order), each with the feature part of its rule."""
    out: list[tuple[Figure, SpotRule]] = []
    if state.supply[seat] > 0:
        out.append(("follower", _follower_spot))
    if state.hills_and_sheep and seat not in state.shepherds and not state.shepherd_placed:
        out.append(("shepherd", _shepherd_spot))
    if state.abbot and seat not in state.abbots:
        out.append(("abbot", _abbot_spot))
    return out


def _figure_unavailable(state: CarcassonneState, seat: int, figure: str) -> RuleError | None:
    """Why the seat cannot place ``figure`` at all now (None: it can), explaining :func:`_figures_in_hand`."""
    if any(f == figure for f, _ in _figures_in_hand(state, seat)):
        return None
    if figure == "follower":
        return IllegalMove("no follower left in your supply")
    if figure == "abbot":
        if not state.abbot:
            return IllegalMove("abbots are only in play with the Abbot option")
        return IllegalMove("your abbot is already on the board")
    if not state.hills_and_sheep:
        return IllegalMove("shepherds are only in play with Hills & Sheep")
    return IllegalMove("your shepherd is already on the board")


def _follower_spot(state: CarcassonneState, kind: int, node: int) -> bool:
    return kind != GARDEN and (FARMERS or kind != FIELD) and not state.occupied[state.root[node]]


def _abbot_spot(state: CarcassonneState, kind: int, node: int) -> bool:
    return (kind == MONASTERY or kind == GARDEN) and not state.occupied[node]


def _shepherd_spot(state: CarcassonneState, kind: int, node: int) -> bool:
    return kind == FIELD and not seats_in_field(state, state.root[node])


SPOT_RULES: dict[str, SpotRule] = {
    "follower": _follower_spot, "abbot": _abbot_spot, "shepherd": _shepherd_spot}
"""The feature part of the figure rule, as a predicate per figure (the listing calls it per feature; the
check calls it too and explains a refusal with :func:`_spot_error`)."""


def _spot_error(state: CarcassonneState, figure: str, feature: str, kind: int, node: int) -> RuleError | None:
    """The feature part of the figure rule: its kind and who is there already (None: the spot is fine)."""
    if SPOT_RULES[figure](state, kind, node):
        return None
    if figure == "follower":
        if kind == GARDEN:
            return IllegalMove("only the abbot may stand in a garden")
        if kind == FIELD and not FARMERS:
            return IllegalMove("farmers are not in play")
        return IllegalMove(f"feature {feature} already holds a follower")
    if figure == "abbot":
        if kind not in (MONASTERY, GARDEN):
            return IllegalMove(f"the abbot stands on a monastery or a garden; {feature} is neither")
        return IllegalMove(f"feature {feature} is already occupied")
    if kind != FIELD:
        return IllegalMove(f"a shepherd stands on a field; {feature} is not a field")
    return IllegalMove(f"field {feature} already holds a shepherd")


def evolve_state(state: CarcassonneState | None, event: Event) -> CarcassonneState:
    """Fold one event (in place; the first event makes the state)."""
    if isinstance(event, GameStarted):
        return started(event)
    assert state is not None
    handler = HANDLERS.get(type(event))
    if handler is not None:
        handler(state, event)
    return state


class Ctx(Decision[CarcassonneState]):
    """The core decision context (:class:`~domain.core.decision.Decision`) bound to Carcassonne's fold."""

    __slots__ = ()

    def __init__(self, state: CarcassonneState | None, rng: random.Random) -> None:
        super().__init__(state, rng, evolve_state, CarcassonneState.copy, eager=True)


class CarcassonneGame(Game[CarcassonneState]):
    id = "carcassonne"
    title = "Carcassonne"
    summary = ("Draw a tile, add it to the growing landscape, and place a follower on a city, road, monastery or "
               "field. Completed features score. Add the Hills & Sheep expansion in the options: shepherds, flocks "
               "and hills that bury a tile for ties.")
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    Options = CarcassonneOptions
    command_types = COMMAND_TYPES
    event_types = EVENT_TYPES
    pass_commands = ("Pass",)
    view_models = VIEW_MODELS
    state_type = CarcassonneState
    example_options = {"hills_and_sheep": True}

    # -- capabilities ----------------------------------------------------------
    def bot_support(self) -> BotSupport:
        from . import determinize, heuristics

        return BotSupport(determinize.state_from_view, heuristics.evaluate, scale=10.0, search=SEARCH,
                          leaf_evaluate=heuristics.search_evaluate)

    def progress(self, state: CarcassonneState) -> float | None:
        # Tiles placed of the tiles of the game (the start tile and the river included, discards left out).
        left = sum(state.remaining.values()) + sum(state.river_remaining.values())
        placed = len(state.placements)
        return 1.0 if self.is_over(state) else placed / max(1, placed + left)

    def reveals(self, event: Event) -> bool:
        # A drawn, discarded or buried tile and a sheep token come from chance; everything else follows
        # from the board and the command.
        return isinstance(event, (GameStarted, TileDrawn, TileDiscarded, TileBuried, TokenDrawn))

    # -- setup ---------------------------------------------------------------
    def setup(self, options: BaseModel, n_seats: int, rng: random.Random) -> list[Event]:
        assert isinstance(options, CarcassonneOptions)
        self.check_seats(options, n_seats)
        gardens = options.abbot
        tiles = tile_counts("base", gardens)
        if options.hills_and_sheep:
            tiles.update(tile_counts("hills_and_sheep", gardens))
        river_tiles: dict[str, int] = {}
        if options.river:
            start = SPRING
            river_tiles = {t: c for t, c in tile_counts("river", gardens).items() if t not in (SPRING, LAKE)}
            if not RIVER_START_TILE_IN_STACK:
                take(tiles, START_TILE)
        else:
            start = START_TILE
            take(tiles, START_TILE)
        if options.stack_size is not None and options.stack_size < sum(tiles.values()):
            tiles = _sample(tiles, options.stack_size, rng)
        bag = {str(v): c for v, c in SHEEP_TOKENS.items()} if options.hills_and_sheep else {}
        started = GameStarted(players=n_seats, hills_and_sheep=options.hills_and_sheep, river=options.river,
                              start_tile=start, tiles=tiles, river_tiles=river_tiles, lake=options.river, bag=bag,
                              abbot=options.abbot)
        turn = Ctx(None, rng)
        turn.emit(started)
        self._next_tile(turn, 0, rng)
        return turn.events

    # -- validation (the one source of truth for legality) --------------------
    def check(self, state: CarcassonneState, command: Command) -> RuleError | None:
        """Why ``command`` is not allowed now, or None when it is."""
        if state.phase == OVER:
            return GameNotActive("the game is over")
        if command.seat != state.turn_seat:
            return NotYourTurn(f"seat {command.seat} may not act; seat {state.turn_seat} is to {state.phase}")
        if isinstance(command, PlaceTile):
            if state.phase != PLACE:
                return IllegalMove(f"the tile is already placed; now {self._phase_hint(state)}")
            assert state.current_tile is not None
            if not can_place(state, state.current_tile, command.x, command.y, command.rotation):
                return IllegalMove(f"tile {state.current_tile} does not fit at ({command.x}, {command.y}) "
                                   f"with rotation {command.rotation}")
            return None
        if isinstance(command, (PlaceFigure, Pass, RecallAbbot)):
            if state.phase != FIGURE:
                return IllegalMove(f"no figure step now; {self._phase_hint(state)}")
            if isinstance(command, PlaceFigure):
                return self._figure_error(state, command)
            if isinstance(command, RecallAbbot) and command.seat not in state.abbots:
                return IllegalMove("your abbot is not on the board")
            return None
        if isinstance(command, TendFlock):
            if state.phase != TEND:
                return IllegalMove(f"no flock to tend now; {self._phase_hint(state)}")
            return None
        return InvalidCommand(f"unknown command {type(command).__name__} for {self.id}")

    @staticmethod
    def _phase_hint(state: CarcassonneState) -> str:
        return {PLACE: "place the drawn tile", FIGURE: "place a figure or pass",
                TEND: "grow or gather your flock"}.get(state.phase, state.phase)

    def _figure_error(self, state: CarcassonneState, command: PlaceFigure) -> RuleError | None:
        """Figures go on an unoccupied feature of the tile just placed (§5.2 step 2; H&S shepherd placement)."""
        rt = rotated_at(state, state.placed)
        index = TILES[rt.tile].local_index.get(command.feature)
        if index is None:
            names = ", ".join(f.local_id for f in rt.features)
            return InvalidCommand(f"tile {rt.tile} has no feature {command.feature!r}; it has {names}")
        node = state.tile_base[state.placed] + index
        return _figure_rule(state, command.seat, command.figure, command.feature, rt.features[index].kind, node)

    def is_legal(self, state: CarcassonneState, command: Command) -> bool:
        return self.check(state, command) is None

    def legal_commands(self, state: CarcassonneState, seat: int) -> list[Command]:
        """The candidates that pass :meth:`check`: tile placements are enumerated by :func:`placements`, the
        generator of exactly the cells and rotations ``can_place`` accepts; figures by the same rule
        (:func:`_figure_rule`: its seat part once per figure, its feature part per feature) that checks a sent
        command."""
        if state.phase == OVER or seat != state.turn_seat:
            return []
        if state.phase == PLACE:
            assert state.current_tile is not None
            return [_place_tile(seat, x, y, r) for x, y, r in placements(state, state.current_tile)]
        if state.phase == TEND:
            return [TendFlock(seat=seat, action="grow"), TendFlock(seat=seat, action="gather")]
        out: list[Command] = [Pass(seat=seat)]
        rt = rotated_at(state, state.placed)
        base = state.tile_base[state.placed]
        rules = _figures_in_hand(state, seat)
        for i, f in enumerate(rt.features):
            for figure, spot_ok in rules:
                if spot_ok(state, f.kind, base + i):
                    out.append(_place_figure(seat, figure, f.local_id))
        if state.abbot and seat in state.abbots:
            out.append(RecallAbbot(seat=seat))
        return out

    # -- decide ----------------------------------------------------------------
    def decide(self, state: CarcassonneState, command: Command, rng: random.Random) -> list[Event]:
        error = self.check(state, command)
        if error is not None:
            raise error
        seat = command.seat
        if isinstance(command, PlaceTile):
            tile = state.current_tile
            assert tile is not None
            events: list[Event] = [TilePlaced(seat=seat, x=command.x, y=command.y, rotation=command.rotation,
                                              tile=tile)]
            if TILES[tile].spec.hill and state.remaining:
                # H&S "Hills": a random stack tile goes under the hill; a hill drawn last buries nothing (§9.4).
                # Taken here rather than at the draw: no draw comes in between, so the odds are the same.
                events.append(TileBuried(seat=seat, x=command.x, y=command.y, tile=draw_tile(state.remaining, rng)))
            return events
        turn = Ctx(state, rng)
        if isinstance(command, TendFlock):
            self._tend(turn, seat, command.action, rng)
        else:
            if not self._figure(turn, command, rng):
                return turn.events  # a wolf took the shepherd and the seat may still place a figure
            if turn.state.hills_and_sheep and flock_field_extended(turn.state, seat):
                field = turn.state.root[turn.state.shepherds[seat]]
                if TEND_BEFORE_CLOSED_GATHER or turn.state.open[field] > 0:
                    turn.emit(FlockFieldExtended(seat=seat))
                    return turn.events
        self._end_turn(turn, rng)
        return turn.events

    def _figure(self, turn: Ctx, command: Command, rng: random.Random) -> bool:
        """The figure step; False when it is not over yet (a wolf on placement, if the rules allow a retry)."""
        seat = command.seat
        if isinstance(command, Pass):
            turn.emit(FigureSkipped(seat=seat))
            return True
        if isinstance(command, RecallAbbot):
            turn.emit(self._recall(turn.state, seat))
            return True
        assert isinstance(command, PlaceFigure)
        x, y, _, _ = turn.state.placements[turn.state.placed]
        if command.figure == "follower":
            turn.emit(FollowerPlaced(seat=seat, x=x, y=y, feature=command.feature))
            return True
        if command.figure == "abbot":
            turn.emit(AbbotPlaced(seat=seat, x=x, y=y, feature=command.feature))
            return True
        turn.emit(ShepherdPlaced(seat=seat, x=x, y=y, feature=command.feature))
        token = draw_token(turn.state.bag, rng)
        turn.emit(TokenDrawn(seat=seat, token=token, reason="placed"))
        if token == WOLF:
            turn.emit(FlockScattered(seats=[seat], tokens=[]))
            return SHEPHERD_WOLF_ENDS_FIGURE_STEP
        return True

    @staticmethod
    def _recall(state: CarcassonneState, seat: int) -> AbbotRecalled:
        """The abbot comes home scoring its monastery or garden as at game end (§5.6; no vineyards, §9.6)."""
        node = state.abbots[seat]
        points, _, _ = feature_value(state, node, completed=False)
        x, y, local = describe(state, node)
        kind: Literal["monastery", "garden"] = "garden" if state.kind[node] == GARDEN else "monastery"
        return AbbotRecalled(seat=seat, x=x, y=y, feature=local, kind=kind, points=points)

    def _tend(self, turn: Ctx, seat: int, action: str, rng: random.Random) -> None:
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

    def _end_turn(self, turn: Ctx, rng: random.Random) -> None:
        """Closed fields gather, completed features score, the next seat draws (§7.4 steps 4-6)."""
        s = turn.state
        if s.hills_and_sheep and CLOSED_FIELD_GATHERS:
            for root in closed_fields(s):
                turn.emit(gather(s, root, closed=True))
        turn.emit(*completed_by(s, s.placed))
        self._next_tile(turn, (s.turn_seat + 1) % s.players, rng)

    def _next_tile(self, turn: Ctx, seat: int, rng: random.Random) -> None:
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
            if TILES[tile].spec.hill and s.remaining:
                # H&S "Hills": "If you draw a tile with a hill, immediately take another facedown tile" -- so
                # a hill that then fits nowhere has already taken its tile, which leaves the game unseen with it.
                turn.emit(TileBuried(seat=seat, x=None, y=None, tile=draw_tile(s.remaining, rng)))
        turn.emit(*final_scoring(s))
        turn.emit(GameEnded(scores=list(s.scores)))

    # -- evolve ----------------------------------------------------------------
    evolve = staticmethod(evolve_state)  # one call, not two, per folded event

    # -- queries ---------------------------------------------------------------
    def to_act(self, state: CarcassonneState) -> list[int]:
        return [] if state.phase == OVER else [state.turn_seat]

    def is_over(self, state: CarcassonneState) -> bool:
        return state.phase == OVER

    def scores(self, state: CarcassonneState) -> list[Score]:
        return [Score.of(seat, dict(state.breakdown[seat])) for seat in range(state.players)]

    def view(self, state: CarcassonneState, seat: int | None) -> dict[str, Any]:
        return view_module.build(state, seat)

    def views(self, state: CarcassonneState, seats: Sequence[int | None]) -> list[dict[str, Any]]:
        return view_module.build_many(state, seats)  # the features, the board and the figures built once

    def clone(self, state: CarcassonneState) -> CarcassonneState:
        return state.copy()

    def description(self, options: BaseModel | None = None) -> dict[str, Any]:
        """Every tile type's features and where they lie; one document for all options (clients cache it)."""
        return describe_game()


GAME = CarcassonneGame()
