"""The Taverns of Tiefenthal (Module 1): rules engine."""

from .game import GAME, TiefenthalGame, TiefenthalOptions

__all__ = ["GAME", "TiefenthalGame", "TiefenthalOptions"]
