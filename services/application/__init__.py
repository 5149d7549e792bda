"""The use cases of Taproom: what a player or the service itself can do, one function each.

Adapters (HTTP routers, the CLI, rq jobs, bots) parse their input into typed values (kernel and game
command models, seat specs), call a use case with the composition root (:func:`services.infrastructure.bootstrap.bootstrap`)
and render its typed result (:mod:`.results`). See README.md for where a new use case goes.
"""

from services.application.results import Accepted, CommandResult, Queued, Rejected, StillQueued, accepted_or_raise

__all__ = ["Accepted", "CommandResult", "Queued", "Rejected", "StillQueued", "accepted_or_raise"]
