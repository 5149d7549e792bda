"""The projector: folds the shard feeds into the read models of :mod:`projections`."""

from services.adapters.projector.projector import Projector

__all__ = ["Projector"]
