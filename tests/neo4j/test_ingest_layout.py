"""The ingest write's storage layout and the server semantics it relies on (real Neo4j).

Folded versions: a node written by one event keeps one ``ver`` instead of one
``v_<field>`` per field; a later, older event still loses per field; nodes in
the earlier layout (``v_<field>`` on every field, no ``ver``) merge the same way.
The node block decides value and version in one ``SET`` clause, which is only
right because Neo4j evaluates every right-hand side before assigning: pinned
here so a server upgrade that changed it fails loudly, not silently.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import neo4j
import pytest

from provgraph.events import Event
from provgraph.mapping import event_version
from provgraph.store.neo4j import Neo4jGraphStore

pytestmark = pytest.mark.neo4j
T0 = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)


def event(event_id: str, seconds: int, **fields: Any) -> Event:
    return Event.model_validate(
        {
            "id": event_id,
            "type": "agent_run",
            "timestamp": T0 + timedelta(seconds=seconds),
            "session_id": "s1",
            "node_id": "run",
            **fields,
        }
    )


def props(store: Neo4jGraphStore, project: str, node_id: str = "run") -> dict[str, Any]:
    records = store.driver.execute_query(
        "MATCH (n:Node {project: $p, id: $id}) RETURN properties(n) AS props",
        {"p": project, "id": node_id},
        database_=store.config.database,
    ).records
    return dict(records[0]["props"])


def test_one_set_clause_evaluates_every_right_hand_side_first(neo4j_store: Any) -> None:
    with neo4j_store.driver.session(database=neo4j_store.config.database) as session:
        record = session.run(
            "CREATE (n:ServerSemanticsProbe {a: 1}) SET n.a = 2, n.b = n.a "
            "WITH n, n.b AS b DELETE n RETURN b"
        ).single()
    assert record is not None and record["b"] == 1


def test_a_node_from_one_event_stores_one_version(neo4j_store: Any, project: str) -> None:
    first = event("e1", 10, agent_name="coordinator", label="Coordinator", content="hello")
    neo4j_store.ingest(project, [first])
    stored = props(neo4j_store, project)
    assert stored["ver"] == event_version(first)
    assert not [k for k in stored if k.startswith("v_")]
    assert stored["label"] == "Coordinator"


def test_an_older_event_arriving_later_loses_only_the_fields_the_newer_one_set(
    neo4j_store: Any, project: str
) -> None:
    newer = event("e2", 20, label="Newer", data={"status": "completed"})
    older = event("e1", 10, label="Older", agent_name="coordinator", content="first words")
    neo4j_store.ingest(project, [newer])
    neo4j_store.ingest(project, [older])
    node = neo4j_store.get_node(project, "run")
    assert node is not None
    assert node.label == "Newer" and node.data == {"status": "completed"}
    assert node.agent_name == "coordinator" and node.content == "first words"
    assert node.timestamp == T0 + timedelta(seconds=10)
    stored = props(neo4j_store, project)
    assert stored["v_agent_name"] == event_version(older)
    # a third, newest event replaces the field the older one wrote last
    neo4j_store.ingest(project, [event("e3", 30, agent_name="boss")])
    assert neo4j_store.get_node(project, "run").agent_name == "boss"  # type: ignore[union-attr]


def test_a_batch_folding_several_versions_keeps_each_fields_own(
    neo4j_store: Any, project: str
) -> None:
    older = event("e1", 10, content="from the older event")
    newer = event("e2", 20, label="Newer")
    neo4j_store.ingest(project, [newer, older])
    stored = props(neo4j_store, project)
    assert stored["ver"] == event_version(newer)
    assert stored["v_content"] == event_version(older)
    neo4j_store.ingest(project, [event("e3", 15, content="between", label="Between")])
    node = neo4j_store.get_node(project, "run")
    assert node is not None and node.content == "between" and node.label == "Newer"


def test_nodes_in_the_earlier_layout_merge_per_field(neo4j_store: Any, project: str) -> None:
    late = event_version(event("x", 20))
    with neo4j.GraphDatabase.driver(neo4j_store.config.uri, auth=None) as driver:
        driver.execute_query(
            "CREATE (:Node {project: $p, id: 'run', type: 'agent_run', v_type: $v,"
            " label: 'Legacy', v_label: $v, timestamp: $ts, default_label: 'Agent'})",
            {"p": project, "v": late, "ts": "2026-05-01T09:00:20.000000Z"},
            database_=neo4j_store.config.database,
        )
    neo4j_store.ingest(project, [event("e1", 10, label="Older", content="kept")])
    node = neo4j_store.get_node(project, "run")
    assert node is not None and node.label == "Legacy" and node.content == "kept"
