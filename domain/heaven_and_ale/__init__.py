"""Heaven & Ale with the Kegs & More expansion (switchable): a pure rules engine."""

from .game import HeavenAndAle, HeavenAndAleOptions

GAME = HeavenAndAle()

__all__ = ["GAME", "HeavenAndAle", "HeavenAndAleOptions"]
