"""End to end: real Redis, real Neo4j, real ``celery worker`` processes.

Each test uses its own project, so jobs and reports of one test never show up
in another; stray messages of an earlier test are harmless no-ops (their jobs
are done).
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from provgraph.config import Settings
from provgraph.store.port import GraphStore
from provgraph.store.types import Job, JobState
from provgraph.usecases.jobs import job_id_for, request_verification, utcnow
from provgraph.usecases.queues import TASK_SWEEP
from provgraph.verification.config import VerificationConfig
from services.worker.dispatch import celery_app_for, enqueue_verification, publish_job
from tests.worker.conftest import OUTPUT_ID, WorkerFactory, wait_for_job
from tests.worker.hooked_app import TEST_DELAY_SECONDS

pytestmark = [pytest.mark.redis, pytest.mark.neo4j, pytest.mark.slow]

LIGHT = VerificationConfig(embeddings=False, nli=False)
FINISHED = {JobState.DONE, JobState.FAILED}
RUN_TIMEOUT = 180.0


def report_count(store: GraphStore, project: str) -> int:
    return len(store.list_reports(project, first=50).items)


def test_job_goes_from_queued_to_done_with_its_report_in_the_graph(
    workers: WorkerFactory, services_settings: Settings, graph_store: GraphStore, project: str
) -> None:
    workers.start()
    job = enqueue_verification(
        project, OUTPUT_ID, settings=services_settings, config=LIGHT, store=graph_store
    )
    assert job.state is JobState.QUEUED
    assert job.extra["queue"] == "light"
    done = wait_for_job(graph_store, project, job.id, FINISHED, RUN_TIMEOUT, workers.logs)
    assert done.state is JobState.DONE, done.error
    assert done.attempts == 1 and done.report_version == 1
    assert done.extra["started_at"] <= done.extra["finished_at"]
    report = graph_store.get_report(project, OUTPUT_ID)
    assert report is not None and report.config_hash == LIGHT.config_hash()
    assert report.report["citations_checked"] == done.extra["citations_checked"] > 0


def test_duplicate_requests_and_deliveries_yield_one_report(
    workers: WorkerFactory, services_settings: Settings, graph_store: GraphStore, project: str
) -> None:
    first = enqueue_verification(
        project, OUTPUT_ID, settings=services_settings, config=LIGHT, store=graph_store
    )
    again = enqueue_verification(
        project, OUTPUT_ID, settings=services_settings, config=LIGHT, store=graph_store
    )
    assert again.id == first.id
    # A second delivery of the same job, as a redelivery or a sweep would make.
    publish_job(project, first, LIGHT, celery_app=celery_app_for(services_settings))
    workers.start()
    done = wait_for_job(graph_store, project, first.id, FINISHED, RUN_TIMEOUT, workers.logs)
    assert done.state is JobState.DONE, done.error
    _wait_queues_empty(services_settings)
    time.sleep(2.0)  # let the duplicate delivery finish (it finds the job done)
    final = graph_store.get_job(project, first.id)
    assert final is not None and final.attempts == 1 and final.state is JobState.DONE
    assert report_count(graph_store, project) == 1
    # Asking once more for a done job returns it and runs nothing.
    repeat = enqueue_verification(
        project, OUTPUT_ID, settings=services_settings, config=LIGHT, store=graph_store
    )
    assert repeat.state is JobState.DONE and repeat.attempts == 1
    # A new config is a new report version; the old one stays.
    other = VerificationConfig(embeddings=False, nli=False, tfidf_chunk_chars=800)
    second = enqueue_verification(
        project, OUTPUT_ID, settings=services_settings, config=other, store=graph_store
    )
    done2 = wait_for_job(graph_store, project, second.id, FINISHED, RUN_TIMEOUT, workers.logs)
    assert done2.state is JobState.DONE and done2.report_version == 2
    assert report_count(graph_store, project) == 2
    v1 = graph_store.get_report(project, OUTPUT_ID, version=1)
    assert v1 is not None and v1.config_hash == LIGHT.config_hash()


def test_a_worker_killed_mid_task_completes_the_job_after_restart_with_one_report(
    workers: WorkerFactory, services_settings: Settings, graph_store: GraphStore, project: str
) -> None:
    first_worker = workers.start()
    job = enqueue_verification(
        project,
        OUTPUT_ID,
        settings=services_settings,
        config=LIGHT,
        store=graph_store,
        extra={TEST_DELAY_SECONDS: 120},  # only the first attempt sleeps
    )
    running = wait_for_job(
        graph_store, project, job.id, {JobState.RUNNING}, RUN_TIMEOUT, workers.logs
    )
    assert running.attempts == 1
    first_worker.kill()
    workers.start()
    done = wait_for_job(graph_store, project, job.id, FINISHED, RUN_TIMEOUT, workers.logs)
    assert done.state is JobState.DONE, done.error
    assert done.attempts == 2
    assert report_count(graph_store, project) == 1


def test_a_permanently_failing_job_ends_failed_with_the_reason(
    workers: WorkerFactory, services_settings: Settings, graph_store: GraphStore, project: str
) -> None:
    # The output disappears between the request and the run: no retry can fix that.
    now = utcnow()
    missing = "no.such.output"
    job = graph_store.save_job(
        project,
        Job(
            id=job_id_for(project, missing, LIGHT.config_hash()),
            output_id=missing,
            config_hash=LIGHT.config_hash(),
            state=JobState.QUEUED,
            created_at=now,
            updated_at=now,
            extra={"project": project},
        ),
    )
    publish_job(project, job, LIGHT, celery_app=celery_app_for(services_settings))
    workers.start()
    failed = wait_for_job(graph_store, project, job.id, FINISHED, RUN_TIMEOUT, workers.logs)
    assert failed.state is JobState.FAILED
    assert failed.error is not None and "no.such.output" in failed.error
    assert failed.attempts == 1
    assert graph_store.get_report(project, missing) is None


def test_heavy_configs_are_routed_to_the_heavy_queue(
    workers: WorkerFactory, services_settings: Settings, graph_store: GraphStore, project: str
) -> None:
    heavy = VerificationConfig(embeddings=True, nli=True)
    workers.start(queues="heavy")
    job = enqueue_verification(
        project, OUTPUT_ID, settings=services_settings, config=heavy, store=graph_store
    )
    assert job.extra["queue"] == "heavy"
    done = wait_for_job(graph_store, project, job.id, FINISHED, RUN_TIMEOUT * 2, workers.logs)
    assert done.state is JobState.DONE, done.error
    report = graph_store.get_report(project, OUTPUT_ID)
    assert report is not None
    stages = {s["name"]: s["status"] for s in report.report["stages"]}
    assert stages["embeddings"] in {"ran", "skipped"} and stages["nli"] in {"ran", "skipped"}


def test_the_sweep_reenqueues_jobs_queued_in_the_graph_but_not_in_redis(
    workers: WorkerFactory, services_settings: Settings, graph_store: GraphStore, project: str
) -> None:
    job = request_verification(graph_store, project, OUTPUT_ID, LIGHT)  # never published
    workers.start(env={"PROVGRAPH_WORKER_SWEEP_STALE_AFTER": "1"})
    time.sleep(1.5)
    celery_app_for(services_settings).send_task(TASK_SWEEP, queue="light")
    done = wait_for_job(graph_store, project, job.id, FINISHED, RUN_TIMEOUT, workers.logs)
    assert done.state is JobState.DONE, done.error


def test_queued_messages_survive_a_redis_restart(
    workers: WorkerFactory,
    services_settings: Settings,
    graph_store: GraphStore,
    project: str,
    redis_service: Any,
) -> None:
    from provgraph.ops.redis_server import start_redis, stop_redis

    job = enqueue_verification(
        project, OUTPUT_ID, settings=services_settings, config=LIGHT, store=graph_store
    )
    time.sleep(1.5)  # appendfsync everysec
    stop_redis(redis_service.data_dir, grace=20.0)
    start_redis(redis_service.data_dir, redis_service.port, persistent=True)
    workers.start()
    done = wait_for_job(graph_store, project, job.id, FINISHED, RUN_TIMEOUT, workers.logs)
    assert done.state is JobState.DONE, done.error


def _wait_queues_empty(settings: Settings, timeout: float = 60.0) -> None:
    import redis

    client = redis.Redis.from_url(settings.broker_url or "")
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            if client.llen("light") == 0 and client.llen("heavy") == 0:
                return
            time.sleep(0.25)
    finally:
        client.close()
    pytest.fail("queues did not drain")
