"""Scale-out pieces of the Neo4j adapter on a real server: the routing scheme, keys in
the graph, per-session ingest locks (docs/adr/0012).

Neo4j Community answers the routing scheme (``neo4j://``) as a one-member
cluster, so the driver takes its routed code path (a routing table, reads sent
to a reader, writes to the writer) against the single test server.
"""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import neo4j
import pytest
from contract._story import SESSION, snapshot, story_events

from provgraph.config import Settings
from provgraph.events import Event
from provgraph.store.key_file import SqliteKeyRepository
from provgraph.store.memory import MemoryGraphStore
from provgraph.store.neo4j import Neo4jGraphStore, open_async_neo4j_store, open_neo4j_store
from provgraph.store.neo4j.ingest_locks import lock_sessions
from provgraph.store.neo4j.keys import AsyncNeo4jKeyRepository, Neo4jKeyRepository
from provgraph.store.types import SessionFilter
from provgraph.usecases.keys import KeyAuthenticator, KeyStore

pytestmark = pytest.mark.neo4j


def routed(settings: Settings) -> Settings:
    uri = settings.neo4j_uri or ""
    return settings.model_copy(update={"neo4j_uri": "neo4j://" + uri.split("://", 1)[1]})


@pytest.fixture(scope="module")
def routed_store(neo4j_settings: Settings) -> Any:
    store = open_neo4j_store(routed(neo4j_settings))
    yield store
    store.close()


def test_the_routing_scheme_gives_the_same_graph_as_the_embedded_store(
    routed_store: Neo4jGraphStore, project: str
) -> None:
    assert isinstance(routed_store.driver, neo4j.Neo4jDriver)  # the routing driver
    events = story_events()
    memory = MemoryGraphStore()
    memory.ingest(project, events)
    result = routed_store.ingest(project, events)
    assert not result.rejected and len(result.accepted) == len(events)
    assert routed_store.ingest(project, events).duplicates  # replay: all duplicates
    assert snapshot(routed_store, project) == snapshot(memory, project)


def test_the_async_store_routes_too(neo4j_settings: Settings, project: str) -> None:
    async def run() -> tuple[Any, Any, bool]:
        store = await open_async_neo4j_store(routed(neo4j_settings))
        try:
            await store.ingest(project, story_events())
            page = await store.list_sessions(project, filter=SessionFilter())
            node = await store.get_node(project, story_events()[0].node_id)
            return page, node, isinstance(store.read_driver, neo4j.AsyncNeo4jDriver)
        finally:
            await store.close()

    page, node, routing = asyncio.run(run())
    assert routing and [s.id for s in page.items] == [SESSION] and node is not None


def test_keys_in_the_graph_are_seen_by_every_process(
    neo4j_settings: Settings, tmp_path: Path
) -> None:
    """Two stores with their own drivers stand for two processes (API replica, CLI)."""
    one = KeyStore(Neo4jKeyRepository(open_neo4j_store(routed(neo4j_settings))))
    other = KeyStore(Neo4jKeyRepository(open_neo4j_store(neo4j_settings)))
    project = f"keys-{uuid.uuid4().hex[:8]}"
    try:
        key, token = one.create(project, "ingest", name="replica-made")
        principal = other.authenticate(token)
        assert principal is not None and principal.project == project
        assert principal.key_name == "replica-made"
        assert other.authenticate(token[:-2] + "xx") is None  # wrong secret
        first = other.revoke(key.id).revoked_at
        assert one.authenticate(token) is None
        assert one.revoke(key.id).revoked_at == first  # the first revocation time stays

        file = SqliteKeyRepository(tmp_path / "keys.sqlite3")
        old = KeyStore(file)
        kept, kept_token = old.create(project, "read")
        gone, gone_token = old.create(project, "admin")
        old.revoke(gone.id)
        assert one.import_from(file) == (2, 2)
        assert one.import_from(file) == (2, 0)  # idempotent
        assert other.authenticate(kept_token) is not None
        assert other.authenticate(gone_token) is None  # revocations come along
        assert {k.id for k in other.list()} >= {key.id, kept.id, gone.id}
        file.close()
    finally:
        one.close()
        other.close()


