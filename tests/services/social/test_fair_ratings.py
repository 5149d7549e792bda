"""The fair-play policy of the ratings (docs/playing.md, "Fair play"): what an absent player, a vote to end early, a vote
to replace and a shared place do to each player's rating; reliability; provisional ratings and leaderboards.

Records are built as the kernel leaves them at the end (``domain.core.record``): a seat the autopilot still plays
has ``autopilot`` set, a seat the table replaced by vote has its ``bot`` and keeps its ``player_id``, a game the
table ended by vote has ``ended_by == "vote"``.
"""

from __future__ import annotations

import fakeredis
import pytest
from openskill.models import PlackettLuce

from domain.core.game import Score
from domain.core.lifecycle import GameRecord, Seat
from projections.ratings import EARLY_END_LINE, PROVISIONAL_GAMES, display_rating, rebuild, table_of
from services.application.ratings import Ratings
from services.infrastructure.eventstore import Keys
from tests.fixture_game import CounterState
from tests.games_under_test import games_under_test

games_under_test()  # registers the counter fixture game (its progress is total / target)
MODEL = PlackettLuce()


def record_of(game_id: str, seats: list[Seat], scores: list[int], places: list[int], *, total: int = 20,
              ended_by: str | None = None) -> GameRecord:
    record = GameRecord(game_id=game_id, game_type="counter", options={}, seats=seats, seed_commitment="x",
                        status="scored")
    record.state = CounterState(players=len(seats), target=20, total=total, points=list(scores))
    record.places = {i: p for i, p in enumerate(places)}
    record.scores = [Score(seat=i, total=float(s)) for i, s in enumerate(scores)]
    record.ended_by = ended_by
    return record


def player(name: str, **kw: object) -> Seat:
    return Seat(name=name, player_id=name, **kw)  # type: ignore[arg-type]


@pytest.fixture
def ratings() -> Ratings:
    return Ratings(fakeredis.FakeRedis(), Keys("t:", 4))


def mu_of(ratings: Ratings, who: str) -> float | None:
    found = ratings.standing("counter", f"player:{who}")
    return None if found is None else found.mu


def fresh(ranks: list[int]) -> list[float]:
    return [team[0].mu for team in MODEL.rate([[MODEL.rating()] for _ in ranks], ranks=ranks)]


def test_a_seat_the_autopilot_won_is_last_for_its_holder_and_the_others_rate_among_themselves(
        ratings: Ratings) -> None:
    # Cy never moved: the autopilot played the seat to the end and scored best.
    record = record_of("g1", [player("ann"), player("bob"), player("cy", autopilot="autopilot")],
                       scores=[10, 5, 30], places=[2, 3, 1])
    result = ratings.rate(record, ts=1.0)
    full = fresh([1, 2, 3])
    among = fresh([1, 2])
    assert mu_of(ratings, "cy") == pytest.approx(full[2])  # last, whatever the autopilot scored
    assert mu_of(ratings, "ann") == pytest.approx(among[0])  # Ann and Bob as if Cy had not been there
    assert mu_of(ratings, "bob") == pytest.approx(among[1])
    cy = ratings.standing("counter", "player:cy")
    assert cy is not None and cy.wins == 0
    ann = ratings.standing("counter", "player:ann")
    assert ann is not None and ann.wins == 1
    by_seat = {s["seat"]: s for s in result["seats"]}
    assert by_seat[2]["away"] and by_seat[2]["place"] == 3 and by_seat[2]["game_place"] == 1
    assert [g["place"] for g in ratings.finished_games("cy")] == [3]


def test_a_two_seat_game_won_by_the_autopilot_rates_only_the_absent_holder(ratings: Ratings) -> None:
    record = record_of("g1", [player("ann"), player("cy", autopilot="autopilot")], scores=[3, 9], places=[2, 1])
    ratings.rate(record, ts=1.0)
    assert mu_of(ratings, "cy") == pytest.approx(fresh([1, 2])[1])
    assert mu_of(ratings, "ann") is None  # nobody to be rated against: unchanged
    assert [g["place"] for g in ratings.finished_games("ann")] == [1]


def test_a_game_ended_by_vote_before_the_line_rates_only_the_absent_holder(ratings: Ratings) -> None:
    early = int(20 * EARLY_END_LINE) - 1  # progress just under the line
    record = record_of("g1", [player("ann"), player("bob"), player("cy", autopilot="autopilot")],
                       scores=[0, 0, 0], places=[1, 1, 1], total=early, ended_by="vote")
    result = ratings.rate(record, ts=1.0)
    assert mu_of(ratings, "ann") is None and mu_of(ratings, "bob") is None  # 0-0-0 is nobody's win
    assert mu_of(ratings, "cy") == pytest.approx(fresh([1, 1, 3])[2])  # the absent one still loses
    assert result["early"] is True
    for who in ("ann", "bob", "cy"):
        standing = ratings.standing("counter", f"player:{who}")
        assert standing is None or standing.wins == 0


