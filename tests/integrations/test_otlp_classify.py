"""Pure tests of the OTLP classification chain and span → event conversion (hand-built spans)."""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest

from provgraph.graph import NodeType
from provgraph.otlp import (
    OtlpDecodeError,
    SpanRecord,
    classify_span,
    decode_export,
    decompress,
    node_id,
    resolve_project,
    spans_to_events,
)

TRACE = "0af7651916cd43dd8448eb211c80319c"


def span(
    span_id: str,
    name: str = "span",
    parent: str | None = None,
    start: int = 1,
    attrs: dict[str, Any] | None = None,
) -> SpanRecord:
    return SpanRecord(
        TRACE,
        span_id.rjust(16, "0"),
        parent.rjust(16, "0") if parent else None,
        name,
        start_time_unix_nano=start * 1_000_000_000,
        end_time_unix_nano=(start + 1) * 1_000_000_000,
        attributes=attrs or {},
    )


@pytest.mark.parametrize(
    ("attrs", "name", "kind", "rule"),
    [
        ({"provgraph.node_type": "data_read"}, "x", "native", "provgraph"),
        (
            {"openinference.span.kind": "AGENT", "gen_ai.operation.name": "chat"},
            "x",
            "agent",
            "openinference",
        ),
        ({"openinference.span.kind": "TOOL", "tool.name": "search"}, "x", "tool", "openinference"),
        ({"openinference.span.kind": "LLM"}, "x", "llm", "openinference"),
        ({"openinference.span.kind": "RETRIEVER"}, "x", "retrieval", "openinference"),
        ({"openinference.span.kind": "CHAIN"}, "x", "step", "openinference"),
        (
            {"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "a"},
            "x",
            "agent",
            "gen_ai",
        ),
        ({"gen_ai.operation.name": "invoke_workflow"}, "x", "agent", "gen_ai"),
        ({"gen_ai.operation.name": "execute_tool"}, "x", "tool", "gen_ai"),
        ({"gen_ai.operation.name": "text_completion"}, "x", "llm", "gen_ai"),
        ({"gen_ai.operation.name": "retrieval"}, "x", "retrieval", "gen_ai"),
        ({"agent_name": "a"}, "agent run", "agent", "pydantic_ai"),
        ({"tool_arguments": "{}"}, "running tool", "tool", "pydantic_ai"),
        ({"gen_ai.tool.name": "t"}, "x", "tool", "gen_ai_tool_attrs"),
        ({"gen_ai.tool.call.id": "c"}, "x", "tool", "gen_ai_tool_attrs"),
        ({"gen_ai.system": "openai"}, "x", "llm", "model_attrs"),
        ({"http.method": "GET"}, "GET /", "generic", "generic"),
    ],
)
def test_first_matching_rule_wins(attrs: dict[str, Any], name: str, kind: str, rule: str) -> None:
    info = classify_span(span("1", name, attrs=attrs))
    assert (info.kind, info.rule) == (kind, rule)


def test_openinference_fields() -> None:
    llm = classify_span(
        span(
            "1",
            attrs={
                "openinference.span.kind": "LLM",
                "llm.model_name": "gpt-x",
                "session.id": "s1",
                "llm.input_messages.0.message.role": "user",
                "llm.input_messages.0.message.content": "hi",
                "llm.output_messages.0.message.content": "hello [REF|d_1]",
            },
        )
    )
    assert (llm.model_name, llm.input_text, llm.output_text, llm.session_id) == (
        "gpt-x",
        "hi",
        "hello [REF|d_1]",
        "s1",
    )
    docs = classify_span(
        span(
            "2",
            attrs={
                "openinference.span.kind": "RETRIEVER",
                "retrieval.documents.1.document.id": "d_2",
                "retrieval.documents.1.document.content": "B",
                "retrieval.documents.0.document.id": "d_1",
                "retrieval.documents.0.document.content": "A",
                "retrieval.documents.0.document.score": 0.9,
            },
        )
    ).documents
    assert [(d.id, d.content, d.score) for d in docs] == [("d_1", "A", 0.9), ("d_2", "B", None)]


def test_genai_current_and_deprecated_content() -> None:
    current = classify_span(
        span(
            "1",
            attrs={
                "gen_ai.operation.name": "chat",
                "gen_ai.request.model": "m",
                "gen_ai.conversation.id": "conv",
                "gen_ai.input.messages": json.dumps(
                    [{"role": "user", "parts": [{"type": "text", "content": "q?"}]}]
                ),
                "gen_ai.output.messages": json.dumps(
                    [{"role": "assistant", "parts": [{"type": "text", "content": "a."}]}]
                ),
            },
        )
    )
    assert (current.input_text, current.output_text, current.conversation_id) == (
        "q?",
        "a.",
        "conv",
    )
    assert (
        current.session_id is None
    )  # a conversation id names a session only from the outermost agent
    old = classify_span(
        span(
            "2",
            attrs={"gen_ai.operation.name": "chat", "gen_ai.prompt": "p", "gen_ai.completion": "c"},
        )
    )
    assert (old.input_text, old.output_text) == ("p", "c")
    tool = classify_span(
        span(
            "3",
            attrs={
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": "read",
                "gen_ai.tool.call.id": "c9",
                "gen_ai.tool.call.arguments": "{}",
                "gen_ai.tool.call.result": "[REF|d_4]\nbody",
            },
        )
    )
    assert (tool.tool_name, tool.tool_call_id, tool.output_text) == (
        "read",
        "c9",
        "[REF|d_4]\nbody",
    )
    retrieval = classify_span(
        span(
            "4",
            attrs={
                "gen_ai.operation.name": "retrieval",
                "gen_ai.retrieval.documents": json.dumps([{"id": "d_1", "score": 0.5}]),
            },
        )
    )
    assert [(d.id, d.score) for d in retrieval.documents] == [("d_1", 0.5)]


def test_pydantic_ai_v2_events_attribute() -> None:
    info = classify_span(
        span(
            "1",
            "chat m",
            attrs={
                "gen_ai.operation.name": "chat",
                "gen_ai.system": "test",
                "events": json.dumps(
                    [
                        {
                            "event.name": "gen_ai.user.message",
                            "content": "question",
                            "role": "user",
                        },
                        {
                            "event.name": "gen_ai.choice",
                            "index": 0,
                            "message": {"role": "assistant", "content": "answer"},
                        },
                    ]
                ),
            },
        )
    )
    assert (info.input_text, info.output_text) == ("question", "answer")


def test_conversion_chains_agent_children_and_keys() -> None:
    spans = [
        span(
            "a",
            "invoke_agent",
            start=1,
            attrs={
                "gen_ai.operation.name": "invoke_agent",
                "gen_ai.agent.name": "bot",
                "session.id": "s",
                "final_result": "X is 1. [REF|d_1]",
            },
        ),
        span(
            "b",
            "chat",
            parent="a",
            start=2,
            attrs={"gen_ai.operation.name": "chat", "gen_ai.prompt": "q", "gen_ai.completion": ""},
        ),
        span(
            "c",
            "running tool",
            parent="a",
            start=3,
            attrs={"gen_ai.tool.name": "read_file", "tool_response": "[REF|d_1]\nX is 1."},
        ),
        span(
            "d",
            "chat",
            parent="a",
            start=4,
            attrs={"gen_ai.operation.name": "chat", "gen_ai.completion": "X is 1. [REF|d_1]"},
        ),
        span("e", "GET", parent="d", start=5, attrs={"http.method": "GET"}),
    ]
    out = spans_to_events(spans)
    assert not out.rejections
    by_node = {e.node_id: e for e in out.events}
    read = by_node[node_id(TRACE, "c".rjust(16, "0"))]
    assert (read.type, read.citation_key) == (NodeType.DATA_READ, "d_1")
    request2 = by_node[node_id(TRACE, "d".rjust(16, "0"))]
    assert request2.parent_ids == [node_id(TRACE, "c".rjust(16, "0"), "-result")]
    final = by_node[node_id(TRACE, "a".rjust(16, "0"), "-output")]
    assert final.parent_ids == [node_id(TRACE, "d".rjust(16, "0"), "-response")]
    assert {e.session_id for e in out.events} == {"s"}  # children inherit the trace's session
    assert len({e.id for e in out.events}) == len(out.events)
    assert spans_to_events(spans).events[0].id == out.events[0].id  # deterministic ids


def test_placeholder_parent_and_rejections() -> None:
    child = span(
        "2",
        "execute_tool",
        parent="1",
        attrs={"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "t"},
    )
    bad = SpanRecord("xyz", "1", None, "bad")
    wrong = span("3", attrs={"provgraph.node_type": "nonsense"})
    out = spans_to_events([child, bad, wrong])
    call = next(e for e in out.events if e.type == NodeType.TOOL_CALL)
    assert call.parent_ids == [node_id(TRACE, "1".rjust(16, "0"))]  # the store makes a placeholder
    assert {r.span_id for r in out.rejections} == {"1", "3".rjust(16, "0")}
    assert all(r.reason for r in out.rejections)


def test_native_provgraph_attributes() -> None:
    out = spans_to_events(
        [
            span(
                "1",
                attrs={
                    "provgraph.node_type": "data_read",
                    "provgraph.node_id": "doc-7",
                    "provgraph.citation_key": "d_7",
                    "provgraph.session_id": "s9",
                    "provgraph.content": "text",
                },
            )
        ]
    )
    (event,) = out.events
    assert (event.node_id, event.citation_key, event.session_id, event.content) == (
        "doc-7",
        "d_7",
        "s9",
        "text",
    )


def test_project_routing_order() -> None:
    resource = {"openinference.project.name": "oi", "service.name": "svc"}
    assert resolve_project("hdr", resource, "dflt") == "hdr"
    assert resolve_project(None, resource, "dflt") == "oi"
    assert resolve_project(None, {"service.name": "svc"}, "dflt") == "svc"
    assert resolve_project(None, {}, "dflt") == "dflt"


def test_decode_json_and_errors() -> None:
    body = json.dumps(
        {
            "resourceSpans": [
                {
                    "resource": {
                        "attributes": [{"key": "service.name", "value": {"stringValue": "svc"}}]
                    },
                    "scopeSpans": [
                        {
                            "scope": {"name": "s"},
                            "spans": [
                                {
                                    "traceId": TRACE.upper(),
                                    "spanId": "00f067aa0ba902b7",
                                    "name": "n",
                                    "startTimeUnixNano": "1700000000000000000",
                                    "attributes": [
                                        {"key": "n", "value": {"intValue": "3"}},
                                        {
                                            "key": "l",
                                            "value": {
                                                "arrayValue": {"values": [{"stringValue": "a"}]}
                                            },
                                        },
                                    ],
                                }
                            ],
                        }
                    ],
                }
            ]
        }
    ).encode()
    (decoded,) = decode_export(decompress(gzip.compress(body), "gzip"), "application/json")
    assert decoded.trace_id == TRACE and decoded.attributes == {"n": 3, "l": ["a"]}
    assert decoded.resource == {"service.name": "svc"}
    with pytest.raises(OtlpDecodeError):
        decode_export(b"{not json", "application/json")
    with pytest.raises(OtlpDecodeError):
        decode_export(b"\xff\xff\xff", "application/x-protobuf")
    with pytest.raises(OtlpDecodeError):
        decompress(b"not gzip", "gzip")
