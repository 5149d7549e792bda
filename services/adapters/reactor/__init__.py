"""The reactor turns events into rq jobs: bot turns and end-game scoring."""

from services.adapters.reactor.reactor import Reactor

__all__ = ["Reactor"]
