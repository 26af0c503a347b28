"""What only the Neo4j adapter has: migrations, failure behaviour, the async driver.

Every test talks to a real Neo4j server (see ``tests/conftest.py``); faults are
real too: a server stopped and started again, a connection cut at commit by a
TCP relay, a statement the server refuses.
"""

from __future__ import annotations

import shutil
import uuid
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import neo4j
import pytest
from _faults import CommitDroppingRelay, free_port
from contract._story import SESSION, snapshot, story_events

from provgraph.config import Settings
from provgraph.errors import RetryableError, StoreError, StoreUnavailableError
from provgraph.store.memory import MemoryGraphStore
from provgraph.store.neo4j import (
    MigrationError,
    Neo4jGraphStore,
    open_async_neo4j_store,
    open_neo4j_store,
)
from provgraph.store.neo4j.migrations import SCHEMA_DIR, apply_migrations
from provgraph.store.neo4j.rows import binding_id
from provgraph.store.types import AttributionQuery

pytestmark = pytest.mark.neo4j
EVENTS = story_events()


def _expected_size() -> tuple[int, int, int]:
    memory = MemoryGraphStore()
    memory.ingest("p", EVENTS)
    graph = memory.session_graph("p", SESSION)
    return len(graph.nodes), len(graph.edges), len(EVENTS)


EXPECTED_SIZE = _expected_size()


def count(uri: str, query: str, **params: Any) -> int:
    with neo4j.GraphDatabase.driver(uri, auth=None) as driver:
        records = driver.execute_query(query, params, database_="neo4j").records
        return int(records[0][0])


def graph_size(uri: str, project: str) -> tuple[int, int, int]:
    """(nodes, relationships, deliveries) of one project."""
    return (
        count(uri, "MATCH (n:Node {project: $p}) RETURN count(n)", p=project),
        count(uri, "MATCH (:Node {project: $p})-[r]->() RETURN count(r)", p=project),
        count(uri, "MATCH (d:Delivery {project: $p}) RETURN count(d)", p=project),
    )


# ---------------------------------------------------------------------- migrations
def test_migrations_twice_are_a_no_op_and_recorded(neo4j_uri: str, neo4j_store: Any) -> None:
    with neo4j.GraphDatabase.driver(neo4j_uri, auth=None) as driver:
        assert apply_migrations(driver, "neo4j") == []
        assert apply_migrations(driver, "neo4j") == []
        recorded = driver.execute_query(
            "MATCH (m:SchemaMigration) RETURN m.id AS id, m.version AS v ORDER BY v",
            database_="neo4j",
        ).records
    assert [(r["id"], r["v"]) for r in recorded][:2] == [
        ("0001_constraints.cypher", 1),
        ("0002_indexes.cypher", 2),
    ]
    constraints = count(neo4j_uri, "SHOW CONSTRAINTS YIELD name RETURN count(name)")
    assert constraints >= 8


def test_failing_migration_stops_start_up_naming_it(
    neo4j_settings: Settings, neo4j_uri: str, tmp_path: Path
) -> None:
    for path in SCHEMA_DIR.glob("*.cypher"):
        shutil.copy(path, tmp_path / path.name)
    (tmp_path / "0099_broken.cypher").write_text(
        "CREATE INDEX broken_one IF NOT EXISTS FOR (n:Node) ON (n.project);\n"
        "CREATE INDEXX this is not cypher;\n"
    )
    with pytest.raises(MigrationError, match=r"0099_broken\.cypher failed at statement 2"):
        open_neo4j_store(neo4j_settings, schema_dir=tmp_path)
    assert (
        count(neo4j_uri, "MATCH (m:SchemaMigration {id: '0099_broken.cypher'}) RETURN count(m)")
        == 0
    )
    with neo4j.GraphDatabase.driver(neo4j_uri, auth=None) as driver:
        driver.execute_query("DROP INDEX broken_one IF EXISTS", database_="neo4j")


def test_an_applied_migration_that_changed_is_refused(
    neo4j_settings: Settings, tmp_path: Path
) -> None:
    for path in SCHEMA_DIR.glob("*.cypher"):
        shutil.copy(path, tmp_path / path.name)
    edited = tmp_path / "0002_indexes.cypher"
    edited.write_text(edited.read_text() + "\n// edited after it was applied\n")
    with pytest.raises(MigrationError, match=r"0002_indexes\.cypher was applied"):
        open_neo4j_store(neo4j_settings, schema_dir=tmp_path)


