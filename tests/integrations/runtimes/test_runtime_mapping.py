"""The pure parts of the runtime adapters: what a span or callback payload says, recorders per
session, the step chain (no runtime run, no server)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

pytest.importorskip("agents")

from agents.testing import assistant_message, function_call
from agents.tracing import GenerationSpanData, ResponseSpanData
from openai.types.responses import Response

from provgraph.integrations._shared import SessionRecorders, StepChain
from provgraph.integrations.langchain_payloads import payload_text, runnable_name
from provgraph.integrations.openai_agents_spans import (
    from_generation,
    from_response,
    span_error,
    tool_args,
)
from provgraph.sdk import ListSink


def test_a_chat_completions_generation_span() -> None:
    data = GenerationSpanData(
        input=[{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Height?"}],
        output=[
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [{"id": "c1", "function": {"name": "lookup", "arguments": "{}"}}],
            }
        ],
        model="gpt-test",
        usage={"input_tokens": 12, "output_tokens": 3, "details": {"x": 1}},
    )
    call = from_generation(data)
    assert call.prompt == "Height?" and call.text is None and call.tool_calls == ("lookup",)
    assert call.model == "gpt-test" and call.usage == {"input_tokens": 12, "output_tokens": 3}
    assert not call.is_final


def test_a_responses_span_with_text_is_final() -> None:
    response = Response(
        id="r1",
        created_at=0,
        model="gpt-resp",
        object="response",
        output=[assistant_message("330 m. [REF|d_1]")],
        tool_choice="auto",
        tools=[],
        parallel_tool_calls=False,
    )
    call = from_response(ResponseSpanData(response=response, input="How tall?"))
    assert call.prompt == "How tall?" and call.text == "330 m. [REF|d_1]" and call.is_final
    asked = response.model_copy(update={"output": [function_call("read", {}, call_id="c")]})
    assert from_response(ResponseSpanData(response=asked)).tool_calls == ("read",)
    assert from_response(ResponseSpanData()).text is None  # sensitive data not traced


def test_span_errors_and_tool_arguments() -> None:
    failed = SimpleNamespace(error={"message": "Error running tool", "data": {"error": "boom"}})
    info = span_error(failed, "function")
    assert info is not None and info.type == "ToolCallError"
    assert info.message == "Error running tool: boom"
    assert span_error(SimpleNamespace(error=None), "agent") is None
    assert tool_args('{"doc_id": "tower"}') == {"doc_id": "tower"}
    assert tool_args("not json") == {"input": "not json"}
    assert tool_args("[1, 2]") == {"input": [1, 2]} and tool_args(None) == {}


def test_callback_payloads_as_text() -> None:
    assert payload_text({"messages": [("user", "Hi"), ("ai", "Hello")]}, ("ai",)) == "Hello"
    assert payload_text({"answer": "42"}, ("ai",)) == "42"
    assert payload_text({"n": 1}, ("ai",)) == '{"n": 1}'
    assert payload_text("plain", ("human",)) == "plain" and payload_text(None, ("ai",)) is None
    assert runnable_name({"id": ["langchain", "FakeModel"]}, {}, "llm") == "FakeModel"
    assert runnable_name(None, {"name": "research_graph"}, "chain") == "research_graph"
    assert runnable_name(None, {}, "chain") == "chain"


def test_one_key_counter_per_session_and_a_bounded_memory() -> None:
    recorders = SessionRecorders(ListSink(), max_sessions=2)
    first = recorders.for_session("s1")
    assert first.data_read(None, "read").citation_key == "d_1"
    assert recorders.for_session("s1").data_read(None, "read").citation_key == "d_2"
    recorders.for_session("s2")
    recorders.for_session("s3")  # s1 is the least recently used: forgotten
    assert recorders.for_session("s1") is not first
    with pytest.raises(ValueError, match="max_sessions"):
        SessionRecorders(ListSink(), max_sessions=0)


def test_the_step_chain_restarts_at_each_response() -> None:
    chain = StepChain("run")
    chain.reset("response-1")
    chain.add(["result-1", "result-2"])
    chain.add("result-1")
    assert chain.nodes == ["response-1", "result-1", "result-2"]
    chain.reset("response-2")
    assert chain.nodes == ["response-2"]
