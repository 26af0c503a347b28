"""The Celery tasks: verify one job (light or heavy queue), sweep, ping.

Tasks are thin: the work and its idempotency are in :mod:`provgraph.usecases.jobs`.
What the task adds is the retry policy on transient errors — exponential
backoff with jitter, bounded by ``max_retries``, then ``failed`` recorded in
the graph with the last error. Messages carry only JSON: the project, the job
id and the config as data.
"""

from __future__ import annotations

import logging
import os
import random
from typing import Any

from celery import Celery, Task
from pydantic import ValidationError as PydanticValidationError

from provgraph.errors import NotFoundError, ProvgraphError, RetryableError
from provgraph.store.port import GraphStore
from provgraph.store.types import JobState
from provgraph.usecases.jobs import (
    DEFAULT_MAX_ATTEMPTS,
    BeforeRun,
    config_from_json,
    mark_failed,
    run_verification_job,
)
from provgraph.usecases.publishing import TaskQueuePublisher
from provgraph.usecases.queues import TASK_PING, TASK_SWEEP, TASK_VERIFY_HEAVY, TASK_VERIFY_LIGHT
from provgraph.usecases.sweep import sweep_jobs, sweep_unrequested_outputs
from provgraph.verification.from_settings import config_from_settings
from services.worker.options import WorkerOptions

log = logging.getLogger(__name__)


def backoff_countdown(
    retries: int, options: WorkerOptions, rng: random.Random | None = None
) -> float:
    """Seconds before retry number ``retries + 1``: exponential, capped, with equal jitter.

    Half the capped exponential delay is fixed and half random, so retries of
    many jobs that failed together (a store restart) spread out instead of
    hitting the store in one wave, and no retry comes back instantly.
    """
    rng = rng or random.Random()
    delay = min(options.retry_backoff_max, options.retry_backoff * 2.0**retries)
    return delay / 2 + rng.uniform(0.0, delay / 2)


def run_job_task(
    task: Task,
    project: str,
    job_id: str,
    config_data: dict[str, Any] | None,
    options: WorkerOptions,
    *,
    heavy: bool,
    before_run: BeforeRun | None = None,
) -> dict[str, Any]:
    """Body shared by the light and heavy tasks (see the module docstring)."""
    from services.worker.runtime import process_store, stage_models

    store = process_store()
    try:
        config = config_from_json(config_data)
    except PydanticValidationError as exc:
        mark_failed(store, project, job_id, f"invalid verifier config: {exc}")
        return {"job_id": job_id, "state": "failed"}
    retries = int(task.request.retries or 0)
    try:
        models = stage_models(config) if heavy else None
        job = run_verification_job(
            store,
            project,
            job_id,
            config,
            models=models,
            # every retry may count as an attempt: keep room for them plus a few redeliveries
            max_attempts=max(DEFAULT_MAX_ATTEMPTS, options.max_retries + 4),
            before_run=before_run,
        )
    except NotFoundError as exc:
        log.warning("job %s in project %s: %s; dropping the message", job_id, project, exc)
        return {"job_id": job_id, "state": "missing"}
    except RetryableError as exc:
        if retries >= options.max_retries:
            reason = f"retries exhausted ({retries} retries): {exc}"
            try:
                mark_failed(store, project, job_id, reason)
            except RetryableError as again:
                # The store is still down: the job stays queued/running in the graph
                # and the re-enqueue sweep brings it back once the store answers.
                log.error("job %s: %s; could not record it either: %s", job_id, reason, again)
            return {"job_id": job_id, "state": "failed"}
        countdown = backoff_countdown(retries, options)
        log.info(
            "job %s: transient error (%s); retry %d in %.1fs", job_id, exc, retries + 1, countdown
        )
        raise task.retry(exc=exc, countdown=countdown, max_retries=options.max_retries) from exc
    if job.state is JobState.DONE:
        _push_lineage(store, project, job.output_id)
    return {"job_id": job.id, "state": job.state.value, "report_version": job.report_version}


def _push_lineage(store: GraphStore, project: str, output_id: str) -> None:
    """With ``PROVGRAPH_OPENLINEAGE_URL`` set, push the verified output's session (best effort).

    The report is stored either way: a lineage backend that is down or refuses
    the events is logged, never a failed or retried verification job.
    """
    from services.worker.runtime import process_settings

    settings = process_settings()
    if not settings.openlineage_url:
        return
    from provgraph.lineage_out.push import push_after_report

    try:
        result = push_after_report(
            store,
            project,
            output_id,
            settings.openlineage_url,
            api_key=settings.openlineage_api_key,
        )
    except ProvgraphError as exc:
        log.warning("OpenLineage push after the report of %s failed: %s", output_id, exc)
        return
    if result is not None:
        log.info(
            "pushed %d OpenLineage events for %s to %s", result.events, output_id, result.target
        )


def register_tasks(
    celery_app: Celery, options: WorkerOptions, *, before_run: BeforeRun | None = None
) -> None:
    """Register the provgraph tasks on ``celery_app`` (one app per settings).

    Registered by call rather than decorator so the functions keep their types
    (Celery's decorators are untyped). ``before_run`` is injected into every
    verification run (tests pause there; production passes nothing).
    """

    def verify_light(
        self: Task, project: str, job_id: str, config: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """Verify with the cheap stages only (no model in memory)."""
        return run_job_task(
            self, project, job_id, config, options, heavy=False, before_run=before_run
        )

    def verify_heavy(
        self: Task, project: str, job_id: str, config: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """Verify with model stages; models come from the process cache."""
        return run_job_task(
            self, project, job_id, config, options, heavy=True, before_run=before_run
        )

    def sweep(self: Task) -> dict[str, Any]:
        """Re-enqueue jobs the graph says are waiting but no queue holds (beat-scheduled).

        With ``PROVGRAPH_AUTO_VERIFY`` on, also create the jobs of final outputs
        nobody requested (an API killed between its answer and its enqueue).
        """
        from services.worker.runtime import process_settings, process_store

        store = process_store()
        publish = TaskQueuePublisher(celery_app).publish
        result = sweep_jobs(
            store,
            publish,
            queued_stale_after=options.sweep_stale_after,
            running_stale_after=options.visibility_timeout + options.hard_time_limit,
        )
        created: list[str] = []
        settings = process_settings()
        if settings.auto_verify:
            created = sweep_unrequested_outputs(store, publish, config_from_settings(settings))
        return {
            "requeued": list(result.requeued),
            "reset_running": list(result.reset_running),
            "created": created,
        }

    def ping(self: Task) -> dict[str, Any]:
        """Health: this worker process runs tasks and reaches its store."""
        from services.worker.runtime import process_store

        try:
            store_ok = process_store().ping()
        except Exception as exc:
            log.warning("store ping failed: %s", exc)
            store_ok = False
        return {"pid": os.getpid(), "store": store_ok}

    # shared=False: the tasks belong to this app only (a shared task would be added to every
    # Celery app finalised later in the process, e.g. a publishing client).
    retrying = {"bind": True, "max_retries": options.max_retries, "shared": False}
    celery_app.task(name=TASK_VERIFY_LIGHT, **retrying)(verify_light)
    celery_app.task(name=TASK_VERIFY_HEAVY, **retrying)(verify_heavy)
    celery_app.task(name=TASK_SWEEP, bind=True, max_retries=0, shared=False)(sweep)
    celery_app.task(name=TASK_PING, bind=True, max_retries=0, shared=False)(ping)
