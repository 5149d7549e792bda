"""Asynchronous play over days: turn clocks and vacations.

The domain has no clock, so time lives in the service: the reactor starts and stops a seat's clock as turns
change (:mod:`services.adapters.reactor.deadlines`), deadlines are rq jobs scheduled with ``enqueue_at``
(:mod:`services.adapters.workers.async_play`) and released by the scheduler thread
(:mod:`services.infrastructure.scheduler`), and what a deadline decides goes back through the normal command
path as a system command (``taproom.TimeOut``), so it is logged and replayed like any move. Notifications are
:mod:`services.application.notifications`.
"""
