"""The coach of a tutorial game: a good move for the seat to act, chosen from that seat's own view.

Only a game created as a tutorial answers (its one human seat plays bots, untimed and unrated), so no
rated or shared table ever offers a player a computed move. The suggestion is the search bot's choice
among the seat's own legal commands, built from exactly what that seat may see, like any bot's (the greedy
bot is a poor teacher: in Heaven & Ale it cashes in privilege cards for ducats at every chance).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from domain.core import Command, RuleError
from domain.core.lifecycle import GameRecord
from services.application.bots import choose


class NotATutorial(RuleError):
    code = "not_a_tutorial"


@dataclass(frozen=True)
class Question:
    """What the coach needs of the position, read from the record at once (the record may move on)."""

    game_type: str
    view: dict[str, Any] | None
    legal: list[Command]
    seed: str


def question(record: GameRecord, version: int, seat: int) -> Question:
    """The seat's view and legal commands now; none when the seat is not to act. Refuses any non-tutorial game."""
    if not record.tutorial:
        raise NotATutorial(f"game {record.game_id} is not a tutorial: only a tutorial suggests moves")
    seed = f"{record.game_id}|{version}|{seat}|coach"
    if record.status != "active" or seat not in record.to_act():
        return Question(record.game_type, None, [], seed)
    game = record.game
    return Question(game.id, game.view(record.state, seat), list(game.legal_commands(record.state, seat)), seed)


def suggest(asked: Question, think_seconds: float | None = None) -> Command | None:
    """The search bot's move for the position asked about, thinking at most ``think_seconds`` (the service's
    bot budget); None when the seat has nothing to do."""
    if asked.view is None or not asked.legal:
        return None
    return choose("search", asked.game_type, asked.view, asked.legal, random.Random(asked.seed),
                  think_seconds=think_seconds)
