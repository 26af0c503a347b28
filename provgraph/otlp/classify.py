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

import json
import re
from dataclasses import dataclass, field
from typing import Any

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
_DOC_RE = re.compile(r"^retrieval\.documents\.(\d+)\.document\.(id|content|score|metadata)$")
_MSG_RE = re.compile(r"^llm\.(input|output)_messages\.(\d+)\.message\.(role|content)$")


@dataclass(frozen=True)
class Document:
    """One retrieved document (becomes a ``data_read``)."""

    id: str | None
    content: str | None
    score: float | None
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SpanInfo:
    """What a span means for the provenance graph."""

    kind: str
    rule: str
    agent_name: str | None = None
    tool_name: str | None = None
    tool_call_id: str | None = None
    input_text: str | None = None
    output_text: str | None = None
    model_name: str | None = None
    documents: tuple[Document, ...] = ()
    session_id: str | None = None
    graph_node_id: str | None = None
    graph_parent_id: str | None = None
    native: dict[str, Any] = field(default_factory=dict)


def _s(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=str)


def _json(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def messages_text(value: Any, *, last_only: bool = False) -> str | None:
    """Text of GenAI messages (``[{role, parts:[{type, content}]}]``, or ``{role, content}``)."""
    data = _json(value)
    if isinstance(data, str):
        return data
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        return None
    texts: list[str] = []
    for message in data:
        if not isinstance(message, dict):
            continue
        parts = message.get("parts")
        if isinstance(parts, list):
            chunk = "\n".join(
                str(p.get("content", p.get("text", "")))
                for p in parts
                if isinstance(p, dict) and p.get("type", "text") == "text"
            )
        else:
            content = message.get("content")
            chunk = content if isinstance(content, str) else ""
        if chunk:
            texts.append(chunk)
    if not texts:
        return None
    return texts[-1] if last_only else "\n\n".join(texts)


def _flat_messages(attrs: dict[str, Any], direction: str) -> str | None:
    found: dict[int, str] = {}
    for key, value in attrs.items():
        m = _MSG_RE.match(key)
        if m and m.group(1) == direction and m.group(3) == "content" and isinstance(value, str):
            found[int(m.group(2))] = value
    return "\n\n".join(found[i] for i in sorted(found)) if found else None


def _documents(attrs: dict[str, Any]) -> tuple[Document, ...]:
    docs: dict[int, dict[str, Any]] = {}
    for key, value in attrs.items():
        m = _DOC_RE.match(key)
        if m:
            docs.setdefault(int(m.group(1)), {})[m.group(2)] = value
    out = []
    for i in sorted(docs):
        d = docs[i]
        meta = _json(d.get("metadata"))
        score = d.get("score")
        out.append(
            Document(
                _s(d.get("id")),
                _s(d.get("content")),
                float(score) if isinstance(score, int | float) else None,
                meta if isinstance(meta, dict) else {},
            )
        )
    return tuple(out)


def _genai_documents(attrs: dict[str, Any]) -> tuple[Document, ...]:
    raw = _json(attrs.get("gen_ai.retrieval.documents"))
    if not isinstance(raw, list):
        return _documents(attrs)
    out = []
    for item in raw:
        if isinstance(item, dict):
            score = item.get("score")
            out.append(
                Document(
                    _s(item.get("id")),
                    _s(item.get("content")),
                    float(score) if isinstance(score, int | float) else None,
                    {k: v for k, v in item.items() if k not in ("id", "content", "score")},
                )
            )
    return tuple(out)


def _session(attrs: dict[str, Any]) -> str | None:
    for name in ("provgraph.session_id", "session.id", "gen_ai.conversation.id"):
        value = attrs.get(name)
        if isinstance(value, str) and value:
            return value
    return None


def _model(attrs: dict[str, Any]) -> str | None:
    for name in ("gen_ai.response.model", "gen_ai.request.model", "llm.model_name"):
        if isinstance(attrs.get(name), str):
            return str(attrs[name])
    return None


def _legacy_events(attrs: dict[str, Any], span: SpanRecord) -> tuple[str | None, str | None]:
    """Prompt and completion from pydantic-ai's JSON ``events`` attribute or span events."""
    raw = _json(attrs.get("events"))
    items: list[dict[str, Any]] = (
        [e for e in raw if isinstance(e, dict)] if isinstance(raw, list) else []
    )
    items += [{"event.name": ev.name, **ev.attributes} for ev in span.events]
    prompt = [
        str(_s(e.get("content")))
        for e in items
        if str(e.get("event.name", "")).endswith(".message") and e.get("content")
    ]
    completion = None
    for e in items:
        if e.get("event.name") == "gen_ai.choice":
            msg = _json(e.get("message", e))
            completion = messages_text(msg) if isinstance(msg, dict) else _s(msg)
    return ("\n\n".join(prompt) if prompt else None), completion


def classify_span(span: SpanRecord) -> SpanInfo:
    """Apply the classification chain to one span (pure)."""
    a = span.attributes
    session = _session(a)
    if isinstance(a.get("provgraph.node_type"), str):
        native = {k[len("provgraph.") :]: v for k, v in a.items() if k.startswith("provgraph.")}
        return SpanInfo(
            NATIVE,
            "provgraph",
            session_id=session,
            native=native,
            agent_name=_s(native.get("agent_name")),
        )
    oi = a.get("openinference.span.kind")
    if isinstance(oi, str) and oi.upper() in _OI_KINDS:
        kind = _OI_KINDS[oi.upper()]
        input_text = _s(a.get("input.value"))
        output_text = _s(a.get("output.value"))
        if kind == LLM:
            input_text = _flat_messages(a, "input") or input_text
            output_text = _flat_messages(a, "output") or output_text
        return SpanInfo(
            kind,
            "openinference",
            session_id=session,
            agent_name=_s(a.get("agent.name") or a.get("graph.node.id"))
            or (span.name if kind in (AGENT, STEP) else None),
            tool_name=_s(a.get("tool.name")) or (span.name if kind == TOOL else None),
            tool_call_id=_s(a.get("tool_call.id") or a.get("tool.call.id")),
            input_text=input_text,
            output_text=output_text,
            model_name=_s(a.get("llm.model_name")),
            documents=_documents(a) if kind == RETRIEVAL else (),
            graph_node_id=_s(a.get("graph.node.id")),
            graph_parent_id=_s(a.get("graph.node.parent_id")),
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
        output = _s(a.get("final_result")) or messages_text(
            a.get("gen_ai.output.messages"), last_only=True
        )
        return SpanInfo(
            kind,
            rule,
            session_id=session,
            agent_name=_s(a.get("gen_ai.agent.name") or a.get("agent_name")) or span.name,
            input_text=messages_text(a.get("gen_ai.input.messages"), last_only=True),
            output_text=output,
        )
    if kind == TOOL:
        return SpanInfo(
            kind,
            rule,
            session_id=session,
            tool_name=_s(a.get("gen_ai.tool.name")) or span.name,
            tool_call_id=_s(a.get("gen_ai.tool.call.id")),
            input_text=_s(a.get("gen_ai.tool.call.arguments", a.get("tool_arguments"))),
            output_text=_s(a.get("gen_ai.tool.call.result", a.get("tool_response"))),
        )
    if kind == RETRIEVAL:
        return SpanInfo(
            kind,
            rule,
            session_id=session,
            documents=_genai_documents(a),
            input_text=_s(a.get("gen_ai.retrieval.query.text")),
        )
    prompt = messages_text(a.get("gen_ai.input.messages")) or _s(a.get("gen_ai.prompt"))
    completion = messages_text(a.get("gen_ai.output.messages")) or _s(a.get("gen_ai.completion"))
    if prompt is None or completion is None:
        legacy_prompt, legacy_completion = _legacy_events(a, span)
        prompt, completion = prompt or legacy_prompt, completion or legacy_completion
    return SpanInfo(
        LLM,
        rule,
        session_id=session,
        input_text=prompt,
        output_text=completion,
        model_name=_model(a),
    )
