"""Errors a player can cause, each with a stable code the API maps to one HTTP status.

Messages name the offending input; they must never reveal hidden information
(no stack order, no face-down tile, no other player's hand).
"""

from __future__ import annotations


class RuleError(Exception):
    """Base of every error the domain raises for a command it refuses."""

    code: str = "rule_error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, message={self.message!r})"


class InvalidCommand(RuleError):
    """The command is malformed for this game (unknown type, bad field values)."""

    code = "invalid_command"


class IllegalMove(RuleError):
    """A well-formed command that the rules do not allow now."""

    code = "illegal_move"


class NotYourTurn(RuleError):
    """The seat may not act now."""

    code = "not_your_turn"


class GameNotActive(RuleError):
    """The game has not started yet, or is already over."""

    code = "game_not_active"


class InvalidOptions(RuleError):
    """Options or seat count that the game does not support."""

    code = "invalid_options"
