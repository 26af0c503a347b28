"""The pure rules behind OTLP ingestion of real instrumentations: sessions, source tools, keys."""

from __future__ import annotations

import asyncio
import json

import pytest

from provgraph.errors import OverloadedError
from provgraph.events import Event
from provgraph.graph import NodeType
from provgraph.otlp import Conversion, SpanRecord, next_keys, spans_to_events, tool_names
from provgraph.otlp.attrs import genai_tool_calls, openinference_tool_calls, usage
from provgraph.otlp.classify import classify_span
from provgraph.otlp.sessions import trace_sessions
from provgraph.otlp.sources import is_source_tool
from provgraph.store.async_memory import AsyncMemoryGraphStore
from provgraph.usecases.admission import IngestGate
from provgraph.usecases.ingest import ingest_batch, validated
from provgraph.usecases.otlp_sessions import (
    assign_source_keys,
    backfill_agent_names,
    lost_key_race,
    reallocate_keys,
    stored_trace_sessions,
)

TRACE = "0af7651916cd43dd8448eb211c80319c"


def span(span_id: str, parent: str | None, start: int, **attrs: object) -> SpanRecord:
    return SpanRecord(TRACE, span_id, parent, str(attrs.get("name", "s")), start, start + 1, attrs)


def agent(span_id: str, parent: str | None, start: int, name: str, conv: str) -> SpanRecord:
    return span(
        span_id,
        parent,
        start,
        **{
            "gen_ai.operation.name": "invoke_agent",
            "gen_ai.agent.name": name,
            "gen_ai.conversation.id": conv,
        },
    )


def tool(span_id: str, parent: str | None, start: int, name: str, result: str) -> SpanRecord:
    return span(
        span_id,
        parent,
        start,
        **{
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": name,
            "gen_ai.tool.call.result": result,
        },
    )


def _sessions(spans: list[SpanRecord]) -> dict[str, str]:
    valid = {(s.trace_id, s.span_id): s for s in spans}
    return trace_sessions(valid, {k: classify_span(s) for k, s in valid.items()})


def test_the_outermost_agents_conversation_names_the_trace_not_a_nested_one() -> None:
    coordinator = agent("a" * 16, None, 1, "coordinator", "conv-outer")
    call = tool("b" * 16, "a" * 16, 2, "ask", "x")
    nested = agent("c" * 16, "b" * 16, 3, "researcher", "conv-inner")
    assert _sessions([nested, call, coordinator]) == {TRACE: "conv-outer"}
    # a span exported without its parent cannot tell: the trace stays provisional
    assert _sessions([nested]) == {}
    # an unclassified root (an HTTP server span) in the export does not hide the agent
    http = span("d" * 16, None, 0, name="GET /ask")
    outer = agent("a" * 16, "d" * 16, 1, "coordinator", "conv-outer")
    assert _sessions([http, outer, nested]) == {TRACE: "conv-outer"}
    # a session the application named wins over conversations
    named = span("e" * 16, "a" * 16, 5, **{"session.id": "app-session", "gen_ai.tool.name": "t"})
    assert _sessions([coordinator, named]) == {TRACE: "app-session"}


def test_source_tools_are_named_by_resource_attribute_span_flag_or_configuration() -> None:
    assert tool_names("read_document, search ,") == {"read_document", "search"}
    assert tool_names(["a", " b "]) == {"a", "b"} and tool_names(7) == frozenset()
    plain = tool("a" * 16, None, 1, "read_document", "text")
    assert not is_source_tool(plain, "read_document", frozenset())
    assert is_source_tool(plain, "read_document", frozenset({"read_document"}))
    on_resource = SpanRecord(
        TRACE, "b" * 16, None, "t", resource={"provgraph.source_tools": ["read_document"]}
    )
    assert is_source_tool(on_resource, "read_document", frozenset())
    flagged = span("c" * 16, None, 1, **{"provgraph.source": True})
    assert is_source_tool(flagged, None, frozenset())


