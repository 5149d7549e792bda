"""Asynchronous play over days: turn clocks and deadlines, vacations, notifications, expiry.

The domain has no clock, so time lives here: the reactor starts and stops a
seat's clock as turns change (:mod:`.deadlines`), deadlines are rq jobs
scheduled with ``enqueue_at`` and released by the scheduler thread
(:mod:`.scheduler`), and what a deadline decides goes back through the normal
command path as a system command (``taproom.TimeOut``), so it is logged and
replayed like any move.
"""
