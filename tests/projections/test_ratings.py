"""The ratings' fold down to the players' profile entries: pure, no Redis."""

from __future__ import annotations

from projections.ratings import Table, TableSeat, player_entries, rate_table


def test_each_registered_player_gets_one_profile_entry_from_a_rated_game():
    seats = (TableSeat(0, "player:ann", "Ann", 1, away=False, left=None),
             TableSeat(1, "bot:greedy", "Greedy bot", 2, away=False, left=None),
             TableSeat(2, "player:bob", "Bob", 3, away=True, left=None))
    result = rate_table(Table("g1", "counter", 50.0, seats, rated=True, early=False), {})
    entries = {e.player_id: e for e in player_entries("g1", "counter", result)}
    assert set(entries) == {"ann", "bob"}  # a bot has no profile
    ann, bob = entries["ann"], entries["bob"]
    assert ann.clean and not bob.clean  # away at the end: not finished at the seat
    assert (ann.entry["place"], ann.entry["won"], bob.entry["away"]) == (1, True, True)
    assert ann.entry["seats"] == [{"name": "Ann", "place": 1}, {"name": "Greedy bot", "place": 2},
                                  {"name": "Bob", "place": 3, "away": True}]
    assert ann.entry["rating"] == result["standings"]["player:ann"]["mu"] - 3 * result["standings"]["player:ann"]["sigma"]
    assert player_entries("g1", "counter", result) == player_entries("g1", "counter", result)  # pure
