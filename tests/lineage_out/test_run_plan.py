"""The run plan behind both exports (OpenLineage runs, Phoenix spans), on graphs built by ingest."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from provgraph.evals_out.spans import plan_spans
from provgraph.events import ErrorInfo, Event
from provgraph.graph import NodeStatus, NodeType, ProvenanceGraph
from provgraph.lineage_out.runs import plan_runs, run_uuid, source_identity
from provgraph.store.memory import MemoryGraphStore

T0 = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


def _graph(*events: Event) -> ProvenanceGraph:
    store = MemoryGraphStore()
    assert len(store.ingest("p", list(events)).accepted) == len(events)
    return store.session_graph("p", "s")


def _event(n: int, kind: NodeType, node: str, run: str, agent: str, **more: Any) -> Event:
    return Event(
        id=f"e{n}",
        type=kind,
        node_id=node,
        run_id=run,
        agent_name=agent,
        session_id="s",
        timestamp=T0 + timedelta(seconds=n),
        **more,
    )


def _three_levels() -> ProvenanceGraph:
    return _graph(
        _event(1, NodeType.AGENT_RUN, "a", "ra", "boss"),
        _event(2, NodeType.TOOL_CALL, "a-call", "ra", "boss", parent_ids=["a"]),
        _event(3, NodeType.AGENT_RUN, "b", "rb", "middle", parent_ids=["a-call"]),
        _event(4, NodeType.TOOL_CALL, "b-call", "rb", "middle", parent_ids=["b"]),
        _event(5, NodeType.AGENT_RUN, "c", "rc", "leaf", parent_ids=["b-call"]),
        _event(
            6,
            NodeType.DATA_READ,
            "c-read",
            "rc",
            "leaf",
            parent_ids=["c"],
            label="[source] notes.md",
            citation_key="d_1",
            content="x",
        ),
        _event(
            7,
            NodeType.FINAL_OUTPUT,
            "c-out",
            "rc",
            "leaf",
            parent_ids=["c-read"],
            citation_key="a_2",
            content="y [REF|d_1]",
        ),
        _event(8, NodeType.FINAL_OUTPUT, "b-out", "rb", "middle", parent_ids=["b-call"]),
        _event(
            9,
            NodeType.AGENT_RUN,
            "a",
            "ra",
            "boss",
            status=NodeStatus.ERROR,
            error=ErrorInfo(type="Boom", message="late failure"),
        ),
    )


def test_parents_come_first_and_the_root_is_the_top_of_the_chain() -> None:
    plans = plan_runs(_three_levels(), "p", "s")
    assert [p.run_id for p in plans] == ["ra", "rb", "rc"]
    by_id = {p.run_id: p for p in plans}
    assert (by_id["rb"].parent, by_id["rb"].root) == ("ra", "ra")
    assert (by_id["rc"].parent, by_id["rc"].root) == ("rb", "ra")
    assert by_id["ra"].parent is None and by_id["ra"].root is None
    assert [p.state for p in plans] == ["FAIL", "COMPLETE", "COMPLETE"]
    assert by_id["ra"].error is not None and by_id["ra"].error.type == "Boom"
    # a child's output is an input of its parent
    assert [r.name for r in by_id["rb"].inputs] == ["s/a_2"]
    assert [r.name for r in by_id["rc"].inputs] == ["notes.md"]


def test_run_ids_are_stable_and_scoped() -> None:
    assert run_uuid("p", "s", "ra") == run_uuid("p", "s", "ra")
    assert len({run_uuid("p", "s", "ra"), run_uuid("q", "s", "ra"), run_uuid("p", "t", "ra")}) == 3


def test_a_run_without_an_agent_run_node_still_plans() -> None:
    graph = _graph(
        _event(1, NodeType.MODEL_REQUEST, "m", "r1", "solo"),
        _event(2, NodeType.FINAL_OUTPUT, "o", "r1", "solo", parent_ids=["m"]),
        _event(3, NodeType.MODEL_REQUEST, "m2", "r2", "idle"),
    )
    plans = {p.run_id: p for p in plan_runs(graph, "p", "s")}
    assert plans["r1"].run_node is None and plans["r1"].state == "COMPLETE"
    assert plans["r2"].state == "RUNNING"  # no outcome yet: START only
    assert plans["r1"].agent_name == "solo"


def test_source_identity_prefers_what_was_read() -> None:
    graph = _graph(
        _event(1, NodeType.DATA_READ, "d1", "r", "x", data={"file_path": "a/b.txt"}, label="L"),
        _event(2, NodeType.DATA_READ, "d2", "r", "x", label="[source] report.pdf"),
        _event(3, NodeType.DATA_READ, "d3", "r", "x", data={"tool_name": "fetch"}),
    )
    names = [source_identity(graph.nodes[n]) for n in ("d1", "d2", "d3")]
    assert names == ["a/b.txt", "report.pdf", "fetch/d3"]


def test_spans_parents_first_unique_ids_failures_marked() -> None:
    specs = plan_spans(_three_levels(), "p", "s")
    seen: set[int] = set()
    for spec in specs:
        assert spec.parent_span_id is None or spec.parent_span_id in seen
        assert spec.span_id not in seen
        seen.add(spec.span_id)
    by_node = {spec.node_id: spec for spec in specs}
    assert by_node["b"].parent_span_id == by_node["a-call"].span_id
    assert by_node["a"].error == "Boom: late failure"
    assert by_node["c-read"].attributes["retrieval.documents.0.document.id"] == "d_1"
    assert by_node["c-out"].attributes["openinference.span.kind"] == "CHAIN"
    assert plan_spans(_three_levels(), "p", "s") == specs