def test_a_game_ended_by_vote_after_the_line_rates_the_others_on_their_scores(ratings: Ratings) -> None:
    late = int(20 * EARLY_END_LINE)  # progress at the line: rated
    record = record_of("g1", [player("ann"), player("bob"), player("cy", autopilot="autopilot")],
                       scores=[4, 7, 9], places=[3, 2, 1], total=late, ended_by="vote")
    result = ratings.rate(record, ts=1.0)
    among = fresh([2, 1])
    assert result["early"] is False
    assert mu_of(ratings, "bob") == pytest.approx(among[1]) and mu_of(ratings, "ann") == pytest.approx(among[0])
    assert mu_of(ratings, "cy") == pytest.approx(fresh([2, 1, 3])[2])


def test_a_player_the_table_replaced_by_vote_is_last_and_the_bot_is_not_rated(ratings: Ratings) -> None:
    # VotePassed(replace) about a taken-over seat: the seat is a bot's now, the player keeps the record.
    record = record_of("g1", [player("ann"), player("bob"), player("cy", bot="greedy")],
                       scores=[5, 4, 12], places=[2, 3, 1])
    result = ratings.rate(record, ts=1.0)
    assert mu_of(ratings, "cy") == pytest.approx(fresh([1, 2, 3])[2])
    assert ratings.standing("counter", "bot:greedy") is None
    assert mu_of(ratings, "ann") == pytest.approx(fresh([1, 2])[0])
    assert {s["seat"]: s["away"] for s in result["seats"]} == {0: False, 1: False, 2: True}


def test_a_shared_first_place_is_a_draw_and_nobodys_win(ratings: Ratings) -> None:
    record = record_of("g1", [player("ann"), player("bob"), player("cy")], scores=[8, 8, 2], places=[1, 1, 3])
    ratings.rate(record, ts=1.0)
    draw = fresh([1, 1, 3])
    assert mu_of(ratings, "ann") == pytest.approx(draw[0]) == pytest.approx(mu_of(ratings, "bob"))
    for who in ("ann", "bob"):
        standing = ratings.standing("counter", f"player:{who}")
        assert standing is not None and standing.wins == 0
    profile_wins = [g for g in ratings.finished_games("ann") if g.get("won")]
    assert profile_wins == []


def test_a_seat_reclaimed_before_the_end_is_rated_on_its_score(ratings: Ratings) -> None:
    record = record_of("g1", [player("ann"), player("cy")], scores=[3, 9], places=[2, 1])  # autopilot None now
    ratings.rate(record, ts=1.0)
    assert mu_of(ratings, "cy") == pytest.approx(fresh([2, 1])[1])


def test_reliability_counts_games_finished_without_a_takeover(ratings: Ratings) -> None:
    ratings.rate(record_of("g1", [player("ann"), player("cy", autopilot="autopilot")], [1, 2], [2, 1]), ts=1.0)
    ratings.rate(record_of("g2", [player("ann"), player("cy")], [1, 2], [2, 1]), ts=2.0)
    ratings.rate(record_of("g3", [player("ann"), player("cy", bot="random")], [1, 2], [2, 1]), ts=3.0)
    resigned = player("cy")
    resigned.left, resigned.left_how = 1, "resigned"
    ratings.rate(record_of("g4", [player("ann"), resigned], [1, 2], [1, 2]), ts=4.0)
    ratings.rate(record_of("g4", [player("ann"), resigned], [1, 2], [1, 2]), ts=4.0)  # a re-run counts once
    assert ratings.reliability("ann").to_dict() == {"started": 4, "finished": 4, "percent": 100}
    assert ratings.reliability("cy").to_dict() == {"started": 4, "finished": 2, "percent": 50}
    assert ratings.reliability("nobody").to_dict() == {"started": 0, "finished": 0, "percent": None}


def test_provisional_until_enough_rated_games_and_leaderboards_list_established_players(ratings: Ratings) -> None:
    for n in range(PROVISIONAL_GAMES):
        table = [player("ann"), player("bob")] + ([player("cy")] if n == 0 else [])
        ratings.rate(record_of(f"g{n}", table, [2, 1, 0][:len(table)], [1, 2, 3][:len(table)]), ts=float(n))
        board = [s.identity for s in ratings.leaderboard("counter")]
        assert board == ([] if n < PROVISIONAL_GAMES - 1 else ["player:ann", "player:bob"])
    ann, cy = ratings.standing("counter", "player:ann"), ratings.standing("counter", "player:cy")
    assert ann is not None and not ann.provisional and ann.games == PROVISIONAL_GAMES
    assert cy is not None and cy.provisional and ratings.rank("counter", "player:cy") is None
    assert ratings.rank("counter", "player:ann") == 1
    assert cy.to_dict()["display"] == display_rating(cy.mu, cy.sigma) and cy.to_dict()["provisional"] is True


def test_the_display_scale_starts_at_1000_and_is_never_negative() -> None:
    assert display_rating(25.0, 25 / 3) == 1000
    assert display_rating(0.0, 20.0) == 0


