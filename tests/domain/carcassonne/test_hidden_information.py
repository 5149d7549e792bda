"""Hidden information: the tiles under hills and the stack's make-up never reach a seat or a spectator."""

from __future__ import annotations

import json
import random

from domain.carcassonne import GAME
from domain.carcassonne.messages import TileBuried, TileDrawn
from domain.carcassonne.state import CarcassonneState
from domain.core import REDACTED
from domain.core.playout import random_playout


def _swap_hidden(state: CarcassonneState) -> CarcassonneState | None:
    """The same public position with a different tile under the first hill (stack adjusted to match)."""
    if not state.buried:
        return None
    alt = GAME.clone(state)
    under = alt.buried[0]
    other = next((t for t in sorted(alt.remaining) if t != under), None)
    if other is None:
        return None
    alt.buried[0] = other
    alt.remaining[other] -= 1
    if not alt.remaining[other]:
        del alt.remaining[other]
    alt.remaining[under] = alt.remaining.get(under, 0) + 1
    return alt


def test_views_do_not_depend_on_hidden_tiles() -> None:
    checked = 0

    def check(state: CarcassonneState, event: object) -> None:
        nonlocal checked
        alt = _swap_hidden(state)
        if alt is None or GAME.is_over(state):
            return
        for seat in (None, *range(state.players)):
            view = GAME.view(state, seat)
            json.dumps(view)
            assert view == GAME.view(alt, seat)
            assert "remaining" not in view and "buried" not in view
        checked += 1

    for i in range(3):
        random_playout(GAME, 2 + i, f"hidden-{i}", {"hills_and_sheep": True}, check=check)
    assert checked > 50


def test_buried_tile_is_redacted_in_every_seat_history() -> None:
    result = random_playout(GAME, 3, "redact", {"hills_and_sheep": True})
    buried = [e for e in result.events if isinstance(e, TileBuried)]
    assert buried, "expected at least one hill"
    for event in buried:
        for seat in (None, 0, 1, 2):
            data = event.redacted(seat)
            assert data["tile"] == REDACTED
            assert not event.visible_to(seat)
    # a drawn tile is seen by its drawer only; every other event is public
    for event in result.events:
        if isinstance(event, TileDrawn):
            assert event.redacted(event.seat)["tile"] == event.tile
            assert all(event.redacted(s)["tile"] == REDACTED for s in (None, 0, 1, 2) if s != event.seat)
        elif not isinstance(event, TileBuried):
            assert event.is_public()


def test_view_shows_what_a_client_needs() -> None:
    result = random_playout(GAME, 2, "view", {"hills_and_sheep": True})
    state = result.state
    view = GAME.view(state, 0)
    assert view["phase"] == "over" and view["tiles_left"] == 0
    assert len(view["board"]) == len(state.placements)
    assert view["scores"] == state.scores
    assert set(view["bag"]) == {"wolf", "sheep_1", "sheep_2", "sheep_3", "sheep_4"}
    assert sum(view["bag"].values()) + sum(len(s["flock"]) for s in view["shepherds"]) == 18
    assert view["seat"] == 0 and GAME.view(state, None).get("seat") is None
    # the unseen tiles merge stack and buried tiles: publicly countable, not the buried identity
    assert view["unseen_tiles"] == {t: state.buried.count(t) for t in sorted(set(state.buried))}


def test_view_in_progress_lists_drawn_tile_and_counts() -> None:
    events = GAME.setup(GAME.parse_options({"hills_and_sheep": True}), 2, random.Random(5))
    state = GAME.fold(None, events)
    view = GAME.view(state, 0)
    assert view["tile"] == state.current_tile and view["turn"] == 0
    assert view["tiles_left"] == 88 and sum(view["unseen_tiles"].values()) == 88
    assert view["supply"][0] == {"followers": 7, "followers_total": 7, "shepherd": True, "abbot": False}
    for other in (None, 1):  # the others count the drawn tile among the unseen ones
        hidden = GAME.view(state, other)
        assert hidden["tile"] == REDACTED and hidden["tiles_left"] == 88
        assert sum(hidden["unseen_tiles"].values()) == 89


def test_only_the_drawer_sees_the_drawn_tile() -> None:
    checked = 0

    def check(state: CarcassonneState, event: object) -> None:
        nonlocal checked
        if state.phase != "place":
            return
        other = next((t for t in sorted(state.remaining) if t != state.current_tile), None)
        if other is None:
            return
        alt = GAME.clone(state)  # the same position, but the drawer holds another tile
        alt.remaining[other] -= 1
        alt.remaining[state.current_tile] = alt.remaining.get(state.current_tile, 0) + 1
        alt.current_tile = other
        for seat in (None, *range(state.players)):
            if seat != state.turn_seat:
                assert GAME.view(state, seat) == GAME.view(alt, seat)
        assert GAME.view(state, state.turn_seat)["tile"] == state.current_tile
        checked += 1

    random_playout(GAME, 3, "drawn", {"hills_and_sheep": True}, check=check)
    assert checked > 50


def test_determinize_depends_only_on_public_information() -> None:
    from domain.carcassonne.heuristics import determinize

    checked = 0

    def check(state: CarcassonneState, event: object) -> None:
        nonlocal checked
        alt = _swap_hidden(state)
        if alt is None:
            return
        a, b = determinize(state, random.Random(9)), determinize(alt, random.Random(9))
        assert a.buried == b.buried and a.remaining == b.remaining
        assert sorted(a.buried) != [] and a.tiles_left() == state.tiles_left()
        assert GAME.view(a, 0) == GAME.view(state, 0)
        checked += 1

    random_playout(GAME, 2, "determinize", {"hills_and_sheep": True}, check=check)
    assert checked > 20