def test_source_tool_reads_wait_for_a_key_and_header_reads_keep_theirs() -> None:
    root = agent("a" * 16, None, 1, "researcher", "conv")
    read = tool("b" * 16, "a" * 16, 2, "read_document", "Revenue grew 12%.")
    shown = tool("c" * 16, "a" * 16, 3, "fetch", "[REF|d_7]\nCosts fell.")
    other = tool("d" * 16, "a" * 16, 4, "calculator", "4")
    out = spans_to_events([root, read, shown, other], source_tools=frozenset({"read_document"}))
    types = {e.node_id: (e.type, e.citation_key) for e in out.events}
    read_id = f"otel-{TRACE}-{'b' * 16}"
    assert types[read_id] == (NodeType.DATA_READ, None)
    assert out.unkeyed_reads == [("conv", read_id)]
    assert types[f"otel-{TRACE}-{'c' * 16}"] == (NodeType.DATA_READ, "d_7")
    assert types[f"otel-{TRACE}-{'d' * 16}"] == (NodeType.TOOL_CALL, None)
    # every node of the run carries the agent's name
    assert {e.agent_name for e in out.events} == {"researcher"}


def test_keys_continue_after_the_sessions_highest_and_kept_keys_stay() -> None:
    pending = [("s1", "n1"), ("s1", "n2"), ("s2", "n3"), ("s1", "n4")]
    given = next_keys(pending, {"s1": ["d_1", "a_4"], "s2": []}, kept={"n2": "d_2"})
    assert given == {"n1": "d_5", "n2": "d_2", "n3": "d_1", "n4": "d_6"}


def test_tool_calls_and_usage_from_genai_and_openinference() -> None:
    parts = [{"role": "assistant", "parts": [{"type": "tool_call", "id": "c1", "name": "f",
                                               "arguments": {"x": 1}}]}]  # fmt: skip
    assert genai_tool_calls(json.dumps(parts)) == (
        {"id": "c1", "name": "f", "arguments": '{"x": 1}'},
    )
    flat = {
        "llm.output_messages.0.message.tool_calls.1.tool_call.function.name": "g",
        "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "f",
        "llm.output_messages.0.message.tool_calls.0.tool_call.id": "c1",
    }
    assert [c["name"] for c in openinference_tool_calls(flat)] == ["f", "g"]
    assert usage({"llm.token_count.prompt": 3, "gen_ai.usage.output_tokens": 4}) == {
        "input_tokens": 3,
        "output_tokens": 4,
    }
    assert usage({"gen_ai.usage.input_tokens": True}) == {}


async def test_the_ingest_gate_refuses_beyond_its_slots_and_frees_them() -> None:
    gate = IngestGate(1, 0)
    async with gate.admit():
        assert gate.in_flight == 1
        with pytest.raises(OverloadedError, match="PROVGRAPH_INGEST_MAX_IN_FLIGHT"):
            async with gate.admit():
                pass
    assert gate.in_flight == 0
    waiting = IngestGate(1, 30)
    entered = asyncio.Event()
    release = asyncio.Event()

    async def holder() -> None:
        async with waiting.admit():
            entered.set()
            await release.wait()

    task = asyncio.create_task(holder())
    await entered.wait()
    second = asyncio.create_task(waiting.admit().__aenter__())
    await asyncio.sleep(0)
    assert not second.done()  # waits for the slot instead of failing
    release.set()
    await task
    await second
    assert waiting.in_flight == 1
    with pytest.raises(ValueError):
        IngestGate(0, 1)


async def test_a_span_exported_after_its_parent_joins_the_parents_session_and_keys_count_on() -> (
    None
):
    store = AsyncMemoryGraphStore(None)
    first = [
        agent("a" * 16, None, 1, "researcher", "conv"),
        tool("b" * 16, "a" * 16, 2, "read", "A"),
    ]
    sources = frozenset({"read"})
    conversion = spans_to_events(first, source_tools=sources)
    await assign_source_keys(store, "p", conversion)
    await store.ingest("p", conversion.events)
    late = [tool("c" * 16, "a" * 16, 3, "read", "B")]  # a later export, without its parent
    stored = await stored_trace_sessions(store, "p", late)
    assert stored == {TRACE: "conv"}
    conversion = spans_to_events(late, source_tools=sources, stored_sessions=stored)
    await assign_source_keys(store, "p", conversion)
    await store.ingest("p", conversion.events)
    summary = await store.citation_summary("p", "conv")
    assert sorted((e.key, e.node.id[-16:]) for e in summary) == [
        ("d_1", "b" * 16),
        ("d_2", "c" * 16),
    ]
    # re-sending the late span keeps its key (no d_3)
    await assign_source_keys(store, "p", conversion)
    assert {e.citation_key for e in conversion.events if e.type is NodeType.DATA_READ} == {"d_2"}
    await store.close()


