"""A Neo4j outage answers 503 at once, without the server's address, and recovery is noticed.

The campaign measured 7-11 s per 503 while Neo4j was down (every request
re-ran the driver's retry loop) and found the bolt URI in the bodies.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from provgraph.config import Settings
from provgraph.errors import StoreUnavailableError
from provgraph.store.neo4j.async_adapter import AsyncNeo4jGraphStore
from provgraph.store.neo4j.availability import Availability
from provgraph.store.neo4j.driver import ConnectionConfig
from services.api.app import create_app
from tests.api.conftest import free_port


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class _Untouchable:
    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the driver was used ({name}) while the store was known down")


def test_one_probe_per_interval_while_down() -> None:
    clock = _Clock()
    availability = Availability(probe_interval=0.5, clock=clock)
    assert not availability.known_down
    availability.mark_down()
    assert availability.known_down and not availability.claim_probe()
    clock.now += 0.6
    assert availability.claim_probe() and not availability.claim_probe()
    availability.mark_up()
    assert not availability.known_down


def _dead_store(clock: _Clock) -> tuple[AsyncNeo4jGraphStore, int]:
    port = free_port()  # nothing listens there
    store = AsyncNeo4jGraphStore(
        ConnectionConfig.from_settings(Settings(neo4j_uri=f"bolt://127.0.0.1:{port}"))
    )
    store.availability = Availability(clock=clock)
    return store, port


async def test_unreachable_store_fails_then_fails_fast_without_the_address() -> None:
    clock = _Clock()
    store, port = _dead_store(clock)
    try:
        with pytest.raises(StoreUnavailableError) as first:
            await store.get_node("p", "n")
        assert store.availability.known_down
        real_driver, store._driver = store._driver, _Untouchable()  # type: ignore[assignment]
        store._read_driver = _Untouchable()  # type: ignore[assignment]
        with pytest.raises(StoreUnavailableError) as second:
            await store.get_node("p", "n")
        store._driver, store._read_driver = real_driver, None
    finally:
        await store.close()
    for message in (str(first.value), str(second.value)):
        assert "bolt://" not in message and str(port) not in message
        assert "unavailable" in message


@pytest.mark.neo4j
async def test_recovery_is_noticed_by_the_next_probe(neo4j_uri: str) -> None:
    clock = _Clock()
    store = AsyncNeo4jGraphStore(ConnectionConfig.from_settings(Settings(neo4j_uri=neo4j_uri)))
    store.availability = Availability(clock=clock)
    try:
        store.availability.mark_down()
        with pytest.raises(StoreUnavailableError):
            await store.get_node("p", "n")  # inside the interval: refused without a probe
        clock.now += 1.0
        assert await store.get_node("p", "missing") is None  # the probe finds it up
        assert not store.availability.known_down
    finally:
        await store.close()


async def test_api_answers_503_without_the_address(tmp_path: Any) -> None:
    clock = _Clock()
    store, port = _dead_store(clock)
    settings = Settings(home=tmp_path, bootstrap_admin_key="k" * 40, project="acme")
    app = create_app(settings, store=store)
    event = {
        "id": "e1",
        "type": "data_read",
        "timestamp": "2026-01-01T00:00:00Z",
        "session_id": "s",
        "node_id": "n",
    }
    headers = {"Authorization": "Bearer " + "k" * 40}
    transport = httpx.ASGITransport(app=app)
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            bodies = []
            for _ in range(2):
                response = await client.post("/v1/events", json=[event], headers=headers)
                assert response.status_code == 503 and response.headers["Retry-After"]
                bodies.append(response.text)
            graphql = await client.post(
                "/graphql", json={"query": '{ node(id: "n") { id } }'}, headers=headers
            )
            bodies.append(graphql.text)
            ready = await client.get("/readyz")
            assert ready.status_code == 503
            bodies.append(ready.text)
    finally:
        await store.close()
    for body in bodies:
        assert "bolt" not in body and str(port) not in body
    assert "unavailable" in bodies[0] and "unavailable" in bodies[2]


async def test_opening_an_unreachable_store_fails_at_the_connectivity_check() -> None:
    """Before, each request re-ran the migrations' retry loop (7-10 s per 503)."""
    from provgraph.store.neo4j import open_async_neo4j_store

    port = free_port()
    with pytest.raises(StoreUnavailableError) as caught:
        await open_async_neo4j_store(Settings(neo4j_uri=f"bolt://127.0.0.1:{port}"))
    assert "schema migrations" in str(caught.value)
    assert "bolt://" not in str(caught.value) and str(port) not in str(caught.value)
