"""OpenInference's instrumentation of the ``openai`` client, unmodified, exporting to provgraph.

An application answers a question with a tool loop against the fake OpenAI
server: the first completion asks for ``search_docs``, the application runs
it, the second completion answers citing ``[REF|d_1]``. The openai calls are
traced by ``openinference-instrumentation-openai``; the agent and the tool by
OpenInference's own tracer decorators; the session by ``using_session``. The
OTel SDK exports OTLP/HTTP to a real uvicorn API over the real Neo4j, and the
graph is read back through GraphQL.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import openai
import pytest
from openinference.instrumentation import TracerProvider, using_session
from openinference.instrumentation.openai import OpenAIInstrumentor
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor, SpanProcessor

from provgraph.otlp import SOURCE_TOOLS_HEADER
from tests.fixtures.fake_openai import API_KEY as OPENAI_KEY
from tests.fixtures.fake_openai import FakeOpenAI, text, tool_calls

from .conftest import API_KEY, LiveApi, graphql, wait_for_report

pytestmark = pytest.mark.neo4j

DOCUMENT = "The Eiffel Tower is 330 metres tall and was completed in 1889."
ANSWER = "The Eiffel Tower is 330 metres tall. [REF|d_1]"
SESSION = "oi-openai-chain"


@pytest.fixture(params=["batch", "simple"])
def provider(request: pytest.FixtureRequest, verifying_api: LiveApi) -> Iterator[TracerProvider]:
    """Batched exports, or one span per export (the agent span then arrives last, alone)."""
    exporter = OTLPSpanExporter(
        endpoint=f"{verifying_api.url}/v1/traces",
        headers={"Authorization": f"Bearer {API_KEY}", SOURCE_TOOLS_HEADER: "search_docs"},
        timeout=60,
    )
    tracer_provider = TracerProvider(resource=Resource.create({"service.name": "support-app"}))
    processor: SpanProcessor = (
        BatchSpanProcessor(exporter) if request.param == "batch" else SimpleSpanProcessor(exporter)
    )
    tracer_provider.add_span_processor(processor)
    instrumentor = OpenAIInstrumentor()
    instrumentor.instrument(tracer_provider=tracer_provider)
    yield tracer_provider
    instrumentor.uninstrument()
    tracer_provider.shutdown()


def run_app(provider: TracerProvider, base_url: str) -> str:
    tracer = provider.get_tracer("support-app")
    client = openai.OpenAI(base_url=base_url, api_key=OPENAI_KEY, max_retries=0)
    tools = [
        {
            "type": "function",
            "function": {
                "name": "search_docs",
                "parameters": {"type": "object", "properties": {"query": {"type": "string"}}},
            },
        }
    ]

    @tracer.tool(name="search_docs")
    def search_docs(query: str) -> str:
        return DOCUMENT

    @tracer.agent(name="support-bot")
    def answer(question: str) -> str:
        messages: list[Any] = [{"role": "user", "content": question}]
        first = client.chat.completions.create(model="gpt-fake", messages=messages, tools=tools)
        call = first.choices[0].message.tool_calls[0]
        result = search_docs(**json.loads(call.function.arguments))
        messages += [
            first.choices[0].message.model_dump(exclude_none=True),
            {"role": "tool", "tool_call_id": call.id, "content": result},
        ]
        final = client.chat.completions.create(model="gpt-fake", messages=messages, tools=tools)
        return str(final.choices[0].message.content)

    with using_session(SESSION):
        return answer("How tall is the Eiffel Tower?")


QUERY = """
query ($id: ID!) {
  session(id: $id) {
    agentNames finalOutputIds
    nodes(first: 100) { id type agentName content citationKey data isPlaceholder }
    edges { sourceId targetId label }
  }
}
"""


def test_openai_client_chain_lands_with_model_calls_tools_and_session(
    provider: TracerProvider, verifying_api: LiveApi, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script(
        tool_calls(("search_docs", {"query": "eiffel tower height"}), prompt_tokens=31),
        text(ANSWER, prompt_tokens=52, completion_tokens=12),
    )
    assert run_app(provider, fake_openai.base_url) == ANSWER
    assert provider.force_flush(60_000)
    assert len(fake_openai.requests) == 2

    session = graphql(verifying_api, QUERY, id=SESSION)["session"]
    assert session is not None and session["agentNames"] == ["support-bot"]
    nodes = session["nodes"]
    assert not [n for n in nodes if n["isPlaceholder"]]
    assert {n["agentName"] for n in nodes} == {"support-bot"}
    by_type: dict[str, list[dict[str, Any]]] = {}
    for node in sorted(nodes, key=lambda n: n["id"]):
        by_type.setdefault(node["type"], []).append(node)

    # LLM spans → model request/response with the messages' content, usage and tool calls
    requests, responses = by_type["MODEL_REQUEST"], by_type["MODEL_RESPONSE"]
    assert len(requests) == 2 and len(responses) == 2
    assert all("How tall is the Eiffel Tower?" in (n["content"] or "") for n in requests)
    assert {n["data"]["model_name"] for n in responses} == {"fake-model"}
    asking = [n for n in responses if n["data"].get("tool_calls")]
    (asking_node,) = asking
    (call,) = asking_node["data"]["tool_calls"]
    assert call["name"] == "search_docs" and json.loads(call["arguments"]) == {
        "query": "eiffel tower height"
    }
    assert asking_node["content"] is None  # a tool request has no text, not the raw JSON
    answering = next(n for n in responses if not n["data"].get("tool_calls"))
    assert answering["content"] == ANSWER
    assert answering["data"]["usage"] == {"input_tokens": 52, "output_tokens": 12}

    # the tool named a source: a data read keyed d_1, its result the document
    (read,) = by_type["DATA_READ"]
    assert read["citationKey"] == "d_1" and read["data"]["tool_name"] == "search_docs"
    results = [n for n in by_type["TOOL_RESULT"] if n["content"] == DOCUMENT]
    assert len(results) == 1
    edges = {(e["sourceId"], e["targetId"]) for e in session["edges"]}
    assert (read["id"], results[0]["id"]) in edges
    # the chain: tool request → tool → answering request (attribution can walk it back)
    answering_request = next(n for n in requests if (n["id"], answering["id"]) in edges)
    assert (results[0]["id"], answering_request["id"]) in edges

    (output_id,) = session["finalOutputIds"]
    report = wait_for_report(verifying_api, output_id, "citations { verdict }")
    assert [c["verdict"] for c in report["citations"]] == ["supported"]
