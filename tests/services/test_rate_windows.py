"""The rate limiter's windows (``services/adapters/api/ratelimit.lua``): sliding window counters checked and counted in
one step per request, with the clock passed in so every window is exact (no sleeping, no timing).

Runs on fakeredis and the real server (the counters live on one server: rq's, even with a clustered store).
"""

from __future__ import annotations

import pytest
import redis

from services.adapters.api.errors import ApiError
from services.adapters.api.ratelimit import SCRIPT_SHA, check, rates_for
from services.infrastructure.eventstore import Keys
from services.infrastructure.settings import Settings

T0 = 1_700_000_000.0  # seconds


def _settings(**rates: str) -> Settings:
    return Settings(redis_url=None, **rates)


@pytest.fixture(params=["fake", "real"])
def counters(request, prefix):
    if request.param == "fake":
        yield request.getfixturevalue("fake_client")
        return
    from .conftest import cleanup, real_redis

    real = real_redis()
    try:
        yield real
    finally:
        cleanup(real, prefix)


def _rates(prefix: str, hits: list[tuple[str, str]], **settings: str):
    return rates_for(Keys(prefix), _settings(**settings), hits)


def refused(client: redis.Redis, rates, now: float) -> int | None:
    """None when counted, else the Retry-After (s) of the 429."""
    try:
        check(client, rates, now)
    except ApiError as exc:
        assert exc.code == "rate_limited" and exc.status == 429
        assert exc.headers is not None
        return int(exc.headers["Retry-After"])
    return None


def test_a_window_admits_its_amount_then_refuses_until_the_previous_count_slides_out(counters, prefix):
    rates = _rates(prefix, [("rate_limit_command", "player:p1")], rate_limit_command="3/minute")
    assert [refused(counters, rates, T0 + i) for i in range(3)] == [None, None, None]
    assert refused(counters, rates, T0 + 10) == 51  # the window ends at T0 + 60: its 3 weigh < 3 just after
    # the next window: the previous window's 3 weigh what is left of this one, (60 - elapsed) / 60
    assert refused(counters, rates, T0 + 61) is None  # floor(3 * 59/60) = 2, + 1 = 3: fits
    assert refused(counters, rates, T0 + 62) is not None  # 2 + 1 counted + 1 = 4
    assert refused(counters, rates, T0 + 80) is not None  # floor(3 * 40/60) = 2 + 1 + 1 = 4
    assert refused(counters, rates, T0 + 100) is None  # floor(3 * 20/60) = 1 + 1 + 1 = 3
    assert refused(counters, rates, T0 + 101) is None  # floor(3 * 19/60) = 0 + 2 + 1 = 3
    assert refused(counters, rates, T0 + 102) is not None  # 0 + 3 + 1


def test_retry_after_says_when_one_more_fits(counters, prefix):
    rates = _rates(prefix, [("rate_limit_command", "player:p1")], rate_limit_command="2/minute")
    assert refused(counters, rates, T0) is None
    assert refused(counters, rates, T0 + 1) is None
    assert refused(counters, rates, T0 + 30) == 31  # from T0 + 60 the 2 become the previous window, weighing < 2
    assert refused(counters, rates, T0 + 60.5) is None  # floor(2 * 59.5/60) = 1, + 1 = 2
    retry = refused(counters, rates, T0 + 61)  # 1 + 1 + 1: one of the previous 2 slides out at T0 + 90
    assert retry == 30
    assert refused(counters, rates, T0 + 61 + retry - 1) is not None
    assert refused(counters, rates, T0 + 61 + retry) is None


def test_two_idle_windows_forget_everything(counters, prefix):
    rates = _rates(prefix, [("rate_limit_command", "player:p1")], rate_limit_command="1/second")
    assert refused(counters, rates, T0) is None
    assert refused(counters, rates, T0 + 0.5) == 1
    assert refused(counters, rates, T0 + 2.5) is None  # both windows over
    assert counters.pttl(rates[0].key) > 0  # the counter lapses by itself


def test_all_rates_of_a_request_count_or_none_do(counters, prefix):
    hits = [("rate_limit_address", "addr:1.2.3.4"), ("rate_limit_command", "player:p1")]
    rates = _rates(prefix, hits, rate_limit_address="10/minute", rate_limit_command="1/minute")
    assert refused(counters, rates, T0) is None
    assert refused(counters, rates, T0 + 1) is not None  # the command rate is spent...
    # ...and the refused request did not count against the address: 9 more fit there
    address_only = _rates(prefix, hits[:1], rate_limit_address="10/minute")
    assert [refused(counters, address_only, T0 + 2) for _ in range(9)] == [None] * 9
    assert refused(counters, address_only, T0 + 2) is not None


def test_a_setting_with_several_rates_checks_each(counters, prefix):
    rates = _rates(prefix, [("rate_limit_chat", "player:p1")], rate_limit_chat="2/10second;3/minute")
    assert len(rates) == 2
    assert [refused(counters, rates, T0 + t) for t in (0, 1)] == [None, None]
    assert refused(counters, rates, T0 + 2) is not None  # 2 per 10 s
    assert refused(counters, rates, T0 + 21) is None  # a new 10 s window: the minute has 3
    assert refused(counters, rates, T0 + 41) is not None  # the minute's rate refuses now


def test_callers_and_rules_count_apart(counters, prefix):
    one = _rates(prefix, [("rate_limit_command", "player:p1")], rate_limit_command="1/minute")
    two = _rates(prefix, [("rate_limit_command", "player:p2")], rate_limit_command="1/minute")
    join = _rates(prefix, [("rate_limit_join", "player:p1")], rate_limit_join="1/minute")
    assert [refused(counters, r, T0) for r in (one, two, join)] == [None, None, None]
    assert refused(counters, one, T0) is not None


def test_a_flushed_script_is_loaded_again(counters, prefix):
    rates = _rates(prefix, [("rate_limit_command", "player:p1")], rate_limit_command="2/minute")
    assert refused(counters, rates, T0) is None
    if not isinstance(counters, redis.Redis) or counters.script_exists(SCRIPT_SHA)[0]:
        counters.script_flush()
    assert refused(counters, rates, T0 + 1) is None
    assert refused(counters, rates, T0 + 2) is not None  # the counts survived the flush


def test_minute_counters_stay_out_of_the_aof_and_longer_ones_are_written(tmp_path, prefix):
    """A request of the hot routes must not wait on an fsync for its rate counts (``appendfsync always``
    holds each write's reply until the disk has it): counters of windows up to a minute are neither written
    to the AOF nor replicated; an hour's or a day's are."""
    from .redis_server import RedisServer

    server = RedisServer(tmp_path / "redis").start()
    client = redis.Redis(port=server.port)
    try:
        def aof_size() -> int:
            return int(client.info("persistence")["aof_current_size"])

        short = _rates(prefix, [("rate_limit_address", "addr:1"), ("rate_limit_command", "seat:g:0")],
                       rate_limit_address="600/minute", rate_limit_command="10/10second;120/minute")
        check(client, short, T0)  # loads the script (SCRIPT LOAD is written) and counts
        before = aof_size()
        assert [refused(client, short, T0 + i / 10) for i in range(5)] == [None] * 5
        assert aof_size() == before
        assert client.hget(Keys(prefix).rate_counter(short[0].item.key_for(short[0].rule, "addr:1")), "c") == b"6"
        long = _rates(prefix, [("rate_limit_register", "addr:1")], rate_limit_register="10/hour;50/day")
        assert refused(client, long, T0) is None
        assert aof_size() > before
    finally:
        client.close()
        server.stop()
