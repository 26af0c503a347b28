"""A real pydantic-ai multi-agent run (FunctionModel, no LLM) recorded by ProvenanceCapability."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic_ai import Agent
from pydantic_ai.messages import (
    ModelMessage,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.test import TestModel

from provgraph.capability import ProvenanceCapability
from provgraph.graph import EdgeLabel, NodeType
from provgraph.provenance_store import ProvenanceStore
from provgraph.sdk import ListSink

FILES = {
    "tower.txt": "The Eiffel Tower is 330 metres tall and was completed in 1889.",
    "city.txt": "Paris has about 2.1 million inhabitants within its city limits.",
}
FINAL = "The tower is 330 metres tall. [REF|d_1] Paris has about 2.1 million inhabitants. [REF|d_2]"


def _returns(messages: list[ModelMessage]) -> list[ToolReturnPart]:
    return [p for m in messages for p in getattr(m, "parts", []) if isinstance(p, ToolReturnPart)]


def researcher_model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    seen = _returns(messages)
    if not seen:
        return ModelResponse(
            parts=[
                ToolCallPart("read_file", {"file_path": "tower.txt"}, tool_call_id="r1"),
                ToolCallPart("read_file", {"file_path": "city.txt"}, tool_call_id="r2"),
            ]
        )
    headers = {str(r.content).split("\n", 1)[0]: r for r in seen}
    assert set(headers) == {"[REF|d_1]", "[REF|d_2]"}, headers  # keys shown to the model at once
    return ModelResponse(parts=[TextPart(FINAL)])


def coordinator_model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    seen = _returns(messages)
    if not seen:
        return ModelResponse(
            parts=[ToolCallPart("ask_researcher", {"question": "Paris facts"}, tool_call_id="c1")]
        )
    shown = str(seen[0].content)
    assert shown.startswith("[REF|a_3]\n") and "[REF|d_1]" in shown, shown
    return ModelResponse(parts=[TextPart(f"Answer: {FINAL}")])


Agents = tuple[ProvenanceCapability, ProvenanceCapability, Agent[None, str]]


def build_agents(**options: Any) -> Agents:
    sub_cap = ProvenanceCapability(source_tools=["read_file"], agent_name="researcher")
    researcher = Agent(FunctionModel(researcher_model), capabilities=[sub_cap])

    @researcher.tool_plain
    def read_file(file_path: str) -> str:
        return FILES[file_path]

    cap = ProvenanceCapability(agent_name="coordinator", **options)
    coordinator = Agent(FunctionModel(coordinator_model), capabilities=[cap])

    @coordinator.tool_plain
    async def ask_researcher(question: str) -> str:
        result = await researcher.run(question)
        return result.output

    return cap, sub_cap, coordinator


def _edges(store: ProvenanceStore, label: EdgeLabel) -> list[tuple[str, str]]:
    nodes = store.nodes
    return [
        (nodes[e.source_id].type or "", nodes[e.target_id].type or "")
        for e in store.edges
        if e.label == label
    ]


async def test_store_before_first_run_raises() -> None:
    cap = ProvenanceCapability()
    with pytest.raises(RuntimeError):
        _ = cap.store


async def test_multi_agent_run_graph_and_keys() -> None:
    cap, sub_cap, coordinator = build_agents()
    result = await coordinator.run("Tell me about Paris")
    store = cap.store
    assert sub_cap.store.session_id == store.session_id  # the sub-agent shared the session
    nodes = list(store.nodes.values())
    by_type: dict[NodeType | None, list[Any]] = {}
    for node in nodes:
        by_type.setdefault(node.type, []).append(node)
    assert len(by_type[NodeType.AGENT_RUN]) == 2
    assert len(by_type[NodeType.DATA_READ]) == 2
    assert len(by_type[NodeType.FINAL_OUTPUT]) == 2
    assert not [n for n in nodes if n.is_placeholder]
    summary = store.citation_summary()
    assert list(summary) == ["d_1", "d_2", "a_3", "a_4"]  # one shared counter
    assert summary["d_1"]["file_path"] == "tower.txt"
    assert summary["a_3"]["agent_name"] == "researcher"
    assert (NodeType.TOOL_CALL, NodeType.AGENT_RUN) in _edges(store, EdgeLabel.DELEGATES_TO)
    cited = _edges(store, EdgeLabel.CITED_IN)
    assert (NodeType.DATA_READ, NodeType.FINAL_OUTPUT) in cited
    coord_output = store.nodes[store.resolve_citation("a_4") or ""]
    assert coord_output.content == result.output
    assert set(summary["d_1"]["cited_in"]) >= {coord_output.id}
    for label in (
        EdgeLabel.STARTS_WITH,
        EdgeLabel.FEEDS_INTO,
        EdgeLabel.PRODUCES,
        EdgeLabel.CALLS,
        EdgeLabel.RETURNS,
    ):
        assert _edges(store, label), label
    # attribution walks from the coordinator's answer back to both files
    from provgraph.attribution import attribute_output

    attribution = attribute_output(store, coord_output.id)
    labels = {s.label for s in attribution.sources}
    assert "[source] Tool: read_file" in labels


async def test_seed_data_keys_hold_prompt_output_and_results() -> None:
    """Seed code reads ``data["prompt"]``/``data["output"]`` (issue 16); content stays canonical."""
    cap, _sub, coordinator = build_agents()
    result = await coordinator.run("Tell me about Paris")
    store = cap.store
    nodes = list(store.nodes.values())
    inputs = [n for n in nodes if n.type == NodeType.INPUT]
    outputs = {n.agent_name: n for n in nodes if n.type == NodeType.FINAL_OUTPUT}
    assert [n.data["prompt"] for n in inputs if n.agent_name == "coordinator"] == [
        "Tell me about Paris"
    ]
    assert outputs["coordinator"].data["output"] == result.output == outputs["coordinator"].content
    assert store.citation_summary()["a_4"]["output"] == result.output
    results = [n.data["result"] for n in nodes if n.type == NodeType.TOOL_RESULT]
    assert FILES["tower.txt"] in results
    stored = store.graph_store.get_node(store.project, outputs["coordinator"].id)
    assert stored is not None and "output" not in stored.data  # the view copies, never stores


async def test_verification_runs_on_the_recorded_session() -> None:
    pytest.importorskip("provgraph.verification")
    cap, _sub, coordinator = build_agents()
    result = await coordinator.run("Tell me about Paris")
    report = await cap.verify(result.output)
    assert report.report.citations_checked == 2
    assert report.report.totals["supported"] == 2
    assert report.text_with_verified_citations == result.output


async def test_events_also_go_to_a_client_sink() -> None:
    sink = ListSink()
    cap, _sub, coordinator = build_agents(client=sink)
    await coordinator.run("Tell me about Paris")
    local = cap.store.nodes
    assert {e.node_id for e in sink.events} == set(local)
    assert len({e.id for e in sink.events}) == len(sink.events)


async def test_test_model_agent_and_pinned_session() -> None:
    cap = ProvenanceCapability(source_tools=["lookup"], agent_name="solo", session_id="s-pinned")
    agent = Agent(TestModel(), capabilities=[cap])

    @agent.tool_plain
    def lookup(term: str) -> str:
        return f"definition of {term}"

    await agent.run("define x")
    await agent.run("define y")
    summary = cap.store.citation_summary()
    # two runs in one pinned session: the counter continues (no key reused)
    assert len(summary) == len(set(summary)) and "d_1" in summary and "a_2" in summary
    assert any(k.startswith("d_") and k != "d_1" for k in summary)
    assert cap.store.session_id == "s-pinned"


async def test_verification_report_as_otel_evaluation_events() -> None:
    pytest.importorskip("provgraph.verification")
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    from provgraph.otel_out import EVENT_NAME, emit_evaluation_events

    cap, _sub, coordinator = build_agents()
    result = await coordinator.run("Tell me about Paris")
    report = await cap.verify(result.output)
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    assert emit_evaluation_events(report, tracer=provider.get_tracer("t")) == 3
    (span,) = exporter.get_finished_spans()
    events = [e for e in span.events if e.name == EVENT_NAME]
    assert events[0].attributes is not None
    assert events[0].attributes["gen_ai.evaluation.score.label"] == "grounded"
    assert {e.attributes["gen_ai.evaluation.score.label"] for e in events[1:] if e.attributes} == {
        "supported"
    }
