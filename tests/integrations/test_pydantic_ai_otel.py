"""pydantic-ai's own OpenTelemetry instrumentation, unmodified, exporting OTLP/HTTP to provgraph.

A coordinator agent delegates to a researcher agent through its ``ask_researcher``
tool; the researcher reads a document through its own ``read_document`` tool,
which returns the plain document (no provgraph code, no ``[REF|…]`` header).
Both agents are instrumented only by ``Agent.instrument_all`` with a tracer
provider whose exporter points at a real uvicorn API over the real Neo4j. The
models are pydantic-ai ``FunctionModel``s. What must land (read back through
GraphQL): one session, both agents, the delegation, agent names on every node,
the read as a data source with key ``d_1``, and the final output verified.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor, SpanProcessor
from pydantic_ai import Agent, RunContext
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.instrumented import InstrumentationSettings

from provgraph.otlp import SOURCE_TOOLS_HEADER

from .conftest import API_KEY, LiveApi, graphql, wait_for_report

pytestmark = pytest.mark.neo4j

DOCUMENT = "Revenue grew 12% in 2025, reaching 4.2 million euros."
ANSWER = "Revenue grew 12% in 2025. [REF|d_1]"
SESSION = "pai-otel-coordinator"


def _returned(messages: list[ModelMessage]) -> bool:
    return any(isinstance(p, ToolReturnPart) for p in messages[-1].parts)


def researcher_model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    if _returned(messages):
        return ModelResponse(parts=[TextPart(ANSWER)])
    return ModelResponse(parts=[ToolCallPart("read_document", {"name": "annual-report.txt"})])


def coordinator_model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    if _returned(messages):
        return ModelResponse(parts=[TextPart(ANSWER)])
    return ModelResponse(parts=[ToolCallPart("ask_researcher", {"question": "Revenue in 2025?"})])


def build_agents() -> Agent[None, str]:
    researcher = Agent(FunctionModel(researcher_model), name="researcher")

    @researcher.tool_plain
    def read_document(name: str) -> str:
        """Read a document by name."""
        return DOCUMENT

    coordinator = Agent(FunctionModel(coordinator_model), name="coordinator")

    @coordinator.tool
    async def ask_researcher(ctx: RunContext[None], question: str) -> str:
        """Ask the researcher agent."""
        result = await researcher.run(question)
        return result.output

    return coordinator


@pytest.fixture(params=["simple+resource", "batch+header"])
def provider(
    request: pytest.FixtureRequest, verifying_api: LiveApi
) -> Iterator[tuple[TracerProvider, bool]]:
    """One-span exports naming the source tool on the resource, or batches naming it by header.

    The one-span variant also names the coordinator's conversation; the batched
    one leaves it to pydantic-ai (a fresh id per run, the issue's exact setup).
    """
    simple = request.param.startswith("simple")
    headers = {"Authorization": f"Bearer {API_KEY}"}
    resource: dict[str, Any] = {"service.name": "research-crew"}
    if simple:
        resource["provgraph.source_tools"] = ["read_document"]
    else:
        headers[SOURCE_TOOLS_HEADER] = "read_document"
    exporter = OTLPSpanExporter(
        endpoint=f"{verifying_api.url}/v1/traces", headers=headers, timeout=60
    )
    processor: SpanProcessor = (
        SimpleSpanProcessor(exporter) if simple else BatchSpanProcessor(exporter)
    )
    tracer_provider = TracerProvider(resource=Resource.create(resource))
    tracer_provider.add_span_processor(processor)
    Agent.instrument_all(InstrumentationSettings(tracer_provider=tracer_provider))
    yield tracer_provider, simple
    Agent.instrument_all(False)
    tracer_provider.shutdown()


SESSION_QUERY = """
query ($id: ID!) {
  session(id: $id) {
    agentNames
    agents { name delegatedBy }
    finalOutputIds
    nodes(first: 200) {
      id type agentName content citationKey isPlaceholder data
    }
    edges { sourceId targetId label }
  }
  citationSummary(sessionId: $id) { key node { id type content } citedInIds }
}
"""


def test_coordinator_and_researcher_land_as_one_session(
    provider: tuple[TracerProvider, bool], verifying_api: LiveApi
) -> None:
    coordinator = build_agents()
    tracer_provider, named = provider
    result = coordinator.run_sync(
        "How did revenue change?", conversation_id=SESSION if named else None
    )
    assert result.output == ANSWER
    assert tracer_provider.force_flush(60_000)

    listed = graphql(verifying_api, "{ sessions(first: 100) { edges { node { id nodeCount } } } }")
    # one session: nothing left behind in a trace session or the researcher's conversation
    populated = [e["node"]["id"] for e in listed["sessions"]["edges"] if e["node"]["nodeCount"]]
    assert len(populated) == 1 and (populated == [SESSION] or not named)
    assert not populated[0].startswith("trace-")
    data = graphql(verifying_api, SESSION_QUERY, id=populated[0])
    session = data["session"]
    assert session is not None

    nodes = {n["id"]: n for n in session["nodes"]}
    assert not [n for n in nodes.values() if n["isPlaceholder"]]
    assert sorted(session["agentNames"]) == ["coordinator", "researcher"]
    assert all(n["agentName"] in ("coordinator", "researcher") for n in nodes.values())
    by_type: dict[str, list[dict[str, Any]]] = {}
    for node in nodes.values():
        by_type.setdefault(node["type"], []).append(node)
    requests = by_type["MODEL_REQUEST"]
    assert sorted(n["agentName"] for n in requests) == [
        "coordinator",
        "coordinator",
        "researcher",
        "researcher",
    ]

    # the delegation: the coordinator's ask_researcher call → the researcher's run
    agents = {a["name"]: a for a in session["agents"]}
    assert agents["researcher"]["delegatedBy"] == ["coordinator"]
    delegations = [e for e in session["edges"] if e["label"] == "delegates_to"]
    assert len(delegations) == 1
    caller, run = nodes[delegations[0]["sourceId"]], nodes[delegations[0]["targetId"]]
    assert caller["type"] == "TOOL_CALL" and caller["agentName"] == "coordinator"
    assert caller["data"]["tool_name"] == "ask_researcher"
    assert run["type"] == "AGENT_RUN" and run["agentName"] == "researcher"

    # the model asked for both tools, and the read is a data source with a citation key
    asked = [c["name"] for n in by_type["MODEL_RESPONSE"] for c in n["data"].get("tool_calls", [])]
    assert sorted(asked) == ["ask_researcher", "read_document"]
    (read,) = by_type["DATA_READ"]
    assert read["agentName"] == "researcher" and read["citationKey"] == "d_1"
    assert read["data"]["tool_name"] == "read_document"
    summary = {s["key"]: s for s in data["citationSummary"]}
    assert set(summary) == {"d_1"} and summary["d_1"]["node"]["id"] == read["id"]
    result_nodes = [
        nodes[e["targetId"]]
        for e in session["edges"]
        if e["sourceId"] == read["id"] and nodes[e["targetId"]]["type"] == "TOOL_RESULT"
    ]
    assert [n["content"] for n in result_nodes] == [DOCUMENT]

    # both final outputs cite d_1 and are verified against the document
    outputs = [nodes[i] for i in session["finalOutputIds"]]
    assert sorted(n["agentName"] for n in outputs) == ["coordinator", "researcher"]
    citing = set(summary["d_1"]["citedInIds"])
    assert {n["id"] for n in outputs} <= citing  # and the model responses that wrote them
    assert {nodes[i]["type"] for i in citing} == {"FINAL_OUTPUT", "MODEL_RESPONSE"}
    final = next(n for n in outputs if n["agentName"] == "coordinator")
    assert final["content"] == ANSWER
    # attribution walks from the coordinator's answer, through the delegation, to the read
    query = "query ($id: ID!) { attribution(outputId: $id) { sources { id } } }"
    sources = graphql(verifying_api, query, id=final["id"])["attribution"]["sources"]
    assert read["id"] in {s["id"] for s in sources}
    report = wait_for_report(
        verifying_api,
        final["id"],
        "citationsChecked unresolvableKeys citations { keys sourceNodeId verdict }",
    )
    assert report["citationsChecked"] == 1 and report["unresolvableKeys"] == []
    (check,) = report["citations"]
    assert check["keys"] == ["d_1"] and check["verdict"] == "supported"
