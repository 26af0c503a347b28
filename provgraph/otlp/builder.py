"""Building the native events of one OTLP export, span by span (pure).

Node ids are derived from ``(trace_id, span_id)`` and event ids are
deterministic, so a re-sent span yields duplicates the store recognises. A
span's own node (no suffix) carries the span's outcome (``status``/``error``,
see :mod:`provgraph.otlp.failure`); every event is validated per span, and a
span whose events do not validate is rejected with the reason.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pydantic

from provgraph.events import MAX_CONTENT_CHARS, Event
from provgraph.graph import NodeType
from provgraph.otlp.classify import SpanInfo
from provgraph.otlp.decode import SpanRecord
from provgraph.otlp.failure import span_failure

_MAX_ATTR_CHARS = 500
_MAX_RAW_BYTES = 24 * 1024


@dataclass(frozen=True)
class SpanRejection:
    """A span that could not be ingested, and why (for ``partial_success``)."""

    trace_id: str
    span_id: str
    reason: str


@dataclass
class Conversion:
    """Events of one export, rejected spans, and the sessions traces declared.

    ``trace_sessions`` maps a trace to the session a span of this export named
    (``session.id`` …). Spans of that trace exported *earlier* without the
    attribute landed in :func:`trace_session`; the caller moves them over.
    ``unkeyed_reads`` are ``(session, node_id)`` of data reads from source tools
    whose key the store's session must hand out (:func:`provgraph.otlp.sources.next_keys`).
    ``lonely_agents`` are named agent spans exported without any of their
    children, ``(trace, span) → (agent name, session)``: their children, stored
    earlier, may still lack the agent's name (:mod:`provgraph.otlp.backfill`).
    """

    events: list[Event] = field(default_factory=list)
    rejections: list[SpanRejection] = field(default_factory=list)
    span_of_event: dict[str, tuple[str, str]] = field(default_factory=dict)
    trace_sessions: dict[str, str] = field(default_factory=dict)
    unkeyed_reads: list[tuple[str, str]] = field(default_factory=list)
    lonely_agents: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict)


def node_id(trace_id: str, span_id: str, suffix: str = "") -> str:
    return f"otel-{trace_id}-{span_id}{suffix}"


def _when(nanos: int) -> datetime:
    return datetime.fromtimestamp(nanos / 1e9, UTC) if nanos > 0 else datetime.now(UTC)


def _raw(span: SpanRecord, info: SpanInfo) -> dict[str, Any]:
    """The span's raw attributes, shortened to fit the event's data cap (never silently)."""
    attrs: dict[str, Any] = {}
    for key, value in span.attributes.items():
        text = value if isinstance(value, str) else json.dumps(value, default=str)
        attrs[key] = (
            value
            if len(text) <= _MAX_ATTR_CHARS
            else (text[:_MAX_ATTR_CHARS] + f"… [{len(text) - _MAX_ATTR_CHARS} more characters]")
        )
    while attrs and len(json.dumps(attrs, default=str)) > _MAX_RAW_BYTES:
        attrs.pop(max(attrs, key=lambda k: len(json.dumps(attrs[k], default=str))))
    return {
        "span_name": span.name,
        "rule": info.rule,
        "kind": info.kind,
        "trace_id": span.trace_id,
        "span_id": span.span_id,
        "parent_span_id": span.parent_span_id,
        "attributes": attrs,
    }


def cap_content(text: str | None) -> str | None:
    """Content cut to the event limit (OTLP attributes have no limit of their own)."""
    return text[:MAX_CONTENT_CHARS] if text is not None else None


class SpanEventBuilder:
    """Builds the events of one export; remembers which span each event came from."""

    def __init__(self) -> None:
        self.out = Conversion()
        self._span_events: dict[tuple[str, str], list[dict[str, Any]]] = {}

    def add(
        self,
        span: SpanRecord,
        info: SpanInfo,
        session: str,
        suffix: str,
        node_type: NodeType,
        parents: list[str],
        **fields: Any,
    ) -> str:
        nid = fields.pop("node_id", None) or node_id(span.trace_id, span.span_id, suffix)
        extra = fields.pop("data", {})
        failure = None if suffix else span_failure(span)  # on the span's own node only
        if failure is not None:
            fields.update(failure.event_fields())
            extra["error_stacktrace_tail"] = failure.stacktrace_tail
        raw = {
            "id": f"otlp-{span.trace_id}-{span.span_id}{suffix}",
            "type": node_type,
            "timestamp": _when(span.start_time_unix_nano),
            "session_id": session,
            "node_id": nid,
            "run_id": f"otel-{span.trace_id}",
            "agent_name": info.agent_name,
            "parent_ids": [p for p in dict.fromkeys(parents) if p != nid],
            "data": {
                **{k: v for k, v in extra.items() if v is not None},
                **({"otel": _raw(span, info)} if not suffix else {}),
            },
            **{k: v for k, v in fields.items() if v is not None},
        }
        self._span_events.setdefault((span.trace_id, span.span_id), []).append(raw)
        return nid

    def finish(self) -> Conversion:
        for (trace, span_id), raws in self._span_events.items():
            try:
                events = [Event.model_validate(r) for r in raws]
            except pydantic.ValidationError as exc:
                first = exc.errors(include_url=False)[0]
                where = ".".join(str(p) for p in first["loc"])
                self.out.rejections.append(
                    SpanRejection(trace, span_id, f"{where}: {first['msg']}")
                )
                continue
            for event in events:
                self.out.events.append(event)
                self.out.span_of_event[event.id] = (trace, span_id)
        return self.out
