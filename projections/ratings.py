"""The ratings read model as a pure fold: a scored game's record -> the table the fair-play policy rates
(:func:`table_of`), and the table with the players' ratings before it -> their ratings after it
(:func:`rate_table`), and the result -> each player's profile entry (:func:`player_entries`).
``services.application.ratings`` only reads the ratings before, runs these and stores the results;
:func:`rebuild` folds the scored games in the order they were rated and gives the same ratings.

**The fair-play policy** (README, "Fair play"; openskill's Plackett-Luce model, equal places are draws):

* A seat **away** at the end (the autopilot still playing it, or a bot the table voted in for it) is last for its
  holder's rating, whatever the autopilot scored: it is rated below every other seat (those still away share
  the last place), and only the away holder's rating takes that result.
* The **other seats** (the ones still played by their holders, and those who left: resigned or voted out, last
  already by the game's own places) are rated **among themselves** on their places, as if the away seats had
  not been at the table: nobody gains from an absent opponent. One seat alone is not rated.
* A game the table **ended by vote** before :data:`EARLY_END_LINE` of it was played (the game's ``progress``)
  rates the other seats not at all: an early score says little about who would have won. The away (or
  voted-out) holders are still rated last, against the others sharing first place.
* A **shared place** is a draw in the model, and a shared first place is nobody's win (``wins`` counts sole
  first places of seats still played by their holders).
* A **casual** game (``rated`` false) rates nobody. An identity holding several seats is not updated by the
  game (it still counts as everyone's opponent). A guest plays at the prior rating and is not stored.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from domain.core.lifecycle import GameRecord

MODEL = PlackettLuce()
"""openskill's default model: mu 25, sigma 25/3; the ranking value is the ordinal mu - 3 sigma."""

PROVISIONAL_GAMES = 10
"""Rated games before a rating is established (shown without the provisional mark, listed on leaderboards).
In two-player games against established equals sigma falls from 8.3 to about 5.1 by the tenth game (openskill's
defaults), and a game moves the display rating by about 67 points instead of about 121 in the first three
(``bench/rating_settle.py``)."""
EARLY_END_LINE = 0.5
"""A game ended by vote before this share of it was played (``Game.progress``) rates the players still in
not at all: before half of a game the end-game scoring (Carcassonne's farms and unfinished features, Heaven &
Ale's final shed, Tiefenthal's end bonuses) has not happened and the score says little about the winner."""
DISPLAY_BASE = 1000
DISPLAY_SCALE = 40


def display_rating(mu: float, sigma: float) -> int:
    """The rating people read: 1000 + 40 (mu - 3 sigma), never below 0 (a newcomer reads 1000)."""
    return max(0, round(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 * sigma)))


def is_provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES


@dataclass(frozen=True)
class Row:
    """One identity's rating in one game type."""

    mu: float
    sigma: float
    games: int
    wins: int
    name: str

    def to_dict(self) -> dict[str, Any]:
        return {"mu": self.mu, "sigma": self.sigma, "games": self.games, "wins": self.wins, "name": self.name}

    @classmethod
    def of(cls, raw: Mapping[str, Any], identity: str) -> Row:
        return cls(mu=float(raw["mu"]), sigma=float(raw["sigma"]), games=int(raw.get("games", 0)),
                   wins=int(raw.get("wins", 0)), name=str(raw.get("name") or identity))


@dataclass(frozen=True)
class TableSeat:
    seat: int
    identity: str | None  # player:<id>, bot:<level>, None for a guest
    name: str
    game_place: int  # the game's own place (GameScored.places)
    away: bool  # taken over by the autopilot, or replaced by a bot by vote, at the end
    left: str | None  # resigned / abandoned / idle


@dataclass(frozen=True)
class Table:
    """What the policy rates of one scored game."""

    game_id: str
    game: str
    ts: float
    seats: tuple[TableSeat, ...]
    rated: bool  # false: a casual game
    early: bool  # ended by vote before EARLY_END_LINE


def identity_of(record: GameRecord, seat: int) -> str | None:
    """Who a seat's result is rated for: its player (also when a bot replaced them by vote), else its bot level."""
    info = record.seats[seat]
    if info.player_id:
        return f"player:{info.player_id}"
    if info.bot:
        return f"bot:{info.bot}"
    return None


def _away(record: GameRecord, seat: int) -> bool:
    """A player's seat the autopilot, or a bot voted in by the table, plays at the end (not one that left)."""
    info = record.seats[seat]
    if not info.player_id or info.left_how:
        return False
    return info.autopilot is not None or info.bot is not None


def _early(record: GameRecord) -> bool:
    if record.ended_by != "vote":
        return False
    progress = None if record.state is None else record.game.progress(record.state)
    return progress is None or progress < EARLY_END_LINE  # a game that cannot say is treated as early


def table_of(record: GameRecord, ts: float) -> Table:
    assert record.status == "scored", "only a scored game is rated"
    seats = tuple(TableSeat(seat=s, identity=identity_of(record, s), name=info.name or "",
                            game_place=int(record.places.get(s, len(record.seats))), away=_away(record, s),
                            left=info.left_how)
                  for s, info in enumerate(record.seats))
    return Table(game_id=record.game_id, game=record.game_type, ts=ts, seats=seats, rated=record.rated,
                 early=_early(record))


def competition_ranks(values: Sequence[int]) -> list[int]:
    """1-based places where equal values share a place and the next one skips (1, 1, 3)."""
    return [1 + sum(1 for other in values if other < v) for v in values]


def rated_places(table: Table) -> dict[int, int]:
    """The place of every seat for the ratings: the seats not away by their game places, the away ones below
    all of them, sharing the last place."""
    staying = [s for s in table.seats if not s.away]
    places = dict(zip((s.seat for s in staying), competition_ranks([s.game_place for s in staying])))
    for s in table.seats:
        if s.away:
            places[s.seat] = len(staying) + 1
    return places


