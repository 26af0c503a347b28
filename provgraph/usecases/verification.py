"""Request verification: record the job in the graph, then publish it through the port.

Shared by the API (GraphQL mutation, auto-verify after ingestion), the worker
(its dispatcher and sweep) and the CLI. The graph write comes first: if
publishing then fails (broker down) the job is still ``queued`` in the graph
and the worker's sweep publishes it later, so the caller gets the job, not an
error. A duplicate request returns the same job and publishes nothing new.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from provgraph.errors import NotFoundError
from provgraph.store.port import GraphStore
from provgraph.store.types import Job, JobState
from provgraph.usecases.jobs import request_verification
from provgraph.usecases.publishing import JobPublisher
from provgraph.usecases.queues import queue_for
from provgraph.verification.config import VerificationConfig

log = logging.getLogger(__name__)


def request_and_publish(
    store: GraphStore,
    publisher: JobPublisher,
    project: str,
    output_id: str,
    config: VerificationConfig | None = None,
    *,
    force: bool = False,
    extra: dict[str, Any] | None = None,
) -> Job:
    """The job for (output, config), published when it is newly ``queued`` (idempotent).

    Raises ``NotFoundError`` for an output that is not in the project. A
    publishing failure is logged, not raised: the job is durable in the graph.
    """
    config = config or VerificationConfig()
    job = request_verification(
        store, project, output_id, config, force=force, extra=extra, queue=queue_for(config)
    )
    if job.state is JobState.QUEUED:
        try:
            publisher.publish(project, job, config)
        except Exception as exc:  # broker down: the graph has the job, the sweep republishes
            log.warning("job %s recorded but not published (%s); the sweep will retry", job.id, exc)
    return job


def verify_outputs(
    store: GraphStore,
    publisher: JobPublisher,
    project: str,
    output_ids: Iterable[str],
    config: VerificationConfig | None = None,
) -> list[Job]:
    """Auto-verification: one job per output; an output the store lacks is skipped.

    Ingestion must not fail because verification could not be requested, so
    unknown outputs are logged and left out of the result.
    """
    jobs: list[Job] = []
    for output_id in dict.fromkeys(output_ids):
        try:
            jobs.append(request_and_publish(store, publisher, project, output_id, config))
        except NotFoundError:
            log.info("auto-verify: output %s of project %s not found; skipped", output_id, project)
    return jobs