def test_an_unrated_game_changes_nobodys_rating_or_reliability_counts_it(ratings: Ratings) -> None:
    record = record_of("t1", [player("ann"), player("bob")], [3, 1], [1, 2])
    record.rated = False
    result = ratings.rate(record, ts=1.0)
    assert result["standings"] == {} and result["rated"] is False
    assert mu_of(ratings, "ann") is None
    assert ratings.reliability("ann").started == 1  # it was still a game played to the end


def test_a_rebuild_from_the_games_in_order_gives_the_stored_ratings(ratings: Ratings) -> None:
    records = [
        record_of("g1", [player("ann"), player("bob"), player("cy", autopilot="autopilot")], [1, 2, 3], [3, 2, 1]),
        record_of("g2", [player("ann"), player("bob")], [5, 5], [1, 1]),
        record_of("g3", [player("bob"), player("cy"), player("ann", bot="greedy")], [9, 1, 4], [1, 3, 2],
                  total=3, ended_by="vote"),
        record_of("g4", [player("cy"), player("ann")], [2, 1], [1, 2]),
    ]
    for n, record in enumerate(records):
        ratings.rate(record, ts=float(n))
    rebuilt = rebuild([table_of(record, float(n)) for n, record in enumerate(records)])
    for identity, row in rebuilt.items():
        stored = ratings.standing("counter", identity)
        assert stored is not None
        assert (stored.mu, stored.sigma, stored.games, stored.wins) == (row.mu, row.sigma, row.games, row.wins)
    assert set(rebuilt) == {"player:ann", "player:bob", "player:cy"}


# -- the same cases through the kernel: the record a real vote leaves --------------------------------------------

def kernel_game(vote: str) -> GameRecord:
    """Three players on the counter (target 20); seat 2 times out once and is taken over at once."""
    from domain.core.lifecycle import execute, parse_command
    from tests.services.async_play.test_kernel import Dice

    command = parse_command(None, {"type": "taproom.CreateGame", "game": "counter", "options": {"target": 20},
                                   "seats": [{"name": n, "player_id": n} for n in ("ann", "bob", "cy")],
                                   "seed_commitment": "c",
                                   "pace": {"per_move_seconds": 3600, "takeover_after": 1, "takeover_vote": vote}})
    _, record = execute(None, "k1", command, Dice())
    return record


def kernel_run(record: GameRecord, command: object) -> None:
    from domain.core.lifecycle import execute
    from tests.services.async_play.test_kernel import Dice

    execute(record, "k1", command, Dice())  # type: ignore[arg-type]


def play_until_vote(record: GameRecord, total: int, vote: str) -> None:
    from domain.core.lifecycle import ScoreGame, TimeOut, Vote
    from tests.fixture_game import Add

    while record.state.total < total:
        seat = record.to_act()[0]
        if seat == 2:
            kernel_run(record, TimeOut(for_seat=2, at_version=record.version, move={"type": "Add", "amount": 3}))
        else:
            kernel_run(record, Add(seat=seat, amount=1))
    kernel_run(record, Vote(seat=0, about_seat=2, choice=vote))
    kernel_run(record, Vote(seat=1, about_seat=2, choice=vote))
    if vote == "replace":  # a bot plays the seat to the end
        while record.status == "active":
            seat = record.to_act()[0]
            kernel_run(record, Add(seat=seat, amount=3) if seat == 2 else Add(seat=seat, amount=1))
    assert record.status == "ended"
    kernel_run(record, ScoreGame())


def test_through_the_kernel_an_early_vote_to_end_rates_only_the_absent_holder(ratings: Ratings) -> None:
    record = kernel_game("end")
    play_until_vote(record, 6, "end")
    assert record.ended_by == "vote" and record.seats[2].autopilot is not None
    result = ratings.rate(record, ts=1.0)
    assert result["early"] is True
    assert mu_of(ratings, "ann") is None and mu_of(ratings, "bob") is None
    cy = mu_of(ratings, "cy")
    assert cy is not None and cy < 25  # last, although the autopilot added the most


def test_through_the_kernel_a_late_vote_to_end_rates_the_others_among_themselves(ratings: Ratings) -> None:
    record = kernel_game("end")
    play_until_vote(record, 12, "end")
    result = ratings.rate(record, ts=1.0)
    assert result["early"] is False
    assert {s["name"]: s["place"] for s in result["seats"]}["cy"] == 3
    assert mu_of(ratings, "ann") is not None and mu_of(ratings, "bob") is not None


def test_through_the_kernel_a_vote_to_replace_leaves_the_holder_last(ratings: Ratings) -> None:
    record = kernel_game("replace")
    play_until_vote(record, 6, "replace")
    assert record.ended_by is None and record.seats[2].bot is not None and record.seats[2].player_id == "cy"
    result = ratings.rate(record, ts=1.0)
    by_name = {s["name"]: s for s in result["seats"]}
    assert by_name["cy"]["away"] and by_name["cy"]["place"] == 3
    assert ratings.reliability("cy").percent == 0 and ratings.reliability("ann").percent == 100
