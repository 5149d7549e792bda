"""Test helpers: a table that plays scripted turns through the engine's own commands, and invariants.

Chance is steered, not faked: decide still draws uniformly from the multiset
with ``rng.randrange``; :class:`RiggedRng` answers with the index that picks the
tile or token the script names, so every event comes from the real engine.
"""

from __future__ import annotations

import random
from typing import Any

from domain.carcassonne import GAME
from domain.carcassonne.board import node_of
from domain.carcassonne.messages import GameStarted, Pass, PlaceFigure, PlaceTile, RecallAbbot, TendFlock, TileDrawn
from domain.carcassonne.rules import FOLLOWERS_PER_PLAYER
from domain.carcassonne.state import PLACE, CarcassonneState
from domain.carcassonne.tiledefs import SHEEP_TOKENS
from domain.carcassonne.tiles import SPRING, START_TILE, TILES
from domain.core import Command, Event


class RiggedRng(random.Random):
    """``randrange`` answers from a queue of chosen indices (then falls back to 0)."""

    def __init__(self, answers: list[int]) -> None:
        super().__init__(0)
        self.answers = list(answers)

    def randrange(self, start: int, stop: Any = None, step: int = 1) -> int:  # type: ignore[override]
        n = start if stop is None else stop - start
        if self.answers:
            value = self.answers.pop(0)
            assert 0 <= value < n, (value, n)
            return value
        return 0


def stack_index(stack: dict[str, int], tile: str) -> int:
    assert stack.get(tile, 0) > 0, f"{tile} not in stack {stack}"
    return sum(stack[t] for t in sorted(stack) if t < tile)


def bag_index(bag: list[int], token: int) -> int:
    assert bag[token] > 0, f"token {token} not in bag {bag}"
    return sum(bag[:token])


class Table:
    """A game with a chosen stack, played turn by turn with scripted draws."""

    def __init__(self, stack: list[str], players: int = 2, hills_and_sheep: bool = True,
                 river: list[str] | None = None, abbot: bool = False) -> None:
        """``stack`` is the land stack in scripted draw order; ``river`` the river tiles (spring start, lake last)."""
        counts: dict[str, int] = {}
        for tile in stack:
            counts[tile] = counts.get(tile, 0) + 1
        river_counts: dict[str, int] = {}
        for tile in river or ():
            river_counts[tile] = river_counts.get(tile, 0) + 1
        bag = {str(v): c for v, c in SHEEP_TOKENS.items()} if hills_and_sheep else {}
        started = GameStarted(players=players, hills_and_sheep=hills_and_sheep, river=river is not None,
                              start_tile=SPRING if river is not None else START_TILE, tiles=counts,
                              river_tiles=river_counts, lake=river is not None, bag=bag, abbot=abbot)
        self.order = [*(river or ()), *(["RV_LAKE"] if river is not None else []), *stack]
        self.events: list[Event] = [started, TileDrawn(seat=0, tile=self.order[0])]
        self.state: CarcassonneState = GAME.fold(None, self.events)

    # -- commands --------------------------------------------------------------
    def send(self, command: Command, tokens: tuple[int, ...] = (), bury: str | None = None,
             draws: tuple[str, ...] | None = None) -> list[Event]:
        """Run one command; ``tokens`` are the bag draws, ``bury`` the tile under a hill, ``draws`` the next tiles."""
        s = self.state
        answers: list[int] = []
        bag = list(s.bag)
        for token in tokens:
            answers.append(bag_index(bag, token))
        stack = dict(s.river_remaining or s.remaining)
        if bury is not None:
            answers.append(stack_index(stack, bury))
            stack[bury] -= 1
        for tile in draws or ():
            if tile == "RV_LAKE":
                stack = dict(s.remaining)  # the lake comes without a draw; land tiles follow
                continue
            answers.append(stack_index({k: v for k, v in stack.items() if v}, tile))
            stack[tile] -= 1
        assert GAME.is_legal(s, command), f"illegal: {command!r}"
        assert command in GAME.legal_commands(s, command.seat), f"not listed: {command!r}"
        events = GAME.decide(s, command, RiggedRng(answers))
        for event in events:
            self.state = GAME.evolve(self.state, event)
        self.events.extend(events)
        check_invariants(self.state)
        return events

    @property
    def seat(self) -> int:
        return self.state.turn_seat

    def place(self, x: int, y: int, rotation: int, bury: str | None = None) -> list[Event]:
        return self.send(PlaceTile(seat=self.seat, x=x, y=y, rotation=rotation), bury=bury)

    def follower(self, feature: str, draws: tuple[str, ...] | None = None) -> list[Event]:
        return self.send(PlaceFigure(seat=self.seat, figure="follower", feature=feature), draws=self._next(draws))

    def shepherd(self, feature: str, token: int, draws: tuple[str, ...] | None = None) -> list[Event]:
        return self.send(PlaceFigure(seat=self.seat, figure="shepherd", feature=feature), tokens=(token,),
                         draws=self._next(draws))

    def abbot(self, feature: str, draws: tuple[str, ...] | None = None) -> list[Event]:
        return self.send(PlaceFigure(seat=self.seat, figure="abbot", feature=feature), draws=self._next(draws))

    def recall(self, draws: tuple[str, ...] | None = None) -> list[Event]:
        return self.send(RecallAbbot(seat=self.seat), draws=self._next(draws))

    def skip(self, draws: tuple[str, ...] | None = None) -> list[Event]:
        return self.send(Pass(seat=self.seat), draws=self._next(draws))

    def tend(self, action: str, token: int | None = None, draws: tuple[str, ...] | None = None) -> list[Event]:
        tokens = () if token is None else (token,)
        return self.send(TendFlock(seat=self.seat, action=action), tokens=tokens, draws=self._next(draws))  # type: ignore[arg-type]

    def turn(self, x: int, y: int, rotation: int, figure: str | None = None, **kw: Any) -> list[Event]:
        """Place the drawn tile, then a follower on ``figure`` (or pass)."""
        events = self.place(x, y, rotation, bury=kw.pop("bury", None))
        if figure is None:
            return events + self.skip(**kw)
        return events + self.follower(figure, **kw)

    def _next(self, draws: tuple[str, ...] | None) -> tuple[str, ...]:
        """By default the next tile is the next one in the scripted stack order that is still in the stack."""
        if draws is not None:
            return draws
        left = {**self.state.remaining, **self.state.river_remaining}
        if self.state.lake_pending:
            left["RV_LAKE"] = 1
        used = [p[2] for p in self.state.placements[1:]] + list(self.state.buried) + list(self.state.discarded)
        if self.state.current_tile:
            used.append(self.state.current_tile)
        pending = list(self.order)
        for tile in used:
            if tile in pending:
                pending.remove(tile)
        for tile in pending:
            if left.get(tile):
                return (tile,)
        return ()

    # -- queries -----------------------------------------------------------------
    def score(self, seat: int) -> int:
        return self.state.scores[seat]

    def breakdown(self, seat: int) -> dict[str, int]:
        return self.state.breakdown[seat]

    def root(self, x: int, y: int, feature: str) -> int:
        node = node_of(self.state, x, y, feature)
        assert node is not None
        return self.state.root[node]


