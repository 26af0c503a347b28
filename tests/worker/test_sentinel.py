"""A Sentinel-managed broker, end to end: real Redis master, replica and sentinel.

The API's readiness check and publishing client, ``provgraph worker-health``
and a real Celery worker are all pointed at the sentinel only (``sentinel://…``
and the master's name); a job runs to its report. Then the master is
SIGKILLed, the sentinel promotes the replica, readiness follows it, and the
next job runs on the new master through the same worker and the same API
client (both reconnect through the sentinel). Neither side is ever told the
master's own address.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from provgraph.config import Settings
from provgraph.store.async_memory import AsyncMemoryGraphStore
from provgraph.store.neo4j import open_async_neo4j_store
from provgraph.store.port import AsyncGraphStore, GraphStore
from provgraph.store.types import JobState
from provgraph.verification.config import VerificationConfig
from services.api.app import create_app
from services.api.verification import UseCaseDispatcher
from services.worker.health import worker_health
from tests.worker.conftest import (
    OUTPUT_ID,
    WorkerFactory,
    session_events,
    wait_for_job,
)
from tests.worker.sentinel_servers import (
    MASTER_NAME,
    SentinelSet,
    start_sentinel_set,
    wait_for_failover,
)

pytestmark = [pytest.mark.redis, pytest.mark.neo4j, pytest.mark.slow]

LIGHT = VerificationConfig(embeddings=False, nli=False)


@pytest.fixture
def sentinels(tmp_path: Path) -> Iterator[SentinelSet]:
    root = tmp_path / "sentinel-set"
    root.mkdir()
    try:
        servers = start_sentinel_set(root)
    except RuntimeError as exc:
        pytest.fail(f"cannot start the Redis Sentinel set: {exc}")
    yield servers
    servers.stop()


async def _readiness(settings: Settings) -> tuple[int, dict[str, str]]:
    app = create_app(settings, store=AsyncMemoryGraphStore(None))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
        response = await client.get("/readyz")
    return response.status_code, response.json()["checks"]


def _new_project(graph_store: GraphStore) -> str:
    name = f"sn-{uuid.uuid4().hex[:10]}"
    assert not graph_store.ingest(name, session_events()).rejected
    return name


async def test_a_sentinel_broker_runs_jobs_and_survives_a_failover(
    sentinels: SentinelSet,
    services_settings: Settings,
    graph_store: GraphStore,
    tmp_path: Path,
) -> None:
    settings = services_settings.model_copy(
        update={"broker_url": sentinels.url, "redis_sentinel_master": MASTER_NAME}
    )
    status, checks = await _readiness(settings)
    assert (status, checks["broker"]) == (200, "ok"), checks
    factory = WorkerFactory(settings, tmp_path / "workers")
    (tmp_path / "workers").mkdir()
    api_store = await open_async_neo4j_store(settings)

    async def getter() -> AsyncGraphStore:
        return api_store

    dispatcher = UseCaseDispatcher(settings, getter, config=LIGHT)

    def describe() -> str:
        return factory.logs() + "\n" + sentinels.logs()

    try:
        factory.start()
        first = _new_project(graph_store)
        job = await dispatcher.request(first, OUTPUT_ID)
        done = wait_for_job(
            graph_store, first, job.id, {JobState.DONE, JobState.FAILED}, 120, describe
        )
        assert done.state is JobState.DONE, done.error
        assert graph_store.get_report(first, OUTPUT_ID) is not None
        # the message went through the master the sentinel named, never through the replica
        assert sentinels.master_address() == ("127.0.0.1", sentinels.master_port)
        health = worker_health(settings, timeout=5.0)  # `provgraph worker-health`
        assert health.ok and set(health.queue_depths) == {"light", "heavy"}, health

        sentinels.kill("master")
        assert wait_for_failover(sentinels) == ("127.0.0.1", sentinels.replica_port)
        # a probe polls: right after a failover the sentinels may still be settling
        deadline = time.monotonic() + 30
        status, checks = await _readiness(settings)
        while (status, checks["broker"]) != (200, "ok") and time.monotonic() < deadline:
            await asyncio.sleep(0.5)
            status, checks = await _readiness(settings)
        assert (status, checks["broker"]) == (200, "ok"), checks

        second = _new_project(graph_store)
        job = await dispatcher.request(second, OUTPUT_ID)
        done = wait_for_job(
            graph_store, second, job.id, {JobState.DONE, JobState.FAILED}, 120, describe
        )
        assert done.state is JobState.DONE, done.error
        assert len(graph_store.list_reports(second).items) == 1
    finally:
        await dispatcher.close()
        await api_store.close()
        factory.stop_all()


async def test_readiness_names_a_dead_sentinel_set_and_a_missing_master(
    services_settings: Settings,
) -> None:
    from provgraph.ops import _process

    nobody = f"sentinel://127.0.0.1:{_process.free_port()}"
    dead = services_settings.model_copy(
        update={"broker_url": nobody, "redis_sentinel_master": MASTER_NAME}
    )
    status, checks = await _readiness(dead)
    assert status == 503 and checks["broker"].startswith(f"no master {MASTER_NAME!r}"), checks
    unnamed = services_settings.model_copy(update={"broker_url": nobody})
    status, checks = await _readiness(unnamed)
    assert status == 503 and "PROVGRAPH_REDIS_SENTINEL_MASTER" in checks["broker"], checks
