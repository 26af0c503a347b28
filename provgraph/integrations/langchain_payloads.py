"""What LangChain callbacks carry, as text: runnable names, message text, inputs and outputs.

Callbacks hand over whatever the runnable was called with: a string, a
``BaseMessage``, a ``("user", text)`` tuple, a LangGraph ``{"messages": [...]}``
state, or any dict. These helpers read each by duck typing (no LangChain
import), so the handler records text a reader can follow and bounded JSON
otherwise.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from provgraph.integrations._shared import content_text, field_of, first_text

MAX_INPUT_CHARS = 20_000
"""Inputs that are not plain text are kept as bounded JSON."""


def runnable_name(
    serialized: Mapping[str, Any] | None, kwargs: Mapping[str, Any], default: str
) -> str:
    """The run's ``name``, else the serialized name, else its class (last part of ``id``)."""
    ident = (serialized or {}).get("id")
    last = ident[-1] if isinstance(ident, list) and ident else None
    return first_text(kwargs.get("name"), (serialized or {}).get("name"), last) or default


def _role(message: Any) -> str | None:
    if isinstance(message, tuple | list) and len(message) == 2:
        return str(message[0])
    role = field_of(message, "type") or field_of(message, "role")
    return str(role) if role else None


def message_text(message: Any) -> str | None:
    """Text of one message: a string, a ``(role, content)`` tuple or a message object."""
    if isinstance(message, str):
        return message or None
    if isinstance(message, tuple | list) and len(message) == 2:
        return content_text(message[1])
    return content_text(field_of(message, "content"))


def last_text(messages: Iterable[Any], roles: Sequence[str]) -> str | None:
    """Text of the last message sent by one of ``roles`` (e.g. ``human``, ``user``)."""
    for message in reversed(list(messages)):
        if _role(message) in roles:
            text = message_text(message)
            if text:
                return text
    return None


def payload_text(value: Any, roles: Sequence[str]) -> str | None:
    """The text of a run's inputs or outputs (messages state, a known key, or bounded JSON)."""
    if isinstance(value, str):
        return value or None
    text = message_text(value) if field_of(value, "content") is not None else None
    if text:
        return text
    if isinstance(value, Mapping):
        messages = value.get("messages")
        if isinstance(messages, list) and messages:
            return last_text(messages, roles)
        for key in ("output", "answer", "input", "question", "query"):
            if isinstance(value.get(key), str) and value[key]:
                return str(value[key])
    if value is None:
        return None
    return json.dumps(value, default=str, ensure_ascii=False)[:MAX_INPUT_CHARS]
