"""Ratings per player and game with openskill (Plackett-Luce: any number of seats, ties), leaderboards,
and each player's finished games (the profile).

Places are the game's own (``GameScored.places``): a player who resigned or abandoned the game is last there
already (``domain.core.leaving``), so a resignation counts as last place here with no rule of its own.

A scored game is rated once, by the second step of end-game scoring (the ``rate_game`` job, enqueued by
the reactor when it sees the game scored). Who is rated:

* a seat bound to a registered player: ``player:<player_id>`` (also when a bot replaced them by vote: the
  player keeps the record of the game they left);
* a bot seat: ``bot:<level>``, so a player can see how strong each level is;
* a guest seat (a seat token, no player): plays with the default rating and is not stored.

An identity holding several seats of one game (two bots of one level, a hot-seat table) is not updated
by that game: a game against oneself says nothing of one's strength. It still counts as everyone else's
opponent with its current rating.

A casual game (``rated`` false; every tutorial is one) is filed in each player's profile like any other and
updates nobody's rating: that one check, in :meth:`Ratings.rate`, is all that keeps it out of the ratings.

Everything of one game type lives under one hash tag (``{r:<game>}``), so the update is one optimistic
transaction (WATCH the ratings, MULTI the new values, the leaderboard, the game's result and the "rated"
mark); concurrent games finishing at once retry instead of losing an update. The per-player side (finished
games and their results, for the profile) is written afterwards from the stored result, so a re-run writes
the same values again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import orjson
import redis
from openskill.models import PlackettLuce

from domain.core.lifecycle import GameRecord
from services.infrastructure.eventstore import Keys

MODEL = PlackettLuce()
"""openskill's default model; its defaults: mu 25, sigma 25/3; the shown rating is the ordinal mu - 3 sigma."""
HISTORY_LIMIT = 1000
"""Finished games kept per player for the profile (the newest)."""


def identity_of(record: GameRecord, seat: int) -> str | None:
    """Who a seat's result is rated for (None: a guest, not stored)."""
    info = record.seats[seat]
    if info.player_id:
        return f"player:{info.player_id}"
    if info.bot:
        return f"bot:{info.bot}"
    return None


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

    def to_dict(self) -> dict[str, Any]:
        kind, _, ident = self.identity.partition(":")
        return {"identity": self.identity, "player_id": ident if kind == "player" else None,
                "bot": ident if kind == "bot" else None, "name": self.name, "mu": self.mu, "sigma": self.sigma,
                "rating": self.rating, "games": self.games, "wins": self.wins}


def rate_table(current: Sequence[tuple[str | None, float, float]], places: Sequence[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) per seat from ``current`` (identity, mu, sigma) and the places (1 = first, ties equal)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for _, mu, sigma in current]
    rated = MODEL.rate(teams, ranks=list(places))
    return [(team[0].mu, team[0].sigma) for team in rated]


