"""Ratings per player and game with openskill (Plackett-Luce: any number of seats, ties are draws),
leaderboards of established players, each player's finished games (the profile) and reliability.

What a game does to whom is the fair-play policy, a pure fold in :mod:`projections.ratings` (an absent holder
is last, the others rate among themselves, a game ended by vote early rates only the absent, a shared first
place is a draw and nobody's win); this module reads the ratings before a game, runs the fold and stores the
result. Places are the game's own (``GameScored.places``): a player who resigned or abandoned the game is last
there already (``domain.core.leaving``).

A scored game is rated once, by the second step of end-game scoring (the ``rate_game`` job, enqueued by the
reactor when it sees the game scored). Who is rated: a seat bound to a registered player (``player:<id>``, also
when a bot replaced them by vote: the player keeps the record of the game they left, as last); a bot seat
(``bot:<level>``); a guest plays with the default rating and is not stored. A casual game (``rated`` false;
every tutorial is one) is filed in each player's profile and counts for reliability, and rates nobody.

Everything of one game type lives under one hash tag (``{r:<game>}``), so the update is one optimistic
transaction (WATCH the ratings, MULTI the new values, the leaderboard, the game's result and the "rated" mark);
concurrent games finishing at once retry instead of losing an update. The per-player side (finished games,
reliability) is written afterwards from the stored result, in one transaction per player that does nothing when
the game is filed already, so a re-run changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson
import redis

from domain.core.lifecycle import GameRecord
from projections.ratings import (
    DISPLAY_BASE,
    DISPLAY_SCALE,
    EARLY_END_LINE,
    MODEL,
    PROVISIONAL_GAMES,
    Row,
    display_rating,
    identity_of,
    is_provisional,
    player_entries,
    rate_table,
    table_of,
)
from services.infrastructure.eventstore import Keys

__all__ = ["DISPLAY_BASE", "DISPLAY_SCALE", "EARLY_END_LINE", "HISTORY_LIMIT", "MODEL", "PROVISIONAL_GAMES", "Ratings",
           "Reliability", "Standing", "identity_of"]

HISTORY_LIMIT = 1000
"""Finished games kept per player for the profile (the newest)."""


@dataclass(frozen=True)
class Standing:
    identity: str
    name: str
    mu: float
    sigma: float
    games: int
    wins: int

    @property
    def rating(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def display(self) -> int:
        return display_rating(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return is_provisional(self.games)

    def to_dict(self) -> dict[str, Any]:
        kind, _, ident = self.identity.partition(":")
        return {"identity": self.identity, "player_id": ident if kind == "player" else None,
                "bot": ident if kind == "bot" else None, "name": self.name, "mu": self.mu, "sigma": self.sigma,
                "rating": self.rating, "display": self.display, "provisional": self.provisional,
                "games": self.games, "wins": self.wins}


@dataclass(frozen=True)
class Reliability:
    """Of a player's finished games (``started``), those they finished at their seat (``finished``): not taken
    over by the autopilot or a bot at the end, not abandoned or left idle. Resigning is leaving honestly: it
    costs the rating (last place), not reliability."""

    started: int
    finished: int

    @property
    def percent(self) -> int | None:
        return None if not self.started else int(100 * self.finished // self.started)

    def admits(self, minimum: int) -> bool:
        """A player with no finished game yet is admitted (nothing speaks against them)."""
        return self.percent is None or self.percent >= minimum

    def to_dict(self) -> dict[str, Any]:
        return {"started": self.started, "finished": self.finished, "percent": self.percent}


class Ratings:
    def __init__(self, client: redis.Redis, keys: Keys) -> None:
        self.redis = client
        self.keys = keys

    def is_rated(self, game_type: str, game_id: str) -> bool:
        return bool(self.redis.sismember(self.keys.rated_games(game_type), game_id))

    def rate(self, record: GameRecord, ts: float) -> dict[str, Any]:
        """Rate a scored game once; returns the stored result (per seat its place, rating before and after)."""
        table = table_of(record, ts)
        game = record.game_type
        players_key, rated_key, results_key = (self.keys.ratings(game), self.keys.rated_games(game),
                                               self.keys.rating_results(game))
        identities = [s.identity for s in table.seats if s.identity]

        def update(pipe: Any) -> dict[str, Any]:
            stored = pipe.hget(results_key, record.game_id)
            if pipe.sismember(rated_key, record.game_id) and stored:
                return orjson.loads(stored)
            raws = pipe.hmget(players_key, identities) if identities else []
            known = {i: Row.of(orjson.loads(raw), i) for i, raw in zip(identities, raws) if raw}
            result = rate_table(table, known)
            pipe.multi()
            for identity, row in result["standings"].items():
                pipe.hset(players_key, identity, orjson.dumps(row))
                if is_provisional(row["games"]):
                    pipe.zrem(self.keys.leaderboard(game), identity)
                else:
                    pipe.zadd(self.keys.leaderboard(game), {identity: row["mu"] - 3 * row["sigma"]})
            pipe.hset(results_key, record.game_id, orjson.dumps(result))
            pipe.sadd(rated_key, record.game_id)
            return result

        result: dict[str, Any] = self.redis.transaction(update, players_key, rated_key, results_key,
                                                        value_from_callable=True)
        self._record_players(record, result)
        return result

    def _record_players(self, record: GameRecord, result: dict[str, Any]) -> None:
        """The finished game in each registered player's list (their profile) and reliability; idempotent."""
        for filed in player_entries(record.game_id, record.game_type, result):
            self._file(filed.player_id, record.game_id, filed.entry, clean=filed.clean)

    def _file(self, player_id: str, game_id: str, entry: dict[str, Any], clean: bool) -> None:
        results, games, reliability = (self.keys.player_results(player_id), self.keys.player_games(player_id),
                                       self.keys.player_reliability(player_id))

        def write(pipe: Any) -> None:
            if pipe.hexists(results, game_id):
                return  # filed already: a re-run changes nothing
            pipe.multi()
            pipe.hset(results, game_id, orjson.dumps(entry))
            pipe.zadd(games, {game_id: entry["ts"]})
            pipe.zremrangebyrank(games, 0, -HISTORY_LIMIT - 1)
            pipe.hincrby(reliability, "started", 1)
            pipe.hincrby(reliability, "finished", int(clean))

        self.redis.transaction(write, results)

    # -- reading ------------------------------------------------------------------
    def standing(self, game_type: str, identity: str) -> Standing | None:
        raw = self.redis.hget(self.keys.ratings(game_type), identity)
        return _standing(identity, orjson.loads(raw)) if raw else None

    def leaderboard(self, game_type: str, limit: int = 50, offset: int = 0) -> list[Standing]:
        ids: list[bytes] = self.redis.zrevrange(self.keys.leaderboard(game_type), offset, offset + limit - 1)  # type: ignore[assignment]
        if not ids:
            return []
        rows = self.redis.hmget(self.keys.ratings(game_type), ids)
        found = [_standing(i.decode(), orjson.loads(raw)) for i, raw in zip(ids, rows) if raw]
        return [s for s in found if not s.provisional]  # established players only (rows written before, too)

    def rank(self, game_type: str, identity: str) -> int | None:
        found = self.redis.zrevrank(self.keys.leaderboard(game_type), identity)
        return None if found is None else int(found) + 1  # type: ignore[arg-type]

    def reliability(self, player_id: str) -> Reliability:
        raw: dict[bytes, bytes] = self.redis.hgetall(self.keys.player_reliability(player_id))  # type: ignore[assignment]
        return Reliability(started=int(raw.get(b"started", 0)), finished=int(raw.get(b"finished", 0)))

    def finished_games(self, player_id: str, limit: int = HISTORY_LIMIT) -> list[dict[str, Any]]:
        """The player's finished games, newest first."""
        ids: list[bytes] = self.redis.zrevrange(self.keys.player_games(player_id), 0, limit - 1)  # type: ignore[assignment]
        if not ids:
            return []
        rows = self.redis.hmget(self.keys.player_results(player_id), ids)
        return [orjson.loads(raw) for raw in rows if raw]


def _standing(identity: str, row: dict[str, Any]) -> Standing:
    return Standing(identity=identity, name=row.get("name", identity), mu=row["mu"], sigma=row["sigma"],
                    games=row["games"], wins=row["wins"])
