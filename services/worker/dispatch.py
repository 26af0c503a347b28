"""Requesting verification from the worker side: the use case with this process's adapters.

:func:`enqueue_verification` is :func:`provgraph.usecases.verification.request_and_publish`
with a publisher chosen by the settings: with a broker, the job's task is sent
by name through this process's Celery app (``light`` or ``heavy`` queue by
config); without one it runs in this process (:mod:`provgraph.usecases.jobs_inline`),
so the embedded mode needs no Redis. Celery is imported only in broker mode.
The API does not use this module (it never imports the worker): it builds the
same use case with its own Celery client (``services.api.verification``).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from provgraph.config import Settings, load_settings
from provgraph.events import Event
from provgraph.graph import NodeType
from provgraph.store.port import GraphStore
from provgraph.store.types import Job
from provgraph.usecases.jobs_inline import InlineJobRunner
from provgraph.usecases.publishing import JobPublisher, TaskQueuePublisher
from provgraph.usecases.verification import request_and_publish, verify_outputs
from provgraph.verification.config import VerificationConfig

if TYPE_CHECKING:
    from celery import Celery

log = logging.getLogger(__name__)

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
    process's store (:func:`services.worker.runtime.process_store`). ``wait``
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
    return request_and_publish(
        store, publisher_for(settings, store), project, output_id, config, force=force, extra=extra
    )


def enqueue_final_outputs(
    project: str,
    events: Iterable[Event],
    *,
    settings: Settings | None = None,
    store: GraphStore | None = None,
    config: VerificationConfig | None = None,
) -> list[Job]:
    """Auto-verification after ingestion: one job per ``final_output`` event accepted.

    Does nothing when ``PROVGRAPH_AUTO_VERIFY`` is off. An output the store
    does not have is skipped, not an error.
    """
    from services.worker.runtime import process_store

    settings = settings or load_settings()
    if not settings.auto_verify:
        return []
    store = store or process_store(settings)
    outputs = [e.node_id for e in events if e.type is NodeType.FINAL_OUTPUT]
    return verify_outputs(store, publisher_for(settings, store), project, outputs, config)


def publisher_for(settings: Settings, store: GraphStore) -> JobPublisher:
    """Celery by name with a broker, else this process's inline runner for ``store``."""
    if settings.uses_broker:
        return TaskQueuePublisher(celery_app_for(settings))
    return inline_runner(store)


def publish_job(project: str, job: Job, config: VerificationConfig, *, celery_app: Celery) -> str:
    """Send one job to its queue; returns the Celery task id."""
    return TaskQueuePublisher(celery_app).send(project, job, config)


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
            from provgraph.verification.model_cache import stage_models

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
