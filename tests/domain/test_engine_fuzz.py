"""Engine fuzzing: a hypothesis state machine per registered game plays random legal commands and throws
random illegal ones at it (issue 16).

For every game in ``domain/catalog.py`` (no game is named here), with its boolean options drawn at random:

* an illegal command (a legal one with a field changed, given to a seat not to act, to a seat that does not
  exist, or under another command type) is refused with a ``RuleError``, never another exception, and
  ``decide`` never changes the state it is given, whatever it answers;
* after every step: somebody is to act until the end, only they have legal commands, every view is JSON,
  and the game's own invariants hold (``check_invariants`` of ``tests/domain/<package>/helpers.py``).

A seeded sample runs by default (``derandomize``); ``--soak-full`` runs many more examples.
"""

from __future__ import annotations

import importlib
import json
import pickle
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from domain.catalog import GAME_PACKAGES
from domain.core import RuleError, rng_for
from domain.core.game import Game

pytestmark = pytest.mark.soak


def _invariants(package: str) -> Callable[[Any], None] | None:
    """The game's own invariant check, from its test helpers, if it has one."""
    try:
        helpers = importlib.import_module(f"tests.{package}.helpers")
    except ImportError:
        return None
    return getattr(helpers, "check_invariants", None)


PACKAGES = [(package, importlib.import_module(package).GAME) for package in GAME_PACKAGES]


def _options(game: Game) -> st.SearchStrategy[dict[str, bool]]:
    flags = [name for name, field in game.Options.model_fields.items() if field.annotation is bool]
    return st.fixed_dictionaries({name: st.booleans() for name in flags})


def _mutations(data: dict[str, Any], draw: Any) -> dict[str, Any]:
    """``data`` with one field changed to a nearby, extreme or ill-typed value."""
    fields = [k for k in data if k not in ("type", "seat")]
    changed = dict(data)
    if not fields:
        changed["extra"] = 1
        return changed
    name = draw(st.sampled_from(fields))
    value = data[name]
    if isinstance(value, bool):
        options = st.sampled_from([not value, None, 2])
    elif isinstance(value, int):
        options = st.one_of(st.integers(value - 3, value + 3), st.sampled_from([-1, 10**6, -(10**9), None, "1"]))
    elif isinstance(value, str):
        options = st.one_of(st.text(max_size=6), st.sampled_from(["", value * 2, "hidden", 0]))
    elif isinstance(value, list):
        options = st.one_of(st.just(value[:-1]), st.just(value + value[:1]), st.just(list(reversed(value))),
                            st.just([]), st.lists(st.integers(-2, 60), max_size=4))
    else:
        options = st.sampled_from([None, 0, "x", [], {}])
    changed[name] = draw(options)
    return changed


def _holds_together(game: Game, state: Any, players: int, check_invariants: Any) -> None:
    """A running game has someone to act, nobody else has a legal command, and every view serializes."""
    to_act = game.to_act(state)
    if game.is_over(state):
        return
    assert to_act, "nobody to act in a running game"
    for seat in range(players):
        if seat not in to_act:
            assert game.legal_commands(state, seat) == []
        json.dumps(game.view(state, seat))
    json.dumps(game.view(state, None))
    if check_invariants is not None:
        check_invariants(state)


def machine_for(package: str, game: Game) -> type[RuleBasedStateMachine]:
    check_invariants = _invariants(package)

    class EngineMachine(RuleBasedStateMachine):
        state: Any = None

        @initialize(data=st.data())
        def set_up(self, data: Any) -> None:
            options = game.parse_options(data.draw(_options(game), label="options"))
            low, high = game.player_range(options)
            self.players = data.draw(st.integers(low, high), label="players")
            self.secret = data.draw(st.binary(min_size=32, max_size=32), label="seed")
            self.events = list(game.setup(options, self.players, rng_for(self.secret, 0)))
            self.state = game.fold(None, self.events)

        def _running(self) -> bool:
            return self.state is not None and not game.is_over(self.state)

        def _legal(self, data: Any) -> tuple[int, list[Any]]:
            seat = data.draw(st.sampled_from(sorted(game.to_act(self.state))), label="seat")
            return seat, game.legal_commands(self.state, seat)

        def _refused_or_harmless(self, data: dict[str, Any]) -> None:
            """Parse and decide ``data``: a refusal must be a RuleError, and the state must not change."""
            before = pickle.dumps(self.state)
            try:
                command = game.parse_command(data)
                game.decide(self.state, command, rng_for(self.secret, len(self.events)))
            except RuleError:
                pass
            assert pickle.dumps(self.state) == before, f"deciding {data} changed the state"

        @precondition(lambda self: self._running())
        @rule(data=st.data())
        def play_a_legal_command(self, data: Any) -> None:
            seat, legal = self._legal(data)
            assert legal, f"seat {seat} must act but has no legal command"
            command = data.draw(st.sampled_from(legal), label="command")
            new = game.decide(self.state, command, rng_for(self.secret, len(self.events)))
            for event in new:
                self.state = game.evolve(self.state, event)
            self.events += new

        @precondition(lambda self: self._running())
        @rule(data=st.data())
        def send_a_changed_command(self, data: Any) -> None:
            _, legal = self._legal(data)
            command = data.draw(st.sampled_from(legal), label="command")
            self._refused_or_harmless(_mutations(command.model_dump(mode="json"), data.draw))

        @precondition(lambda self: self._running())
        @rule(data=st.data())
        def send_a_command_for_the_wrong_seat(self, data: Any) -> None:
            _, legal = self._legal(data)
            command = data.draw(st.sampled_from(legal), label="command").model_dump(mode="json")
            idle = [s for s in range(self.players) if s not in game.to_act(self.state)]
            wrong = data.draw(st.sampled_from(idle + [self.players, 99, -5]), label="wrong seat")
            before = pickle.dumps(self.state)
            with pytest.raises(RuleError):
                game.decide(self.state, game.parse_command({**command, "seat": wrong}),
                            rng_for(self.secret, len(self.events)))
            assert pickle.dumps(self.state) == before

        @precondition(lambda self: self._running())
        @rule(data=st.data())
        def send_another_command_type(self, data: Any) -> None:
            seat, legal = self._legal(data)
            command = data.draw(st.sampled_from(legal), label="command").model_dump(mode="json")
            names = sorted(game._command_index())
            command["type"] = data.draw(st.sampled_from(names + ["NoSuchCommand"]), label="type")
            self._refused_or_harmless(command)

        @invariant()
        def the_game_holds_together(self) -> None:
            if self.state is not None:
                _holds_together(game, self.state, self.players, check_invariants)

    EngineMachine.__name__ = f"EngineMachine[{game.id}]"
    return EngineMachine


@pytest.mark.parametrize("package,game", PACKAGES, ids=[g.id for _, g in PACKAGES])
def test_random_legal_and_illegal_commands(package: str, game: Game, soak) -> None:
    run_state_machine_as_test(machine_for(package, game), settings=settings(
        max_examples=soak(200, 6), stateful_step_count=soak(400, 60), derandomize=not soak(True, False),
        database=None, deadline=None, suppress_health_check=list(HealthCheck)))


def test_every_game_has_its_own_invariants() -> None:
    """A game without ``check_invariants`` in its test helpers would be fuzzed with the generic checks only."""
    assert [package for package, _ in PACKAGES if _invariants(package) is None] == []

