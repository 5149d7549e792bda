"""Every way out of a game reaches ``scored`` and the archive, so nothing stays in Redis forever: resigning with
two and with three seats (each title), the table's vote about a seat an untimed game waited for too long (end,
and replace), and the game that ends idle. The service's clock is moved, never waited for."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from domain.catalog import load_games
from services.infrastructure.audit import export_lines, read_record, verify
from services.infrastructure.settings import AsyncSettings, Settings

from .conftest import DAY, Table

load_games()

ARCHIVE_AFTER = 60.0


@pytest.fixture
def settings(settings: Settings, tmp_path: Path) -> Settings:
    return settings.model_copy(update={"archive_after_seconds": ARCHIVE_AFTER, "archive_dir": str(tmp_path)})


@pytest.fixture
def async_settings(async_settings: AsyncSettings, tmp_path: Path) -> AsyncSettings:
    return async_settings.model_copy(update={"public_url": "https://taproom.example"})


def players(*names: str) -> list[dict[str, Any]]:
    return [{"name": name, "player_id": f"p-{name.lower()}"} for name in names]


def notes(table: Table, player: str, kind: str) -> list[dict[str, Any]]:
    return [n for n in table.reactor.async_play.notifier.recent(f"p-{player.lower()}") if n["kind"] == kind]


def send(table: Table, gid: str, seat: int, command: dict[str, Any]) -> Any:
    outcome = table.kernel.send(gid, command, seat=seat)
    table.settle()
    return outcome


def finish_humans(table: Table, gid: str) -> None:
    """Play the human seats' turns (the bots play theirs) until the game is over."""
    for _ in range(200):
        record = table.record(gid)
        if record.status != "active":
            return
        for seat in record.to_act():
            if record.seats[seat].bot is None:
                assert table.add(gid, seat, 3).accepted
    raise AssertionError("the game never ended")


def archived(table: Table, gid: str) -> dict[str, Any]:
    """The game, scored and rated, after its archive delay: left Redis, and its record verifies on its own."""
    record = table.record(gid)
    assert record.status == "scored", record.status
    exported = list(export_lines(table.kernel.store, gid))
    report = verify(read_record(exported))
    assert report.ok and report.seed_ok, report.problems
    table.tick(ARCHIVE_AFTER + 1)
    assert table.kernel.store.archived(gid) is not None
    assert list(export_lines(table.kernel.store, gid)) == exported  # read back from the archive, the same record
    result = table.reactor.ratings.redis.hget(table.kernel.keys.rating_results(record.game_type), gid)
    assert result is not None
    return {"places": record.places, "rating": orjson.loads(result), "record": record}


def test_resigning_a_two_player_untimed_game_ends_it_and_the_resigner_is_last(table: Table) -> None:
    gid = table.create(players("Ann", "Ben"))
    table.add(gid, 0, 3)  # Ann leads
    assert send(table, gid, 0, {"type": "taproom.Resign"}).accepted
    done = archived(table, gid)
    assert done["places"] == {1: 1, 0: 2}
    seats = {row["seat"]: row for row in done["rating"]["seats"]}
    assert seats[0]["left"] == "resigned" and seats[0]["place"] == 2 and "left" not in seats[1]
    told = notes(table, "Ben", "left")
    assert len(told) == 1 and told[0]["name"] == "Ann" and told[0]["how"] == "resigned" and told[0]["bot"] is None
    assert notes(table, "Ann", "left") == []  # the one who left is not told of it
    assert notes(table, "Ann", "replaced") == []
    profile = table.reactor.ratings.finished_games("p-ann")
    assert profile[0]["left"] == "resigned" and profile[0]["place"] == 2


def test_resigning_out_of_turn_with_three_seats_lets_a_bot_play_it_out(table: Table) -> None:
    gid = table.create(players("Ann", "Ben", "Cat"))
    assert table.record(gid).to_act() == [0]
    assert send(table, gid, 2, {"type": "taproom.Resign"}).accepted  # Cat, while it is Ann's turn
    seat = table.record(gid).seats[2]
    assert seat.bot == "random" and seat.left_how == "resigned"
    finish_humans(table, gid)
    bot_moves = [e for e in table.events(gid, "Added") if e["seat"] == 2]
    assert bot_moves, "the bot played the resigned seat"
    done = archived(table, gid)
    assert done["places"][2] == 3


