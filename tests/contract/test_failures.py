"""Contract: failed steps (``status`` / ``error``) are stored alike by every adapter.

Compared with the embedded store fed the same input (the reference semantics);
on Neo4j the failure is also checked as plain node properties, since auditors
query the database directly.
"""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from typing import Any

import neo4j
import pytest

from provgraph.events import Event
from provgraph.graph import NodeError, NodeStatus, NodeType
from provgraph.store.memory import MemoryGraphStore
from provgraph.store.port import GraphStore
from provgraph.store.types import AttributionQuery
from provgraph.usecases.audit_bundle import export_bundle
from provgraph.usecases.audit_bundle_verify import verify_bundle

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
FAILURE = {"type": "ConnectionError", "message": "backend unreachable"}


def ev(event_id: str, node_id: str, node_type: NodeType, seconds: float, **extra: Any) -> Event:
    return Event.model_validate(
        {
            "id": event_id,
            "type": node_type.value,
            "node_id": node_id,
            "session_id": "s-fail",
            "timestamp": (T0 + timedelta(seconds=seconds)).isoformat(),
            **extra,
        }
    )


CALL = ev("f1", "call", NodeType.TOOL_CALL, 1, label="Tool: lookup", parent_ids=["req"])
FAILED = ev("f2", "call", NodeType.TOOL_CALL, 2, error=FAILURE)
RETRIED_OK = ev("f3", "call", NodeType.TOOL_CALL, 3, status="ok")
UNRELATED = ev("f4", "call", NodeType.TOOL_CALL, 4, data={"attempts": 2})  # says no status
REQ = ev("f0", "req", NodeType.MODEL_REQUEST, 0)
NEXT = ev("f5", "req2", NodeType.MODEL_REQUEST, 5, parent_ids=["call"])
OUT = ev("f6", "out", NodeType.FINAL_OUTPUT, 6, parent_ids=["req2"], content="done", status="ok")


def reference(events: list[Event]) -> MemoryGraphStore:
    memory = MemoryGraphStore()
    memory.ingest("p", events)
    return memory


def test_failure_is_stored_and_read_back(store: GraphStore, project: str) -> None:
    events = [REQ, CALL, FAILED, NEXT, OUT]
    assert store.ingest(project, events).rejected == ()
    node = store.get_node(project, "call")
    assert node is not None and node == reference(events).get_node("p", "call")
    assert node.status is NodeStatus.ERROR and node.failed
    assert node.error == NodeError("ConnectionError", "backend unreachable")
    assert node.label == "Tool: lookup"  # the failure event left the other fields alone
    req = store.get_node(project, "req")
    assert req is not None and (req.status, req.error) == (None, None)
    found = store.attribution(project, AttributionQuery("out"))
    assert found == reference(events).attribution("p", AttributionQuery("out"))
    assert [i for p in found.paths for i in p if found.nodes[i].failed] == ["call"]
    graph = store.session_graph(project, "s-fail")
    assert graph.nodes["call"].failed and graph.nodes["out"].status is NodeStatus.OK


@pytest.mark.parametrize("order", list(itertools.permutations(range(4))))
def test_latest_status_wins_in_any_order(
    store: GraphStore, order: tuple[int, ...], project: str
) -> None:
    events = [CALL, FAILED, RETRIED_OK, UNRELATED]
    for index in order:
        store.ingest(project, [events[index]])
    node = store.get_node(project, "call")
    assert node is not None and node == reference(events).get_node("p", "call")
    # the later ok cleared the failure; the event that said nothing did not touch it
    assert (node.status, node.error, node.data) == (NodeStatus.OK, None, {"attempts": 2})


def test_status_without_a_later_report_stays(store: GraphStore, project: str) -> None:
    events = [UNRELATED, FAILED, CALL]  # the failure is the latest status report
    store.ingest(project, events)
    node = store.get_node(project, "call")
    assert node is not None and node == reference(events).get_node("p", "call")
    assert node.failed and node.data == {"attempts": 2}


def test_neo4j_keeps_the_failure_as_node_properties(
    store: GraphStore, project: str, request: pytest.FixtureRequest
) -> None:
    if isinstance(store, MemoryGraphStore):
        pytest.skip("node properties are a Neo4j concern")
    store.ingest(project, [CALL, FAILED])
    uri = request.getfixturevalue("neo4j_uri")
    query = (
        "MATCH (n {project: $project, id: 'call'}) "
        "RETURN n.status AS status, n.error_type AS type, n.error_message AS message"
    )
    with neo4j.GraphDatabase.driver(uri, auth=None) as driver:
        [record] = driver.execute_query(query, {"project": project}, database_="neo4j").records
    assert record.data() == {
        "status": "error",
        "type": "ConnectionError",
        "message": "backend unreachable",
    }


def test_subject_search_finds_error_messages(store: GraphStore, project: str) -> None:
    """An error may quote the data that failed; a subject erasure must find it there."""
    quoting = ev(
        "q1",
        "lookup",
        NodeType.TOOL_CALL,
        1,
        error={"type": "KeyError", "message": "no record for alice@example.com"},
    )
    store.ingest(project, [quoting, REQ])
    assert [n.id for n in store.find_nodes(project, "alice@example.com")] == ["lookup"]


def test_audit_bundle_of_a_session_with_a_failure_verifies(store: GraphStore, project: str) -> None:
    store.ingest(project, [REQ, CALL, FAILED, NEXT, OUT])
    bundle = export_bundle(store, project, "s-fail")
    [call] = [n for n in bundle["graph"]["nodes"] if n["id"] == "call"]
    assert call["status"] == "error" and call["error"]["type"] == "ConnectionError"
    assert verify_bundle(bundle).failures == ()
    call["error"]["message"] = "nothing happened"  # a forged failure is caught and named
    [failure] = verify_bundle(bundle).failures
    assert failure.check == "graph" and "error" in failure.message
