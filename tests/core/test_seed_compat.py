"""Seed (pydantic-ai-provenance) behaviours its users rely on (issue 16, docs/compatibility.md)."""

from __future__ import annotations

import pytest

from provgraph.citations import (
    CitationRef,
    _extract_file_path,
    _format_cited_content,
    _is_agent_key,
    _is_data_key,
    extract_file_path,
    parse_citations,
)
from provgraph.errors import ValidationError
from provgraph.graph import NodeType, ProvenanceGraph, ProvenanceNode
from provgraph.seed_view import seed_node
from provgraph.store import ProvenanceStore


def test_citation_ref_is_the_seed_shape() -> None:
    ref = parse_citations("Claim. [REF|d_1|a_2]")[0]
    assert ref.refs == ["d_1", "a_2"] and isinstance(ref.refs, list)
    assert str(ref) == "[REF|d_1|a_2]" == ref.raw
    assert str(CitationRef(refs=["d_9"], raw="whatever")) == "[REF|d_9]"


def test_private_helpers_keep_the_seed_rules() -> None:
    assert _is_data_key("d_1") and not _is_data_key("a_1")
    assert _is_agent_key("a_3") and not _is_agent_key("d_3")
    assert _extract_file_path({"path": "/a.txt", "file": "/b.txt"}) == "/a.txt"
    assert _extract_file_path({"file": "/b.txt", "url": "http://x"}) == "/b.txt"
    assert _extract_file_path({"query": "something"}) == "something"  # seed fallback
    assert _extract_file_path({"count": 42, "flag": True}) is None
    assert _extract_file_path({}) is None
    assert _format_cited_content(42, "a_3") == "[REF|a_3]\n42"


def test_public_extract_file_path_has_no_fallback() -> None:
    """A ``query`` argument is not a file path: only the recorder-facing rule differs."""
    assert extract_file_path({"query": "something"}) is None
    assert extract_file_path({"query": "q", "source": "s3://b/k"}) == "s3://b/k"
    assert extract_file_path({"file_path": "a", "path": "b"}) == "a"


def _node(node_id: str) -> ProvenanceNode:
    node = ProvenanceNode.create(NodeType.TOOL_CALL, node_id, "agent", "r")
    node.id = node_id
    return node


def test_graph_ignores_edges_to_unknown_nodes_like_the_seed() -> None:
    graph = ProvenanceGraph()
    graph.add_node(_node("a"))
    graph.add_edge("a", "missing", "calls")
    graph.add_edge("missing", "a", "calls")
    assert graph.edges == [] and graph.predecessors("a") == []
    graph.add_node(_node("b"))
    graph.add_edge("a", "b", "calls")
    graph.add_edge("a", "b", "calls")  # once
    assert [(e.source_id, e.target_id) for e in graph.edges] == [("a", "b")]


def test_store_keeps_edges_that_arrive_before_their_target() -> None:
    """The placeholder/pending logic lives in the store, not in the seed's graph class."""
    store = ProvenanceStore()
    source, target = _node("s"), _node("t")
    store.add_node(source)
    store.add_edge("s", "t", "calls")
    assert store.edges == []
    store.add_node(target)
    assert [(e.source_id, e.target_id, e.label) for e in store.edges] == [("s", "t", "calls")]


def test_register_hands_out_keys_before_the_node_is_added() -> None:
    store = ProvenanceStore()
    read = ProvenanceNode.create(NodeType.DATA_READ, "Read: a.txt", "agent", "r", file_path="a")
    key = store.register_data_source(read.id)  # the seed allowed this; provgraph raised
    assert key == "d_1" and store.register_data_source(read.id) == "d_1"
    assert store.resolve_citation("d_1") == read.id
    assert store.citation_key_for_node(read.id) == "d_1"
    assert store.citation_summary() == {}  # the seed skips keys whose node is missing
    assert store.register_agent_output("later-output") == "a_2"  # one shared counter
    store.add_node(read)
    assert store.nodes[read.id].citation_key == "d_1"
    assert store.citation_summary()["d_1"]["file_path"] == "a"
    assert store.graph_store.resolve_citation_key(store.project, store.session_id, "d_1")


def test_the_seeds_private_registry_is_a_live_view_of_the_graphs_keys() -> None:
    store = ProvenanceStore()
    registry = store._citation_registry
    registry["d_1"] = "nonexistent-id"  # what the seed's own suite does
    assert "d_1" not in store.citation_summary()  # its node is missing: skipped
    assert registry["d_1"] == "nonexistent-id" and list(registry) == ["d_1"]
    read = ProvenanceNode.create(NodeType.DATA_READ, "Read: b.txt", "agent", "r", file_path="b")
    store.add_node(read)
    registry["d_7"] = read.id  # a recorded node gets the key at once, in the graph
    assert store.graph_store.resolve_citation_key(store.project, store.session_id, "d_7")
    assert store.citation_summary()["d_7"]["file_path"] == "b"
    assert store.register_agent_output("out") == "a_8"  # keys continue after d_7
    del registry["d_1"]  # a key still waiting for its node can be taken back
    assert "d_1" not in registry and len(registry) == 2
    with pytest.raises(ValidationError, match="bound to a recorded node"):
        del registry["d_7"]
    with pytest.raises(KeyError):
        del registry["d_99"]


def test_seed_view_adds_content_under_the_seed_key_only_when_missing() -> None:
    output = ProvenanceNode.create(NodeType.FINAL_OUTPUT, "Final output", "a", "r")
    output.content = "The answer."
    assert seed_node(output).data == {"output": "The answer."}
    assert output.data == {}  # a copy: the stored node is untouched
    written = ProvenanceNode.create(NodeType.FINAL_OUTPUT, "Final output", "a", "r", output="mine")
    written.content = "other"
    assert seed_node(written) is written
    run = ProvenanceNode.create(NodeType.AGENT_RUN, "Agent", "a", "r")
    run.content = "x"
    assert seed_node(run) is run  # no seed key for this type
