"""GraphQL queries run on the app's read thread; mutations and the request's context stay right.

The app opens its own store here (as under uvicorn): a second Neo4j store for the
read loop, or the shared embedded store. Timing is covered over HTTP by
``test_read_isolation.py``; these check behaviour only.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from provgraph.config import Settings
from provgraph.errors import NotFoundError
from provgraph.store.async_memory import AsyncMemoryGraphStore
from provgraph.store.memory import MemoryGraphStore
from provgraph.store.port import AsyncGraphStore
from services.api.app import create_app
from services.api.read_thread import ReadThread
from tests.api.conftest import BOOTSTRAP

HEADERS = {"Authorization": f"Bearer {BOOTSTRAP}"}
EVENT = {
    "id": "rt-e1",
    "type": "final_output",
    "timestamp": "2026-01-01T00:00:00Z",
    "session_id": "rt-s",
    "node_id": "rt-n1",
    "content": "done",
}


@pytest.fixture(params=["embedded", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def owned(request: pytest.FixtureRequest, settings: Settings) -> Settings:
    """Settings the app opens its store from: embedded, or the test Neo4j."""
    if request.param == "neo4j":
        return settings.model_copy(update={"neo4j_uri": request.getfixturevalue("neo4j_uri")})
    return settings


@pytest.fixture
async def app(owned: Settings) -> AsyncIterator[Any]:
    app = create_app(owned)
    async with app.router.lifespan_context(app):
        yield app


def _client(app: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://t", headers=HEADERS
    )


async def test_a_query_runs_on_the_read_thread_which_stops_with_the_app(owned: Settings) -> None:
    app = create_app(owned)
    reads: ReadThread | None = app.state.provgraph.graphql_reads
    assert reads is not None
    async with app.router.lifespan_context(app), _client(app) as client:
        assert (await client.post("/v1/events", json=[EVENT])).status_code == 207
        assert not reads.running  # started by the first query, not before
        body = (
            await client.post("/graphql", json={"query": '{ node(id: "rt-n1") { id content } }'})
        ).json()
        assert body == {"data": {"node": {"id": "rt-n1", "content": "done"}}}
        assert reads.running
        again = await client.post("/graphql", json={"query": '{ node(id: "rt-n1") { id } }'})
        assert again.json() == {"data": {"node": {"id": "rt-n1"}}}
        if owned.uses_neo4j:  # the read loop's store only reads: no write driver, no pool
            read_store = await reads.run(_same_store)
            assert read_store is not await app.state.provgraph.store()
            assert read_store.has_write_driver is False
    assert not reads.running


async def _same_store(store: AsyncGraphStore) -> Any:
    return store


async def test_a_mutation_stays_on_the_main_loop(app: Any) -> None:
    mutation = (
        'mutation { reviewCitation(input: {outputId: "rt-none", tagIndex: 0, '
        'action: "confirm", note: "n"}) { outputId } }'
    )
    async with _client(app) as client:
        body = (await client.post("/graphql", json={"query": mutation})).json()
    assert body["data"] is None and "rt-none" in body["errors"][0]["message"], body
    assert not app.state.provgraph.graphql_reads.running


async def test_a_masked_error_on_the_read_thread_names_the_request(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The request id (a context variable) travels with the query to the read thread."""

    def broken(*_: Any) -> Any:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(MemoryGraphStore, "get_nodes", broken)
    app = create_app(settings)
    async with app.router.lifespan_context(app), _client(app) as client:
        response = await client.post(
            "/graphql",
            json={"query": '{ node(id: "rt-n1") { id } }'},
            headers={"X-Request-ID": "rid-read-thread-1"},
        )
    assert app.state.provgraph.graphql_reads is not None
    [error] = response.json()["errors"]
    assert error["message"] == "internal error (request id rid-read-thread-1)"


async def test_a_store_handed_in_keeps_queries_on_the_callers_loop(settings: Settings) -> None:
    """A given store may be bound to the caller's loop (an async driver is): no read thread."""
    store = AsyncMemoryGraphStore(None)
    app = create_app(settings, store=store)
    assert app.state.provgraph.graphql_reads is None
    async with _client(app) as client:
        body = (await client.post("/graphql", json={"query": '{ node(id: "x") { id } }'})).json()
    assert body == {"data": {"node": None}}
    await store.close()


# ------------------------------------------------------------------ the thread itself
marker: contextvars.ContextVar[str] = contextvars.ContextVar("marker", default="unset")


async def _thread_with_store() -> tuple[ReadThread, AsyncGraphStore]:
    store = AsyncMemoryGraphStore(None)

    async def open_store() -> AsyncGraphStore:
        return store

    return ReadThread(open_store, owns_store=True), store


async def test_work_runs_on_another_thread_with_the_callers_context() -> None:
    reads, store = await _thread_with_store()
    marker.set("from the request")

    async def work(given: AsyncGraphStore) -> tuple[str, str, bool]:
        return threading.current_thread().name, marker.get(), given is store

    try:
        name, seen, same = await reads.run(work)
    finally:
        await reads.close()
    assert (name, seen, same) == ("provgraph-graphql-reads", "from the request", True)
    assert threading.current_thread().name != name


async def test_errors_come_back_to_the_caller() -> None:
    reads, _ = await _thread_with_store()

    async def work(_: AsyncGraphStore) -> None:
        raise NotFoundError("no such node")

    try:
        with pytest.raises(NotFoundError, match="no such node"):
            await reads.run(work)
    finally:
        await reads.close()


async def test_cancelling_the_caller_cancels_the_work() -> None:
    reads, _ = await _thread_with_store()
    started, cancelled = threading.Event(), threading.Event()

    async def work(_: AsyncGraphStore) -> None:
        started.set()
        try:
            await asyncio.Event().wait()  # never set: only cancellation ends it
        except asyncio.CancelledError:
            cancelled.set()
            raise

    caller = asyncio.create_task(reads.run(work))
    try:
        assert await asyncio.to_thread(started.wait, 30)
        caller.cancel()
        with pytest.raises(asyncio.CancelledError):
            await caller
        assert await asyncio.to_thread(cancelled.wait, 30)
    finally:
        await reads.close()
    assert not reads.running