class Ratings:
    def __init__(self, client: redis.Redis, keys: Keys) -> None:
        self.redis = client
        self.keys = keys

    def is_rated(self, game_type: str, game_id: str) -> bool:
        return bool(self.redis.sismember(self.keys.rated_games(game_type), game_id))

    def rate(self, record: GameRecord, ts: float) -> dict[str, Any]:
        """Rate a scored game once; returns the stored result (identity -> place, rating before and after)."""
        assert record.status == "scored", "only a scored game is rated"
        game = record.game_type
        players_key, rated_key, results_key = (self.keys.ratings(game), self.keys.rated_games(game),
                                               self.keys.rating_results(game))

        def update(pipe: Any) -> dict[str, Any]:
            stored = pipe.hget(results_key, record.game_id)
            if pipe.sismember(rated_key, record.game_id) and stored:
                return orjson.loads(stored)
            result = self._compute(pipe, record, ts)
            pipe.multi()
            for identity, row in result["standings"].items():
                pipe.hset(players_key, identity, orjson.dumps(row))
                pipe.zadd(self.keys.leaderboard(game), {identity: row["mu"] - 3 * row["sigma"]})
            pipe.hset(results_key, record.game_id, orjson.dumps(result))
            pipe.sadd(rated_key, record.game_id)
            return result

        result: dict[str, Any] = self.redis.transaction(update, players_key, rated_key, results_key,
                                                        value_from_callable=True)
        self._record_players(record, result)
        return result

    def _compute(self, pipe: Any, record: GameRecord, ts: float) -> dict[str, Any]:
        seats = range(len(record.seats))
        identities = [identity_of(record, s) for s in seats]
        known = {i: orjson.loads(raw) for i, raw in zip(
            identities, pipe.hmget(self.keys.ratings(record.game_type), [i or "-" for i in identities])) if i and raw}
        current = [_prior(identity, known.get(identity) if identity else None) for identity in identities]
        places = [int(record.places.get(s, len(record.seats))) for s in seats]
        new = rate_table(current, places)
        counts = Counter(identity for identity in identities if identity)  # a player on two seats is not rated
        if not record.rated:  # a casual game (a tutorial is one) says nothing of strength: filed, never rated
            counts = Counter[str]()
        standings: dict[str, dict[str, Any]] = {}
        seats_out = []
        for seat, identity in enumerate(identities):
            before = current[seat][1:]
            after = new[seat] if identity and counts[identity] == 1 else before
            seats_out.append({"seat": seat, "identity": identity, "name": record.seats[seat].name,
                              "place": places[seat], "before": list(before), "after": list(after),
                              **_left(record, seat)})
            if identity and counts[identity] == 1:
                row = known.get(identity) or {"games": 0, "wins": 0}
                standings[identity] = {"mu": after[0], "sigma": after[1], "games": row["games"] + 1,
                                       "wins": row["wins"] + (places[seat] == 1),
                                       "name": record.seats[seat].name or identity}
        return {"game_id": record.game_id, "game": record.game_type, "ts": ts, "seats": seats_out,
                "standings": standings}

    def _record_players(self, record: GameRecord, result: dict[str, Any]) -> None:
        """The finished game in each registered player's list (their profile); idempotent."""
        for row in result["seats"]:
            identity = row["identity"] or ""
            if not identity.startswith("player:"):
                continue
            player_id = identity.partition(":")[2]
            entry = {"game_id": record.game_id, "game": record.game_type, "ts": result["ts"], "seat": row["seat"],
                     "place": row["place"], **{k: row[k] for k in ("left",) if k in row},
                     "seats": [{"name": s["name"], "place": s["place"], **{k: s[k] for k in ("left",) if k in s}}
                               for s in result["seats"]],
                     "rating": (row["after"][0] - 3 * row["after"][1]) if identity in result["standings"] else None}
            pipe = self.redis.pipeline(transaction=True)
            pipe.hset(self.keys.player_results(player_id), record.game_id, orjson.dumps(entry))
            pipe.zadd(self.keys.player_games(player_id), {record.game_id: result["ts"]})
            pipe.zremrangebyrank(self.keys.player_games(player_id), 0, -HISTORY_LIMIT - 1)
            pipe.execute()

    # -- reading ------------------------------------------------------------------
    def standing(self, game_type: str, identity: str) -> Standing | None:
        raw = self.redis.hget(self.keys.ratings(game_type), identity)
        return _standing(identity, orjson.loads(raw)) if raw else None

    def leaderboard(self, game_type: str, limit: int = 50, offset: int = 0) -> list[Standing]:
        ids: list[bytes] = self.redis.zrevrange(self.keys.leaderboard(game_type), offset, offset + limit - 1)  # type: ignore[assignment]
        if not ids:
            return []
        rows = self.redis.hmget(self.keys.ratings(game_type), ids)
        return [_standing(i.decode(), orjson.loads(raw)) for i, raw in zip(ids, rows) if raw]

    def rank(self, game_type: str, identity: str) -> int | None:
        found = self.redis.zrevrank(self.keys.leaderboard(game_type), identity)
        return None if found is None else int(found) + 1  # type: ignore[arg-type]

    def finished_games(self, player_id: str, limit: int = HISTORY_LIMIT) -> list[dict[str, Any]]:
        """The player's finished games, newest first."""
        ids: list[bytes] = self.redis.zrevrange(self.keys.player_games(player_id), 0, limit - 1)  # type: ignore[assignment]
        if not ids:
            return []
        rows = self.redis.hmget(self.keys.player_results(player_id), ids)
        return [orjson.loads(raw) for raw in rows if raw]


def _left(record: GameRecord, seat: int) -> dict[str, Any]:
    """``left``: how the seat's player left the game (resigned, abandoned), only when they did. Their place is
    already the last (the kernel's one rule, ``domain.core.leaving.final_places``): nothing is re-ranked here."""
    how = record.seats[seat].left_how
    return {"left": how} if how else {}


def _standing(identity: str, row: dict[str, Any]) -> Standing:
    return Standing(identity=identity, name=row.get("name", identity), mu=row["mu"], sigma=row["sigma"],
                    games=row["games"], wins=row["wins"])


def _prior(identity: str | None, row: dict[str, Any] | None) -> tuple[str | None, float, float]:
    """A seat's rating before the game: the stored one, else the model's prior."""
    return identity, row["mu"] if row else MODEL.mu, row["sigma"] if row else MODEL.sigma

