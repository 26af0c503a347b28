"""Requesting verification: record the job in the graph, then hand it to a worker.

The API and the CLI call :func:`enqueue_verification`. With a broker
configured the job is published to Celery (``light`` or ``heavy`` queue by
config); without one it runs in this process (:mod:`provgraph.jobs_inline`),
so the embedded mode needs no Redis. Celery is imported only in broker mode.

The graph write comes first: if publishing then fails (Redis down), the job
is still ``queued`` in the graph and the re-enqueue sweep publishes it later;
the caller gets the job, not an error.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from provgraph.config import Settings, load_settings
from provgraph.errors import NotFoundError
from provgraph.events import Event
from provgraph.graph import NodeType
from provgraph.jobs import config_to_json, request_verification
from provgraph.jobs_inline import InlineJobRunner
from provgraph.store.port import GraphStore
from provgraph.store.types import Job, JobState
from provgraph.verification.config import VerificationConfig
from services.worker.names import queue_for, task_for_queue

if TYPE_CHECKING:
    from celery import Celery

log = logging.getLogger(__name__)

PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0.2, "interval_step": 0.5}
"""Bounded publish retries: a request must not hang on a dead broker (the sweep catches up)."""

_lock = threading.Lock()
_apps: dict[str, Celery] = {}
_runners: dict[int, InlineJobRunner] = {}


def enqueue_verification(
    project: str,
    output_id: str,
    *,
    settings: Settings | None = None,
    config: VerificationConfig | None = None,
    force: bool = False,
    store: GraphStore | None = None,
    extra: dict[str, Any] | None = None,
    wait: bool = False,
) -> Job:
    """Request verification of ``output_id`` and get the job (idempotent).

    A duplicate request returns the same job and publishes nothing new; a
    ``done`` job is not redone unless ``force``. ``store`` defaults to this
    process's store (:func:`services.worker.runtime.process_store`); an
    embedded API must pass its own store (or register it with
    ``set_process_store``) so inline jobs see the graph it serves. ``wait``
    (embedded mode only) blocks until the job finished and returns it final.
    Raises ``NotFoundError`` for an unknown output.
    """
    from services.worker.runtime import process_store

    settings = settings or load_settings()
    config = config or VerificationConfig()
    store = store or process_store(settings)
    if not settings.uses_broker:
        return inline_runner(store).submit(
            project, output_id, config, force=force, extra=extra, wait=wait
        )
    queue = queue_for(config)
    job = request_verification(
        store, project, output_id, config, force=force, extra=extra, queue=queue
    )
    if job.state is JobState.QUEUED:
        try:
            publish_job(project, job, config, celery_app=celery_app_for(settings))
        except Exception as exc:  # broker down: the graph has the job, the sweep republishes
            log.warning("job %s recorded but not published (%s); the sweep will retry", job.id, exc)
    return job


def enqueue_final_outputs(
    project: str,
    events: Iterable[Event],
    *,
    settings: Settings | None = None,
    store: GraphStore | None = None,
    config: VerificationConfig | None = None,
) -> list[Job]:
    """Auto-verification after ingestion: one job per ``final_output`` event accepted.

    Does nothing when ``PROVGRAPH_AUTO_VERIFY`` is off. Call it with the events
    the store accepted (not duplicates). An output the store does not have
    (rejected meanwhile) is skipped, not an error: ingestion must not fail
    because verification could not be requested.
    """
    settings = settings or load_settings()
    if not settings.auto_verify:
        return []
    jobs: list[Job] = []
    for output_id in dict.fromkeys(e.node_id for e in events if e.type is NodeType.FINAL_OUTPUT):
        try:
            jobs.append(
                enqueue_verification(
                    project, output_id, settings=settings, store=store, config=config
                )
            )
        except NotFoundError:
            log.info("auto-verify: output %s of project %s not found; skipped", output_id, project)
    return jobs


def publish_job(project: str, job: Job, config: VerificationConfig, *, celery_app: Celery) -> str:
    """Send one job to its queue; returns the Celery task id.

    The task id is unique per publish (not the job id): Celery would treat a
    re-publish with the same id as the same task for revocation and events.
    """
    queue = queue_for(config)
    task_id = f"{job.id}.{uuid.uuid4().hex[:12]}"
    celery_app.send_task(
        task_for_queue(queue),
        args=[project, job.id, config_to_json(config)],
        queue=queue,
        routing_key=queue,
        task_id=task_id,
        retry=True,
        retry_policy=PUBLISH_RETRY_POLICY,
    )
    return task_id


def celery_app_for(settings: Settings) -> Celery:
    """The Celery app for these settings, created once per broker URL and process."""
    key = settings.broker_url or ""
    with _lock:
        if key not in _apps:
            from services.worker import app as app_module

            default = app_module.app
            if default.conf.broker_url == settings.broker_url:
                _apps[key] = default
            else:
                _apps[key] = app_module.create_app(settings)
        return _apps[key]


def inline_runner(store: GraphStore) -> InlineJobRunner:
    """The process's background runner for ``store`` (one thread per store)."""
    with _lock:
        runner = _runners.get(id(store))
        if runner is None or runner.store is not store:
            from services.worker.runtime import stage_models

            runner = InlineJobRunner(store, background=True, models_for=stage_models)
            _runners[id(store)] = runner
        return runner


def shutdown_inline_runners(wait: bool = True) -> None:
    """Stop the embedded mode's background threads (API shutdown, tests)."""
    with _lock:
        runners = list(_runners.values())
        _runners.clear()
    for runner in runners:
        runner.shutdown(wait=wait)
