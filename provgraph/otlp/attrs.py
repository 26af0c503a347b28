"""Reading OTLP span attributes: flattened lists, JSON-string messages, retrieved documents.

Pure helpers shared by the classifier: OpenInference flattens lists
(``llm.input_messages.0.message.content``), the GenAI conventions send JSON
strings with typed parts, and older pydantic-ai puts events in a JSON ``events``
attribute. Each helper returns ``None``/empty when the span does not say.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from provgraph.otlp.decode import SpanRecord

_DOC_RE = re.compile(r"^retrieval\.documents\.(\d+)\.document\.(id|content|score|metadata)$")
_OI_CALL_RE = re.compile(
    r"^llm\.output_messages\.(\d+)\.message\.tool_calls\.(\d+)\.tool_call\."
    r"(id|function\.name|function\.arguments)$"
)
_MSG_RE = re.compile(r"^llm\.(input|output)_messages\.(\d+)\.message\.(role|content)$")


@dataclass(frozen=True)
class Document:
    """One retrieved document (becomes a ``data_read``)."""

    id: str | None
    content: str | None
    score: float | None
    metadata: dict[str, Any] = field(default_factory=dict)


def text_value(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=str)


def json_value(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def messages_text(value: Any, *, last_only: bool = False) -> str | None:
    """Text of GenAI messages (``[{role, parts:[{type, content}]}]``, or ``{role, content}``)."""
    data = json_value(value)
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


def flat_messages(attrs: dict[str, Any], direction: str) -> str | None:
    found: dict[int, str] = {}
    for key, value in attrs.items():
        m = _MSG_RE.match(key)
        if m and m.group(1) == direction and m.group(3) == "content" and isinstance(value, str):
            found[int(m.group(2))] = value
    return "\n\n".join(found[i] for i in sorted(found)) if found else None


def documents(attrs: dict[str, Any]) -> tuple[Document, ...]:
    docs: dict[int, dict[str, Any]] = {}
    for key, value in attrs.items():
        m = _DOC_RE.match(key)
        if m:
            docs.setdefault(int(m.group(1)), {})[m.group(2)] = value
    out = []
    for i in sorted(docs):
        d = docs[i]
        meta = json_value(d.get("metadata"))
        score = d.get("score")
        out.append(
            Document(
                text_value(d.get("id")),
                text_value(d.get("content")),
                float(score) if isinstance(score, int | float) else None,
                meta if isinstance(meta, dict) else {},
            )
        )
    return tuple(out)


def genai_documents(attrs: dict[str, Any]) -> tuple[Document, ...]:
    raw = json_value(attrs.get("gen_ai.retrieval.documents"))
    if not isinstance(raw, list):
        return documents(attrs)
    out = []
    for item in raw:
        if isinstance(item, dict):
            score = item.get("score")
            out.append(
                Document(
                    text_value(item.get("id")),
                    text_value(item.get("content")),
                    float(score) if isinstance(score, int | float) else None,
                    {k: v for k, v in item.items() if k not in ("id", "content", "score")},
                )
            )
    return tuple(out)


def _first_text(attrs: dict[str, Any], names: tuple[str, ...]) -> str | None:
    for name in names:
        value = attrs.get(name)
        if isinstance(value, str) and value:
            return value
    return None


def explicit_session(attrs: dict[str, Any]) -> str | None:
    """A session the application named (``provgraph.session_id``, OpenInference ``session.id``)."""
    return _first_text(attrs, ("provgraph.session_id", "session.id"))


def conversation(attrs: dict[str, Any]) -> str | None:
    """GenAI ``gen_ai.conversation.id``: per agent run in pydantic-ai, so only a hint."""
    return _first_text(attrs, ("gen_ai.conversation.id",))


def agent_name(attrs: dict[str, Any]) -> str | None:
    """The agent a span belongs to, on any kind of span (pydantic-ai sets it on every span)."""
    return _first_text(attrs, ("gen_ai.agent.name", "agent_name", "agent.name"))


def model_name(attrs: dict[str, Any]) -> str | None:
    for name in ("gen_ai.response.model", "gen_ai.request.model", "llm.model_name"):
        if isinstance(attrs.get(name), str):
            return str(attrs[name])
    return None


def legacy_events(attrs: dict[str, Any], span: SpanRecord) -> tuple[str | None, str | None]:
    """Prompt and completion from pydantic-ai's JSON ``events`` attribute or span events."""
    raw = json_value(attrs.get("events"))
    items: list[dict[str, Any]] = (
        [e for e in raw if isinstance(e, dict)] if isinstance(raw, list) else []
    )
    items += [{"event.name": ev.name, **ev.attributes} for ev in span.events]
    prompt = [
        str(text_value(e.get("content")))
        for e in items
        if str(e.get("event.name", "")).endswith(".message") and e.get("content")
    ]
    completion = None
    for e in items:
        if e.get("event.name") == "gen_ai.choice":
            msg = json_value(e.get("message", e))
            completion = messages_text(msg) if isinstance(msg, dict) else text_value(msg)
    return ("\n\n".join(prompt) if prompt else None), completion


def genai_tool_calls(value: Any) -> tuple[dict[str, Any], ...]:
    """Tool calls a model asked for: ``tool_call`` parts of GenAI output messages."""
    data = json_value(value)
    calls: list[dict[str, Any]] = []
    for message in data if isinstance(data, list) else []:
        parts = message.get("parts") if isinstance(message, dict) else None
        for part in parts if isinstance(parts, list) else []:
            if isinstance(part, dict) and part.get("type") == "tool_call":
                calls.append(
                    {
                        "id": text_value(part.get("id")),
                        "name": text_value(part.get("name")),
                        "arguments": text_value(part.get("arguments")),
                    }
                )
    return tuple(calls)


def openinference_tool_calls(attrs: dict[str, Any]) -> tuple[dict[str, Any], ...]:
    """Tool calls in OpenInference's flattened ``llm.output_messages.N.message.tool_calls.M``."""
    found: dict[tuple[int, int], dict[str, Any]] = {}
    for key, value in attrs.items():
        m = _OI_CALL_RE.match(key)
        if m:
            field_ = {"id": "id", "function.name": "name", "function.arguments": "arguments"}
            call = found.setdefault((int(m.group(1)), int(m.group(2))), {})
            call[field_[m.group(3)]] = text_value(value)
    return tuple(
        {"id": c.get("id"), "name": c.get("name"), "arguments": c.get("arguments")}
        for _, c in sorted(found.items())
    )


_USAGE_ATTRS = {
    "input_tokens": (
        "gen_ai.usage.input_tokens",
        "gen_ai.usage.prompt_tokens",
        "llm.token_count.prompt",
    ),
    "output_tokens": (
        "gen_ai.usage.output_tokens",
        "gen_ai.usage.completion_tokens",
        "llm.token_count.completion",
    ),
}


def usage(attrs: dict[str, Any]) -> dict[str, int]:
    """Token counts of a model call (GenAI current and deprecated names, OpenInference)."""
    out: dict[str, int] = {}
    for name, keys in _USAGE_ATTRS.items():
        for key in keys:
            value = attrs.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                out[name] = value
                break
    return out
