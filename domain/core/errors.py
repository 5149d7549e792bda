"""Errors a player can cause, each with a stable code the API maps to one HTTP status.

Messages name the offending input; they must never reveal hidden information
(no stack order, no face-down tile, no other player's hand).
"""

from __future__ import annotations

from typing import Any


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


def plain_errors(exc: Exception, limit: int = 5) -> str:
    """A pydantic validation error in plain words, one clause per field, without pydantic's URLs."""
    errors = getattr(exc, "errors", None)
    if not callable(errors):
        return str(exc).split("\n")[0]
    return describe_errors(errors(include_url=False), limit)


def describe_errors(errors: list[Any], limit: int = 5) -> str:
    """``field: problem; ...`` for pydantic-style error dicts (``loc``, ``msg``, ``type``)."""
    clauses = []
    for error in errors[:limit]:
        where = field_name(error.get("loc", ()))
        kind = error.get("type")
        if kind == "missing":
            clauses.append(f"{where} is required")
        elif kind == "extra_forbidden":
            clauses.append(f"{where} is not a known field")
        else:
            message = str(error.get("msg", "is invalid")).removeprefix("Value error, ")  # a validator's own words
            message = message[0].lower() + message[1:] if message else "is invalid"
            clauses.append(f"{where}: {message}" if error.get("loc") else message)
    more = len(errors) - limit
    return "; ".join(clauses) + (f" (and {more} more)" if more > 0 else "")


def field_name(loc: tuple[Any, ...] | list[Any]) -> str:
    """``('seats', 0, 'name')`` -> ``'seats[0].name'`` (quoted); the whole input when empty."""
    name = ""
    for part in loc:
        name += f"[{part}]" if isinstance(part, int) else (f".{part}" if name else str(part))
    return f"'{name}'" if name else "the input"
