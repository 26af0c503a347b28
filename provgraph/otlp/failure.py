"""A span's failure as provgraph records it: status ERROR and ``exception`` events.

OTel marks a failed span with ``status.code = ERROR`` (and a description) and
records what was raised as a span event named ``exception`` with
``exception.type``, ``exception.message`` and ``exception.stacktrace``. Both
become the node's ``status`` and ``error`` (type, bounded message) exactly as
the pydantic-ai capability records a raised exception. The stack trace is not
part of the error; only its bounded tail is kept in the node's data, because
the runtime chose to export it and its last frames say where it failed. Its
absolute file paths are cut to module paths first (no home directories or
interpreter locations in stored data: :mod:`provgraph.otlp.trace_paths`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from provgraph.events import ErrorInfo
from provgraph.failures import error_info
from provgraph.graph import NodeStatus
from provgraph.otlp.decode import SpanRecord
from provgraph.otlp.trace_paths import strip_machine_paths

STATUS_CODE_OK = 1
STATUS_CODE_ERROR = 2
EXCEPTION_EVENT = "exception"
MAX_STACKTRACE_CHARS = 2_000
"""How much of an exported stack trace is kept (its tail: the failing frames)."""


@dataclass(frozen=True)
class SpanFailure:
    """What a span says about how its step ended."""

    status: NodeStatus
    error: ErrorInfo | None = None
    stacktrace_tail: str | None = None

    def event_fields(self) -> dict[str, Any]:
        """``status`` and ``error`` for the span's node event."""
        return {"status": self.status, "error": self.error}


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ("" if value is None else str(value))


def _tail(text: str) -> str:
    if len(text) <= MAX_STACKTRACE_CHARS:
        return text
    return "…" + text[-(MAX_STACKTRACE_CHARS - 1) :]


def span_failure(span: SpanRecord) -> SpanFailure | None:
    """The span's outcome: ``None`` when it says nothing (status unset, no exception).

    An explicit OK wins over recorded exceptions (the span handled them); an
    exception event on a span with unset status is a failure, since the SDKs
    record it when an exception escapes the span. With several exception
    events the last one is the one that ended the span.
    """
    raised = [e for e in span.events if e.name == EXCEPTION_EVENT]
    if span.status_code == STATUS_CODE_OK:
        return SpanFailure(NodeStatus.OK)
    if span.status_code != STATUS_CODE_ERROR and not raised:
        return None
    if not raised:
        kind = _text(span.attributes.get("error.type")) or "Error"
        return SpanFailure(NodeStatus.ERROR, error_info(kind, span.status_message))
    attrs = raised[-1].attributes
    kind = _text(attrs.get("exception.type")) or _text(span.attributes.get("error.type"))
    message = _text(attrs.get("exception.message")) or span.status_message
    trace = _text(attrs.get("exception.stacktrace"))
    return SpanFailure(
        NodeStatus.ERROR,
        error_info(kind or "Error", message),
        _tail(strip_machine_paths(trace)) if trace else None,
    )
