"""Contract: how a lineage walk is cut by ``limit`` and ``depth``, identical across adapters.

The walk goes ring by ring (every node at distance d before any at d + 1) and
keeps the first ``limit`` nodes in (distance, id) order; ``truncated`` says a
reachable node was left out (by the limit or beyond the depth), and only then.
Edges are those with both ends among the root and the kept nodes, sorted.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from provgraph.events import Event
from provgraph.graph import NodeType
from provgraph.store.port import GraphStore
from provgraph.store.types import LineageDirection

T0 = datetime(2026, 5, 2, 9, 0, tzinfo=UTC)
DOWN, UP = LineageDirection.DOWN, LineageDirection.UP

# root -> z1, a1 (ring 1); z1 -> b2, a1 -> y2 (ring 2); b2 -> c3 (ring 3) -> root (a cycle).
# z1 is reported before a1, so a walk in discovery order would differ from (distance, id).
SHAPE: list[tuple[str, list[str]]] = [
    ("root", []),
    ("z1", ["root"]),
    ("a1", ["root"]),
    ("b2", ["z1"]),
    ("y2", ["a1"]),
    ("c3", ["b2"]),
    ("root", ["c3"]),  # a later event closes the cycle back to the root
]


def _events(shape: list[tuple[str, list[str]]], session: str) -> list[Event]:
    """One event per (node, parents), a second apart, in one session."""
    return [
        Event.model_validate(
            {
                "id": f"{session}-{i}",
                "type": NodeType.MODEL_REQUEST.value,
                "node_id": node,
                "session_id": session,
                "timestamp": (T0 + timedelta(seconds=i)).isoformat(),
                "parent_ids": parents,
            }
        )
        for i, (node, parents) in enumerate(shape)
    ]


@pytest.fixture
def cut_store(store: GraphStore, project: str) -> GraphStore:
    result = store.ingest(project, _events(SHAPE, "cut"))
    assert not result.rejected
    return store


def _ids(
    store: GraphStore, project: str, direction: LineageDirection, depth: int, limit: int
) -> tuple[list[tuple[str, int]], bool]:
    found = store.lineage(project, "root", direction=direction, depth=depth, limit=limit)
    return [(n.id, found.distances[n.id]) for n in found.nodes], found.truncated


def test_limit_keeps_the_nearest_in_distance_then_id_order(
    cut_store: GraphStore, project: str
) -> None:
    assert _ids(cut_store, project, DOWN, 5, 3) == ([("a1", 1), ("z1", 1), ("b2", 2)], True)
    assert _ids(cut_store, project, DOWN, 5, 1) == ([("a1", 1)], True)


def test_everything_reachable_within_the_bounds_is_not_truncated(
    cut_store: GraphStore, project: str
) -> None:
    every = [("a1", 1), ("z1", 1), ("b2", 2), ("y2", 2), ("c3", 3)]
    # the cycle's edge c3 -> root leads back to a node already in the result: nothing left out
    assert _ids(cut_store, project, DOWN, 3, 5) == (every, False)
    assert _ids(cut_store, project, DOWN, 64, 10_000) == (every, False)


def test_depth_cut_is_truncated_only_when_a_node_lies_beyond(
    cut_store: GraphStore, project: str
) -> None:
    assert _ids(cut_store, project, DOWN, 2, 100) == (
        [("a1", 1), ("z1", 1), ("b2", 2), ("y2", 2)],
        True,
    )
    # upstream of root: c3 (the cycle), then b2, z1 ... root itself is never a result node
    assert _ids(cut_store, project, UP, 1, 100) == ([("c3", 1)], True)
    assert _ids(cut_store, project, UP, 3, 100) == ([("c3", 1), ("b2", 2), ("z1", 3)], False)


def test_edges_are_those_among_the_root_and_the_kept_nodes(
    cut_store: GraphStore, project: str
) -> None:
    found = cut_store.lineage(project, "root", direction=DOWN, depth=5, limit=3)
    pairs = [(e.source_id, e.target_id) for e in found.edges]
    assert pairs == [("root", "a1"), ("root", "z1"), ("z1", "b2")]
    full = cut_store.lineage(project, "root", direction=DOWN, depth=3, limit=100)
    assert ("c3", "root") in {(e.source_id, e.target_id) for e in full.edges}
    assert [(e.source_id, e.target_id, e.label) for e in full.edges] == sorted(
        (e.source_id, e.target_id, e.label) for e in full.edges
    )


def test_the_cut_orders_ids_as_utf16_code_units_in_every_adapter(
    store: GraphStore, project: str
) -> None:
    # Neo4j orders strings by UTF-16 code units: U+1F600 (a surrogate pair, 0xD83D...)
    # sorts before U+FFFF, unlike Python's code points; the cut must agree.
    high, astral = "k\uffff", "k\U0001f600"
    events = _events([("r", []), (high, ["r"]), (astral, ["r"])], "utf")
    assert not store.ingest(project, events).rejected
    found = store.lineage(project, "r", direction=DOWN, depth=1, limit=1)
    assert [n.id for n in found.nodes] == [astral] and found.truncated


def test_a_wide_neighbourhood_is_cut_the_same_way(store: GraphStore, project: str) -> None:
    """300 children and their 300 grandchildren: more than the Neo4j adapter fetches in
    one statement (it then walks ring by ring on the server); same answers as the
    embedded store, in both directions and at every cut."""
    from provgraph.store.memory import MemoryGraphStore

    shape: list[tuple[str, list[str]]] = [("hub", [])]
    shape += [(f"c{i:03d}", ["hub"]) for i in range(300)]
    shape += [(f"g{i:03d}", [f"c{(i * 7) % 300:03d}"]) for i in range(300)]
    shape += [("leaf", ["g000", "g299"])]
    events = _events(shape, "wide")
    memory = MemoryGraphStore()
    for target, name in ((store, project), (memory, "p")):
        assert not target.ingest(name, events).rejected
    cases = [("hub", DOWN, 3, 10_000), ("hub", DOWN, 2, 1000), ("hub", DOWN, 3, 450)]
    cases += [("hub", DOWN, 3, 300), ("hub", DOWN, 3, 299), ("hub", DOWN, 1, 300)]
    cases += [("leaf", UP, 3, 10_000), ("leaf", UP, 2, 3), ("g123", UP, 1, 1)]
    for node, direction, depth, limit in cases:
        got = store.lineage(project, node, direction=direction, depth=depth, limit=limit)
        want = memory.lineage("p", node, direction=direction, depth=depth, limit=limit)
        assert got == want, (node, direction, depth, limit)
    full = store.lineage(project, "hub", direction=DOWN, depth=3, limit=10_000)
    assert len(full.nodes) == 601 and not full.truncated
    cut = store.lineage(project, "hub", direction=DOWN, depth=3, limit=450)
    assert cut.truncated and [n.id for n in cut.nodes][-1] == "g149"
