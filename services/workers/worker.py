"""An rq worker that runs in a thread of the embedded service.

rq's normal ``Worker.work()`` installs signal handlers and times jobs out
with SIGALRM, which only works in the main thread; this worker uses a timer
thread for time-outs and skips the signal handlers (DESIGN.md, "Known facts").
"""

from __future__ import annotations

import threading
import time

import redis
from rq import Queue, SimpleWorker
from rq.timeouts import TimerDeathPenalty


class ThreadWorker(SimpleWorker):
    death_penalty_class = TimerDeathPenalty

    def _install_signal_handlers(self) -> None:  # signals belong to the main thread
        pass


def run_worker_thread(client: redis.Redis, queue_name: str, stop: threading.Event, idle_sleep: float = 0.02) -> None:
    """Work the queue in bursts until ``stop`` is set."""
    queue = Queue(queue_name, connection=client)
    worker = ThreadWorker([queue], connection=client)
    while not stop.is_set():
        if queue.count:
            worker.work(burst=True, logging_level="WARNING")
        else:
            time.sleep(idle_sleep)
