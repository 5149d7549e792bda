"""Job functions under the module paths they had before the services re-layout (issue 33).

rq stores a job's function as a dotted path (``services.async_play.jobs.turn_deadline``) and resolves it
when the job runs, which for a deadline or a digest can be days after it was queued. The modules that
define job functions moved; a worker makes each old module path name the new module, so a job queued
before a deploy still runs after it. Remove an entry once no queued job can name it (the longest delay is
an open game's expiry).
"""

from __future__ import annotations

import importlib
import sys

OLD_JOB_MODULES = {  # relayout: keep old paths (these keys are the paths rq stored, not imports)
    "services.workers.jobs": "services.adapters.workers.jobs",
    "services.async_play.jobs": "services.adapters.workers.async_play",
    "services.async_play.mail": "services.application.notifications.mail",
    "services.async_play.notify": "services.application.notifications.notify",
    "services.async_play.webpush": "services.application.notifications.webpush",
    "services.health": "services.infrastructure.health",
}


def alias_old_job_modules() -> None:
    """Make ``importlib.import_module(old)`` (what rq's ``import_attribute`` calls) return the new module."""
    for old, new in OLD_JOB_MODULES.items():
        if old not in sys.modules:
            sys.modules[old] = importlib.import_module(new)
