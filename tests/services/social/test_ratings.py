"""Ratings: a seeded series of games gives openskill's own figures; bots are rated; self-play is not."""

from __future__ import annotations

import random

import fakeredis
import pytest
from openskill.models import PlackettLuce

from domain.core.game import Score
from domain.core.lifecycle import GameRecord, Seat
from services.application.ratings import PROVISIONAL_GAMES, Ratings
from services.infrastructure.eventstore import Keys

PLAYERS = [f"p{i}" for i in range(6)]
BOTS = ["random", "greedy"]


def scored(game_id: str, seats: list[Seat], places: list[int]) -> GameRecord:
    record = GameRecord(game_id=game_id, game_type="counter", options={}, seats=seats, seed_commitment="x",
                        status="scored")
    record.places = {i: p for i, p in enumerate(places)}
    record.scores = [Score(seat=i, total=float(-p)) for i, p in enumerate(places)]
    return record


def seat_for(identity: str) -> Seat:
    kind, _, name = identity.partition(":")
    return Seat(name=name, player_id=name) if kind == "player" else Seat(name=f"{name} bot", bot=name)


@pytest.fixture
def ratings() -> Ratings:
    return Ratings(fakeredis.FakeRedis(), Keys("t:", 4))


def test_a_seeded_series_gives_the_librarys_ratings(ratings: Ratings) -> None:
    rng = random.Random(19)
    model = PlackettLuce()
    expected: dict[str, tuple[float, float]] = {}
    wins: dict[str, int] = {}
    for n in range(40):
        pool = [f"player:{p}" for p in PLAYERS] + [f"bot:{b}" for b in BOTS]
        table = rng.sample(pool, rng.randint(2, 4))
        places = [rng.randint(1, len(table)) for _ in table]  # ties included
        ratings.rate(scored(f"g{n}", [seat_for(i) for i in table], places), ts=float(n))
        teams = [[model.rating(*expected.get(i, (model.mu, model.sigma)))] for i in table]
        for identity, team in zip(table, model.rate(teams, ranks=places)):
            expected[identity] = (team[0].mu, team[0].sigma)
        for identity, place in zip(table, places):  # a win is a sole first place (a shared one is a draw)
            wins[identity] = wins.get(identity, 0) + (place == min(places) and places.count(place) == 1)
    for identity, (mu, sigma) in expected.items():
        got = ratings.standing("counter", identity)
        assert got is not None
        assert got.mu == pytest.approx(mu, abs=1e-9) and got.sigma == pytest.approx(sigma, abs=1e-9)
        assert got.wins == wins[identity]
    board = ratings.leaderboard("counter", limit=100)
    established = [i for i in expected if ratings.standing("counter", i).games >= PROVISIONAL_GAMES]  # type: ignore[union-attr]
    assert [s.identity for s in board] == sorted(established, key=lambda i: expected[i][0] - 3 * expected[i][1],
                                                 reverse=True)
    assert {s.identity for s in board} >= {"bot:random", "bot:greedy"}  # bots are rated too
    assert ratings.rank("counter", board[0].identity) == 1


def test_a_game_is_rated_once_and_filed_in_each_profile(ratings: Ratings) -> None:
    record = scored("g1", [seat_for("player:ann"), seat_for("player:bob")], [1, 2])
    first = ratings.rate(record, ts=5.0)
    again = ratings.rate(record, ts=9.0)
    assert first == again
    ann = ratings.standing("counter", "player:ann")
    assert ann is not None and ann.games == 1 and ann.wins == 1 and ann.mu > 25
    games = ratings.finished_games("ann")
    assert [g["game_id"] for g in games] == ["g1"] and games[0]["place"] == 1
    assert games[0]["rating"] == pytest.approx(ann.rating)


def test_an_identity_with_two_seats_is_not_updated_but_counts_as_an_opponent(ratings: Ratings) -> None:
    record = scored("g1", [seat_for("bot:random"), seat_for("bot:random"), seat_for("player:ann")], [1, 2, 3])
    ratings.rate(record, ts=1.0)
    assert ratings.standing("counter", "bot:random") is None
    ann = ratings.standing("counter", "player:ann")
    model = PlackettLuce()
    out = model.rate([[model.rating()], [model.rating()], [model.rating()]], ranks=[1, 2, 3])
    assert ann is not None and ann.mu == pytest.approx(out[2][0].mu)


def test_a_guest_plays_at_the_default_rating_and_is_not_stored(ratings: Ratings) -> None:
    record = scored("g1", [Seat(name="guest"), seat_for("player:ann")], [2, 1])
    result = ratings.rate(record, ts=1.0)
    assert set(result["standings"]) == {"player:ann"}
    assert ratings.standing("counter", "player:ann") is not None
    assert ratings.leaderboard("counter") == []  # one game: provisional, not listed yet


def test_a_casual_game_is_filed_in_the_profile_but_rates_nobody(ratings: Ratings) -> None:
    """``rated`` false (every tutorial too) is the one check that keeps a game out of the ratings."""
    record = scored("t1", [seat_for("player:ann"), seat_for("bot:greedy")], [1, 2])
    record.rated = False
    result = ratings.rate(record, ts=1.0)
    assert result["standings"] == {}
    assert ratings.leaderboard("counter") == [] and ratings.standing("counter", "player:ann") is None
    games = ratings.finished_games("ann")
    assert [g["game_id"] for g in games] == ["t1"] and games[0]["rating"] is None
