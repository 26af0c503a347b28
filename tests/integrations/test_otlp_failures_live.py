"""The real OTel SDK records exceptions on spans; over OTLP/HTTP they become failed nodes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor
from pydantic_ai import Agent
from pydantic_ai.capabilities import Instrumentation
from pydantic_ai.messages import ModelMessage, ModelResponse, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.instrumented import InstrumentationSettings

from provgraph.attribution import attribute_output
from provgraph.graph import NodeError, NodeStatus, NodeType
from provgraph.provenance_store import ProvenanceStore
from provgraph.store.port import GraphStore

from .conftest import API_KEY, LiveApi

SECRET = "sk-live-do-not-record"


@pytest.fixture
def provider(live_api: LiveApi) -> Iterator[TracerProvider]:
    """Spans go out in one batch on ``force_flush``, as a production exporter sends them."""
    exporter = OTLPSpanExporter(
        endpoint=f"{live_api.url}/v1/traces",
        headers={"Authorization": f"Bearer {API_KEY}"},
        timeout=60,
    )
    provider = TracerProvider(resource=Resource.create({"service.name": "failing-agent"}))
    provider.add_span_processor(BatchSpanProcessor(exporter, schedule_delay_millis=60_000))
    yield provider
    provider.shutdown()


def _lookup(key: str) -> str:
    api_key = SECRET  # a local in the failing frame; the exported trace names only the line
    if key != "known":
        raise LookupError(f"no record for {key!r}")
    return api_key[:0] + "42"


def test_exception_in_a_tool_span_fails_the_call(
    provider: TracerProvider, graph_store: GraphStore, project: str
) -> None:
    tracer = provider.get_tracer("test")
    genai = {"gen_ai.conversation.id": "otel-fail-1"}
    agent_attrs = {"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "clerk", **genai}
    tool_attrs = {"gen_ai.tool.name": "lookup", **genai}
    chat_attrs = {"gen_ai.operation.name": "chat", "gen_ai.request.model": "test", **genai}
    answered = {**agent_attrs, "final_result": "The value is 42."}
    with tracer.start_as_current_span("invoke_agent clerk", attributes=answered):
        # the SDK records the exception on the span, sets status ERROR, and re-raises
        failing = {**tool_attrs, "gen_ai.tool.call.id": "call-1"}
        with (
            pytest.raises(LookupError),
            tracer.start_as_current_span("execute_tool lookup", attributes=failing),
        ):
            _lookup("missing")
        with tracer.start_as_current_span(
            "execute_tool lookup",
            attributes={**tool_attrs, "gen_ai.tool.call.id": "call-2", "tool_response": "42"},
        ):
            _lookup("known")
        with tracer.start_as_current_span(
            "chat test",
            attributes={
                **chat_attrs,
                "gen_ai.output.messages": '[{"role": "assistant", "parts": '
                '[{"type": "text", "content": "The value is 42."}]}]',
            },
        ):
            pass
    with (
        pytest.raises(RuntimeError),
        tracer.start_as_current_span("invoke_agent broken", attributes=agent_attrs),
    ):
        raise RuntimeError("model provider down")
    assert provider.force_flush(timeout_millis=60_000)

    session = ProvenanceStore(graph_store, project=project, session_id="otel-fail-1")
    nodes = list(session.nodes.values())
    calls = sorted(
        (n for n in nodes if n.type == NodeType.TOOL_CALL), key=lambda n: n.data["tool_call_id"]
    )
    assert [c.status for c in calls] == [NodeStatus.ERROR, None]
    assert calls[0].error == NodeError("LookupError", "no record for 'missing'")
    tail = calls[0].data["error_stacktrace_tail"]
    assert "LookupError" in tail and SECRET not in str(calls[0].data)
    # the real SDK exported this machine's absolute paths; only module paths are stored
    assert 'File "integrations/test_otlp_failures_live.py"' in tail
    assert str(Path(__file__).parent) not in tail and str(Path.home()) not in tail
    results = [n for n in nodes if n.type == NodeType.TOOL_RESULT]
    assert len(results) == 1  # only the call that returned has a result

    runs = [n for n in nodes if n.type == NodeType.AGENT_RUN]
    failed_runs = [r for r in runs if r.failed]
    assert len(runs) == 2 and len(failed_runs) == 1
    assert failed_runs[0].error == NodeError("RuntimeError", "model provider down")

    output = next(n for n in nodes if n.type == NodeType.FINAL_OUTPUT)
    attribution = attribute_output(session, output.id)
    assert [n.id for n in attribution.failed_steps] == [calls[0].id]
    assert "✗ Tool: lookup — LookupError: no record for 'missing'" in attribution.summary()


async def test_pydantic_ai_instrumentation_of_a_raising_tool(
    provider: TracerProvider, graph_store: GraphStore, project: str
) -> None:
    """pydantic-ai's own OTel instrumentation (no provgraph code in the agent) → failed nodes."""

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        return ModelResponse(parts=[ToolCallPart("lookup", {"key": "a"}, tool_call_id="t1")])

    settings = InstrumentationSettings(tracer_provider=provider)
    agent = Agent(FunctionModel(model), capabilities=[Instrumentation(settings)])

    @agent.tool_plain
    def lookup(key: str) -> str:
        raise ConnectionError(f"backend unreachable for {key!r}")

    with pytest.raises(ConnectionError):
        await agent.run("What is a?", conversation_id="pai-fail-1")
    assert provider.force_flush(timeout_millis=60_000)

    graph = graph_store.session_graph(project, "pai-fail-1")
    failed = sorted(
        (n.type.value if n.type else "", n.error) for n in graph.nodes.values() if n.failed
    )
    error = NodeError("ConnectionError", "backend unreachable for 'a'")
    assert failed == [("agent_run", error), ("tool_call", error)]
    assert not [n for n in graph.nodes.values() if n.type == NodeType.TOOL_RESULT]