# ---------------------------------------------------------------------- failure behaviour
def test_batch_is_all_or_nothing(
    neo4j_store: Neo4jGraphStore, neo4j_uri: str, project: str
) -> None:
    """A statement the server refuses half-way through the write rolls the whole batch back."""
    poison = binding_id(SESSION, "d_1")
    with neo4j.GraphDatabase.driver(neo4j_uri, auth=None) as driver:
        driver.execute_query(  # a corrupt key record: 'uses' holds numbers, and
            "CREATE (:CitationKey {project: $p, id: $id, uses: [1]})",  # mixed lists are refused
            {"p": project, "id": poison},
            database_="neo4j",
        )
    one_batch = Neo4jGraphStore(replace(neo4j_store.config, batch_size=1000))
    with pytest.raises(StoreError) as caught:
        one_batch.ingest(project, EVENTS)
    one_batch.close()
    assert not isinstance(caught.value, RetryableError)
    assert graph_size(neo4j_uri, project) == (0, 0, 0)


def test_retry_after_unknown_commit_outcome_creates_no_duplicates(
    neo4j_uri: str, project: str
) -> None:
    target = urlparse(neo4j_uri)
    relay = CommitDroppingRelay(target.hostname or "127.0.0.1", target.port or 7687)
    store = open_neo4j_store(Settings(neo4j_uri=relay.uri, neo4j_batch_size=1000))
    try:
        relay.arm()
        result = store.ingest(project, EVENTS)
        assert relay.dropped == 1  # the first commit's answer was lost …
        assert result.accepted == tuple(e.id for e in EVENTS)  # … the re-run knew its own batch
        assert result.duplicates == () and result.rejected == ()
        assert graph_size(neo4j_uri, project) == EXPECTED_SIZE
        again = store.ingest(project, EVENTS)  # a client retry after a 503: all duplicates
        assert again.duplicates == tuple(e.id for e in EVENTS)
        assert graph_size(neo4j_uri, project)[2] == len(EVENTS)
    finally:
        store.close()
        relay.close()


def test_same_batch_token_re_run_is_recognised(
    neo4j_store: Neo4jGraphStore, neo4j_uri: str, project: str
) -> None:
    batch = list(enumerate(EVENTS[:12]))
    first = neo4j_store._ingest_batch(project, batch, "token-1")
    sizes = graph_size(neo4j_uri, project)
    assert neo4j_store._ingest_batch(project, batch, "token-1") == first
    assert neo4j_store._ingest_batch(project, batch, "token-2").duplicates == first.accepted
    assert graph_size(neo4j_uri, project) == sizes


@pytest.fixture
def own_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Path, int]]:
    """A server of this test's own, which it may stop and start (never the shared one)."""
    try:
        from provgraph.ops.neo4j_server import start_neo4j, stop_neo4j
    except ImportError as exc:
        pytest.skip(f"provgraph.ops cannot start a Neo4j to restart ({exc})")
    data_dir = tmp_path_factory.mktemp("neo4j-restart")
    port = free_port()
    handle = start_neo4j(data_dir, bolt_port=port, auth=False)
    try:
        yield start_neo4j, data_dir, port
    finally:
        stop_neo4j(data_dir)
        del handle


def test_restart_between_two_batches(own_server: tuple[Any, Path, int], project: str) -> None:
    from provgraph.ops.neo4j_server import stop_neo4j

    start, data_dir, port = own_server
    uri = f"bolt://127.0.0.1:{port}"
    store = open_neo4j_store(Settings(neo4j_uri=uri, neo4j_batch_size=1000))
    try:
        first, second = EVENTS[:20], EVENTS[20:]
        assert store.ingest(project, first).accepted == tuple(e.id for e in first)
        stop_neo4j(data_dir)
        with pytest.raises(StoreUnavailableError) as caught:
            store.ingest(project, second)
        assert isinstance(caught.value, RetryableError) and caught.value.retry_after > 0
        assert store.ping() is False
        start(data_dir, bolt_port=port, auth=False)
        assert store.ingest(project, second).accepted == tuple(e.id for e in second)
        assert store.ingest(project, EVENTS).duplicates == tuple(e.id for e in EVENTS)
        assert graph_size(uri, project) == EXPECTED_SIZE
    finally:
        store.close()


# ---------------------------------------------------------------------- async driver
async def test_async_store_gives_the_sync_results(
    neo4j_settings: Settings, neo4j_store: Neo4jGraphStore
) -> None:
    project = f"async-{uuid.uuid4().hex[:10]}"
    store = await open_async_neo4j_store(neo4j_settings)
    try:
        assert await store.ping()
        result = await store.ingest(project, EVENTS)
        assert result.accepted == tuple(e.id for e in EVENTS)
        assert (await store.session_graph(project, SESSION)).nodes == (
            neo4j_store.session_graph(project, SESSION).nodes
        )
        expected = snapshot(neo4j_store, project)
        assert await store.citation_summary(project, SESSION) == expected["citations"]
        for output, paths in expected["attribution"].items():
            assert await store.attribution(project, AttributionQuery(output)) == paths
    finally:
        await store.close()
