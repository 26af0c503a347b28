"""Scheduled audit work on the worker: retention and checkpoints (beat-scheduled).

Both are thin wrappers over the use cases (:mod:`provgraph.usecases.retention`,
:mod:`provgraph.usecases.audit_checkpoint`) on this process's store. The
settings are read at run time, so a changed ``PROVGRAPH_RETENTION`` applies at
the next worker start; with no policy the retention task does nothing.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Celery, Task

from provgraph.config import load_settings
from provgraph.usecases.queues import TASK_CHECKPOINT, TASK_RETENTION

log = logging.getLogger(__name__)


def run_retention() -> dict[str, Any]:
    from provgraph.usecases.retention import apply_policy, parse_policy
    from services.worker.runtime import process_store

    policy = parse_policy(load_settings().retention)
    if not policy:
        return {"projects": {}, "policy": None}
    results = apply_policy(process_store(), policy, dry_run=False)
    erased = {r.project: list(r.sessions) for r in results}
    if any(erased.values()):
        log.info("retention erased sessions: %s", erased)
    return {"projects": erased, "policy": policy}


def run_checkpoints() -> dict[str, Any]:
    from provgraph.audit.signing import CheckpointSigner
    from provgraph.usecases.audit_checkpoint import checkpoint_all
    from services.worker.runtime import process_store

    key = load_settings().audit_signing_key
    signer = CheckpointSigner.from_pem_file(key) if key is not None else None
    return {"checkpoints": checkpoint_all(process_store(), signer)}


def register_audit_tasks(celery_app: Celery) -> None:
    def retention(self: Task) -> dict[str, Any]:
        """Erase the sessions past the retention policy (beat-scheduled)."""
        return run_retention()

    def checkpoint(self: Task) -> dict[str, Any]:
        """Seal a checkpoint for every project with new chain entries (beat-scheduled)."""
        return run_checkpoints()

    # shared=False: a shared task is added to every app the process creates, so a second
    # app (tests, the API's bare publishing client) would get a duplicate registration
    celery_app.task(name=TASK_RETENTION, bind=True, max_retries=0, shared=False)(retention)
    celery_app.task(name=TASK_CHECKPOINT, bind=True, max_retries=0, shared=False)(checkpoint)
