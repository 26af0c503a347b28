"""Seed attribution semantics and the bounds that keep path enumeration finite."""

from __future__ import annotations

import pytest

from provgraph.attribution import attribute, attribute_all_outputs, attribute_output
from provgraph.errors import LimitExceededError, NotFoundError
from provgraph.events import Event
from provgraph.graph import NodeType, ProvenanceNode
from provgraph.store import ProvenanceStore
from provgraph.store.memory import MemoryGraphStore
from provgraph.store.types import AttributionQuery


def test_seed_worked_case() -> None:
    store = ProvenanceStore()
    user = ProvenanceNode.create(NodeType.INPUT, "User input", "a", "r")
    request = ProvenanceNode.create(NodeType.MODEL_REQUEST, "Model request", "a", "r")
    output = ProvenanceNode.create(NodeType.FINAL_OUTPUT, "Final output", "a", "r")
    for node in (user, request, output):
        store.add_node(node)
    store.add_edge(user.id, request.id, "feeds_into")
    store.add_edge(request.id, output.id, "produces")
    result = attribute_output(store)
    assert result.source_labels == ["User input"]
    assert [p.hop_count for p in result.paths] == [2]
    assert str(result.paths[0]) == "User input → Model request → Final output"
    assert not result.truncated
    assert len(attribute_all_outputs(store)) == 1


def test_no_output_and_unknown_id() -> None:
    store = ProvenanceStore()
    with pytest.raises(ValueError, match="FINAL_OUTPUT"):
        attribute_output(store)
    with pytest.raises(KeyError):
        attribute_output(store, "nope")
    with pytest.raises(NotFoundError):
        attribute(store.graph_store, store.project, "nope")


def test_edge_before_target_is_kept() -> None:
    store = ProvenanceStore()
    user = ProvenanceNode.create(NodeType.INPUT, "User input", "a", "r")
    output = ProvenanceNode.create(NodeType.FINAL_OUTPUT, "Final output", "a", "r")
    store.add_node(user)
    store.add_edge(user.id, output.id, "produces")  # the seed dropped this edge silently
    store.add_node(output)
    assert [p.hop_count for p in attribute_output(store).paths] == [1]


def _diamond_chain(layers: int) -> list[Event]:
    """input → (2 nodes) → join → (2 nodes) → join … : 2**layers paths."""
    events = []
    ts = "2026-01-01T00:00:00Z"

    def ev(node_id: str, node_type: str, parents: list[str]) -> None:
        events.append(
            Event.model_validate(
                {
                    "id": f"e-{node_id}",
                    "type": node_type,
                    "timestamp": ts,
                    "session_id": "s",
                    "node_id": node_id,
                    "parent_ids": parents,
                }
            )
        )

    ev("in", "input", [])
    previous = "in"
    for layer in range(layers):
        ev(f"a{layer}", "model_request", [previous])
        ev(f"b{layer}", "model_request", [previous])
        ev(f"j{layer}", "model_response", [f"a{layer}", f"b{layer}"])
        previous = f"j{layer}"
    ev("out", "final_output", [previous])
    return events


def test_path_explosion_is_capped_and_flagged() -> None:
    store = MemoryGraphStore()
    store.ingest("p", _diamond_chain(20))  # 2**20 paths
    found = store.attribution("p", AttributionQuery("out", max_depth=64, max_paths=50))
    assert found.truncated
    assert len(found.paths) == 50
    assert all(p[0] == "in" and p[-1] == "out" and len(p) == 42 for p in found.paths)
    assert [s.id for s in found.sources] == ["in"]
    assert len(set(found.paths)) == 50


def test_depth_bound_flags_truncation() -> None:
    store = MemoryGraphStore()
    store.ingest("p", _diamond_chain(3))
    shallow = store.attribution("p", AttributionQuery("out", max_depth=2, max_paths=100))
    assert shallow.truncated and shallow.paths == ()
    deep = store.attribution("p", AttributionQuery("out", max_depth=64, max_paths=100))
    assert not deep.truncated and len(deep.paths) == 8
    assert all(p[0] == "in" for p in deep.paths)


@pytest.mark.parametrize("bad", [0, -1, 65, True, 2.5, "3"])
def test_depth_must_be_bounded_int(bad: object) -> None:
    with pytest.raises(LimitExceededError):
        AttributionQuery("out", max_depth=bad)  # type: ignore[arg-type]


def test_seed_api_names_the_source_of_a_ladder_of_40_diamonds() -> None:
    """2**40 paths, 81 hops: the seed API still names the input (issue 16)."""
    store = ProvenanceStore()
    ladder = _diamond_chain(40)
    store.ingest([e.model_copy(update={"session_id": store.session_id}) for e in ladder])
    result = attribute_output(store)
    assert result.source_labels == [store.graph.nodes["in"].label]
    assert result.truncated and result.paths == []
    assert "Contributing sources (1)" in result.summary()


def test_sources_do_not_depend_on_the_bounds() -> None:
    store = MemoryGraphStore()
    store.ingest("p", _diamond_chain(3))
    for depth, paths in ((1, 1), (2, 100), (64, 1)):
        found = store.attribution("p", AttributionQuery("out", max_depth=depth, max_paths=paths))
        assert [s.id for s in found.sources] == ["in"]
