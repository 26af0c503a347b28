"""The Celery application of the verification worker, configured from the settings.

Start a worker with ``provgraph worker`` or
``celery -A services.worker.app worker -Q light,heavy``. Importing this module
creates the app from ``PROVGRAPH_*`` (broker: ``PROVGRAPH_BROKER_URL``) and
worker tunables (``PROVGRAPH_WORKER_*``, :mod:`services.worker.options`); it
opens no connection and loads no model.

Reliability choices (see ``docs/worker.md``):

* ``task_acks_late`` + ``task_reject_on_worker_lost``: a message is acknowledged
  only after its task returns, so a worker killed mid-task (SIGKILL, OOM) gets
  it redelivered; tasks are idempotent, so a redelivery cannot add a report;
* ``worker_prefetch_multiplier=1``: a process reserves one message at a time, so
  a slow heavy job does not sit on messages another process could run;
* Redis ``visibility_timeout`` above the hard time limit and the longest retry
  countdown, and ``unacked_restore_interval`` short, so a crashed worker's
  message returns within about visibility timeout + interval;
* JSON only: messages stay readable and cannot carry pickled code.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Celery
from celery.signals import worker_process_init, worker_process_shutdown

from provgraph.config import Settings, load_settings
from provgraph.usecases.jobs import BeforeRun
from provgraph.usecases.publishing import broker_connection, queue_topology
from provgraph.usecases.queues import TASK_CHECKPOINT, TASK_RETENTION, TASK_SWEEP
from services.worker.options import WorkerOptions

log = logging.getLogger(__name__)

DEFAULT_BROKER_URL = "redis://127.0.0.1:6379/0"
"""Used only when no broker is configured, so that importing the app never fails."""


def celery_config(settings: Settings, options: WorkerOptions) -> dict[str, Any]:
    """Celery settings for this project (pure: tested without a broker)."""
    broker = broker_connection(settings)
    return {
        **queue_topology(),
        **broker,
        "broker_url": settings.broker_url or DEFAULT_BROKER_URL,
        "broker_connection_retry_on_startup": True,
        "broker_transport_options": {
            **broker.get("broker_transport_options", {}),  # Sentinel: the master's name
            "visibility_timeout": options.visibility_timeout,
            "unacked_restore_interval": options.unacked_restore_interval,
            "unacked_restore_throttle": 1,
        },
        "task_ignore_result": True,  # job state lives in the graph, not in a result backend
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        "task_acks_on_failure_or_timeout": True,
        "worker_prefetch_multiplier": 1,
        "worker_send_task_events": False,
        "worker_hijack_root_logger": False,
        "task_soft_time_limit": options.soft_time_limit,
        "task_time_limit": options.hard_time_limit,
        "beat_schedule": {
            "provgraph-requeue-sweep": {
                "task": TASK_SWEEP,
                "schedule": options.sweep_interval,
                "options": {"expires": options.sweep_interval},
            },
            "provgraph-retention": {
                "task": TASK_RETENTION,
                "schedule": options.retention_interval,
                "options": {"expires": options.retention_interval},
            },
            "provgraph-audit-checkpoint": {
                "task": TASK_CHECKPOINT,
                "schedule": options.checkpoint_interval,
                "options": {"expires": options.checkpoint_interval},
            },
        },
        "beat_schedule_filename": str(settings.home / "celerybeat-schedule"),
        "timezone": "UTC",
        "enable_utc": True,
    }


def create_app(
    settings: Settings | None = None,
    options: WorkerOptions | None = None,
    *,
    before_run: BeforeRun | None = None,
) -> Celery:
    """A Celery app for these settings, with the provgraph tasks registered.

    ``before_run`` is injected into every verification run (the tests' worker
    app pauses there to be killed mid-job; production passes nothing).
    """
    settings = settings or load_settings()
    options = options or WorkerOptions.from_env()
    if options.visibility_timeout <= options.hard_time_limit:
        log.warning(
            "visibility timeout (%.0fs) <= hard time limit (%.0fs): a long task may be"
            " delivered twice (harmless, tasks are idempotent, but wasteful)",
            options.visibility_timeout,
            options.hard_time_limit,
        )
    celery_app = Celery("provgraph", set_as_current=False)
    celery_app.config_from_object(celery_config(settings, options))
    celery_app.conf["provgraph_options"] = options
    from services.worker.tasks import register_tasks

    register_tasks(celery_app, options, before_run=before_run)
    from services.worker.audit_tasks import register_audit_tasks

    register_audit_tasks(celery_app)
    return celery_app


def _after_fork(**_: Any) -> None:
    """Forget the parent's store and models; the child opens its own on first use."""
    from services.worker.runtime import reset_after_fork

    reset_after_fork()


def _before_exit(**_: Any) -> None:
    """Close this process's store (its Neo4j driver) on a clean shutdown."""
    from services.worker.runtime import close_process_store

    close_process_store()


worker_process_init.connect(_after_fork, weak=False)
worker_process_shutdown.connect(_before_exit, weak=False)

app = create_app()
"""The app ``celery -A services.worker.app`` finds."""