def test_the_authentication_cache_expires_after_its_ttl(neo4j_settings: Settings) -> None:
    now = [0.0]
    sync = KeyStore(Neo4jKeyRepository(open_neo4j_store(neo4j_settings)))
    key, token = sync.create(f"ttl-{uuid.uuid4().hex[:8]}", "read")

    async def run() -> list[bool]:
        store = await open_async_neo4j_store(neo4j_settings)
        auth = KeyAuthenticator(AsyncNeo4jKeyRepository(store).get_key, 5.0, clock=lambda: now[0])
        try:
            seen = [await auth.authenticate(token) is not None]
            sync.revoke(key.id)  # through "another process"
            seen.append(await auth.authenticate(token) is not None)  # cached: still in
            now[0] = 5.1
            seen.append(await auth.authenticate(token) is not None)  # expired: refused
            return seen
        finally:
            await store.close()

    try:
        assert asyncio.run(run()) == [True, True, False]
    finally:
        sync.close()


def test_a_node_moved_to_another_session_is_locked_under_both(
    neo4j_store: Neo4jGraphStore, project: str
) -> None:
    first = story_events()[0]
    neo4j_store.ingest(project, [first])
    held = neo4j_store.run_program(
        "lock", lambda: lock_sessions(project, ["other-session"], [first.node_id]), write=True
    )
    assert held == frozenset({"other-session", first.session_id})


def _blocked_transactions(uri: str) -> int:
    with neo4j.GraphDatabase.driver(uri, auth=None) as driver:
        records = driver.execute_query(
            "SHOW TRANSACTIONS YIELD status WHERE status STARTS WITH 'Blocked' RETURN count(*)",
            database_="neo4j",
        ).records
    return int(records[0][0])


def _ingest_until_blocked(
    store: Neo4jGraphStore, uri: str, project: str, event: Event
) -> tuple[threading.Thread, list[Any]]:
    """Ingest ``event`` in a thread; return once a transaction waits (or after 60 s)."""
    outcome: list[Any] = []
    worker = threading.Thread(target=lambda: outcome.append(store.ingest(project, [event])))
    worker.start()
    deadline = time.monotonic() + 60
    while _blocked_transactions(uri) == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    return worker, outcome


def test_an_event_id_raced_from_another_session_is_a_duplicate(
    neo4j_store: Neo4jGraphStore, neo4j_uri: str, project: str
) -> None:
    """Sessions no longer serialise each other: the :Delivery constraint decides, the
    losing batch is re-run and reports the event as a duplicate."""
    event = Event.model_validate({**story_events()[0].model_dump(), "session_id": "late"})
    with (
        neo4j.GraphDatabase.driver(neo4j_uri, auth=None) as driver,
        driver.session(database="neo4j") as session,
    ):
        tx = session.begin_transaction()
        tx.run(
            "CREATE (:Delivery {project: $p, id: $id, batch: 'elsewhere'})",
            p=project,
            id=event.id,
        )
        worker, outcome = _ingest_until_blocked(neo4j_store, neo4j_uri, project, event)
        assert _blocked_transactions(neo4j_uri) == 1, "the ingest never waited on the constraint"
        tx.commit()
        worker.join(timeout=60)
    assert outcome and outcome[0].duplicates == (event.id,) and not outcome[0].accepted
    assert neo4j_store.get_node(project, event.node_id) is None  # nothing of it was written


