"""Embedded mode: run verification jobs in this process, without a broker.

``provgraph demo`` and the embedded API have no Redis; they still get the same
job semantics (state in the graph, one report per output and config, retries
on transient errors, ``failed`` with the reason) by running the same domain
functions as the Celery worker, either synchronously or on one background
thread. One thread, not a pool: the embedded store serialises writes anyway,
and models are loaded once per process.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from provgraph.errors import RetryableError
from provgraph.store.port import GraphStore
from provgraph.store.types import Job, JobState
from provgraph.usecases.jobs import (
    DEFAULT_MAX_ATTEMPTS,
    BeforeRun,
    mark_failed,
    request_verification,
    run_verification_job,
)

if TYPE_CHECKING:
    from provgraph.verification.config import StageModels, VerificationConfig

log = logging.getLogger(__name__)


class InlineJobRunner:
    """Runs jobs in-process, synchronously (``background=False``) or on one thread.

    Transient errors are retried ``max_retries`` times with exponential backoff
    starting at ``backoff_s`` (a pause, not a queue: the embedded store rarely
    fails transiently). Submitting a job that is already pending here returns
    the pending job instead of running it twice. ``models_for`` supplies
    preloaded models per config (loaded once per process), else the engine
    loads what it needs per job. It is also the embedded mode's
    :class:`~provgraph.usecases.publishing.JobPublisher` (:meth:`publish`).
    """

    def __init__(
        self,
        store: GraphStore,
        *,
        background: bool = True,
        max_retries: int = 3,
        backoff_s: float = 0.2,
        models_for: Callable[[VerificationConfig], StageModels] | None = None,
        before_run: BeforeRun | None = None,
    ) -> None:
        self._store = store
        self._background = background
        self._max_retries = max_retries
        self._backoff_s = backoff_s
        self._models_for = models_for
        self._before_run = before_run
        self._lock = threading.Lock()
        self._pending: dict[str, Future[Job]] = {}
        self._executor: ThreadPoolExecutor | None = None

    @property
    def store(self) -> GraphStore:
        return self._store

    def submit(
        self,
        project: str,
        output_id: str,
        config: VerificationConfig,
        *,
        force: bool = False,
        extra: dict[str, Any] | None = None,
        wait: bool = False,
    ) -> Job:
        """Request the job and run it (now, or on the thread); return the job.

        Returns the queued job in background mode unless ``wait``, else the
        finished job. A job that needs no run (already done, or running
        elsewhere) is returned as it is.
        """
        job = request_verification(
            self._store, project, output_id, config, force=force, extra=extra
        )
        if job.state is not JobState.QUEUED:
            return job
        if not self._background:
            return self.run(project, job.id, config)
        future = self._schedule(project, job.id, config)
        return future.result() if wait else job

    def publish(self, project: str, job: Job, config: VerificationConfig) -> None:
        """The publisher port (:class:`~provgraph.usecases.publishing.JobPublisher`).

        Runs the recorded job here: now (``background=False``) or on the thread.
        """
        if self._background:
            self._schedule(project, job.id, config)
        else:
            self.run(project, job.id, config)

    def run(self, project: str, job_id: str, config: VerificationConfig) -> Job:
        """Run one job to completion here, retrying transient errors with backoff."""
        models = self._models_for(config) if self._models_for is not None else None
        for attempt in range(self._max_retries + 1):
            try:
                return run_verification_job(
                    self._store,
                    project,
                    job_id,
                    config,
                    max_attempts=DEFAULT_MAX_ATTEMPTS,
                    models=models,
                    before_run=self._before_run,
                )
            except RetryableError as exc:
                if attempt == self._max_retries:
                    log.warning("job %s: giving up after %d retries: %s", job_id, attempt, exc)
                    return mark_failed(self._store, project, job_id, f"retries exhausted: {exc}")
                time.sleep(self._backoff_s * (2**attempt))
        raise AssertionError("unreachable")  # pragma: no cover

    def wait_idle(self, timeout: float = 60.0) -> bool:
        """Block until every submitted job finished; False on timeout."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                pending = list(self._pending.values())
            if not pending:
                return True
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            try:
                pending[0].result(timeout=remaining)
            except Exception:  # the job's own failure is recorded in the graph
                continue

    def shutdown(self, wait: bool = True) -> None:
        """Stop the background thread (after the pending jobs when ``wait``)."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=wait, cancel_futures=not wait)

    def _schedule(self, project: str, job_id: str, config: VerificationConfig) -> Future[Job]:
        with self._lock:
            existing = self._pending.get(job_id)
            if existing is not None:
                return existing
            if self._executor is None:
                self._executor = ThreadPoolExecutor(
                    max_workers=1, thread_name_prefix="provgraph-verify"
                )
            future = self._executor.submit(self.run, project, job_id, config)
            self._pending[job_id] = future
        future.add_done_callback(lambda _f: self._forget(job_id))
        return future

    def _forget(self, job_id: str) -> None:
        with self._lock:
            self._pending.pop(job_id, None)
