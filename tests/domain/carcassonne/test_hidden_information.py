"""Hidden information: the tiles under hills and the stack's make-up never reach a seat or a spectator."""

from __future__ import annotations

import json
import random

from domain.carcassonne import GAME
from domain.carcassonne.messages import TileBuried
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
    # every other event is public
    assert all(e.is_public() for e in result.events if not isinstance(e, TileBuried))


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
    view = GAME.view(state, None)
    assert view["tile"] == state.current_tile and view["turn"] == 0
    assert view["tiles_left"] == 88 and sum(view["unseen_tiles"].values()) == 88
    assert view["supply"][0] == {"followers": 7, "followers_total": 7, "shepherd": True, "abbot": False}


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