def test_the_keys_cli_works_against_neo4j_and_imports_a_key_file(
    neo4j_uri: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    from typer.testing import CliRunner

    from provgraph.cli.keys import app

    project = f"cli-{uuid.uuid4().hex[:8]}"
    file = tmp_path / "keys.sqlite3"
    legacy = KeyStore(file)
    _, legacy_token = legacy.create(project, "read", name="from-the-file")
    legacy.close()
    monkeypatch.setenv("PROVGRAPH_KEYS_DB", str(file))
    monkeypatch.delenv("PROVGRAPH_NEO4J_URI", raising=False)
    runner = CliRunner()
    refused = runner.invoke(app, ["import-file"])  # no Neo4j configured: nothing to import into
    assert refused.exit_code == 2 and "PROVGRAPH_NEO4J_URI" in refused.output

    monkeypatch.setenv("PROVGRAPH_NEO4J_URI", "neo4j://" + neo4j_uri.split("://", 1)[1])
    created = runner.invoke(app, ["create", "--project", project, "--role", "ingest", "--json"])
    assert created.exit_code == 0, created.output
    info = json.loads(created.output)
    imported = runner.invoke(app, ["import-file"])
    assert imported.exit_code == 0 and "imported 1 of 1" in imported.output
    assert "imported 0 of 1" in runner.invoke(app, ["import-file"]).output

    graph = KeyStore(Neo4jKeyRepository(open_neo4j_store(Settings(neo4j_uri=neo4j_uri))))
    try:
        assert graph.authenticate(info["token"]) is not None
        assert graph.authenticate(legacy_token) is not None
        listed = runner.invoke(app, ["list", "--json"])
        assert info["id"] in {k["id"] for k in json.loads(listed.output)}
        assert runner.invoke(app, ["revoke", info["id"]]).exit_code == 0
        assert graph.authenticate(info["token"]) is None
        assert runner.invoke(app, ["revoke", "0000000000000000"]).exit_code == 2
    finally:
        graph.close()
    assert not file.with_name("keys.sqlite3").stat().st_mode & 0o077  # still owner-only


def _session_locks(uri: str, project: str) -> int:
    with neo4j.GraphDatabase.driver(uri, auth=None) as driver:
        records = driver.execute_query(
            "MATCH (l:SessionLock {project: $p}) RETURN count(l)", p=project, database_="neo4j"
        ).records
    return int(records[0][0])


def test_chained_ingest_is_locked_by_the_chain_head_and_unchained_by_its_sessions(
    neo4j_settings: Settings, neo4j_uri: str, project: str
) -> None:
    """With the chain on, the head is the project's lock (ADR 0012, amended): no
    session lock is written; with it off, each session of the batch is locked."""
    events = story_events()
    for chained, name in ((True, project), (False, project + "-unchained")):
        store = open_neo4j_store(neo4j_settings.model_copy(update={"audit_chain": chained}))
        try:
            assert len(store.ingest(name, events).accepted) == len(events)
        finally:
            store.close()
        sessions = {e.session_id for e in events}
        assert _session_locks(neo4j_uri, name) == (0 if chained else len(sessions))


def test_a_chained_batch_reads_only_after_it_holds_the_chain_head(
    neo4j_store: Neo4jGraphStore, neo4j_uri: str, project: str
) -> None:
    """A writer holding the head makes the batch wait *before* its lookup: what that
    writer commits (here a delivery of the batch's event) is read, so the event is
    reported a duplicate at once, not found by the constraint and re-run."""
    first = story_events()[0]
    neo4j_store.ingest(project, [first])  # the chain's genesis and head
    event = Event.model_validate(
        {**first.model_dump(), "id": "raced-event", "node_id": "raced-node"}
    )
    with (
        neo4j.GraphDatabase.driver(neo4j_uri, auth=None) as driver,
        driver.session(database="neo4j") as session,
    ):
        tx = session.begin_transaction()
        tx.run("MATCH (h:AuditHead {project: $p, id: 'head'}) SET h.held = true", p=project)
        worker, outcome = _ingest_until_blocked(neo4j_store, neo4j_uri, project, event)
        assert _blocked_transactions(neo4j_uri) == 1, "the batch never waited on the head"
        tx.run(
            "CREATE (:Delivery {project: $p, id: $id, batch: 'elsewhere'})",
            p=project,
            id=event.id,
        )
        tx.commit()
        worker.join(timeout=60)
    assert outcome and outcome[0].duplicates == (event.id,) and not outcome[0].accepted
    assert neo4j_store.get_node(project, event.node_id) is None