def test_an_absent_seat_is_warned_then_voted_out_and_the_game_ends_with_it_last(table: Table) -> None:
    gid = table.create(players("Ann", "Ben", "Cat"))
    table.tick(10 * DAY)
    assert notes(table, "Ann", "absence_warning") == []
    table.tick(1 * DAY + 1)  # three days before the vote opens
    warned = notes(table, "Ann", "absence_warning")
    assert len(warned) == 1 and warned[0]["url"] == f"https://taproom.example/#/game/{gid}"
    assert not table.record(gid).seats[0].absent
    table.tick(3 * DAY)
    record = table.record(gid)
    assert record.seats[0].absent and notes(table, "Ann", "absent")
    assert len(notes(table, "Ben", "absent_vote")) == 1 and len(notes(table, "Cat", "absent_vote")) == 1
    assert send(table, gid, 1, {"type": "taproom.Vote", "about_seat": 0, "choice": "end"}).accepted
    assert send(table, gid, 2, {"type": "taproom.Vote", "about_seat": 0, "choice": "end"}).accepted
    done = archived(table, gid)
    assert done["places"][0] == 3 and done["record"].seats[0].left_how == "abandoned"
    assert [n["how"] for n in notes(table, "Ben", "left")] == ["abandoned"]


def test_the_table_gives_an_absent_seat_to_a_bot_and_plays_on(table: Table) -> None:
    gid = table.create(players("Ann", "Ben", "Cat"))
    table.tick(14 * DAY + 1)
    assert table.record(gid).seats[0].absent
    send(table, gid, 1, {"type": "taproom.Vote", "about_seat": 0, "choice": "replace"})
    send(table, gid, 2, {"type": "taproom.Vote", "about_seat": 0, "choice": "replace"})
    assert table.record(gid).seats[0].bot == "random"
    assert notes(table, "Ann", "replaced")  # told their seat was given away
    finish_humans(table, gid)
    assert archived(table, gid)["places"][0] == 3


def test_a_move_of_the_absent_player_stops_the_vote(table: Table) -> None:
    gid = table.create(players("Ann", "Ben"))
    table.tick(14 * DAY + 1)
    assert table.record(gid).seats[0].absent
    table.add(gid, 0, 1)
    record = table.record(gid)
    assert not record.seats[0].absent and record.status == "active"


def test_an_untimed_game_nobody_moves_in_ends_by_itself_and_is_archived(table: Table) -> None:
    gid = table.create(players("Ann", "Ben"))
    table.add(gid, 0, 3)  # then Ben never moves again
    table.tick(59 * DAY)
    assert table.record(gid).status == "active" and table.record(gid).seats[1].absent
    table.tick(1 * DAY + 1)
    assert "taproom.EndIdleGame" not in table.types(gid)  # commands are not events; the events say it
    assert table.types(gid)[-4:-2] == ["taproom.SeatLeft", "taproom.GameEnded"]
    assert archived(table, gid)["places"] == {0: 1, 1: 2}


def test_a_timed_game_is_never_marked_absent(table: Table) -> None:
    gid = table.create(players("Ann", "Ben"), pace={"bank_seconds": 90 * DAY})
    table.tick(20 * DAY)
    assert not table.record(gid).seats[0].absent and table.record(gid).status == "active"


TITLES = ["carcassonne", "heaven-and-ale", "tiefenthal"]


def create_title(table: Table, game: str, seats: list[dict[str, Any]]) -> str:
    import uuid

    gid = uuid.uuid4().hex[:10]
    outcome = table.kernel.send(gid, {"type": "taproom.CreateGame", "game": game, "options": {}, "seats": seats,
                                      "seed_commitment": ""}, dev_seed=f"resign-{game}")
    assert outcome.accepted, outcome
    table.settle()
    return gid


@pytest.mark.parametrize("game", TITLES)
def test_resigning_each_title_with_two_seats_scores_the_game_there_and_then(table: Table, game: str) -> None:
    gid = create_title(table, game, players("Ann", "Ben"))
    waiting = table.record(gid).to_act()[0]
    other = 1 - waiting  # out of turn
    assert send(table, gid, other, {"type": "taproom.Resign"}).accepted
    done = archived(table, gid)
    assert done["places"] == {waiting: 1, other: 2}
    assert len(done["record"].scores) == 2  # the game's own scores, as they stood


@pytest.mark.slow
@pytest.mark.parametrize("client", ["fake"], indirect=True)  # a whole game of bots: once, in-process
@pytest.mark.parametrize("game", TITLES)
def test_resigning_each_title_with_three_seats_lets_a_bot_play_it_to_the_end(table: Table, game: str) -> None:
    gid = create_title(table, game, [*players("Ann"), {"name": "B1", "bot": "random"}, {"name": "B2", "bot": "random"}])
    assert send(table, gid, 0, {"type": "taproom.Resign"}).accepted
    record = table.record(gid)
    assert record.status == "scored", "the bots played the game to its end"
    assert record.seats[0].bot == "random" and record.seats[0].left_how == "resigned"
    assert record.game.is_over(record.state)  # played out, not cut short
    assert archived(table, gid)["places"][0] == 3


