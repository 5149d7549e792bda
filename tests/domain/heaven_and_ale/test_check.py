"""ENGINES.md rule 1 for Heaven & Ale: the fast enumerator of ``legal_commands`` and ``actions.check`` agree.

Heaven & Ale keeps its fast candidate enumeration (legal.py walks the option lists of rules.py) instead of
filtering a superset through ``check``; this proves the two are the same set: at every decision of seeded
random games, every enumerated command of every seat passes ``check``, and seeded random commands built
from the game's whole vocabulary (plus mutations of the legal ones) pass ``check`` exactly when they are
enumerated. ``decide`` raises what ``check`` returns.
"""

from __future__ import annotations

import random

import pytest

from domain.core import Command, RuleError
from domain.core.rng import rng_for, seed_from_text
from domain.heaven_and_ale import GAME, delivery
from domain.heaven_and_ale import commands as cmd
from domain.heaven_and_ale.actions import check
from domain.heaven_and_ale.board import START_SLOTS
from domain.heaven_and_ale.garden import SPOT_INDEX, SPOT_NAMES
from domain.heaven_and_ale.privileges import (
    CARD_BARRELS,
    CARD_BREWMASTER,
    CARD_DISCS,
    CARD_DUCATS,
    CARD_RESOURCE,
    SCORING_SPOTS,
)
from domain.heaven_and_ale.production import COLOURS
from domain.heaven_and_ale.state import HeavenAndAleState
from domain.heaven_and_ale.supply import TILE_CODES

CARDS = (CARD_DUCATS, CARD_BREWMASTER, CARD_BARRELS, CARD_RESOURCE, CARD_DISCS, "joker")
TILES = tuple(TILE_CODES) + ("hops-9",)
SPOTS = SPOT_NAMES + ("Z9",)
PIECES = (None, "keg", "bale")


def _random_command(r: random.Random, n: int, acting: list[int]) -> Command:
    """Any command of the game's vocabulary, with field values drawn around their domains (bad ones too);
    mostly from a seat that may act, so that the probes reach the per-command checks."""
    seat = r.choice(acting) if acting and r.random() < 0.85 else r.randrange(n)
    kind = r.randrange(15)
    colour = r.choice((None, *COLOURS, "mud"))
    if kind == 0:
        return cmd.EnterStartingArea(seat=seat, slot=r.choice((*START_SLOTS, "nowhere")), colour=colour)
    if kind == 1:
        return cmd.PlaceStorageTile(seat=seat, tile=r.choice((*delivery.STORAGE_TILES, "nothing")))
    if kind == 2:
        return cmd.Move(seat=seat, space=r.randrange(-1, 30))
    if kind == 3:
        return cmd.BuyTile(seat=seat, tile=r.choice(TILES), spot=r.choice(SPOTS))
    if kind == 4:
        return cmd.TakeDisc(seat=seat, spot=r.choice((*SCORING_SPOTS, "y")), number=r.choice((None, 0, 1, 2, 3, 4, 5, 6)))
    if kind == 5:
        return cmd.ChooseShedTiles(seat=seat, spots=r.sample(SPOTS, r.randrange(4)))
    if kind == 6:
        return cmd.PlacePrivilege(seat=seat, card=r.choice(CARDS), colour=colour)
    if kind == 7:
        return cmd.UseEmergencyCoin(seat=seat, card=r.choice(CARDS))
    if kind == 8:
        return cmd.ResolveStorageTile(seat=seat, side=r.choice(("back", "front")), keg=r.random() < 0.5,
                                      bale=r.random() < 0.5, rental=r.choice(PIECES), area=r.choice((None, 0, 1, 2, 3)),
                                      load=r.randrange(-1, 5))
    if kind == 9:
        return cmd.TakeGoods(seat=seat, kegs=r.randrange(-1, 5), bales=r.randrange(-1, 5), rental=r.choice(PIECES))
    if kind == 10:
        return cmd.UseCarterDie(seat=seat, load=r.randrange(-1, 5))
    simple: list[Command] = [cmd.EndBuying(seat=seat), cmd.ClaimBarrels(seat=seat), cmd.DeclinePrivilege(seat=seat),
                             cmd.Pass(seat=seat)]
    return simple[kind - 11]


