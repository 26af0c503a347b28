"""The API's verification adapter in broker mode: a Celery *client* sends the task by name.

The API process never imports ``services.worker``; this checks the message it
publishes is one a real worker picks up and runs to a report, and that the
client really is a bare one (it registers none of the worker's tasks).
"""

from __future__ import annotations

import pytest

from provgraph.config import Settings
from provgraph.store.neo4j import open_async_neo4j_store
from provgraph.store.port import AsyncGraphStore, GraphStore
from provgraph.store.types import JobState
from provgraph.usecases.queues import TASK_VERIFY_LIGHT
from provgraph.verification.config import VerificationConfig
from services.api.task_client import celery_client
from services.api.verification import UseCaseDispatcher
from tests.worker.conftest import OUTPUT_ID, WorkerFactory, wait_for_job

pytestmark = [pytest.mark.redis, pytest.mark.neo4j, pytest.mark.slow]

LIGHT = VerificationConfig(embeddings=False, nli=False)


async def test_the_api_publishes_by_name_and_a_worker_runs_the_job(
    workers: WorkerFactory, services_settings: Settings, graph_store: GraphStore, project: str
) -> None:
    api_store = await open_async_neo4j_store(services_settings)

    async def getter() -> AsyncGraphStore:
        return api_store

    dispatcher = UseCaseDispatcher(services_settings, getter, config=LIGHT)
    try:
        job = await dispatcher.request(project, OUTPUT_ID)  # published before any worker runs
        assert job.state is JobState.QUEUED and job.extra["queue"] == "light"
        assert TASK_VERIFY_LIGHT not in celery_client(services_settings).tasks
        workers.start()
        done = wait_for_job(
            graph_store, project, job.id, {JobState.DONE, JobState.FAILED}, 180, workers.logs
        )
        assert done.state is JobState.DONE, done.error
        assert graph_store.get_report(project, OUTPUT_ID) is not None
        again = await dispatcher.request(project, OUTPUT_ID)
        assert again.id == job.id and again.state is JobState.DONE
    finally:
        await dispatcher.close()
        await api_store.close()
