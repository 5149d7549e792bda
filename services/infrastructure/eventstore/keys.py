"""Every Redis key, built in one place.

A game lives in one shard; every key of the game and the shard's feeds carry
the hash tag ``{sN}`` so one Lua script may touch them all, also on Redis
Cluster. A player's asynchronous-play keys (vacations and their allowance,
webhook, messages and their dedupe markers) carry the hash tag ``{p:<id>}``,
so a transaction or script over several of them (booking a vacation,
recording a message once) stays in one slot. Cross-game indexes (lobby,
inboxes, tokens, players) are plain keys written outside the scripts.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from functools import lru_cache


@lru_cache(maxsize=65536)
def _shard(game_id: str, shards: int) -> int:
    return zlib.crc32(game_id.encode()) % shards


@lru_cache(maxsize=65536)
def _game_base(prefix: str, shards: int, game_id: str) -> str:
    """What every key of a game begins with (built once per game: the processor builds ten keys per command)."""
    return f"{prefix}g:{{s{_shard(game_id, shards)}}}:{game_id}:"


@dataclass(frozen=True)
class Keys:
    prefix: str = "tr:"
    shards: int = 16

    def shard(self, game_id: str) -> int:
        """Stable shard of a game (CRC32, not Python's salted hash)."""
        return _shard(game_id, self.shards)

    def tag(self, game_id: str) -> str:
        return f"{{s{_shard(game_id, self.shards)}}}"

    def _g(self, game_id: str, what: str) -> str:
        return _game_base(self.prefix, self.shards, game_id) + what

    # per game (same slot as the shard's streams)
    def events(self, game_id: str) -> str:
        return self._g(game_id, "events")

    def head(self, game_id: str) -> str:
        return self._g(game_id, "head")

    def commands(self, game_id: str) -> str:
        return self._g(game_id, "cmds")

    def snapshot(self, game_id: str) -> str:
        return self._g(game_id, "snap")

    def segments(self, game_id: str) -> str:
        """Hash: "<first>-<last>" -> a settled stretch of the log, compressed (envelopes and command records);
        moved out of the events stream and the command records by ``EventStore.compact``."""
        return self._g(game_id, "seg")

    def settled(self, game_id: str) -> str:
        """String: the index of the command ids whose records moved into segments (one applied id, one outcome:
        the append script looks a repeated id up here), 20 bytes each."""
        return self._g(game_id, "settled")

    def seed(self, game_id: str) -> str:
        return self._g(game_id, "seed")

    def rejections(self, game_id: str) -> str:
        """Hash: command id -> rejection outcome, kept as long as the game (a rejected id stays rejected)."""
        return self._g(game_id, "rejected")

    def outcome(self, game_id: str, command_id: str) -> str:
        return self._g(game_id, f"out:{command_id}")

    def reply(self, game_id: str, nonce: str) -> str:
        """List: the outcome of one submission, pushed by the processor for the request waiting on it (BLPOP);
        in the game's slot, so the append script may push it."""
        return self._g(game_id, f"reply:{nonce}")

    def command_body(self, game_id: str, command_id: str) -> str:
        """Before the per-game hash (:meth:`command_bodies`): one key per command id with a day's TTL. None are
        written any more; the archiver still deletes those a game may have."""
        return self._g(game_id, f"body:{command_id}")

    def command_bodies(self, game_id: str) -> str:
        """Hash: command id -> the fingerprint of the body first sent under it (a reuse with another body is
        refused). Kept, without a time to live, as long as the game's records; the archiver removes it."""
        return self._g(game_id, "bodies")

    def view(self, game_id: str, seat: int | None) -> str:
        return self._g(game_id, "view:public" if seat is None else f"view:{seat}")

    def legal(self, game_id: str) -> str:
        """Hash: seat -> that seat's legal commands (the compressed body of ``GET /legal``), written with
        every append (inline projections, ``projections/inline.py``)."""
        return self._g(game_id, "legal")

    def meta(self, game_id: str) -> str:
        return self._g(game_id, "meta")

    def guest_seats(self, game_id: str) -> str:
        """Hash: digest of a client address -> the seat it took as a guest (one per address and game)."""
        return self._g(game_id, "guests")

    def clock(self, game_id: str) -> str:
        """Turn clocks: ``start:<seat>`` -> "version:since" while the seat waits; ``bank:<seat>`` -> seconds
        left; ``seen`` -> the last version the clocks were brought up to."""
        return self._g(game_id, "clock")

    def chat(self, game_id: str, channel: str) -> str:
        """Stream of one chat channel of the game (``seats`` or ``spectators``); never part of the event log."""
        return self._g(game_id, f"chat:{channel}")

    def chat_request(self, game_id: str, digest: str) -> str:
        """String: what a chat post sent under an ``Idempotency-Key`` answered (``digest``: of the caller and the
        key), in the game's slot so it stands or falls with the message itself."""
        return self._g(game_id, f"chatreq:{digest}")

    def chat_reports(self, game_id: str) -> str:
        """Hash: report id -> JSON of a report of a chat message of this game (archived with the game)."""
        return self._g(game_id, "chat:reports")

    def analysis(self, game_id: str) -> str:
        """String (JSON): the coach's analysis of a finished game (its status, then its result); archived with
        the game (``services.infrastructure.bootstrap.register_game_side_keys``)."""
        return self._g(game_id, "analysis")

    def chat_side_keys(self, game_id: str) -> list[str]:
        """The game's keys kept beside its log (its chat), which travel with it when it is archived."""
        return [self.chat(game_id, "seats"), self.chat(game_id, "spectators")]

    # per shard
    def cmd_stream(self, shard: int) -> str:
        return f"{self.prefix}cmd:{{s{shard}}}"

    def cmd_stream_for(self, game_id: str) -> str:
        return self.cmd_stream(self.shard(game_id))

    def feed(self, shard: int) -> str:
        return f"{self.prefix}feed:{{s{shard}}}"

    def games(self, shard: int) -> str:
        return f"{self.prefix}games:{{s{shard}}}"

    def dead_letters(self, shard: int) -> str:
        return f"{self.prefix}dead:{{s{shard}}}"

    def lease(self, role: str, shard: int) -> str:
        return f"{self.prefix}lease:{role}:{{s{shard}}}"

    def checkpoint(self, role: str, shard: int) -> str:
        return f"{self.prefix}ckpt:{role}:{{s{shard}}}"

    # global indexes
    def lobby(self) -> str:
        return f"{self.prefix}lobby"

    def finished(self) -> str:
        return f"{self.prefix}finished"

    def inbox(self, player_id: str) -> str:
        return f"{self.prefix}inbox:{player_id}"

    def player(self, player_id: str) -> str:
        return f"{self.prefix}player:{player_id}"

    def token(self, token_hash: str) -> str:
        return f"{self.prefix}token:{token_hash}"

    def registration(self, client_key_hash: str) -> str:
        """String: a registration's credentials sealed under its client key (``Players.register``)."""
        return f"{self.prefix}registration:{client_key_hash}"

    def rotation(self, presented_and_key_hash: str) -> str:
        """String: a token rotation's new token sealed under the old token and its idempotency key."""
        return f"{self.prefix}rotation:{presented_and_key_hash}"

    def handle(self, folded: str) -> str:
        """String: a handle (case-folded) -> the player holding it; claimed with SET NX."""
        return f"{self.prefix}handle:{folded}"

    def archived(self, game_id: str) -> str:
        """String (JSON): where an archived game's record is (its URI, head version and hash, sizes); set by
        the archive script in the same step that removes the game's log, snapshots and views."""
        return self._g(game_id, "arch")

    def verdict(self, game_id: str) -> str:
        """The audit verdict of a scored game (its log no longer changes, so it is computed once)."""
        return self._g(game_id, "verdict")

    def stream_ticket(self, ticket_hash: str) -> str:
        """A short-lived ticket letting a browser's EventSource (which cannot send headers) open one game's stream."""
        return f"{self.prefix}sticket:{ticket_hash}"

    def rate_limits(self) -> str:
        """Prefix of the rate-limit counters."""
        return f"{self.prefix}rl"

    def rate_counter(self, name: str) -> str:
        """Hash: one rate's sliding window (``services/adapters/api/ratelimit.lua``); ``name`` says whose and which rate."""
        return f"{self.prefix}rl:w:{name}"

    def bot_games(self, player_id: str) -> str:
        """Zset: unfinished bot games the player created -> creation time (the cap counts them)."""
        return f"{self.prefix}botgames:{player_id}"

    def stream_slots(self, holder: str) -> str:
        """Zset: open event streams of a caller or client address -> the time the slot lapses unless renewed."""
        return f"{self.prefix}streams:{holder}"

    def members(self, role: str) -> str:
        return f"{self.prefix}members:{role}"

    def bot_watch(self) -> str:
        return f"{self.prefix}botwatch"

    def watch_tries(self, job_id: str) -> str:
        """Counter of how often the watchdog enqueued ``job_id`` again (it gives up after a few)."""
        return f"{self.prefix}botwatch:tries:{job_id}"

    def archive_watch(self) -> str:
        """Zset: scored game -> when it is due to be archived (removed once it is; see ``Reactor.sweep_archives``)."""
        return f"{self.prefix}archivewatch"

    def deadline_watch(self) -> str:
        """Zset: timed game -> the earliest deadline of its waiting seats (the watchdog checks late ones)."""
        return f"{self.prefix}deadlinewatch"

    def idle_watch(self) -> str:
        """Zset: active game without clocks (no pace, no registered player) -> its last command's time; the
        watchdog ends one idle past ``idle_end_after_seconds`` (see ``Watchdog.sweep_idle``)."""
        return f"{self.prefix}idlewatch"

    # per player, asynchronous play (one slot per player)
    def player_tag(self, player_id: str) -> str:
        return f"{{p:{player_id}}}"

    def vacations(self, player_id: str) -> str:
        """Zset of "start:end" intervals (score = start)."""
        return f"{self.prefix}vac:{self.player_tag(player_id)}"

    def vacation_used(self, player_id: str) -> str:
        """Hash: year -> vacation seconds used (granted) in that year; booked with :meth:`vacations` atomically."""
        return f"{self.prefix}vacused:{self.player_tag(player_id)}"

    def webhook(self, player_id: str) -> str:
        return f"{self.prefix}hook:{self.player_tag(player_id)}"

    def notes(self, player_id: str) -> str:
        """The player's latest messages (newest first), also without a webhook."""
        return f"{self.prefix}notes:{self.player_tag(player_id)}"

    def notified(self, player_id: str, dedupe: str) -> str:
        """Marks a message to ``player_id`` as sent; written with :meth:`notes` in one script."""
        return f"{self.prefix}notified:{self.player_tag(player_id)}:{dedupe}"

    def notify_prefs(self, player_id: str) -> str:
        """String (JSON): the player's notification kinds, quiet hours and e-mail choices (every channel)."""
        return f"{self.prefix}nprefs:{self.player_tag(player_id)}"

    def email(self, player_id: str) -> str:
        """Hash: ``address`` (verified) and ``pending`` (awaiting its verification link)."""
        return f"{self.prefix}email:{self.player_tag(player_id)}"

    def mail_token(self, token_hash: str) -> str:
        """String (JSON): what a verification or unsubscribe link does; keyed by the token's hash."""
        return f"{self.prefix}mailtok:{token_hash}"

    def mail_turn_sent(self, player_id: str, game_id: str) -> str:
        """Marks a "your turn" e-mail for the game as sent recently (expires after the interval)."""
        return f"{self.prefix}mailturn:{self.player_tag(player_id)}:{game_id}"

    def digest(self, player_id: str) -> str:
        """Hash: delivery id -> message body, waiting for the player's daily digest."""
        return f"{self.prefix}digest:{self.player_tag(player_id)}"

    def push_subscriptions(self, player_id: str) -> str:
        """Hash: subscription id -> Web Push subscription (endpoint and keys) as JSON."""
        return f"{self.prefix}push:{self.player_tag(player_id)}"

    def invitations(self, player_id: str) -> str:
        """Zset of "<game>:<seat>" seats the player is invited to (score = expiry); projected, checked on read."""
        return f"{self.prefix}invites:{self.player_tag(player_id)}"

    # ratings of one game type (one slot: the update is one transaction), and each player's finished games
    def rating_tag(self, game_type: str) -> str:
        return f"{{r:{game_type}}}"

    def ratings(self, game_type: str) -> str:
        """Hash: identity (``player:<id>`` / ``bot:<level>``) -> JSON {mu, sigma, games, wins, name}."""
        return f"{self.prefix}rt:{self.rating_tag(game_type)}:players"

    def leaderboard(self, game_type: str) -> str:
        """Zset: identity -> shown rating (mu - 3 sigma)."""
        return f"{self.prefix}rt:{self.rating_tag(game_type)}:board"

    def rated_games(self, game_type: str) -> str:
        """Set of the game ids already rated (a game is rated once)."""
        return f"{self.prefix}rt:{self.rating_tag(game_type)}:rated"

    def rating_results(self, game_type: str) -> str:
        """Hash: game id -> JSON of what rating it did (places, ratings before and after per seat)."""
        return f"{self.prefix}rt:{self.rating_tag(game_type)}:results"

    def player_games(self, player_id: str) -> str:
        """Zset: the player's finished (rated) games -> when they were rated."""
        return f"{self.prefix}pgames:{self.player_tag(player_id)}"

    def player_results(self, player_id: str) -> str:
        """Hash: game id -> JSON of the player's result in it (place, rating after, the table)."""
        return f"{self.prefix}presults:{self.player_tag(player_id)}"

    def mutes(self, viewer: str) -> str:
        """Set of chat authors (``player:<id>`` / ``seat:<game>:<n>``) the viewer muted."""
        return f"{self.prefix}mutes:{{m:{viewer}}}"

    def blocks(self, viewer: str) -> str:
        """Set of players (``player:<id>``) the viewer (``player:<id>``) blocked; in the slot of their mutes."""
        return f"{self.prefix}blocks:{{m:{viewer}}}"

    def chat_report_index(self) -> str:
        """Zset: game id -> the time of its latest chat report (what ``taproom reports`` lists)."""
        return f"{self.prefix}chatreports"

    def rematch(self, game_id: str) -> str:
        """String: the id of the rematch of this finished game (set once)."""
        return self._g(game_id, "rematch")

    def all_read_model_patterns(self) -> list[str]:
        """Patterns of every projected key (deleted by a projections rebuild)."""
        return [f"{self.prefix}g:*:view:*", f"{self.prefix}g:*:meta", f"{self.prefix}g:*:legal",
                f"{self.prefix}inbox:*", f"{self.prefix}invites:*", f"{self.prefix}lobby", f"{self.prefix}finished",
                f"{self.prefix}ckpt:projector:*"]
