"""Contract: ingestion is idempotent, order-independent, fills placeholders, rejects key conflicts.

Runs against every adapter (the ``store`` fixture); results are compared with
the embedded store fed the same input, which is the reference semantics.
"""

from __future__ import annotations

import itertools
import uuid
from datetime import UTC, datetime, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provgraph.events import Event
from provgraph.graph import NodeType
from provgraph.store.memory import MemoryGraphStore
from provgraph.store.port import GraphStore

from ._story import SESSION, snapshot, story_events

EVENTS = story_events()
T0 = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


def reference(events: list[Event], batches: list[list[Event]] | None = None) -> MemoryGraphStore:
    memory = MemoryGraphStore()
    for batch in batches or [events]:
        memory.ingest("p", batch)
    return memory


def ev(event_id: str, node_id: str, node_type: NodeType, seconds: float, **extra: object) -> Event:
    return Event.model_validate(
        {
            "id": event_id,
            "type": node_type.value,
            "node_id": node_id,
            "session_id": "s1",
            "timestamp": (T0 + timedelta(seconds=seconds)).isoformat(),
            **extra,
        }
    )


def test_same_batch_twice_changes_nothing(store: GraphStore, project: str) -> None:
    first = store.ingest(project, EVENTS)
    before = snapshot(store, project)
    second = store.ingest(project, EVENTS)
    assert first.accepted == tuple(e.id for e in EVENTS)
    assert second.accepted == () and second.duplicates == tuple(e.id for e in EVENTS)
    assert snapshot(store, project) == before == snapshot(reference(EVENTS), "p")


def test_duplicate_inside_one_batch_is_reported_once(store: GraphStore, project: str) -> None:
    batch = [EVENTS[0], EVENTS[1], EVENTS[0]]
    result = store.ingest(project, batch)
    assert result == reference(batch).ingest("q", batch)
    assert result.accepted == (EVENTS[0].id, EVENTS[1].id)
    assert result.duplicates == (EVENTS[0].id,)


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    order=st.permutations(range(len(EVENTS))),
    cuts=st.lists(st.integers(min_value=1, max_value=len(EVENTS) - 1), max_size=4),
)
def test_any_order_and_batching_gives_the_same_graph(
    store: GraphStore, order: list[int], cuts: list[int]
) -> None:
    project = f"perm-{uuid.uuid4().hex[:12]}"
    shuffled = [EVENTS[i] for i in order]
    bounds = [0, *sorted(set(cuts)), len(shuffled)]
    for start, end in itertools.pairwise(bounds):
        result = store.ingest(project, shuffled[start:end])
        assert result.rejected == () and result.duplicates == ()
    assert snapshot(store, project) == snapshot(reference(EVENTS), "p")


def test_placeholder_is_filled_in_when_the_parent_arrives(store: GraphStore, project: str) -> None:
    child = ev("e-child", "resp", NodeType.MODEL_RESPONSE, 2, parent_ids=["req"], content="hi")
    parent = ev("e-parent", "req", NodeType.MODEL_REQUEST, 1, label="Ask", agent_name="bot")
    store.ingest(project, [child])
    placeholder = store.get_node(project, "req")
    assert placeholder is not None and placeholder.is_placeholder
    assert placeholder == reference([child]).get_node("p", "req")
    assert placeholder.label == "(not yet reported) req"
    store.ingest(project, [parent])
    filled = store.get_node(project, "req")
    assert filled is not None and filled.type == NodeType.MODEL_REQUEST and filled.label == "Ask"
    assert filled == reference([child, parent]).get_node("p", "req")
    assert [(e.source_id, e.target_id, e.label) for e in store.node_edges(project, "req")] == [
        ("req", "resp", "produces")
    ]


def test_last_writer_wins_per_field_in_any_order(store: GraphStore, project: str) -> None:
    early = ev(
        "e1",
        "run",
        NodeType.AGENT_RUN,
        1,
        label="started",
        agent_name="a",
        data={"status": "started"},
        run_id="r1",
    )
    late = ev("e2", "run", NodeType.AGENT_RUN, 5, data={"status": "done"})
    store.ingest(project, [late])
    store.ingest(project, [early])
    node = store.get_node(project, "run")
    assert node == reference([early, late]).get_node("p", "run")
    assert node is not None
    assert (node.label, node.data, node.run_id, node.timestamp) == (
        "started",
        {"status": "done"},
        "r1",
        T0 + timedelta(seconds=1),
    )


def test_key_conflict_rejects_only_that_event(store: GraphStore, project: str) -> None:
    batch = [
        ev("k1", "read1", NodeType.DATA_READ, 1, citation_key="d_1", content="one"),
        ev("k2", "read2", NodeType.DATA_READ, 2, citation_key="d_1", content="two"),
        ev("k3", "read1", NodeType.DATA_READ, 3, citation_key="d_9"),
        ev("k4", "out", NodeType.FINAL_OUTPUT, 4, parent_ids=["read1"], content="x [REF|d_1]"),
    ]
    result = store.ingest(project, batch)
    assert result == reference(batch).ingest("q", batch)
    assert result.accepted == ("k1", "k4")
    assert [(r.index, r.event_id, r.path) for r in result.rejected] == [
        (1, "k2", "citation_key"),
        (2, "k3", "citation_key"),
    ]
    assert "already names node 'read1'" in result.rejected[0].reason
    assert store.get_node(project, "read2") is None
    resolved = store.resolve_citation_key(project, "s1", "d_1")
    assert resolved is not None and resolved.id == "read1"
    again = store.ingest(project, [batch[1]])
    assert again.rejected and not again.accepted and not again.duplicates


def test_citation_edges_in_both_arrival_orders(store: GraphStore, project: str) -> None:
    read = ev("c1", "read", NodeType.DATA_READ, 1, citation_key="d_1", content="fact")
    cite_before = ev("c2", "resp", NodeType.MODEL_RESPONSE, 2, content="says [REF|d_1]")
    cite_after = ev("c3", "out", NodeType.FINAL_OUTPUT, 3, content="so [REF|d_1|d_7]")
    store.ingest(project, [cite_before])
    store.ingest(project, [read])
    store.ingest(project, [cite_after])
    memory = reference([], [[cite_before], [read], [cite_after]])
    summary = store.citation_summary(project, "s1")
    assert summary == memory.citation_summary("p", "s1")
    assert [(e.key, e.node.id, e.cited_in) for e in summary] == [("d_1", "read", ("out", "resp"))]
    edges = sorted((e.source_id, e.target_id, e.label) for e in store.node_edges(project, "read"))
    assert edges == [("read", "out", "cited_in"), ("read", "resp", "cited_in")]
    assert store.resolve_citation_key(project, "s1", "d_7") is None


def test_whole_story_matches_reference_batch_by_batch(store: GraphStore, project: str) -> None:
    memory = MemoryGraphStore()
    for start in range(0, len(EVENTS), 7):
        batch = EVENTS[start : start + 7]
        assert store.ingest(project, batch) == memory.ingest("p", batch)
    assert snapshot(store, project) == snapshot(memory, "p")
    assert store.session_graph(project, SESSION).nodes.keys() == {e.node_id for e in EVENTS}
