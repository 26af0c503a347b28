"""A real Neo4j outage during a job: the worker retries with backoff and the job ends done.

The server is really stopped (TERM) while the job is running and started again
on the same data folder and port; nothing is simulated. This needs a Neo4j we
may stop: the one this test session started, or a dedicated one when the
session's server belongs to someone else (``PROVGRAPH_TEST_NEO4J_URI``).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from provgraph.config import Settings
from provgraph.store.port import GraphStore
from provgraph.store.types import JobState
from provgraph.verification.config import VerificationConfig
from services.worker.dispatch import enqueue_verification
from tests.worker.conftest import (
    OUTPUT_ID,
    SERVICE_TIMEOUT,
    Neo4jService,
    WorkerFactory,
    _start_owned_neo4j,
    service_settings,
    session_events,
    wait_for_job,
)
from tests.worker.hooked_app import TEST_DELAY_SECONDS

pytestmark = [pytest.mark.redis, pytest.mark.neo4j, pytest.mark.slow]

LIGHT = VerificationConfig(embeddings=False, nli=False)
OUTAGE_WORKER_ENV = {
    # Retries must outlast a Neo4j restart (60-90 s on two busy cores): about
    # 60 retries x 2-4 s. The countdown cap stays under the 10 s visibility timeout.
    "PROVGRAPH_WORKER_MAX_RETRIES": "60",
    "PROVGRAPH_WORKER_RETRY_BACKOFF": "1",
    "PROVGRAPH_WORKER_RETRY_BACKOFF_MAX": "4",
    # The job sleeps OUTAGE_DELAY_S before touching the store so that the stop
    # (5-12 s of graceful shutdown here) lands first; no redelivery meanwhile.
    "PROVGRAPH_WORKER_VISIBILITY_TIMEOUT": "120",
}
OUTAGE_DELAY_S = 20
DOWN_AFTER_WAKE_S = 10
"""The server stays down this long after the job wakes, however fast it restarts."""


@pytest.fixture(scope="module")
def stoppable_neo4j(
    neo4j_service: Neo4jService, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Neo4jService]:
    if neo4j_service.data_dir is not None:
        yield neo4j_service
        return
    service = _start_owned_neo4j(tmp_path_factory.mktemp("neo4j-outage"))
    yield service
    from provgraph.ops.neo4j_server import stop_neo4j

    assert service.data_dir is not None
    stop_neo4j(service.data_dir, grace=30.0)


def test_a_transient_neo4j_outage_during_a_job_ends_done_after_retries(
    stoppable_neo4j: Neo4jService,
    redis_service: Any,
    tmp_path: Path,
) -> None:
    from provgraph.ops.neo4j_server import start_neo4j, stop_neo4j
    from provgraph.store.neo4j import open_neo4j_store

    settings: Settings = service_settings(redis_service, stoppable_neo4j)
    assert stoppable_neo4j.data_dir is not None
    store: GraphStore = open_neo4j_store(settings)
    factory = WorkerFactory(settings, tmp_path)
    try:
        project = f"wk-outage-{uuid.uuid4().hex[:8]}"
        store.ingest(project, session_events())
        factory.start(env=OUTAGE_WORKER_ENV)
        job = enqueue_verification(
            project,
            OUTPUT_ID,
            settings=settings,
            config=LIGHT,
            store=store,
            extra={TEST_DELAY_SECONDS: OUTAGE_DELAY_S},
        )
        wait_for_job(store, project, job.id, {JobState.RUNNING}, 180, factory.logs)
        woke_at = time.monotonic() + OUTAGE_DELAY_S
        stop_neo4j(stoppable_neo4j.data_dir, grace=30.0)
        time.sleep(max(0.0, woke_at + DOWN_AFTER_WAKE_S - time.monotonic()))
        start_neo4j(
            stoppable_neo4j.data_dir,
            stoppable_neo4j.port,
            auth=False,
            heap="512m",
            pagecache="128m",
            timeout=SERVICE_TIMEOUT,
        )
        done = wait_for_job(
            store, project, job.id, {JobState.DONE, JobState.FAILED}, 300, factory.logs
        )
        assert done.state is JobState.DONE, f"{done.error}\n{factory.logs()}"
        assert done.attempts >= 2, "the outage did not hit the job; nothing was retried"
        assert len(store.list_reports(project).items) == 1
    finally:
        factory.stop_all()
        store.close()
