"""Contract: parent links that close a cycle across events are stored; every walk terminates.

The decision (docs/events.md, "Cycles"): a node naming itself as its parent
is rejected at validation; a cycle across events is stored as reported,
because proving its absence would cost a graph walk per new edge on the
ingest path. Readers are cycle-safe: attribution and lineage visit each node
once per path and stay within their depth bounds.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from provgraph.events import Event, parse_events
from provgraph.graph import NodeType
from provgraph.store.port import GraphStore
from provgraph.store.types import AttributionQuery, LineageDirection

T0 = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


def _ev(event_id: str, node: str, kind: NodeType, seconds: int, parents: list[str]) -> Event:
    return Event.model_validate(
        {
            "id": event_id,
            "type": kind.value,
            "node_id": node,
            "session_id": "cyc",
            "timestamp": (T0 + timedelta(seconds=seconds)).isoformat(),
            "parent_ids": parents,
        }
    )


def test_self_parent_is_rejected_at_validation() -> None:
    raw = _ev("e0", "a", NodeType.MODEL_REQUEST, 0, []).model_dump(mode="json")
    _, bad = parse_events([{**raw, "parent_ids": ["a"]}])
    assert bad and "own parent" in bad[0].reason


def test_cycle_across_events_is_stored_and_walks_terminate(store: GraphStore, project: str) -> None:
    # source -> a -> b -> c -> a (the cycle), c -> out
    batches = [
        [_ev("e1", "src", NodeType.DATA_READ, 0, [])],
        [_ev("e2", "a", NodeType.MODEL_REQUEST, 1, ["src", "c"])],
        [_ev("e3", "b", NodeType.MODEL_REQUEST, 2, ["a"])],
        [_ev("e4", "c", NodeType.MODEL_REQUEST, 3, ["b"])],
        [_ev("e5", "out", NodeType.FINAL_OUTPUT, 4, ["c"])],
    ]
    for batch in batches:
        result = store.ingest(project, batch)
        assert not result.rejected
    edges = {(e.source_id, e.target_id) for e in store.session_graph(project, "cyc").edges}
    assert {("c", "a"), ("a", "b"), ("b", "c")} <= edges

    found = store.attribution(project, AttributionQuery("out", max_depth=64, max_paths=100))
    assert [s.id for s in found.sources] == ["src"]
    assert ("src", "a", "b", "c", "out") in found.paths
    assert all(len(set(path)) == len(path) for path in found.paths)  # no node twice in a path

    up = store.lineage(project, "out", direction=LineageDirection.UP, depth=64, limit=100)
    assert {n.id for n in up.nodes} >= {"a", "b", "c", "src"}
    down = store.lineage(project, "a", direction=LineageDirection.DOWN, depth=64, limit=100)
    assert {n.id for n in down.nodes} >= {"b", "c", "out"}