def _mutation(r: random.Random, c: Command, n: int, acting: list[int]) -> Command:
    """A legal command with one field changed (the near misses an enumerator would most likely get wrong)."""
    data = c.model_dump()
    fields = [k for k in data if k != "type"]
    key = r.choice(fields)
    value = data[key]
    if isinstance(value, bool):
        data[key] = not value
    elif isinstance(value, int) and key != "seat":
        data[key] = value + r.choice((-2, -1, 1, 2))
    elif key == "seat":
        data[key] = (value + 1) % n
    else:
        data[key] = _other_value(r, c, key)
    return type(c).model_validate(data)


def _other_value(r: random.Random, c: Command, key: str) -> object:
    """Another value for a text field of ``c``, from the field's vocabulary or just outside it."""
    if key == "spots":
        return r.sample(SPOTS, r.randrange(4))
    if key == "spot":
        return r.choice(SPOTS if isinstance(c, cmd.BuyTile) else (*SCORING_SPOTS, "y"))
    vocabulary: dict[str, tuple[object, ...]] = {
        "colour": (None, *COLOURS, "mud"), "slot": (*START_SLOTS, "nowhere"), "card": CARDS, "rental": PIECES,
        "side": ("back", "front"), "number": (None, 0, 1, 2, 3, 4, 5, 6), "area": (None, 0, 1, 2, 3),
        "tile": TILES if isinstance(c, cmd.BuyTile) else (*delivery.STORAGE_TILES, "nothing"),
    }
    return r.choice(vocabulary[key])


def _key(c: Command) -> object:
    # The check accepts a shed's spots in any order; the enumeration lists them in garden order.
    if isinstance(c, cmd.ChooseShedTiles) and all(x in SPOT_INDEX for x in c.spots):
        return ("ChooseShedTiles", c.seat, tuple(sorted(SPOT_INDEX[x] for x in c.spots)))
    return c.model_dump_json()


def _agree(state: HeavenAndAleState, r: random.Random) -> int:
    legal_by_seat = [GAME.legal_commands(state, seat) for seat in range(state.n)]
    for legal in legal_by_seat:
        for c in legal:
            assert check(state, c) is None, (c, check(state, c))
    legal_keys = {_key(c) for legal in legal_by_seat for c in legal}
    everything = [c for legal in legal_by_seat for c in legal]
    acting = GAME.to_act(state)
    probes = [_random_command(r, state.n, acting) for _ in range(30)]
    probes += [_mutation(r, r.choice(everything), state.n, acting) for _ in range(20)] if everything else []
    for c in probes:
        err = check(state, c)
        assert (err is None) == (_key(c) in legal_keys), (c, err)
        if err is not None:
            assert isinstance(err, RuleError)
            with pytest.raises(type(err)):
                GAME.decide(state, c, random.Random(0))
    return len(probes)


@pytest.mark.parametrize(("players", "kegs", "seed"), [(2, False, "a"), (3, True, "b"), (4, True, "c"), (3, False, "d")])
def test_enumerated_commands_are_exactly_the_checked_ones(players: int, kegs: bool, seed: str) -> None:
    secret = seed_from_text(f"ha-check-{seed}")
    r = random.Random(seed)
    events = GAME.setup(GAME.parse_options({"kegs_and_more": kegs, "rounds": 2}), players, rng_for(secret, 0))
    state = GAME.fold(None, events)
    probes = 0
    while not GAME.is_over(state):
        probes += _agree(state, r)
        seat = r.choice(GAME.to_act(state))
        new = GAME.decide(state, r.choice(GAME.legal_commands(state, seat)), rng_for(secret, len(events)))
        for e in new:
            state = GAME.evolve(state, e)
        events.extend(new)
    probes += _agree(state, r)
    assert probes > 100
