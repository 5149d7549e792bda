"""Undo in a simultaneous phase (issue 34, defect 2): in Tiefenthal's planning (phase E) both seats place dice
at once; once the other seat placed a die after mine, each seat can still take back its own latest placement,
and the game is then as if that placement had never been made (the other seat's placement stays)."""

from __future__ import annotations

import random
from typing import Any

from domain.catalog import load_games
from domain.core.errors import IllegalMove
from domain.core.lifecycle import CreateGame, GameRecord, SeatSpec, Undo, execute, kernel_commands
from domain.core.registry import get_game
from domain.core.rng import SeedDice

load_games()
GID = "simul"


def can_undo(record: GameRecord, seat: int) -> bool:
    return any(isinstance(c, Undo) for c in kernel_commands(record, seat))


class Play:
    def __init__(self, game: str, options: dict[str, Any] | None = None, seed: str = "s", seats: int = 2) -> None:
        self.game = get_game(game)
        self.dice = SeedDice(seed.encode())
        self.rng = random.Random(seed)
        _, record = execute(None, GID, CreateGame(game=game, options=options or {}, seed_commitment="c", seats=[
            SeatSpec(name=f"p{i}", player_id=f"p{i}") for i in range(seats)]), self.dice, "player:p0")
        self.record = record

    def do(self, command: Any, seat: int) -> list[Any]:
        events, self.record = execute(self.record, GID, command, self.dice, f"player:p{seat}")
        return events

    def random_move(self, avoid: tuple[str, ...] = ()) -> None:
        seat = self.rng.choice(self.record.to_act())
        legal = self.game.legal_commands(self.record.state, seat)
        preferred = [c for c in legal if c.type not in avoid] or legal
        self.do(self.rng.choice(preferred), seat)


def to_planning(play: Play) -> None:
    for _ in range(500):
        state = play.record.state
        if state.phase == "E" and len(play.record.to_act()) == 2:
            return
        play.random_move()
    raise AssertionError("never reached phase E with both seats planning")


def place(play: Play, seat: int) -> Any:
    [command] = [c for c in play.game.legal_commands(play.record.state, seat) if c.type == "PlaceDie"][:1]
    play.do(command, seat)
    return command


def test_each_seat_undoes_its_own_latest_placement_after_the_other_placed_one() -> None:
    play = Play("tiefenthal", seed="plan-1")
    to_planning(play)
    a_cmd = place(play, 0)
    b_cmd = place(play, 1)
    assert can_undo(play.record, 1), "the second seat may take back the die it just placed"
    assert can_undo(play.record, 0), "the first seat may still take back its own die"

    # A takes back its die: B's stays, A's is gone, as if only B had placed
    play.do(Undo(seat=0), 0)
    state = play.record.state
    assert a_cmd.die not in state.players[0].placed and b_cmd.die in state.players[1].placed
    fresh = Play("tiefenthal", seed="plan-1")
    to_planning(fresh)
    fresh.do(b_cmd, 1)
    assert play.game.view(state, None) == fresh.game.view(fresh.record.state, None)
    assert not can_undo(play.record, 0)  # nothing of A's left to take back
    assert can_undo(play.record, 1)
    play.do(Undo(seat=1), 1)
    assert b_cmd.die not in play.record.state.players[1].placed


def test_finishing_the_plan_is_final_and_a_second_undo_is_refused() -> None:
    play = Play("tiefenthal", seed="plan-2")
    to_planning(play)
    place(play, 0)
    place(play, 1)
    finish = [c for c in play.game.legal_commands(play.record.state, 0) if c.type == "FinishPlanning"][0]
    play.do(finish, 0)
    assert not can_undo(play.record, 0)  # done planning: the plan is given
    assert can_undo(play.record, 1)  # B's own die is still B's to take back
    try:
        play.do(Undo(seat=0), 0)
    except IllegalMove as refused:
        assert refused.code == "nothing_to_undo"
    else:
        raise AssertionError("an undo past FinishPlanning was accepted")
