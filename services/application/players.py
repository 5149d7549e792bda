"""Players: register (the token and recovery code are shown once)."""

from __future__ import annotations

from services.infrastructure.bootstrap import Root
from services.infrastructure.players import Credentials


def register_player(root: Root, name: str, handle: str | None = None, client_key: str | None = None) -> Credentials:
    """A new player with a unique handle (the one given, else one made from the name); with ``client_key`` a
    retry answers the same player (``Players.register``)."""
    return root.players.register(name, handle, client_key)
