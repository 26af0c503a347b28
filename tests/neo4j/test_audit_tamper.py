"""Tampering done directly in Neo4j with Cypher, behind the API's back, is detected.

Each test builds a project through the store (events, a report, a review),
checks it verifies, makes one edit with a raw Cypher statement on the real
server, and checks ``verify_project`` fails naming the right entry.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from provgraph.store.audit_types import Review, ReviewAction
from provgraph.store.neo4j.adapter import Neo4jGraphStore
from provgraph.store.neo4j.audit_ops import pack_payload, unpack_payload
from provgraph.store.types import StoredReport
from provgraph.usecases.audit_replay import load_entries
from provgraph.usecases.audit_verify import VerifyReport, verify_project
from tests.contract._story import SESSION, story_events

pytestmark = pytest.mark.neo4j
OUTPUT = "coord.final"


@pytest.fixture
def built(neo4j_store: Neo4jGraphStore, project: str) -> Iterator[tuple[Neo4jGraphStore, str]]:
    neo4j_store.ingest(project, story_events())
    check = {"tag_index": 0, "key": "d_1", "claim": {"text": "c"}, "verdict": "supported"}
    neo4j_store.save_report(
        project,
        StoredReport(
            OUTPUT, SESSION, "cfg", {"checks": [check]}, datetime.now(UTC), verdicts=("supported",)
        ),
    )
    neo4j_store.save_review(
        project,
        Review(
            id="rev-t",
            output_id=OUTPUT,
            session_id=SESSION,
            report_version=1,
            tag_index=0,
            key="d_1",
            check_ref="r",
            action=ReviewAction.CONFIRM,
            machine_verdict="supported",
            verdict="supported",
            note="checked",
            reviewer="bob",
            created_at="2026-03-02T00:00:00.000000Z",
        ),
    )
    report = verify_project(neo4j_store, project)
    assert report.ok, [f.describe() for f in report.failures]
    yield neo4j_store, project


def cypher(store: Neo4jGraphStore, text: str, **params: Any) -> None:
    with store.driver.session(database=store.config.database) as session:
        session.run(text, params).consume()


def entry_writing(store: Neo4jGraphStore, project: str, node_id: str) -> int:
    """The last ingest entry whose payload wrote ``node_id``."""
    seqs = [
        e.seq
        for e in load_entries(store, project)
        if e.kind == "ingest" and any(ev and ev["node_id"] == node_id for ev in e.payload["events"])  # type: ignore[index]
    ]
    return seqs[-1]


def failed(report: VerifyReport) -> tuple[int | None, str]:
    assert not report.ok
    first = report.first
    assert first is not None
    return first.seq, first.check


def test_an_edited_node_property_names_the_entry_that_wrote_it(built: Any) -> None:
    store, project = built
    cypher(
        store,
        "MATCH (n:Node {project: $p, id: $id}) SET n.content = 'forged'",
        p=project,
        id=OUTPUT,
    )
    report = verify_project(store, project)
    assert failed(report) == (entry_writing(store, project, OUTPUT), "graph")
    assert "coord.final" in report.first.message and "content" in report.first.message  # type: ignore[union-attr]
    assert not verify_project(store, project, session_id=SESSION).ok


def test_a_deleted_node_is_detected(built: Any) -> None:
    store, project = built
    node_id = (
        "spain.read.1"
        if store.get_node(project, "spain.read.1")
        else sorted(store.session_graph(project, SESSION).nodes)[3]
    )
    cypher(store, "MATCH (n:Node {project: $p, id: $id}) DETACH DELETE n", p=project, id=node_id)
    seq, check = failed(verify_project(store, project))
    assert check == "graph" and seq == entry_writing(store, project, node_id)


def test_a_deleted_edge_is_detected(built: Any) -> None:
    store, project = built
    edge = store.session_graph(project, SESSION).edges[0]
    cypher(
        store,
        "MATCH (a:Node {project: $p, id: $s})-[r]->(b:Node {project: $p, id: $t}) DELETE r",
        p=project,
        s=edge.source_id,
        t=edge.target_id,
    )
    report = verify_project(store, project)
    assert failed(report)[1] == "graph"
    assert f"{edge.source_id} -[{edge.label}]-> {edge.target_id}" in report.first.message  # type: ignore[union-attr]


def test_an_injected_node_is_detected(built: Any) -> None:
    store, project = built
    cypher(
        store,
        "CREATE (:Node {project: $p, id: 'forged', type: 'data_read', session_id: $s, "
        "timestamp: '2026-03-14T00:00:00.000000Z'})",
        p=project,
        s=SESSION,
    )
    report = verify_project(store, project)
    assert failed(report) == (None, "graph")
    assert "forged" in report.first.message  # type: ignore[union-attr]


def test_a_changed_report_is_detected(built: Any) -> None:
    store, project = built
    cypher(
        store,
        "MATCH (r:Report {project: $p, output_id: $o}) "
        "SET r.doc = replace(r.doc, '\"supported\"', '\"contradicted\"')",
        p=project,
        o=OUTPUT,
    )
    report_entry = [e for e in load_entries(store, project) if e.kind == "report"][-1]
    assert failed(verify_project(store, project)) == (report_entry.seq, "report")


def test_a_changed_review_is_detected(built: Any) -> None:
    store, project = built
    cypher(
        store,
        "MATCH (v:Review {project: $p, id: 'rev-t'}) SET v.doc = replace(v.doc, 'checked', 'ok')",
        p=project,
    )
    review_entry = [e for e in load_entries(store, project) if e.kind == "review"][-1]
    assert failed(verify_project(store, project)) == (review_entry.seq, "review")


def test_a_removed_log_entry_is_detected(built: Any) -> None:
    store, project = built
    cypher(store, "MATCH (e:AuditEntry {project: $p, id: 2}) DELETE e", p=project)
    assert failed(verify_project(store, project)) == (2, "order")


def test_a_removed_last_entry_is_detected_by_the_head(built: Any) -> None:
    store, project = built
    last = load_entries(store, project)[-1].seq
    cypher(store, "MATCH (e:AuditEntry {project: $p, id: $s}) DELETE e", p=project, s=last)
    report = verify_project(store, project)
    assert any(f.check == "head" for f in report.failures)
    assert not report.ok


def test_reordered_entries_are_detected(built: Any) -> None:
    store, project = built
    cypher(
        store,
        "MATCH (a:AuditEntry {project: $p, id: 1}), (b:AuditEntry {project: $p, id: 2}) "
        "SET a.id = -1 WITH a, b SET b.id = 1, b.seq = 1 WITH a SET a.id = 2, a.seq = 2",
        p=project,
    )
    seq, check = failed(verify_project(store, project))
    assert seq == 1 and check in {"hash", "link"}


def edit_payload(store: Neo4jGraphStore, project: str, seq: int, old: str, new: str) -> None:
    """Unpack a stored payload, replace text in it, pack it back: raw Cypher read and write."""
    with store.driver.session(database=store.config.database) as session:
        stored = session.run(
            "MATCH (e:AuditEntry {project: $p, id: $s}) RETURN e.payload AS payload",
            p=project,
            s=seq,
        ).single()
    assert stored is not None
    text = json.dumps(unpack_payload(stored["payload"]), ensure_ascii=False)
    assert old in text
    edited = pack_payload(json.loads(text.replace(old, new)))
    cypher(
        store,
        "MATCH (e:AuditEntry {project: $p, id: $s}) SET e.payload = $v",
        p=project,
        s=seq,
        v=edited,
    )


def test_an_edited_entry_payload_is_detected(built: Any) -> None:
    store, project = built
    edit_payload(store, project, 1, "spain", "Spain")
    assert failed(verify_project(store, project)) == (1, "payload")


def test_a_consistent_rewrite_of_graph_and_payload_breaks_the_sealed_digest(built: Any) -> None:
    """Editing the node AND the event in the chain payload still fails: the digest is sealed."""
    store, project = built
    original = store.get_node(project, OUTPUT).content  # type: ignore[union-attr]
    assert original
    cypher(
        store,
        "MATCH (n:Node {project: $p, id: $id}) SET n.content = 'forged'",
        p=project,
        id=OUTPUT,
    )
    seq = entry_writing(store, project, OUTPUT)
    edit_payload(store, project, seq, json.dumps(original)[1:-1], "forged")
    payload = load_entries(store, project)[seq - 1].payload
    assert any(ev and ev.get("content") == "forged" for ev in payload["events"])  # type: ignore[index]
    report = verify_project(store, project)
    assert not report.ok and report.first is not None and report.first.seq == seq


def test_an_unreadable_payload_is_a_failure_not_a_crash(built: Any) -> None:
    store, project = built
    cypher(store, "MATCH (e:AuditEntry {project: $p, id: 1}) SET e.payload = 'not json'", p=project)
    assert failed(verify_project(store, project)) == (1, "payload")
    cypher(
        store,
        "MATCH (e:AuditEntry {project: $p, id: 1}) SET e.payload = 'zlib+b64:AAAA'",
        p=project,
    )
    assert failed(verify_project(store, project)) == (1, "payload")
