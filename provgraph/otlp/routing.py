"""Where OTLP spans land: the project of a span and the session of its trace.

Pure functions used by the OTLP endpoint around :func:`~provgraph.otlp.convert.spans_to_events`:
the project comes from the routing header or the span's resource; spans of a
trace whose agent span has not named a session yet live in a provisional
``trace-<id>`` session until :func:`adopt_events` moves them.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from provgraph.citations import citation_tag_spans
from provgraph.events import Event
from provgraph.otlp.decode import SpanRecord

PROJECT_RESOURCE_ATTRS = ("openinference.project.name", "service.name")


def trace_session(trace_id: str) -> str:
    """The session of spans whose trace has not (yet) named one."""
    return f"trace-{trace_id}"


def adopt_events(nodes: list[Any], session_id: str) -> list[Event]:
    """Events moving nodes (of a provisional trace session) into ``session_id``.

    Children end, and are exported, before the agent span that names the
    session; they were stored under :func:`trace_session`. A later version of
    ``session_id`` (and the same citation key, rebinding it in the new session)
    moves them; nothing else of the node changes. A node whose content cites
    keys carries it again, so its citations are recorded in the new session
    (they were recorded in the provisional one).
    """
    now = datetime.now(UTC)
    return [
        Event(
            id=f"otlp-adopt-{n.id}-{session_id}"[:256],
            type=n.type,
            timestamp=now,
            session_id=session_id,
            node_id=n.id,
            citation_key=n.citation_key,
            content=n.content if n.content and citation_tag_spans(n.content) else None,
        )
        for n in nodes
        if n.type is not None
    ]


def resolve_project(header: str | None, resource: Mapping[str, Any], default: str) -> str:
    """Routing header, then ``openinference.project.name``, then ``service.name``."""
    if header and header.strip():
        return header.strip()
    for name in PROJECT_RESOURCE_ATTRS:
        value = resource.get(name)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return default


def group_by_project(
    spans: list[SpanRecord], header: str | None, default: str
) -> dict[str, list[SpanRecord]]:
    groups: dict[str, list[SpanRecord]] = {}
    for span in spans:
        groups.setdefault(resolve_project(header, span.resource, default), []).append(span)
    return groups
