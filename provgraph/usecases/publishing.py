"""The publisher port: how a recorded verification job reaches whatever runs it.

A use case records the job in the graph first and then hands it to a
:class:`JobPublisher`. Two adapters exist: :class:`TaskQueuePublisher` sends
the job's task **by name** through anything with Celery's ``send_task`` shape
(the API's Celery client, the worker's own app), and the embedded mode's
:class:`~provgraph.usecases.jobs_inline.InlineJobRunner` runs it in-process.
Nothing here imports Celery: the sender is structural.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any, Protocol

from provgraph.broker import sentinel_transport_options
from provgraph.config import Settings
from provgraph.store.types import Job
from provgraph.usecases.jobs import config_to_json
from provgraph.usecases.queues import (
    HEAVY_QUEUE,
    LIGHT_QUEUE,
    TASK_CHECKPOINT,
    TASK_PING,
    TASK_RETENTION,
    TASK_SWEEP,
    TASK_VERIFY_HEAVY,
    TASK_VERIFY_LIGHT,
    queue_for,
    task_for_queue,
)

if TYPE_CHECKING:
    from provgraph.verification.config import VerificationConfig

EXCHANGE = "provgraph"
"""One direct exchange; each queue is bound with its own name as routing key."""


def queue_topology() -> dict[str, Any]:
    """Celery settings naming the exchange and queues (pure data, no Celery import).

    Both the worker's app and the API's publishing client are configured with
    it, so a message published before any worker ever started still lands in
    the queue a worker will read.
    """
    return {
        "task_default_queue": LIGHT_QUEUE,
        "task_default_exchange": EXCHANGE,
        "task_default_exchange_type": "direct",
        "task_default_routing_key": LIGHT_QUEUE,
        "task_queues": {
            LIGHT_QUEUE: {"exchange": EXCHANGE, "routing_key": LIGHT_QUEUE},
            HEAVY_QUEUE: {"exchange": EXCHANGE, "routing_key": HEAVY_QUEUE},
        },
        "task_routes": {
            TASK_VERIFY_LIGHT: {"queue": LIGHT_QUEUE, "routing_key": LIGHT_QUEUE},
            TASK_VERIFY_HEAVY: {"queue": HEAVY_QUEUE, "routing_key": HEAVY_QUEUE},
            TASK_SWEEP: {"queue": LIGHT_QUEUE, "routing_key": LIGHT_QUEUE},
            TASK_PING: {"queue": LIGHT_QUEUE, "routing_key": LIGHT_QUEUE},
            TASK_RETENTION: {"queue": LIGHT_QUEUE, "routing_key": LIGHT_QUEUE},
            TASK_CHECKPOINT: {"queue": LIGHT_QUEUE, "routing_key": LIGHT_QUEUE},
        },
        "task_serializer": "json",
        "result_serializer": "json",
        "accept_content": ["json"],
    }


def broker_connection(settings: Settings) -> dict[str, Any]:
    """Celery settings naming the broker: its URL and, for Redis Sentinel, the master.

    Every Celery app of the project (the worker's, the API's publishing client,
    the health probe's) is configured with it, so a ``sentinel://`` URL works
    everywhere or fails everywhere with the same configuration error. No
    result backend is used (job state lives in the graph); should one be
    configured on the same Sentinel set, it needs the same master name, so
    ``result_backend_transport_options`` carries it too (Celery's documented
    pairing). ``broker_transport_options`` here holds only the Sentinel keys:
    the worker merges its own timing options into it.
    """
    config: dict[str, Any] = {"broker_url": settings.broker_url}
    address = settings.sentinel_address
    if address is not None:
        options = sentinel_transport_options(address)
        config["broker_transport_options"] = options
        config["result_backend_transport_options"] = dict(options)
    return config


PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0.2, "interval_step": 0.5}
"""Bounded publish retries: a request must not hang on a dead broker (the sweep catches up)."""


class JobPublisher(Protocol):
    """Hands one recorded (``queued``) job to its runner; may raise when that is down."""

    def publish(self, project: str, job: Job, config: VerificationConfig) -> None: ...


class TaskSender(Protocol):
    """What a task-queue client offers (Celery's ``Celery.send_task``)."""

    def send_task(self, name: str, *args: Any, **options: Any) -> Any: ...


class TaskQueuePublisher:
    """Sends ``provgraph.verify.light|heavy`` by name to the queue the config needs.

    The task id is unique per publish (not the job id): Celery would treat a
    re-publish with the same id as the same task for revocation and events.
    Messages carry only JSON: the project, the job id and the config as data.
    """

    def __init__(self, sender: TaskSender) -> None:
        self._sender = sender

    def publish(self, project: str, job: Job, config: VerificationConfig) -> None:
        self.send(project, job, config)

    def send(self, project: str, job: Job, config: VerificationConfig) -> str:
        """Publish and return the task id."""
        queue = queue_for(config)
        task_id = f"{job.id}.{uuid.uuid4().hex[:12]}"
        self._sender.send_task(
            task_for_queue(queue),
            args=[project, job.id, config_to_json(config)],
            queue=queue,
            exchange=EXCHANGE,
            routing_key=queue,
            task_id=task_id,
            retry=True,
            retry_policy=PUBLISH_RETRY_POLICY,
        )
        return task_id
