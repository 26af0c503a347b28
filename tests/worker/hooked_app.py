"""The worker app the worker tests run: production tasks plus an injected pause.

``celery -A tests.worker.hooked_app`` gives a worker whose verification runs
sleep ``job.extra["test_delay_seconds"]`` on their first
``test_delay_attempts`` attempts (default 1), so a test can kill the worker
deterministically mid-task and see the redelivered run finish quickly. The
hook is injected through ``create_app(before_run=...)``: production code
carries no test switch.
"""

from __future__ import annotations

import time

from provgraph.store.types import Job
from services.worker.app import create_app

TEST_DELAY_SECONDS = "test_delay_seconds"
TEST_DELAY_ATTEMPTS = "test_delay_attempts"


def delay_from_extra(job: Job) -> None:
    """Sleep as the job's ``extra`` asks, on its first attempts only."""
    seconds = float(job.extra.get(TEST_DELAY_SECONDS, 0) or 0)
    attempts = int(job.extra.get(TEST_DELAY_ATTEMPTS, 1) or 1)
    if seconds > 0 and job.attempts <= attempts:
        time.sleep(seconds)


app = create_app(before_run=delay_from_extra)
"""The app ``celery -A tests.worker.hooked_app`` finds."""