def test_a_simultaneous_phase_marks_every_overdue_seat_at_once_and_they_end_together(table: Table) -> None:
    """Tiefenthal plans at once: both seats wait, both are marked absent by one command, and the idle end
    places the two who left together by their scores."""
    gid = create_title(table, "tiefenthal", players("Ann", "Ben"))
    assert table.record(gid).to_act() == [0, 1]
    table.tick(14 * DAY + 1)
    record = table.record(gid)
    assert record.seats[0].absent and record.seats[1].absent
    assert table.types(gid).count("taproom.SeatAbsent") == 2
    table.tick(46 * DAY)
    done = archived(table, gid)
    assert [s.left for s in done["record"].seats] == [1, 1]  # one moment of leaving
    assert sorted(done["places"].values()) in ([1, 2], [1, 1])


def test_an_untimed_game_keeps_at_most_three_absence_jobs_per_seat_and_none_once_over(table: Table) -> None:
    from rq.registry import ScheduledJobRegistry

    def absence_jobs(gid: str) -> list[str]:
        ids = ScheduledJobRegistry(queue=table.queue).get_job_ids()
        return sorted(j for j in ids if gid in j and j.split("-")[0] in ("absentwarn", "absent", "idle"))

    gid = table.create(players("Ann", "Ben"))
    for _ in range(3):  # six turns begin and end: each moves its seat's jobs, none piles up
        table.add(gid, 0, 1)
        table.add(gid, 1, 1)
    assert len(absence_jobs(gid)) == 6  # warning, vote and idle end for each of the two seats
    assert send(table, gid, 1, {"type": "taproom.Resign"}).accepted
    assert table.record(gid).status == "scored" and absence_jobs(gid) == []


def test_the_messages_about_leaving_say_it_in_words_with_the_games_page() -> None:
    from services.application.notifications.mail import describe, game_link

    assert game_link(AsyncSettings(public_url="https://t.example/"), "g1") == "https://t.example/#/game/g1"
    title, line = describe("absence_warning", {"game_id": "g1", "idle_seconds": 11 * DAY, "vote_in_seconds": 3 * DAY})
    assert title == "Your game is waiting for you" and "for 11 days" in line and "within 3 days" in line
    assert "vote to end the game (you placed last)" in describe("absent", {"game_id": "g1", "idle_seconds": 14 * DAY})[1]
    assert describe("left", {"game_id": "g1", "name": "Ann", "how": "resigned", "bot": None}) == (
        "Ann resigned", "Ann resigned in game g1; the game is over.")
    assert describe("left", {"game_id": "g1", "name": "Ben", "how": "abandoned", "bot": "random"})[1] == \
        "Ben left the game in game g1; a bot plays their seat to the end."
    assert describe("absent_vote", {"game_id": "g1", "name": "Ann", "idle_seconds": 14 * DAY})[0] == "A player is away"


def idle_sweep(table: Table) -> list[str]:
    """The watchdog's round (the reactor runs it every ``watchdog_interval_seconds``), then the jobs it enqueued."""
    found = table.reactor.sweep()
    table.settle()
    return [job for job in found if job.startswith("idleend-")]


GUESTS = [{"name": "Ann"}, {"name": "Ben"}]  # seats held by seat token: no registered player, so no turn clock


def test_a_guest_game_against_a_bot_nobody_moves_in_ends_by_itself_and_is_archived(table: Table) -> None:
    gid = table.create([{"name": "Ann"}, {"name": "Bot", "bot": "random"}])
    table.add(gid, 0, 3)  # the bot answers, then Ann never comes back
    assert table.record(gid).to_act() == [0]
    table.tick(60 * DAY - 10)
    assert idle_sweep(table) == [] and table.record(gid).status == "active"
    table.tick(11)
    assert len(idle_sweep(table)) == 1
    assert table.types(gid)[-4:-2] == ["taproom.SeatLeft", "taproom.GameEnded"]
    done = archived(table, gid)
    assert done["places"] == {1: 1, 0: 2} and done["record"].seats[0].left_how == "idle"
    assert table.client.zscore(table.kernel.keys.idle_watch(), gid) is None  # nothing of it left in Redis


def test_a_guest_game_that_moved_again_is_not_ended_until_idle_from_its_last_move(table: Table) -> None:
    gid = table.create(GUESTS)
    table.add(gid, 0, 1)
    table.tick(40 * DAY)
    table.add(gid, 1, 1)  # forty days later: the idle time starts again
    table.tick(20 * DAY + 1)
    assert idle_sweep(table) == [] and table.record(gid).status == "active"
    table.tick(40 * DAY)
    assert len(idle_sweep(table)) == 1
    assert table.record(gid).status == "scored"


def test_a_move_between_the_sweep_and_its_job_keeps_the_game(table: Table) -> None:
    gid = table.create(GUESTS)
    table.tick(60 * DAY + 1)
    assert len(table.watchdog.sweep_idle(table.clock.now())) == 1  # the job is queued, not run yet
    table.kernel.add(gid, 0, 1)  # Ann comes back first
    table.settle()  # the job finds a newer version and does nothing
    record = table.record(gid)
    assert record.status == "active" and "taproom.SeatLeft" not in table.types(gid)
    assert idle_sweep(table) == []  # the reactor put the game's new time in the watch
