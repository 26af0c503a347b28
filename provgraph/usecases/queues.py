"""Queue and task names: the contract between whoever publishes a job and the worker.

The API sends tasks **by name** and never imports the worker, so the names,
the queues and their routing live here, framework-free: the worker's Celery
app registers its tasks under these names and declares these queues
(:func:`queue_topology`), and every publisher sends to them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from provgraph.verification.config import VerificationConfig

LIGHT_QUEUE = "light"
"""Parsing, source existence, TF-IDF and consistency: CPU-cheap, no model."""
HEAVY_QUEUE = "heavy"
"""Embeddings, NLI, LLM judge: models in memory, seconds per output."""
QUEUES = (LIGHT_QUEUE, HEAVY_QUEUE)

TASK_VERIFY_LIGHT = "provgraph.verify.light"
TASK_VERIFY_HEAVY = "provgraph.verify.heavy"
TASK_SWEEP = "provgraph.usecases.jobs.sweep"
TASK_PING = "provgraph.worker.ping"
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
        },
        "task_serializer": "json",
        "result_serializer": "json",
        "accept_content": ["json"],
    }


def queue_for(config: VerificationConfig) -> str:
    """``heavy`` when the config enables a model stage, else ``light``.

    One task verifies every citation of one output, so the heavy stages batch
    all of an output's (claim, source) pairs in one model call per stage.
    """
    return HEAVY_QUEUE if (config.embeddings or config.nli or config.llm_judge) else LIGHT_QUEUE


def task_for_queue(queue: str) -> str:
    """The verification task routed to ``queue``."""
    return TASK_VERIFY_HEAVY if queue == HEAVY_QUEUE else TASK_VERIFY_LIGHT
