"""The real OpenTelemetry SDK exporting spans over OTLP/HTTP to the running API, then verified."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest
from opentelemetry.exporter.otlp.proto.http import Compression
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.trace import Tracer

from provgraph.graph import EdgeLabel, NodeType
from provgraph.provenance_store import ProvenanceStore
from provgraph.store.port import GraphStore

from .conftest import API_KEY, LiveApi

DOCS = {
    "d_1": "The Eiffel Tower is 330 metres tall and was completed in 1889.",
    "d_2": "Paris has about 2.1 million inhabitants within its city limits.",
}
ANSWER = (
    "The tower is 330 metres tall. [REF|d_1] Paris has about 2.1 million inhabitants. [REF|d_2]"
)


@pytest.fixture
def tracer(live_api: LiveApi) -> Iterator[Tracer]:
    exporter = OTLPSpanExporter(
        endpoint=f"{live_api.url}/v1/traces",
        headers={"Authorization": f"Bearer {API_KEY}"},
        compression=Compression.Gzip,
        timeout=60,
    )
    provider = TracerProvider(resource=Resource.create({"service.name": "otel-agent"}))
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    yield provider.get_tracer("test")
    provider.shutdown()


def _session(store: GraphStore, project: str, session_id: str) -> ProvenanceStore:
    return ProvenanceStore(store, project=project, session_id=session_id)


def test_openinference_shaped_run(tracer: Tracer, graph_store: GraphStore, project: str) -> None:
    with tracer.start_as_current_span(
        "agent",
        attributes={
            "openinference.span.kind": "AGENT",
            "agent.name": "rag-bot",
            "session.id": "oi-1",
            "input.value": "Tell me about Paris",
            "output.value": ANSWER,
        },
    ):
        with tracer.start_as_current_span(
            "retrieve",
            attributes={
                "openinference.span.kind": "RETRIEVER",
                "input.value": "paris facts",
                **{
                    f"retrieval.documents.{i}.document.{f}": v
                    for i, (k, text) in enumerate(DOCS.items())
                    for f, v in (("id", k), ("content", text), ("score", 0.9))
                },
            },
        ):
            pass
        with tracer.start_as_current_span(
            "llm",
            attributes={
                "openinference.span.kind": "LLM",
                "llm.model_name": "gpt-test",
                "llm.input_messages.0.message.role": "user",
                "llm.input_messages.0.message.content": "Tell me about Paris",
                "llm.output_messages.0.message.content": ANSWER,
            },
        ):
            pass
    session = _session(graph_store, project, "oi-1")
    types = [n.type for n in session.nodes.values()]
    assert types.count(NodeType.DATA_READ) == 2 and NodeType.FINAL_OUTPUT in types
    assert not [n for n in session.nodes.values() if n.is_placeholder]
    summary = session.citation_summary()
    assert set(summary) == {"d_1", "d_2"}
    output = next(n for n in session.nodes.values() if n.type == NodeType.FINAL_OUTPUT)
    assert output.id in summary["d_1"]["cited_in"]
    assert any(e.label == EdgeLabel.FEEDS_INTO for e in session.edges)
    verification = pytest.importorskip("provgraph.verification")
    import asyncio

    report = asyncio.run(verification.verify_citations(output.content or "", session))
    assert report.report.citations_checked == 2 and report.report.totals["supported"] == 2


def test_pydantic_ai_shaped_run(tracer: Tracer, graph_store: GraphStore, project: str) -> None:
    conv = {"gen_ai.conversation.id": "pai-1"}
    with tracer.start_as_current_span(
        "invoke_agent coordinator",
        attributes={
            "gen_ai.operation.name": "invoke_agent",
            "gen_ai.agent.name": "coordinator",
            "final_result": ANSWER,
            **conv,
        },
    ):
        with tracer.start_as_current_span(
            "chat test",
            attributes={
                "gen_ai.operation.name": "chat",
                "gen_ai.request.model": "test",
                "gen_ai.system": "test",
                "events": json.dumps(
                    [
                        {"event.name": "gen_ai.user.message", "content": "Paris?"},
                        {
                            "event.name": "gen_ai.choice",
                            "message": {"role": "assistant", "content": ""},
                        },
                    ]
                ),
            },
        ):
            pass
        for key, text in DOCS.items():
            with tracer.start_as_current_span(
                "running tool",
                attributes={
                    "gen_ai.tool.name": "read_file",
                    "gen_ai.tool.call.id": f"call-{key}",
                    "tool_arguments": json.dumps({"file_path": f"{key}.txt"}),
                    "tool_response": f"[REF|{key}]\n{text}",
                },
            ):
                pass
        with tracer.start_as_current_span(
            "chat test",
            attributes={
                "gen_ai.operation.name": "chat",
                "gen_ai.request.model": "test",
                "gen_ai.output.messages": json.dumps(
                    [{"role": "assistant", "parts": [{"type": "text", "content": ANSWER}]}]
                ),
                "gen_ai.usage.prompt_tokens": 10,
                "gen_ai.usage.completion_tokens": 5,
            },
        ):
            pass
    session = _session(graph_store, project, "pai-1")
    reads = [n for n in session.nodes.values() if n.type == NodeType.DATA_READ]
    assert sorted(n.citation_key or "" for n in reads) == ["d_1", "d_2"]
    from provgraph.attribution import attribute_output

    output = next(n for n in session.nodes.values() if n.type == NodeType.FINAL_OUTPUT)
    sources = {s.id for s in attribute_output(session, output.id).sources}
    assert {n.id for n in reads} <= sources  # the chain leads from the answer back to the reads


def test_partial_success_and_malformed(live_api: LiveApi) -> None:
    headers = {"Authorization": f"Bearer {API_KEY}", "Content-Type": "application/json"}
    good = {
        "traceId": "0af7651916cd43dd8448eb211c80319c",
        "spanId": "00f067aa0ba902b7",
        "name": "tool",
        "attributes": [{"key": "gen_ai.tool.name", "value": {"stringValue": "t"}}],
    }
    bad = {"traceId": "zz", "spanId": "1", "name": "broken"}
    body = {"resourceSpans": [{"scopeSpans": [{"spans": [good, bad]}]}]}
    answer = httpx.post(f"{live_api.url}/v1/traces", json=body, headers=headers)
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/json"
    partial = answer.json()["partialSuccess"]
    assert partial["rejectedSpans"] == 1 and "hex" in partial["errorMessage"]
    assert httpx.post(f"{live_api.url}/v1/traces", content=b"{", headers=headers).status_code == 400
    assert (
        httpx.post(
            f"{live_api.url}/v1/traces", json=body, headers={"Content-Type": "application/json"}
        ).status_code
        == 401
    )