def _rate(current: Sequence[tuple[float, float]], ranks: Sequence[int]) -> list[tuple[float, float]]:
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in current]
    rated = MODEL.rate(teams, ranks=list(ranks))
    return [(team[0].mu, team[0].sigma) for team in rated]


def _prior(row: Row | None) -> tuple[float, float]:
    return (row.mu, row.sigma) if row else (MODEL.mu, MODEL.sigma)


def _new_ratings(table: Table, current: Sequence[tuple[float, float]], places: Mapping[int, int]
                 ) -> dict[int, tuple[float, float]]:
    """Seat -> rating after the game, for the seats the policy rates (before the self-play rule)."""
    if not table.rated:
        return {}
    gone = [s for s in table.seats if s.away or (table.early and s.left)]
    others = [s for s in table.seats if s not in gone]
    out: dict[int, tuple[float, float]] = {}
    if len(others) >= 2 and not table.early:  # among themselves, as if the away seats had not been there
        ranks = competition_ranks([places[s.seat] for s in others])
        out.update(zip((s.seat for s in others), _rate([current[s.seat] for s in others], ranks)))
    if gone and others:
        out.update(_rated_last(table, current, places, gone, others))
    return out


def _rated_last(table: Table, current: Sequence[tuple[float, float]], places: Mapping[int, int],
                gone: list[TableSeat], others: list[TableSeat]) -> dict[int, tuple[float, float]]:
    """The away (and, early, the voted-out) holders: rated last against the whole table."""
    order = [1 if table.early and s in others else places[s.seat] for s in table.seats]
    full = _rate([current[s.seat] for s in table.seats], competition_ranks(order))
    return {s.seat: full[s.seat] for s in gone}


def _seat_row(s: TableSeat, places: Mapping[int, int], before: tuple[float, float],
              after: tuple[float, float], updated: bool, won: bool) -> dict[str, Any]:
    row = {"seat": s.seat, "identity": s.identity, "name": s.name, "place": places[s.seat],
           "game_place": s.game_place, "away": s.away, "won": won, "rated": updated,
           "clean": not s.away and s.left not in ("abandoned", "idle"), "before": list(before), "after": list(after)}
    if s.left:
        row["left"] = s.left
    return row


def _sole_winner(table: Table, places: Mapping[int, int]) -> int | None:
    """The seat alone in first place (a shared first place is a draw; a game ended early has no winner)."""
    firsts = [s.seat for s in table.seats if places[s.seat] == 1]
    return firsts[0] if len(firsts) == 1 and not table.early else None


def _standing(row: Row | None, after: tuple[float, float], won: bool, name: str) -> dict[str, Any]:
    return Row(mu=after[0], sigma=after[1], games=(row.games if row else 0) + 1,
               wins=(row.wins if row else 0) + won, name=name).to_dict()


def rate_table(table: Table, known: Mapping[str, Row]) -> dict[str, Any]:
    """The result of one game: per seat its place, away mark, rating before and after; ``standings`` the
    new row of every identity it updated. Pure: the same table and ratings before give the same result."""
    current = [_prior(known.get(s.identity) if s.identity else None) for s in table.seats]
    places = rated_places(table)
    new = _new_ratings(table, current, places)
    counts = Counter(s.identity for s in table.seats if s.identity)  # an identity on two seats is not rated
    winner = _sole_winner(table, places)
    standings: dict[str, dict[str, Any]] = {}
    seats_out: list[dict[str, Any]] = []
    for s in table.seats:
        updated = s.identity is not None and counts[s.identity] == 1 and s.seat in new
        after = new[s.seat] if updated else current[s.seat]
        won = s.seat == winner and not s.away
        seats_out.append(_seat_row(s, places, current[s.seat], after, updated, won))
        if updated and s.identity is not None:
            standings[s.identity] = _standing(known.get(s.identity), after, won, s.name or s.identity)
    return {"game_id": table.game_id, "game": table.game, "ts": table.ts, "rated": table.rated,
            "early": table.early, "seats": seats_out, "standings": standings}


@dataclass(frozen=True)
class PlayerEntry:
    """A rated game as one registered player's profile lists it; ``clean``: it counts as finished at their seat
    for their reliability."""

    player_id: str
    entry: dict[str, Any]
    clean: bool


def player_entries(game_id: str, game: str, result: Mapping[str, Any]) -> list[PlayerEntry]:
    """The profile entry of each registered player of a game's ``result`` (of :func:`rate_table`)."""
    table = [{"name": s["name"], "place": s["place"], **{k: s[k] for k in ("left", "away") if s.get(k)}}
             for s in result["seats"]]
    out: list[PlayerEntry] = []
    for row in result["seats"]:
        identity = row["identity"] or ""
        if not identity.startswith("player:"):
            continue
        entry = {"game_id": game_id, "game": game, "ts": result["ts"], "seat": row["seat"], "place": row["place"],
                 "won": bool(row.get("won")), "away": bool(row.get("away")), "rated": bool(row.get("rated")),
                 **{k: row[k] for k in ("left",) if k in row}, "seats": table,
                 "rating": (row["after"][0] - 3 * row["after"][1]) if identity in result["standings"] else None}
        out.append(PlayerEntry(identity.partition(":")[2], entry, bool(row.get("clean", True))))
    return out


def rebuild(tables: Iterable[Table]) -> dict[str, Row]:
    """Every identity's rating after the games, folded in the order given (the order they were rated in);
    one game type per call."""
    known: dict[str, Row] = {}
    for table in tables:
        result = rate_table(table, known)
        for identity, raw in result["standings"].items():
            known[identity] = Row.of(raw, identity)
    return known
