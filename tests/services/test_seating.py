"""The kernel's seating rules (pure): reserved seats, one seat per player, old records unchanged, bot names."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.core import RuleError
from domain.core.lifecycle import ClaimSeat, GameCreated, execute, parse_command
from domain.core.seating import EndInvitation, InviteToSeat, bot_seat_names


class Dice:
    def rng(self, version: int) -> Any:
        return random.Random(version)

    def reveal(self) -> bytes:
        return b"\0" * 32


def create(hot_seat: bool | None, seats: list[dict[str, Any]], creator: str | None = "ann") -> Any:
    data: dict[str, Any] = {"type": "taproom.CreateGame", "game": "counter", "options": {"target": 20},
                            "seats": seats, "seed_commitment": "c", "creator": creator}
    if hot_seat is not None:
        data["hot_seat"] = hot_seat
    return execute(None, "g1", parse_command(None, data), Dice())


def invite(record: Any, seat: int, player: str, by: str = "ann", expires_at: float = 100.0) -> list[str]:
    events, _ = execute(record, "g1", InviteToSeat(for_seat=seat, player_id=player, name=player,
                                                   expires_at=expires_at, by=by), Dice())
    return [e.type for e in events]


def claim(record: Any, seat: int, player: str | None) -> list[str]:
    events, _ = execute(record, "g1", ClaimSeat(seat=seat, name=player or "guest", player_id=player), Dice())
    return [e.type for e in events]


def test_a_reserved_seat_is_refused_to_everyone_but_its_invitee_even_past_the_api() -> None:
    _, record = create(False, [{"name": "Ann", "player_id": "ann"}, {}, {}])
    assert invite(record, 1, "bob") == ["taproom.SeatInvited"]
    for intruder in ("cat", None):  # a player or a guest, with the API's checks raced past
        with pytest.raises(RuleError) as refused:
            claim(record, 1, intruder)
        assert refused.value.code == "seat_reserved"
    assert claim(record, 1, "bob") == ["taproom.SeatClaimed"]
    assert record.seats[1].invitation is None and record.seats[1].player_id == "bob"


def test_an_invitation_ends_only_as_its_reason_allows() -> None:
    _, record = create(False, [{"name": "Ann", "player_id": "ann"}, {}])
    invite(record, 1, "bob", expires_at=100.0)

    def end(reason: str, **kw: Any) -> list[str]:
        events, _ = execute(record, "g1", EndInvitation(for_seat=1, player_id="bob", reason=reason, **kw), Dice())
        return [e.type for e in events]

    for reason, kw, code in [("declined", {"by": "cat"}, "forbidden"), ("withdrawn", {"by": "bob"}, "forbidden"),
                             ("expired", {"now": 99.0}, "illegal_move")]:
        with pytest.raises(RuleError) as refused:
            end(reason, **kw)
        assert refused.value.code == code, reason
    assert end("expired", now=100.0) == ["taproom.InvitationEnded"]
    assert record.seats[1].invitation is None and not record.seats[1].taken
    with pytest.raises(RuleError) as gone:
        end("declined", by="bob")
    assert gone.value.code == "invitation_not_found"


def test_one_seat_each_unless_hot_seat_and_games_from_before_the_rule_keep_theirs() -> None:
    with pytest.raises(RuleError) as refused:
        create(False, [{"name": "Ann", "player_id": "ann"}, {"name": "Ann", "player_id": "ann"}])
    assert refused.value.code == "already_seated"
    _, hot = create(True, [{"name": "Ann", "player_id": "ann"}, {}])
    assert claim(hot, 1, "ann")[0] == "taproom.SeatClaimed"
    _, legacy = create(None, [{"name": "Ann", "player_id": "ann"}, {}], creator=None)
    assert claim(legacy, 1, "ann")[0] == "taproom.SeatClaimed"  # the old behaviour: its record still verifies


def test_a_game_without_creator_or_hot_seat_serializes_as_before() -> None:
    events, _ = create(None, [{"name": "a"}, {"name": "b"}], creator=None)
    dumped = events[0].model_dump(mode="json")
    assert isinstance(events[0], GameCreated) and "creator" not in dumped and "hot_seat" not in dumped
    events, _ = create(False, [{"name": "a"}, {"name": "b"}])
    assert events[0].model_dump(mode="json")["hot_seat"] is False


def test_bot_seat_names_say_the_level_and_differ() -> None:
    names = bot_seat_names([(None, "random"), ("Ann", None), (None, "random"), (None, "search"), ("Max", "greedy")])
    assert names == ["Random bot 1", None, "Random bot 2", "Search bot", "Max (greedy bot)"]
    long = bot_seat_names([("x" * 64, "greedy")])[0]
    assert long is not None and len(long) <= 64 and long.endswith("(greedy bot)")


def test_taking_another_seat_declines_the_players_invitation_so_no_seat_stays_reserved_for_nothing() -> None:
    _, record = create(False, [{"name": "Ann", "player_id": "ann"}, {}, {}])
    invite(record, 1, "bob")
    assert claim(record, 2, "bob") == ["taproom.SeatClaimed", "taproom.InvitationEnded"]
    assert record.seats[1].invitation is None and not record.seats[1].taken
    assert claim(record, 1, "cat")[:2] == ["taproom.SeatClaimed", "taproom.GameStarted"]


def test_an_invitation_is_announced_once_and_its_expiry_job_is_never_released_early(fake_client) -> None:  # type: ignore[no-untyped-def]
    from rq import Queue

    from services.adapters.reactor.deadlines import AsyncPlay
    from services.infrastructure.clock import ShiftedClock
    from services.infrastructure.eventstore import EventStore, Keys
    from services.infrastructure.settings import AsyncSettings

    _, record = create(False, [{"name": "Ann", "player_id": "ann"}, {}])
    invite(record, 1, "bob", expires_at=1_000_000.25)
    play = AsyncPlay(EventStore(fake_client, Keys("t:", 4)), Queue("q", connection=fake_client), AsyncSettings(),
                     ShiftedClock())
    [job_id] = play.on_invitations(record)
    assert play.on_invitations(record) == []  # one job per invitation, however often the reactor looks
    due = play.queue.scheduled_job_registry.get_scheduled_time(job_id).timestamp()
    assert due >= 1_000_000.25  # rq schedules to the second: rounded up, or the kernel would refuse it as early
    assert [n["kind"] for n in play.notifier.recent("bob")] == ["invited"]


def test_a_seat_taken_in_a_race_is_refused_with_the_code_the_api_gives() -> None:
    _, record = create(False, [{"name": "Ann", "player_id": "ann"}, {}, {}])
    claim(record, 1, None)
    with pytest.raises(RuleError) as late:  # a second join that read the lobby before the first landed
        claim(record, 1, "cat")
    assert late.value.code == "seat_taken"
    with pytest.raises(RuleError) as nowhere:
        claim(record, 7, "cat")
    assert nowhere.value.code == "illegal_move"
