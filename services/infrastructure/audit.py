"""Audit: export a game record and verify it.

A record is JSON Lines: a header, every event envelope, every accepted
command with the versions it produced. ``verify`` checks that the record
starts with the creation event and its seed commitment, that versions are
consecutive and the hash chain unbroken, then (once the seed is revealed)
that the seed matches the commitment and that re-running every recorded
command from that seed reproduces every event exactly: the proof that
shuffles were fair. A record of a game still running may be *redacted* for
one seat (``GET /games/{id}/record``): its hidden fields are replaced, so
those events' own hashes cannot be recomputed; their links still are.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import orjson
from pydantic import ValidationError

from domain.core.lifecycle import CreateGame, check_reveal, execute, parse_command
from domain.core.registry import get_game
from domain.core.rng import SeedDice
from services.infrastructure.eventstore import GENESIS_HASH, Envelope, EventStore

FORMAT = "taproom-record/1"
CREATED, ENDED, REVEALED = "taproom.GameCreated", "taproom.GameEnded", "taproom.SeedRevealed"
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


class RecordError(ValueError):
    """The input is not a game record at all (empty, not JSON Lines, not this format)."""


def export_lines(store: EventStore, game_id: str) -> Iterable[bytes]:
    """The complete record (server side and operators: hidden fields included)."""
    envelopes = store.read(game_id)
    commands = store.command_records(game_id)
    yield _header(game_id, len(envelopes), len(commands), complete=True, seat=None)
    for env in envelopes:
        yield orjson.dumps({"kind": "event", **env.model_dump()})
    for cmd in commands:
        yield orjson.dumps({"kind": "command", **cmd})


def record_lines(store: EventStore, game_id: str, seat: int | None) -> list[bytes]:
    """The record as a client may see it: complete once the seed is revealed; before that, every event with
    the fields hidden from ``seat`` redacted, and no commands (a command can name what it hid)."""
    envelopes = store.read(game_id)
    if any(e.type == REVEALED for e in envelopes):
        return list(export_lines(store, game_id))
    lines = [_header(game_id, len(envelopes), 0, complete=False, seat=seat)]
    for env in envelopes:
        shown = env.redacted(seat, game_over=False)
        item: dict[str, Any] = {"kind": "event", **env.model_dump()}
        if shown["payload"] != env.payload:
            item["payload"], item["redacted"] = shown["payload"], True
        lines.append(orjson.dumps(item))
    return lines


def _header(game_id: str, events: int, commands: int, *, complete: bool, seat: int | None) -> bytes:
    return orjson.dumps({"kind": "header", "format": FORMAT, "game_id": game_id, "events": events,
                         "commands": commands, "complete": complete, "redacted_for": None if complete else seat})


@dataclass
class Record:
    header: dict[str, Any]
    envelopes: list[Envelope]
    commands: list[dict[str, Any]]
    redacted: set[int] = field(default_factory=set)  # versions whose hidden fields were replaced


def read_record(lines: Iterable[bytes | str]) -> Record:
    """Parse a record; anything that is not one raises :class:`RecordError` naming the line."""
    header: dict[str, Any] | None = None
    envelopes: list[Envelope] = []
    commands: list[dict[str, Any]] = []
    redacted: set[int] = set()
    for number, line in _numbered(lines):
        try:
            item = orjson.loads(line)
        except orjson.JSONDecodeError:
            raise RecordError(f"line {number} is not JSON: a record is JSON Lines (`taproom export`)") from None
        if not isinstance(item, dict):
            raise RecordError(f"line {number} is not a JSON object")
        kind = item.pop("kind", None)
        if header is None:
            if kind != "header" or item.get("format") != FORMAT:
                raise RecordError(f"line {number} is not a {FORMAT} header: this is not a game record "
                                  "(save one with `taproom export` or GET /games/{id}/record)")
            header = item
        elif kind == "event":
            was_redacted = bool(item.pop("redacted", False))
            try:
                env = Envelope.model_validate(item)
            except ValidationError as exc:
                raise RecordError(f"line {number} is not an event envelope: {_first_error(exc)}") from None
            envelopes.append(env)
            if was_redacted:
                redacted.add(env.version)
        elif kind == "command":
            if not isinstance(item.get("command"), dict) or not isinstance(item.get("from_version"), int):
                raise RecordError(f"line {number} is not a command record (needs command and from_version)")
            commands.append(item)
        else:
            raise RecordError(f"line {number} has kind {kind!r}; a record has header, event and command lines")
    if header is None:
        raise RecordError("the record is empty")
    commands.sort(key=lambda c: c["from_version"])
    return Record(header, envelopes, commands, redacted)


def parse_lines(lines: Iterable[bytes | str]) -> tuple[list[Envelope], list[dict[str, Any]]]:
    record = read_record(lines)
    return record.envelopes, record.commands


def _numbered(lines: Iterable[bytes | str]) -> Iterator[tuple[int, bytes | str]]:
    for number, line in enumerate(lines, start=1):
        if line.strip():
            yield number, line


def _first_error(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = ".".join(str(p) for p in error.get("loc", ())) or "envelope"
    return f"{where}: {error.get('msg')}"


@dataclass
class Report:
    events: int = 0
    commands: int = 0
    complete: bool = True
    redacted_events: int = 0
    chain_ok: bool = False
    seed_revealed: bool = False
    seed_ok: bool | None = None
    replay_ok: bool | None = None
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.chain_ok and not self.problems and self.seed_ok is not False and self.replay_ok is not False

    def to_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "ok": self.ok}


def unreadable(reason: str) -> Report:
    """The report on something that is not a record."""
    return Report(complete=False, problems=[reason])


_UNREVEALED = "the game ended but the record does not reveal the seed (export it again once the game is scored)"


def _opening_problem(envelopes: list[Envelope]) -> str | None:
    """What stops a check before the chain: no events, or something else than the creation event first."""
    if not envelopes:
        return "the record has no events"
    first = envelopes[0]
    if first.type != CREATED or not _HEX64.match(str(first.payload.get("seed_commitment", ""))):
        return (f"the record starts with {first.type} (version {first.version}), not with the creation event "
                "carrying the seed commitment")
    return None


def verify(envelopes: list[Envelope] | Record, commands: list[dict[str, Any]] | None = None) -> Report:
    """Check a record: creation and commitment first, consecutive versions, the chain, then the replay."""
    record = envelopes if isinstance(envelopes, Record) else Record({"complete": True}, envelopes, commands or [])
    envelopes, commands = record.envelopes, record.commands
    report = Report(events=len(envelopes), commands=len(commands), redacted_events=len(record.redacted),
                    complete=bool(record.header.get("complete", True)) and not record.redacted)
    if "events" in record.header and record.header["events"] != len(envelopes):
        report.problems.append(f"the header announces {record.header['events']} events, the record has "
                               f"{len(envelopes)}")
    opening = _opening_problem(envelopes)
    if opening:
        report.problems.append(opening)
        return report
    first = envelopes[0]
    report.chain_ok, reason = _check_chain(envelopes, record.redacted)
    if not report.chain_ok:
        report.problems.append(reason)
        return report
    revealed = [e for e in envelopes if e.type == REVEALED]
    if not revealed:
        if any(e.type == ENDED for e in envelopes) and report.complete:
            report.problems.append(_UNREVEALED)
        return report  # chain checked; the replay waits for the seed
    report.seed_revealed = True
    if not commands:
        report.problems.append("the seed is revealed but the record has no commands to replay")
        report.replay_ok = False
        return report
    _replay(report, first.game_id, first.payload["game"], envelopes, commands,
            bytes.fromhex(revealed[-1].payload["seed"]))
    return report


def _check_chain(envelopes: list[Envelope], redacted: set[int]) -> tuple[bool, str]:
    """Versions consecutive from 1, every event linked to the one before; hashes recomputed where the payload
    is whole (a redacted event's hash is vouched for by the next event's link)."""
    prev, game_id = GENESIS_HASH, envelopes[0].game_id
    for expected, env in enumerate(envelopes, start=1):
        if env.version != expected:
            return False, f"version {env.version} where {expected} was expected"
        if env.game_id != game_id:
            return False, f"event {env.version} belongs to game {env.game_id}, not {game_id}"
        if env.prev_hash != prev:
            return False, f"event {env.version} does not follow the previous hash"
        if env.version not in redacted and env.compute_hash() != env.hash:
            return False, f"event {env.version} was altered (hash mismatch)"
        prev = env.hash
    return True, "ok"


def _replay(report: Report, game_id: str, game_type: str, envelopes: list[Envelope],
            commands: list[dict[str, Any]], seed: bytes) -> None:
    record = None
    by_version = {e.version: e for e in envelopes}
    covered = 0
    replay_problems: list[str] = []
    try:
        for cmd in commands:
            data = dict(cmd["command"])
            game = get_game(game_type) if data.get("type") != CreateGame.model_fields["type"].default else None
            command = parse_command(game, data)
            events, record = execute(record, game_id, command, SeedDice(seed), cmd.get("actor"))
            if cmd["from_version"] != covered:
                replay_problems.append(f"command {cmd.get('command_id')} starts at {cmd['from_version']}, "
                                       f"not {covered}")
            for offset, event in enumerate(events, start=1):
                version = cmd["from_version"] + offset
                stored = by_version.get(version)
                if stored is None or stored.payload != event.model_dump(mode="json"):
                    replay_problems.append(f"replay differs at version {version} ({event.type})")
                    break
            covered = cmd["from_version"] + len(events)
    except Exception as exc:  # a record that cannot even be replayed is not valid
        replay_problems.append(f"replay failed: {exc}")
    if covered != len(envelopes):
        replay_problems.append(f"commands reproduce {covered} of {len(envelopes)} events")
    report.problems += replay_problems
    report.seed_ok = record is not None and check_reveal(record)
    if not report.seed_ok:
        report.problems.append("the revealed seed does not match the commitment published at creation")
    report.replay_ok = not replay_problems
