"""Random games: invariants after every move, replay equals live, legal_commands agrees with decide."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from domain.core import Command, RuleError
from domain.core.playout import random_playout
from domain.core.rng import rng_for, seed_from_text
from domain.heaven_and_ale import GAME, delivery
from domain.heaven_and_ale import commands as c
from domain.heaven_and_ale.board import START_SLOTS
from domain.heaven_and_ale.garden import SHED_NEIGHBOURS, SPOT_NAMES
from domain.heaven_and_ale.privileges import CARDS, SCORING_SPOTS
from domain.heaven_and_ale.production import COLOURS
from domain.heaven_and_ale.state import HAState
from domain.heaven_and_ale.supply import tile_name

from .helpers import check_invariants

CONFIGS = [(n, exp) for exp in (False, True) for n in (2, 3, 4)]


def busy_playout(n: int, seed: str, options: dict[str, Any], check=None) -> tuple[HAState, list]:
    """Like random_playout, but prefers actions to entering the starting area or burning coins (deeper games)."""
    secret = seed_from_text(seed)
    chooser = random.Random(seed)
    events = GAME.setup(GAME.parse_options(options), n, rng_for(secret, 0))
    state = GAME.fold(None, events)
    while not GAME.is_over(state):
        seat = chooser.choice(GAME.to_act(state))
        legal = GAME.legal_commands(state, seat)
        assert legal, f"seat {seat} must act but has no legal command"
        busy = [x for x in legal if x.type not in ("UseEmergencyCoin", "EnterStartingArea", "Pass", "EndBuying")]
        if busy and chooser.random() < 0.85:
            moves = sorted((x for x in busy if isinstance(x, c.Move)), key=lambda x: x.space)
            command = moves[min(len(moves) - 1, int(chooser.expovariate(0.7)))] if moves else chooser.choice(busy)
        else:
            command = chooser.choice(legal)
        new = GAME.decide(state, command, rng_for(secret, len(events)))
        for event in new:
            state = GAME.evolve(state, event)
        events.extend(new)
        if check is not None:
            check(state, new[-1] if new else None)
    return state, events


def _check(state: HAState, event: Any) -> None:
    check_invariants(state)
    assert GAME.is_over(state) or GAME.to_act(state), "nobody to act but the game is not over"


@pytest.mark.soak
def test_soak_random_games(soak) -> None:
    n_games = soak(500, 30)
    for i in range(n_games):
        players, exp = CONFIGS[i % len(CONFIGS)]
        options = {"kegs_and_more": exp}
        seed = f"soak-{i}"
        if i % 2:
            result = random_playout(GAME, players, seed, options, check=_check)
            state, events = result.state, result.events
        else:
            state, events = busy_playout(players, seed, options, check=_check)
        assert GAME.is_over(state)
        assert state.round == state.rounds
        assert all(p.done for p in state.players)
        replayed = GAME.fold(None, events)
        assert replayed == state, f"replay differs from live play in game {i}"
        scores = GAME.scores(state)
        assert len(scores) == players
        for score in scores:
            assert score.total == sum(score.breakdown.values())
            assert (score.total * 2).is_integer()  # half points at most, exact
            assert ("kegs_stored" in score.breakdown) == exp


def candidates(s: HAState, seat: int) -> list[Command]:
    """A broad superset of commands to probe decide with (legal and illegal ones)."""
    out: list[Command] = [c.Move(seat=seat, space=k) for k in range(-1, 29)]
    out += [c.EnterStartingArea(seat=seat, slot=slot, colour=col)
            for slot in START_SLOTS + ("nowhere",) for col in (None,) + COLOURS]
    tiles = sorted({tile_name(code) for code in s.tiles[s.space]} | {"wood-1", "monk-1"})
    out += [c.BuyTile(seat=seat, tile=t, spot=spot) for t in tiles for spot in SPOT_NAMES]
    out += [c.EndBuying(seat=seat), c.ClaimBarrels(seat=seat), c.Pass(seat=seat), c.DeclinePrivilege(seat=seat)]
    out += [c.TakeDisc(seat=seat, spot=spot, number=num) for spot in SCORING_SPOTS for num in (None, 1, 2, 3, 4, 5)]
    if s.sheds_pending:
        ns = [SPOT_NAMES[x] for x in SHED_NEIGHBOURS[s.sheds_pending[0]]]
        out += [c.ChooseShedTiles(seat=seat, spots=list(sub)) for k in range(5) for sub in itertools.combinations(ns, k)]
    out += [c.PlacePrivilege(seat=seat, card=card, colour=col) for card in CARDS for col in (None,) + COLOURS]
    out += [c.UseEmergencyCoin(seat=seat, card=card) for card in CARDS]
    if s.kegs_and_more:
        out += [c.ResolveStorageTile(seat=seat, side=side, keg=k, bale=b, rental=r, area=a, load=ld)
                for side in ("back", "front") for k in (False, True) for b in (False, True)
                for r in (None, "keg", "bale") for a in (None, 1, 2, 3) for ld in (0, 1, 2)]
        out += [c.TakeGoods(seat=seat, kegs=k, bales=b, rental=r) for k in range(3) for b in range(3)
                for r in (None, "keg", "bale")]
        out += [c.UseCarterDie(seat=seat, load=ld) for ld in range(4)]
        out += [c.PlaceStorageTile(seat=seat, tile=t) for t in delivery.STORAGE_TILES + ("bogus",)]
    return out


def _accepted(state: HAState, command: Command) -> bool:
    try:
        GAME.decide(state, command, random.Random(0))
    except RuleError:
        return False
    return True


def test_legal_commands_agree_with_decide() -> None:
    """Every legal command is accepted; every probed command outside the list is refused (one source of truth)."""
    probed = 0
    for i, (players, exp) in enumerate(CONFIGS):
        sample = random.Random(i)

        def probe(state: HAState, event: Any) -> None:
            nonlocal probed
            if GAME.is_over(state) or sample.random() > 0.12:
                return
            before = GAME.clone(state)
            for seat in range(state.n):
                legal = GAME.legal_commands(state, seat)
                assert len(legal) == len(set(map(repr, legal))), "duplicate legal commands"
                for command in legal:
                    assert _accepted(state, command), f"legal but refused: {command!r}"
                for command in candidates(state, seat):
                    assert _accepted(state, command) == (command in legal), f"disagreement on {command!r}"
                probed += 1
            assert state == before, "decide changed the state it was given"

        busy_playout(players, f"agree-{i}", {"kegs_and_more": exp}, check=probe)
    assert probed > 50
