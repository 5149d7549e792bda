"""What every game shares: the decider interface, message bases, errors, RNG and registry."""

from .capabilities import BotSupport, SearchSettings, ViewModels
from .errors import GameNotActive, IllegalMove, InvalidCommand, InvalidOptions, NotYourTurn, RuleError
from .game import Game, NoOptions, Score, rank
from .messages import REDACTED, SYSTEM_SEAT, Command, Event
from .registry import UnknownGame, all_games, get_game, register
from .rng import commitment, rng_for, seed_from_text

__all__ = [
    "BotSupport", "SearchSettings", "ViewModels",
    "Command", "Event", "Game", "GameNotActive", "IllegalMove", "InvalidCommand", "InvalidOptions",
    "NoOptions", "NotYourTurn", "REDACTED", "RuleError", "SYSTEM_SEAT", "Score", "UnknownGame",
    "all_games", "commitment", "get_game", "rank", "register", "rng_for", "seed_from_text",
]
