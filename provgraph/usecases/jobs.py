"""Verification jobs: deterministic ids, idempotent request and idempotent run.

A job is the unit of asynchronous verification: one final output checked under
one verifier config. Its state lives in the graph (``queued`` → ``running`` →
``done`` | ``failed``), so it survives a lost queue message, a restarted broker
or a killed worker. This module is the domain half and knows nothing about
Celery: the worker (``services.worker``) and the embedded runner
(:mod:`provgraph.usecases.jobs_inline`) both call :func:`request_verification` and
:func:`run_verification_job`. It is application logic (a state machine over
the storage port), so it lives in the use-case layer.

Idempotency rests on two deterministic keys:

* the job id is a hash of ``(project, output_id, config_hash)``, so a duplicate
  request finds the job it already created instead of making a second one;
* the store keeps one report per ``(output_id, config_hash)``
  (``GraphStore.save_report`` replaces content and keeps the version), so a
  redelivered or retried run rewrites the same report instead of adding one.

The :class:`~provgraph.store.types.Job` type has no project field, so the
project (and the config, for re-enqueueing from the graph) is kept in
``job.extra``; the re-enqueue sweep needs both.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from provgraph.errors import NotFoundError, RetryableError
from provgraph.store.port import GraphStore
from provgraph.store.types import Job, JobState, StoredReport

if TYPE_CHECKING:
    from provgraph.verification.config import StageModels, VerificationConfig

log = logging.getLogger(__name__)

JOB_ID_PREFIX = "vjob_"
DEFAULT_MAX_ATTEMPTS = 12
"""Runs of one job (retries and redeliveries together) before it is failed.

