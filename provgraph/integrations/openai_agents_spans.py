"""What a model span of the OpenAI Agents SDK says: prompt, answer text, requested tools, usage.

Two span shapes carry a model call (``agents.tracing.span_data``):

* ``GenerationSpanData`` (Chat Completions models): ``input`` is the list of
  chat messages (``{"role", "content"}``), ``output`` the assistant messages
  (``content`` and ``tool_calls[].function.name``), plus ``model`` and ``usage``;
* ``ResponseSpanData`` (Responses models, the SDK's default): ``input`` is a
  string or a list of Responses input items, ``response`` the
  ``openai.types.responses.Response`` (``output`` items of type ``message``
  with ``output_text`` parts, or ``function_call`` with a ``name``).

Both are filled only when the run config includes sensitive data
(``trace_include_sensitive_data``, on by default); otherwise the prompt and
text are ``None`` and the nodes are recorded without content. Read by
attribute or key so this module needs no import of the SDK.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from provgraph.events import ErrorInfo
from provgraph.failures import error_info
from provgraph.integrations._shared import content_text, field_of


@dataclass(frozen=True)
class ModelCall:
    """One model call as the adapter records it."""

    prompt: str | None = None
    text: str | None = None
    tool_calls: tuple[str, ...] = ()
    model: str | None = None
    usage: dict[str, Any] = field(default_factory=dict)

    @property
    def is_final(self) -> bool:
        """A text answer with no tool call or handoff requested: the run's output."""
        return bool(self.text) and not self.tool_calls


def last_user_text(messages: Any) -> str | None:
    """The last user message of a chat or Responses input (a bare string is the prompt)."""
    if isinstance(messages, str):
        return messages or None
    if not isinstance(messages, list | tuple):
        return None
    for message in reversed(messages):
        if field_of(message, "role") == "user":
            text = content_text(field_of(message, "content"))
            if text:
                return text
    return None


def _usage(raw: Any) -> dict[str, Any]:
    if raw is None:
        return {}
    if isinstance(raw, Mapping):
        source: Mapping[str, Any] = raw
    else:
        dump = getattr(raw, "model_dump", None)
        source = dump() if callable(dump) else {}
    keys = ("input_tokens", "output_tokens", "prompt_tokens", "completion_tokens", "requests")
    return {k: source[k] for k in keys if isinstance(source.get(k), int)}


def from_generation(data: Any) -> ModelCall:
    """A ``GenerationSpanData`` (chat messages in, assistant messages out)."""
    texts: list[str] = []
    tools: list[str] = []
    for message in field_of(data, "output") or []:
        text = content_text(field_of(message, "content"))
        if text:
            texts.append(text)
        for call in field_of(message, "tool_calls") or []:
            name = field_of(field_of(call, "function"), "name") or field_of(call, "name")
            if isinstance(name, str):
                tools.append(name)
    model = field_of(data, "model")
    return ModelCall(
        prompt=last_user_text(field_of(data, "input")),
        text="\n".join(texts) or None,
        tool_calls=tuple(tools),
        model=model if isinstance(model, str) else None,
        usage=_usage(field_of(data, "usage")),
    )


def from_response(data: Any) -> ModelCall:
    """A ``ResponseSpanData`` (Responses input items in, a ``Response`` out)."""
    response = field_of(data, "response")
    texts: list[str] = []
    tools: list[str] = []
    for item in field_of(response, "output") or []:
        kind = field_of(item, "type")
        if kind == "message":
            text = content_text(field_of(item, "content"))
            if text:
                texts.append(text)
        elif isinstance(kind, str) and kind.endswith("call"):
            name = field_of(item, "name")
            tools.append(name if isinstance(name, str) else kind)
    model = field_of(response, "model")
    return ModelCall(
        prompt=last_user_text(field_of(data, "input")),
        text="\n".join(texts) or None,
        tool_calls=tuple(tools),
        model=model if isinstance(model, str) else None,
        usage=_usage(field_of(data, "usage") or field_of(response, "usage")),
    )


ERROR_TYPES = {
    "agent": "AgentRunError",
    "function": "ToolCallError",
    "generation": "ModelCallError",
    "response": "ModelCallError",
    "handoff": "HandoffError",
}
"""Span errors carry a message, not an exception type; the node gets one named by span kind."""


def span_error(span: Any, kind: str) -> ErrorInfo | None:
    """The node error for a span the SDK marked failed (message plus its ``data.error``)."""
    error = span.error
    if not error:
        return None
    message = str(error.get("message") or "")
    detail = (error.get("data") or {}).get("error")
    if detail:
        message = f"{message}: {detail}" if message else str(detail)
    return error_info(ERROR_TYPES.get(kind, "SpanError"), message)


def tool_args(raw: Any) -> dict[str, Any]:
    if not isinstance(raw, str) or not raw:
        return {}
    try:
        parsed = json.loads(raw)
    except ValueError:
        return {"input": raw}
    return parsed if isinstance(parsed, dict) else {"input": parsed}
