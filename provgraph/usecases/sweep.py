"""Re-enqueue jobs the graph has but the queue lost, and create jobs nobody requested.

The graph is the source of truth for job state; Redis holds only deliveries.
A job can be ``queued`` in the graph with no message anywhere (Redis restarted
without persistence, the publish after the graph write failed) or ``running``
with a worker that died after Redis forgot its unacknowledged message. The
sweep publishes such jobs again. Publishing a job that still has a message is
harmless — the second run finds it ``done`` — but wasteful, so only jobs with
no progress for a while (``*_stale_after``) are swept, and a swept job's
``updated_at`` is touched so the next sweep waits again.

A final output can also have no job at all: auto-verification is requested
after the ingest answered, so an API killed in between leaves outputs that
nobody asked about (the lost-jobs defect). :func:`sweep_unrequested_outputs`
finds final outputs with neither a job nor a report and requests and
publishes their jobs, with the config the API's auto-verify uses; the job id
is deterministic, so racing the API's own late request yields one job.

The port has no conditional write, so the touch re-reads the job first and
writes only if it is unchanged; a worker starting the job in between can still
be overwritten for an instant, which its own next write repairs.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from provgraph.errors import NotFoundError
from provgraph.store.port import GraphStore
from provgraph.store.types import Job, JobState
from provgraph.usecases.jobs import (
    config_from_json,
    config_hash_of,
    job_id_for,
    job_project,
    request_verification,
    utcnow,
)
from provgraph.usecases.queues import queue_for
from provgraph.verification.config import VerificationConfig

log = logging.getLogger(__name__)

Publish = Callable[[str, Job, VerificationConfig], None]
"""Sends one job to the queue: ``publish(project, job, config)``."""


@dataclass(frozen=True)
class SweepResult:
    """Job ids published again, by the state they were found in."""

    requeued: tuple[str, ...] = ()
    reset_running: tuple[str, ...] = ()
    created: tuple[str, ...] = ()
    """Jobs created for final outputs that had none (see :func:`sweep_unrequested_outputs`)."""


def sweep_jobs(
    store: GraphStore,
    publish: Publish,
    *,
    queued_stale_after: float,
    running_stale_after: float,
    now: datetime | None = None,
    limit: int = 1000,
) -> SweepResult:
    """Publish stale ``queued`` jobs and stale ``running`` jobs again (all projects).

    ``running_stale_after`` must exceed the longest possible run plus the
    visibility timeout (a message still owned by a live or restorable worker
    must not be duplicated); ``queued_stale_after`` should exceed the longest
    retry countdown. At most ``limit`` jobs per state per sweep, oldest first.
    """
    now = now or utcnow()
    requeued = _sweep_state(
        store, publish, JobState.QUEUED, now - timedelta(seconds=queued_stale_after), now, limit
    )
    reset = _sweep_state(
        store, publish, JobState.RUNNING, now - timedelta(seconds=running_stale_after), now, limit
    )
    if requeued or reset:
        log.info(
            "sweep: re-enqueued %d queued and %d stale running jobs", len(requeued), len(reset)
        )
    return SweepResult(tuple(requeued), tuple(reset))


def _sweep_state(
    store: GraphStore,
    publish: Publish,
    state: JobState,
    cutoff: datetime,
    now: datetime,
    limit: int,
) -> list[str]:
    swept: list[str] = []
    for job in store.list_jobs(None, state=state.value, limit=limit):
        if job.updated_at > cutoff:
            continue
        project = job_project(job)
        if project is None:
            log.warning("sweep: job %s has no project in its extra; skipped", job.id)
            continue
        current = store.get_job(project, job.id)
        if current is None or current != job:
            continue  # it moved on since the listing
        try:
            config = config_from_json(job.extra.get("config"))
        except ValueError as exc:  # pydantic's ValidationError is a ValueError
            log.warning("sweep: job %s has an invalid config (%s); skipped", job.id, exc)
            continue
        touched = replace(job, state=JobState.QUEUED, updated_at=now)
        store.save_job(project, touched)
        publish(project, touched, config)
        swept.append(job.id)
    return swept


def sweep_unrequested_outputs(
    store: GraphStore,
    publish: Publish,
    config: VerificationConfig,
    *,
    project: str | None = None,
    limit: int = 1000,
) -> list[str]:
    """Request and publish a job for each final output with no job and no report.

    ``config`` must be the auto-verify config (the default one), so a job made
    here has the id the API's request would have made. All projects unless
    ``project``; at most ``limit`` outputs per sweep. An existing job found by
    id (saved before jobs carried ``output_id``) is re-saved so the query
    stops returning its output; it is not published here (the stale-job pass
    owns jobs that exist). Returns the ids of the jobs created and published.
    """
    created: list[str] = []
    for owner, output_id in store.outputs_without_jobs(project, limit=limit):
        existing = store.get_job(owner, job_id_for(owner, output_id, config_hash_of(config)))
        if existing is not None:
            store.save_job(owner, existing)  # saved before jobs carried output_id: backfill
            continue
        try:
            job = request_verification(store, owner, output_id, config, queue=queue_for(config))
        except NotFoundError:
            continue  # became a placeholder or vanished since the listing
        try:
            publish(owner, job, config)
        except Exception as exc:  # broker down: the job is queued in the graph; next sweep
            log.warning("sweep: job %s created but not published (%s)", job.id, exc)
        created.append(job.id)
    if created:
        log.info("sweep: created %d jobs for final outputs nobody requested", len(created))
    return created
