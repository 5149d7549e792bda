"""The seat placing the drawn tile sees what each placement would complete (the view's ``completions``), worked
out with the engine's own placement and scoring, so the preview agrees with the move it previews."""

from __future__ import annotations

from domain.carcassonne import GAME
from domain.carcassonne.messages import FeatureScored
from domain.carcassonne.view_models import SeatView

from .helpers import Table


def _at(view: dict, x: int, y: int, rotation: int) -> list[dict]:
    hits = [c["completes"] for c in view["completions"] if (c["x"], c["y"], c["rotation"]) == (x, y, rotation)]
    return hits[0] if hits else []


def test_closing_the_start_city_is_previewed_with_its_points_and_owner() -> None:
    t = Table(["E", "E", "U"], hills_and_sheep=False)
    view = GAME.view(t.state, 0)
    # E turned twice puts its city on the south edge, onto the start tile's city: a two-tile city, nobody's yet
    assert _at(view, 0, 1, 2) == [{"kind": "city", "tiles": 2, "points": 4, "winners": []}]
    # a placement that closes nothing is not listed
    assert all(c["completes"] for c in view["completions"])
    assert not any((c["x"], c["y"]) == (1, 0) for c in view["completions"])
    SeatView.model_validate(view)


def test_the_preview_names_who_scores_and_matches_the_move() -> None:
    t = Table(["U", "E", "E"], hills_and_sheep=False)
    t.turn(1, 0, 0)                # seat 0: the road runs on east of the start tile
    t.turn(1, 1, 0, figure="c0")   # seat 1: a cap above it, its city open to the north, a knight in it
    view = GAME.view(t.state, 0)   # seat 0 draws the last E: turned twice above, it closes seat 1's city
    [preview] = _at(view, 1, 2, 2)
    assert preview == {"kind": "city", "tiles": 2, "points": 4, "winners": [1]}
    events = t.place(1, 2, 2) + t.skip()
    [scored] = [e for e in events if isinstance(e, FeatureScored) and e.completed]
    assert (scored.kind, scored.tiles, scored.points, scored.winners) == ("city", 2, 4, [1])


def test_only_the_seat_placing_gets_completions() -> None:
    t = Table(["E", "E", "U"], hills_and_sheep=False)
    assert GAME.view(t.state, 0)["completions"]
    assert "completions" not in GAME.view(t.state, 1)
    assert "completions" not in GAME.view(t.state, None)
    t.place(0, 1, 2)  # the figure step: nothing to place, nothing previewed
    assert "completions" not in GAME.view(t.state, 0)


def test_the_quick_filter_misses_no_completion_over_seeded_games() -> None:
    """``completions`` tries on a copy only the placements a cheap test lets through: over whole random games it
    finds exactly what trying every placement finds."""
    import random

    from domain.carcassonne import previews
    from domain.carcassonne.board import place_tile, placements
    from domain.core.rng import rng_for, seed_from_text

    def every_placement(state):  # the same, without the filter
        out = []
        for x, y, rotation in placements(state, state.current_tile):
            trial = state.copy()
            done = previews._completed(trial, place_tile(trial, x, y, state.current_tile, rotation))
            if done:
                out.append({"x": x, "y": y, "rotation": rotation, "completes": done})
        return out

    found = 0
    base = {"hills_and_sheep": True, "abbot": True, "stack_size": 30}
    for seed, options in (("filter-a", base), ("filter-b", base), ("filter-river", {**base, "river": True})):
        rng = rng_for(seed_from_text(seed), 0)
        chooser = random.Random(seed)
        state = GAME.fold(None, GAME.setup(GAME.parse_options(options), 2, rng))
        while not GAME.is_over(state):
            if state.phase == "place":
                before = state.copy()
                assert previews.completions(state) == every_placement(state)
                assert state == before  # the trials leave the state as it was
                found += len(every_placement(state))
            seat = GAME.to_act(state)[0]
            command = chooser.choice(GAME.legal_commands(state, seat))
            for event in GAME.decide(state, command, rng):
                state = GAME.evolve(state, event)
    assert found > 10  # the games did complete things
