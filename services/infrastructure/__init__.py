"""The floor under the use cases: Redis, the event store, the command bus, queues, mail and push transports
(inside the notification use cases for now), the cold store, leases, settings, logs, the clock.

:mod:`.bootstrap` (the composition root) builds the shared parts from settings; the floors above receive them.
It imports :mod:`domain` and :mod:`projections`, never :mod:`services.application` or the adapters.
"""
