"""Carcassonne (C2 base game) with the Hills & Sheep expansion and the River as options."""

from .game import GAME, CarcassonneGame, CarcassonneOptions
from .state import CarcassonneState

__all__ = ["GAME", "CarcassonneGame", "CarcassonneOptions", "CarcassonneState"]
