"""Classify one span by the first rule of ``docs/interop.md`` that applies.

1. native ``provgraph.*`` attributes (``provgraph.node_type`` present);
2. OpenInference ``openinference.span.kind``;
3. OTel GenAI ``gen_ai.operation.name`` (current and deprecated attributes);
4. pydantic-ai instrumentation v2 and older span names (``agent run``, ``running tool``);
5. ``gen_ai.tool.name`` / ``gen_ai.tool.call.id`` present → tool (pydantic-ai omits the operation);
6. model attributes present → model call; otherwise a generic step.

The result names the rule that fired (kept on the node, with the raw
attributes) so a surprising mapping can be traced back to its span.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from provgraph.otlp.attrs import (
    Document,
    agent_name,
    conversation,
    documents,
    explicit_session,
    flat_messages,
    genai_documents,
    genai_tool_calls,
    legacy_events,
    messages_text,
    model_name,
    openinference_tool_calls,
    text_value,
    usage,
)
from provgraph.otlp.decode import SpanRecord

AGENT, TOOL, LLM, RETRIEVAL, STEP, GENERIC, NATIVE = (
    "agent",
    "tool",
    "llm",
    "retrieval",
    "step",
    "generic",
    "native",
)
_OI_KINDS = {"AGENT": AGENT, "TOOL": TOOL, "LLM": LLM, "RETRIEVER": RETRIEVAL, "CHAIN": STEP}
_GENAI_OPS = {
    "invoke_agent": AGENT,
    "create_agent": AGENT,
    "invoke_workflow": AGENT,
    "execute_tool": TOOL,
    "chat": LLM,
    "text_completion": LLM,
    "generate_content": LLM,
    "retrieval": RETRIEVAL,
}
_MODEL_ATTRS = (
    "gen_ai.request.model",
    "gen_ai.response.model",
    "llm.model_name",
    "gen_ai.system",
    "gen_ai.provider.name",
)


@dataclass(frozen=True)
class SpanInfo:
    """What a span means for the provenance graph.

    ``session_id`` is a session the application named; ``conversation_id`` the
    GenAI conversation, which names the trace's session only from its outermost
    agent (see :mod:`provgraph.otlp.sessions`).
    """

    kind: str
    rule: str
    agent_name: str | None = None
    tool_name: str | None = None
    tool_call_id: str | None = None
    input_text: str | None = None
    output_text: str | None = None
    model_name: str | None = None
    documents: tuple[Document, ...] = ()
    tool_calls: tuple[dict[str, Any], ...] = ()
    usage: dict[str, int] = field(default_factory=dict)
    session_id: str | None = None
    conversation_id: str | None = None
    graph_node_id: str | None = None
    graph_parent_id: str | None = None
    native: dict[str, Any] = field(default_factory=dict)


def classify_span(span: SpanRecord) -> SpanInfo:
    """Apply the classification chain to one span (pure)."""
    a = span.attributes
    session = explicit_session(a)
    info = _classify(span, session)
    if info.kind == NATIVE:
        return info
    return replace(
        info,
        usage=usage(a) if info.kind == LLM else {},
        conversation_id=conversation(a),
        agent_name=agent_name(a) or info.agent_name,
    )


def _classify(span: SpanRecord, session: str | None) -> SpanInfo:
    a = span.attributes
    if isinstance(a.get("provgraph.node_type"), str):
        native = {k[len("provgraph.") :]: v for k, v in a.items() if k.startswith("provgraph.")}
        return SpanInfo(
            NATIVE,
            "provgraph",
            session_id=session,
            native=native,
            agent_name=text_value(native.get("agent_name")),
        )
    oi = a.get("openinference.span.kind")
    if isinstance(oi, str) and oi.upper() in _OI_KINDS:
        kind = _OI_KINDS[oi.upper()]
        input_text = text_value(a.get("input.value"))
        output_text = text_value(a.get("output.value"))
        calls = openinference_tool_calls(a) if kind == LLM else ()
        if kind == LLM:
            input_text = flat_messages(a, "input") or input_text
            # a response that only asks for tools has no text: not the raw JSON of output.value
            output_text = flat_messages(a, "output") or (None if calls else output_text)
        return SpanInfo(
            kind,
            "openinference",
            session_id=session,
            agent_name=text_value(a.get("agent.name") or a.get("graph.node.id"))
            or (span.name if kind in (AGENT, STEP) else None),
            tool_name=text_value(a.get("tool.name")) or (span.name if kind == TOOL else None),
            tool_call_id=text_value(a.get("tool_call.id") or a.get("tool.call.id")),
            input_text=input_text,
            output_text=output_text,
            model_name=text_value(a.get("llm.model_name")),
            tool_calls=calls,
            documents=documents(a) if kind == RETRIEVAL else (),
            graph_node_id=text_value(a.get("graph.node.id")),
            graph_parent_id=text_value(a.get("graph.node.parent_id")),
        )
    op = a.get("gen_ai.operation.name")
    if isinstance(op, str) and op in _GENAI_OPS:
        return _genai(span, _GENAI_OPS[op], "gen_ai", session)
    if span.name == "agent run" or span.name.startswith("agent run") or "agent_name" in a:
        return _genai(span, AGENT, "pydantic_ai", session)
    if span.name == "running tool" or span.name.startswith("running tool"):
        return _genai(span, TOOL, "pydantic_ai", session)
    if "gen_ai.tool.name" in a or "gen_ai.tool.call.id" in a:
        return _genai(span, TOOL, "gen_ai_tool_attrs", session)
    if any(name in a for name in _MODEL_ATTRS):
        return _genai(span, LLM, "model_attrs", session)
    return SpanInfo(GENERIC, "generic", session_id=session)


def _genai(span: SpanRecord, kind: str, rule: str, session: str | None) -> SpanInfo:
    a = span.attributes
    if kind == AGENT:
        output = text_value(a.get("final_result")) or messages_text(
            a.get("gen_ai.output.messages"), last_only=True
        )
        return SpanInfo(
            kind,
            rule,
            session_id=session,
            agent_name=text_value(a.get("gen_ai.agent.name") or a.get("agent_name")) or span.name,
            input_text=messages_text(a.get("gen_ai.input.messages"), last_only=True),
            output_text=output,
        )
    if kind == TOOL:
        return SpanInfo(
            kind,
            rule,
            session_id=session,
            tool_name=text_value(a.get("gen_ai.tool.name")) or span.name,
            tool_call_id=text_value(a.get("gen_ai.tool.call.id")),
            input_text=text_value(a.get("gen_ai.tool.call.arguments", a.get("tool_arguments"))),
            output_text=text_value(a.get("gen_ai.tool.call.result", a.get("tool_response"))),
        )
    if kind == RETRIEVAL:
        return SpanInfo(
            kind,
            rule,
            session_id=session,
            documents=genai_documents(a),
            input_text=text_value(a.get("gen_ai.retrieval.query.text")),
        )
    prompt = messages_text(a.get("gen_ai.input.messages")) or text_value(a.get("gen_ai.prompt"))
    completion = messages_text(a.get("gen_ai.output.messages")) or text_value(
        a.get("gen_ai.completion")
    )
    if prompt is None or completion is None:
        legacy_prompt, legacy_completion = legacy_events(a, span)
        prompt, completion = prompt or legacy_prompt, completion or legacy_completion
    return SpanInfo(
        LLM,
        rule,
        session_id=session,
        input_text=prompt,
        output_text=completion,
        model_name=model_name(a),
        tool_calls=genai_tool_calls(a.get("gen_ai.output.messages")),
    )