A bound is needed for poison jobs that crash the worker process itself (OOM,
segfault in a model): such a job is redelivered forever otherwise, because a
killed process never reaches the task's own retry accounting.
"""

BeforeRun = Callable[[Job], None]
"""Called with the job marked ``running``, before the engine runs (tests inject a pause)."""

# Keys of ``job.extra`` this module owns.
EXTRA_PROJECT = "project"
EXTRA_CONFIG = "config"
EXTRA_QUEUE = "queue"
EXTRA_STARTED_AT = "started_at"
EXTRA_FINISHED_AT = "finished_at"
EXTRA_DURATION_S = "duration_s"
EXTRA_CITATIONS = "citations_checked"
EXTRA_REPORT_CONFIG_HASH = "report_config_hash"


def utcnow() -> datetime:
    """Timezone-aware now (jobs are compared and serialised in UTC)."""
    return datetime.now(UTC)


def config_hash_of(config: VerificationConfig) -> str:
    """The stable hash of a verifier config (the report version key).

    Always the config's own ``config_hash()``: the worker must compute exactly
    the hash the engine writes into the report, or one (output, config) pair
    could get two reports.
    """
    return config.config_hash()


def config_to_json(config: VerificationConfig) -> dict[str, Any]:
    """The config as JSON-safe data (queue messages and ``job.extra`` carry it)."""
    dumped: dict[str, Any] = config.model_dump(mode="json")
    return dumped


def config_from_json(data: dict[str, Any] | None) -> VerificationConfig:
    """Rebuild a config from :func:`config_to_json` output (``None``: the defaults)."""
    from provgraph.verification.config import VerificationConfig

    if not data:
        return VerificationConfig()
    return VerificationConfig.model_validate(data)


def job_id_for(project: str, output_id: str, config_hash: str) -> str:
    """Deterministic job id: the same project, output and config always give the same id.

    The parts are length-prefixed before hashing so that no two different
    triples can produce the same hashed text.
    """
    text = "".join(f"{len(part)}:{part}" for part in (project, output_id, config_hash))
    return JOB_ID_PREFIX + hashlib.sha256(text.encode()).hexdigest()[:32]


def job_project(job: Job) -> str | None:
    """The project a job belongs to (kept in ``extra``; ``Job`` has no such field)."""
    value = job.extra.get(EXTRA_PROJECT)
    return value if isinstance(value, str) else None


def request_verification(
    store: GraphStore,
    project: str,
    output_id: str,
    config: VerificationConfig,
    *,
    force: bool = False,
    extra: dict[str, Any] | None = None,
    queue: str | None = None,
) -> Job:
    """Create the job for (output, config) in state ``queued``, or return the existing one.

    Idempotent: a job already ``queued`` or ``running`` is returned unchanged
    (the caller must not enqueue it a second time, though doing so is harmless);
    a ``done`` job is returned unchanged unless ``force`` (then it is re-queued
    and its report rewritten in place, same version). A ``failed`` job is
    re-queued with its attempts reset: asking again is how a user retries.
    Raises ``NotFoundError`` when the output is not in the project, so a typo
    fails at request time rather than later on a worker.
    """
    node = store.get_node(project, output_id)
    if node is None or node.is_placeholder:
        raise NotFoundError(
            f"output {output_id!r} is not in project {project!r}: ingest its event first"
        )
    chash = config_hash_of(config)
    job_id = job_id_for(project, output_id, chash)
    now = utcnow()
    own = {EXTRA_PROJECT: project, EXTRA_CONFIG: config_to_json(config)}
    if queue is not None:
        own[EXTRA_QUEUE] = queue
    existing = store.get_job(project, job_id)
    if existing is not None:
        if existing.state in (JobState.QUEUED, JobState.RUNNING):
            return existing
        if existing.state is JobState.DONE and not force:
            return existing
        requeued = replace(
            existing,
            state=JobState.QUEUED,
            attempts=0,
            error=None,
            updated_at=now,
            extra={**existing.extra, **(extra or {}), **own},
        )
        return store.save_job(project, requeued)
    job = Job(
        id=job_id,
        output_id=output_id,
        config_hash=chash,
        state=JobState.QUEUED,
        created_at=now,
        updated_at=now,
        extra={**(extra or {}), **own},
    )
    return store.save_job(project, job)


def run_verification_job(
    store: GraphStore,
    project: str,
    job_id: str,
    config: VerificationConfig,
    *,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    models: StageModels | None = None,
    before_run: BeforeRun | None = None,
) -> Job:
    """Run one job to ``done`` or ``failed``; safe to call again for the same job.

    A job already ``done`` or ``failed`` is returned unchanged (a redelivered
    message after completion, or a late duplicate, does nothing). Otherwise the
    job is marked ``running`` (attempts + 1, ``started_at``), the engine runs,
    and the report (one per output and config, whatever the number of runs)
    and the job's ``done`` state with the report version are stored in one
    write (:meth:`GraphStore.complete_job`).

    Transient failures (:class:`RetryableError`, e.g. the store is down) put the
    job back to ``queued`` when the store allows it and re-raise, so the caller
    retries with backoff. Any other exception is permanent: the job is marked
    ``failed`` with the reason and returned. Raises ``NotFoundError`` when the
    job itself is unknown. ``models`` are preloaded stage models (a worker
    process passes its own, loaded once) handed to the engine. ``before_run``
    is an injected hook (the tests pause there to kill a worker mid-job).
    """
    job = store.get_job(project, job_id)
    if job is None:
        raise NotFoundError(f"job {job_id!r} is not in project {project!r}")
    if job.state in (JobState.DONE, JobState.FAILED):
        return job
    if job.attempts >= max_attempts:
        return mark_failed(store, project, job, f"gave up after {job.attempts} attempts")
    started = utcnow()
    job = store.save_job(
        project,
        replace(
            job,
            state=JobState.RUNNING,
            attempts=job.attempts + 1,
            error=None,
            updated_at=started,
            extra={**job.extra, EXTRA_STARTED_AT: started.isoformat()},
        ),
    )
    clock = time.monotonic()
    try:
        if before_run is not None:
            before_run(job)
        report, citations = _verify(store, project, job, config, models)
        finished = utcnow()
        done = replace(
            job,
            state=JobState.DONE,
            error=None,
            updated_at=finished,
            extra={
                **job.extra,
                EXTRA_FINISHED_AT: finished.isoformat(),
                EXTRA_DURATION_S: round(time.monotonic() - clock, 6),
                EXTRA_CITATIONS: citations,
                EXTRA_REPORT_CONFIG_HASH: report.config_hash,
            },
        )
        # the report and the job's final state in one write: both or neither
        _, done = store.complete_job(project, report, done)
    except RetryableError as exc:
        _requeue_after_transient(store, project, job, exc)
        raise
    except Exception as exc:  # anything else will fail again: record it, do not retry
        log.warning("verification job %s failed permanently: %s", job.id, exc, exc_info=True)
        return mark_failed(store, project, job, f"{type(exc).__name__}: {exc}")
    return done


def mark_failed(store: GraphStore, project: str, job: Job | str, reason: str) -> Job:
    """Record ``failed`` with the reason (the last error), keeping attempts and timestamps.

    Accepts a job or a job id (the worker calls it with an id when retries are
    exhausted). Raises ``NotFoundError`` for an unknown id and lets
    ``StoreUnavailableError`` through: if even this write cannot be made the
    job stays ``queued``/``running`` in the graph and the sweep picks it up.
    """
    if isinstance(job, str):
        found = store.get_job(project, job)
        if found is None:
            raise NotFoundError(f"job {job!r} is not in project {project!r}")
        job = found
    if job.state is JobState.DONE:
        return job  # a concurrent run finished it: success wins over a stale failure
    now = utcnow()
    failed = replace(
        job,
        state=JobState.FAILED,
        error=reason,
        updated_at=now,
        extra={**job.extra, EXTRA_FINISHED_AT: now.isoformat()},
    )
    return store.save_job(project, failed)


def _verify(
    store: GraphStore,
    project: str,
    job: Job,
    config: VerificationConfig,
    models: StageModels | None,
) -> tuple[StoredReport, int]:
    """Run the engine; the report to store under the job's config hash, and citations checked.

    The output node is read once, here: its session id goes into the stored
    report and the engine verifies the node it is given.
    """
    from provgraph.verification.engine import verify_node
    from provgraph.verification.report import report_to_stored

    node = store.get_node(project, job.output_id)
    if node is None:
        raise NotFoundError(f"output {job.output_id!r} is no longer in project {project!r}")
    report = verify_node(store, project, node, config, models=models)
    stored = report_to_stored(report, job.output_id, node.session_id)
    if stored.config_hash != job.config_hash:
        # Version skew: the requester and this worker run different VerificationConfig
        # code (a field or default changed), so the same config JSON hashes differently.
        # The report is keyed by what this engine ran; the job records both hashes.
        log.warning(
            "job %s: engine config hash %s differs from the job's %s (requester and worker"
            " run different versions?)",
            job.id,
            stored.config_hash,
            job.config_hash,
        )
    return stored, report.citations_checked


def _requeue_after_transient(
    store: GraphStore, project: str, job: Job, exc: RetryableError
) -> None:
    """Best effort: show the job as ``queued`` again with the transient error.

    The store is often the thing that is down, so failing here is expected and
    only logged; the job then stays ``running`` until the retry runs it.
    """
    try:
        store.save_job(
            project,
            replace(
                job,
                state=JobState.QUEUED,
                error=f"transient: {exc}",
                updated_at=utcnow(),
            ),
        )
    except Exception as save_exc:  # the store is probably down: nothing more to do
        log.info("job %s: could not record transient error (%s)", job.id, save_exc)
