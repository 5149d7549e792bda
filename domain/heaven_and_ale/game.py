"""Heaven & Ale (+ Kegs & More): the game's face, the decider the service hosts."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Hashable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from domain.core import BotSupport, Command, Event, Game, Score
from domain.core.capabilities import WHOLE_TURN

from . import delivery
from . import events as ev
from .actions import check, execute, to_act
from .board import ROUNDS_BY_PLAYERS
from .commands import COMMAND_TYPES
from .description import description
from .evolve import evolve
from .flow import Ctx, stock_track
from .legal import legal_commands
from .scoring import breakdown
from .state import OVER, PLACING, PLAYING, HeavenAndAleState
from .view import view
from .view_models import VIEW_MODELS

SEARCH = dataclasses.replace(WHOLE_TURN, determinizations=1, simulations=12)
"""The search bot's settings: each candidate is played to the end of the seat's own turn by the greedy policy
and judged by the search's evaluation (``heuristics.search_evaluate``). Nothing hidden (only the face-down
piles, drawn at the start of a round) changes what happens within one's own turn, so one determinization
says all that more would. Budget: 12 simulations per move (one candidate played to the end of the turn each):
a round over the candidates, the same move whatever the load (``bench/arena.py --calibrate``).

More budget buys nothing here (nothing hidden changes within the turn, so a second round repeats the first):
12 root candidates and 24 simulations scored 32.1 against 12.3 where these settings scored 35.4 against
11.7 (arena, the same 20 seeds, CPU p95 per search move 315 ms against 240 ms); playing on through the
opponent's reply and the seat's next turn (``playout_turns=3``) cost about five times the CPU per game and
scored 23.2 after 5 games (stopped)."""

# RULES_NOTES R1: the start player is drawn at random (the rulebook: "by any method").
RANDOM_START_PLAYER = True
# RULES_NOTES R2: the rulebook's game lengths, plus 1 and 2 rounds as short games for development, tutorials and
# quick browser tests (not a rule of the game).
RULEBOOK_ROUNDS = (3, 4, 6)
SHORT_ROUNDS = (1, 2)


class HeavenAndAleOptions(BaseModel):
    """``rounds`` None = by player count (§3.1: 2p 3, 3p 4, 4p 6; or 1-2 for a short development game);
    ``kegs_and_more`` switches the expansion on."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    # titles and descriptions are what the web client's new-game form shows (GET /games/types: options_schema)
    rounds: int | None = Field(None, title="Rounds", description=(
        "Empty: by player count (3 for two players, 4 for three, 6 for four); 1 or 2 make a short game."))
    kegs_and_more: bool = Field(False, title="Kegs & More expansion", description=(
        "The expansion: take kegs and hay, drive the cart round your delivery board and deliver to taverns."))

    @model_validator(mode="after")
    def _check(self) -> HeavenAndAleOptions:
        if self.rounds is not None and self.rounds not in RULEBOOK_ROUNDS + SHORT_ROUNDS:
            raise ValueError("rounds must be 3, 4 or 6 (or 1 or 2 for a short development game)")
        return self


class HeavenAndAle(Game[HeavenAndAleState]):
    id = "heaven-and-ale"
    title = "Heaven & Ale"
    summary = ("Run a monastery brewery: buy resource and shed tiles around your garden, then score them when the "
               "master brewer's scoring rounds come. Add the Kegs & More expansion in the options: new tiles and "
               "kegs.")
    min_players = 2
    max_players = 4
    Options = HeavenAndAleOptions
    command_types = COMMAND_TYPES
    event_types = ev.EVENT_TYPES
    pass_commands = ("Pass", "EndBuying", "DeclinePrivilege")
    view_models = VIEW_MODELS
    state_type = HeavenAndAleState
    example_options = {"kegs_and_more": True}

    def bot_support(self) -> BotSupport:
        from . import determinize, heuristics

        return BotSupport(determinize.state_from_view, heuristics.evaluate, scale=4.0, search=SEARCH,
                          search_evaluate=heuristics.search_evaluate)

    def progress(self, state: HeavenAndAleState) -> float | None:
        # Rounds played of the game's rounds.
        if self.is_over(state):
            return 1.0
        return max(0, state.round - 1) / max(1, state.rounds)

    def reveals(self, event: Event) -> bool:
        # Chance: the start player, the tiles and monks drawn onto the track, the carter die (Kegs & More).
        return isinstance(event, (ev.GameSetUp, ev.TrackStocked, ev.CarterDiePlaced))

    def setup(self, options: BaseModel, n_seats: int, rng: random.Random) -> list[Event]:
        assert isinstance(options, HeavenAndAleOptions)
        self.check_seats(options, n_seats)
        rounds = options.rounds or ROUNDS_BY_PLAYERS[n_seats]
        start = rng.randrange(n_seats) if RANDOM_START_PLAYER else 0
        first = ev.GameSetUp(players=n_seats, rounds=rounds, kegs_and_more=options.kegs_and_more, start_player=start)
        ctx = Ctx(None, rng)
        ctx.emit(first)
        stock_track(ctx, 1)
        ctx.emit(ev.StartingSpaceTaken(seat=start, slot="first"))
        if options.kegs_and_more:
            for seat in range(n_seats):
                ctx.emit(ev.GoodsTaken(seat=seat, space=-1, kegs=delivery.START_KEGS, bales=delivery.START_BALES))
        return ctx.events

    def decide(self, state: HeavenAndAleState, command: Command, rng: random.Random) -> list[Event]:
        err = check(state, command)
        if err is not None:
            raise err
        ctx = Ctx(state, rng)
        execute(ctx, command)
        return ctx.events

    def is_legal(self, state: HeavenAndAleState, command: Command) -> bool:
        return check(state, command) is None

    def evolve(self, state: HeavenAndAleState | None, event: Event) -> HeavenAndAleState:
        return evolve(state, event)

    def legal_commands(self, state: HeavenAndAleState, seat: int) -> list[Command]:
        return legal_commands(state, seat)

    def to_act(self, state: HeavenAndAleState) -> list[int]:
        return to_act(state)

    def turn_key(self, state: HeavenAndAleState, seat: int) -> Hashable:
        # The rearmost figure moves next (§3.3), so one seat can take two turns in a row: a turn is one
        # move from ``turn_from`` with everything it leads to; each start-space placement is one turn.
        if state.phase == PLAYING:
            return (state.phase, state.round, state.turn_from)
        if state.phase == PLACING:
            return (state.phase, len(state.place_order))
        return (state.phase, state.round)

    def view(self, state: HeavenAndAleState, seat: int | None) -> dict[str, Any]:
        return view(state, seat)

    def is_over(self, state: HeavenAndAleState) -> bool:
        return state.phase == OVER

    def scores(self, state: HeavenAndAleState) -> list[Score]:
        # §3.14 step 6: ties are shared victories, so there is no tiebreak.
        return [Score.of(seat, breakdown(state, seat)) for seat in range(state.n)]

    def description(self, options: BaseModel | None = None) -> dict[str, Any] | None:
        """Track, gardens, production track, barrels and the Kegs & More delivery board, from the data modules."""
        out = description()
        if isinstance(options, HeavenAndAleOptions) and not options.kegs_and_more:
            del out["kegs_and_more"]
        return out

    def clone(self, state: HeavenAndAleState) -> HeavenAndAleState:
        return state.copy()