def _read_of(conversion: Conversion) -> Event:
    return next(e for e in conversion.events if e.type is NodeType.DATA_READ)


async def test_a_key_taken_meanwhile_by_another_process_is_allocated_again() -> None:
    store = AsyncMemoryGraphStore(None)
    sources = frozenset({"read"})
    mine = spans_to_events([tool("b" * 16, None, 2, "read", "A")], source_tools=sources)
    await assign_source_keys(store, "p", mine)
    session = _read_of(mine).session_id
    assert _read_of(mine).citation_key == "d_1"
    # another API replica allocated d_1 too and committed first
    other = spans_to_events([tool("c" * 16, None, 3, "read", "B")], source_tools=sources)
    await assign_source_keys(store, "p", other)
    assert _read_of(other).citation_key == "d_1" and _read_of(other).session_id == session
    await store.ingest("p", other.events)

    outcome = await ingest_batch(store, "p", validated(list(enumerate(mine.events))))
    result = next(r for r in outcome.results if r["id"] == _read_of(mine).id)
    assert result["status"] == "rejected" and result["error"]["path"] == "citation_key"
    assert lost_key_race(mine, _read_of(mine), result)
    retried = await reallocate_keys(store, "p", [_read_of(mine)])
    assert [e.citation_key for e in retried] == ["d_2"]
    again = await ingest_batch(store, "p", validated(list(enumerate(retried))))
    assert [r["status"] for r in again.results] == ["accepted"]
    summary = await store.citation_summary("p", session)
    assert sorted(e.key for e in summary) == ["d_1", "d_2"]
    # a key the span named itself is the sender's claim: its conflict is a real rejection
    named = spans_to_events([tool("d" * 16, None, 4, "read", "[REF|d_1]\nC")])
    outcome = await ingest_batch(store, "p", validated(list(enumerate(named.events))))
    rejected = next(r for r in outcome.results if r["id"] == _read_of(named).id)
    assert rejected["status"] == "rejected"
    assert not lost_key_race(named, _read_of(named), rejected)
    await store.close()


async def test_an_agent_span_arriving_alone_names_and_chains_its_stored_steps() -> None:
    llm = {"openinference.span.kind": "LLM", "session.id": "s", "llm.model_name": "m"}
    first = span("b" * 16, "a" * 16, 2, **llm, **{"output.value": "call the tool"})
    called = span(
        "c" * 16,
        "a" * 16,
        3,
        **{"openinference.span.kind": "TOOL", "tool.name": "t", "output.value": "x"},
    )
    second = span("d" * 16, "a" * 16, 4, **llm, **{"output.value": "done"})
    root = span(
        "a" * 16,
        None,
        1,
        **{
            "openinference.span.kind": "AGENT",
            "agent.name": "bot",
            "session.id": "s",
            "input.value": "q",
            "output.value": "done",
        },
    )
    store = AsyncMemoryGraphStore(None)
    for export in ([first], [called], [second], [root]):  # children first, one per export
        conversion = spans_to_events(export)
        await store.ingest("p", conversion.events)
        await backfill_agent_names(store, "p", conversion)
    graph = await store.session_graph("p", "s")
    assert {n.agent_name for n in graph.nodes.values() if not n.is_placeholder} == {"bot"}

    def nid(span_id: str, suffix: str = "") -> str:
        return f"otel-{TRACE}-{span_id * 16}{suffix}"

    edges = {(e.source_id, e.target_id) for e in graph.edges}
    assert (nid("a", "-input"), nid("b")) in edges
    assert (nid("b", "-response"), nid("c")) in edges
    assert (nid("c", "-result"), nid("d")) in edges
    assert (nid("d", "-response"), nid("a", "-output")) in edges
    await store.close()