# -- invariants ----------------------------------------------------------------------


def total_tiles(state: CarcassonneState, initial: int) -> None:
    """Every tile is placed, discarded, buried, in hand or still in a stack, exactly once."""
    in_hand = 1 if state.phase == PLACE and state.current_tile else 0
    accounted = len(state.placements) + len(state.discarded) + len(state.buried) + state.tiles_left() + in_hand
    assert accounted == initial, (accounted, initial)


def check_invariants(state: CarcassonneState, previous_scores: list[int] | None = None,
                     initial_tiles: int | None = None) -> None:
    n = len(state.root)
    # union-find: every root is its own root, members partition the nodes
    seen = 0
    for node in range(n):
        r = state.root[node]
        assert state.root[r] == r
        if r == node:
            assert node in state.members[node]
            assert state.open[node] >= 0
            seen += len(state.members[node])
        else:
            assert not state.members[node]
    assert seen == n
    # followers
    on_board = [0] * state.players
    occupied: dict[int, int] = {}
    for node, seat in state.followers.items():
        on_board[seat] += 1
        occupied[state.root[node]] = occupied.get(state.root[node], 0) + 1
    for seat, node in state.abbots.items():
        assert state.abbot and state.kind[node] >= 3
        occupied[node] = occupied.get(node, 0) + 1
    for seat in range(state.players):
        assert state.supply[seat] >= 0
        assert state.supply[seat] + on_board[seat] == FOLLOWERS_PER_PLAYER
    for node in range(n):
        if state.root[node] == node:
            assert state.occupied[node] == occupied.get(node, 0)
    # bag and flocks
    if state.hills_and_sheep:
        assert set(state.flocks) == set(state.shepherds)
        assert sum(state.bag) + sum(len(f) for f in state.flocks.values()) == sum(SHEEP_TOKENS.values())
        assert all(c >= 0 for c in state.bag) and state.bag[0] == SHEEP_TOKENS[0]
        if state.phase == PLACE:
            # no shepherd is left in a closed field once a turn is over
            assert all(state.open[state.root[node]] > 0 for node in state.shepherds.values())
    else:
        assert not state.shepherds and not state.buried
    # scores
    for seat in range(state.players):
        assert sum(state.breakdown[seat].values()) == state.scores[seat]
        if previous_scores is not None:
            assert state.scores[seat] >= previous_scores[seat]
    if initial_tiles is not None:
        total_tiles(state, initial_tiles)
    # frontier: empty cells next to a tile
    for (x, y) in state.frontier:
        assert (x, y) not in state.board
    assert all(TILES[p[2]] for p in state.placements)
