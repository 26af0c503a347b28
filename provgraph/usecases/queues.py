"""Queue and task names: the contract between whoever publishes a job and the worker.

The API sends tasks **by name** and never imports the worker, so the names,
the queues live here, framework-free: the worker's Celery app registers its
tasks under these names, and every publisher sends to them (the routing of
both sides is :func:`provgraph.usecases.publishing.queue_topology`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
TASK_RETENTION = "provgraph.audit.retention"
TASK_CHECKPOINT = "provgraph.audit.checkpoint"


def queue_for(config: VerificationConfig) -> str:
    """``heavy`` when the config enables a model stage, else ``light``.

    One task verifies every citation of one output, so the heavy stages batch
    all of an output's (claim, source) pairs in one model call per stage.
    """
    return HEAVY_QUEUE if (config.embeddings or config.nli or config.llm_judge) else LIGHT_QUEUE


def task_for_queue(queue: str) -> str:
    """The verification task routed to ``queue``."""
    return TASK_VERIFY_HEAVY if queue == HEAVY_QUEUE else TASK_VERIFY_LIGHT
