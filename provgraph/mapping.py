"""Pure mapping from validated events to graph writes (nodes, edges, citation uses).

Both store adapters apply exactly these writes, so the embedded store and Neo4j
build the same graph. The rules that make ingestion order-independent:

* every field an event carries is written with the event's *version*
  ``"<UTC timestamp, fixed width>|<event id>"``; a stored field is replaced only
  by a higher version (per-field last-writer-wins), so any permutation of the
  same events ends in the same node;
* a node's ``timestamp`` is the earliest event time seen for it;
* a default label (from type and agent) is used only while no event gave one;
* an edge's label comes from the child's type alone (or is explicit), never
  from the parent's type, which may not have arrived yet.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from provgraph.citations import cited_keys
from provgraph.events import Event
from provgraph.failures import STATUS_FIELDS, status_fields
from provgraph.graph import CITING_TYPES, EdgeLabel, NodeType

EDGE_LABEL_BY_CHILD_TYPE: dict[NodeType, EdgeLabel] = {
    NodeType.INPUT: EdgeLabel.STARTS_WITH,
    NodeType.MODEL_REQUEST: EdgeLabel.FEEDS_INTO,
    NodeType.MODEL_RESPONSE: EdgeLabel.PRODUCES,
    NodeType.FINAL_OUTPUT: EdgeLabel.PRODUCES,
    NodeType.TOOL_CALL: EdgeLabel.CALLS,
    NodeType.DATA_READ: EdgeLabel.CALLS,
    NodeType.TOOL_RESULT: EdgeLabel.RETURNS,
    NodeType.AGENT_RUN: EdgeLabel.DELEGATES_TO,
}
"""Seed edge semantics keyed by the child's type (see ADR 0002)."""

_DEFAULT_LABELS: dict[NodeType, str] = {
    NodeType.INPUT: "User input",
    NodeType.DATA_READ: "Data read",
    NodeType.TOOL_CALL: "Tool call",
    NodeType.TOOL_RESULT: "Tool result",
    NodeType.MODEL_REQUEST: "Model request",
    NodeType.MODEL_RESPONSE: "Model response",
    NodeType.AGENT_RUN: "Agent",
    NodeType.FINAL_OUTPUT: "Final output",
}

VERSIONED_FIELDS: tuple[str, ...] = (
    "type",
    "session_id",
    "run_id",
    "agent_name",
    "label",
    "content",
    "data",
    "citation_key",
    *STATUS_FIELDS,
)
"""Node fields written under per-field last-writer-wins."""


def utc_text(moment: datetime) -> str:
    """Fixed-width UTC text that sorts lexicographically in time order."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def event_version(event: Event) -> str:
    """The total order used for last-writer-wins: time first, event id to break ties."""
    return f"{utc_text(event.timestamp)}|{event.id}"


def default_label(node_type: NodeType, agent_name: str | None) -> str:
    """The label shown when no event named the node."""
    base = _DEFAULT_LABELS[node_type]
    if agent_name and node_type in (NodeType.AGENT_RUN, NodeType.FINAL_OUTPUT):
        return f"{base}: {agent_name}"
    return base


@dataclass(frozen=True, slots=True)
class NodeWrite:
    """Field values one event sets on one node (``None`` = not set by this event).

    The write records are slotted: a batch makes several per event, and an
    instance without a ``__dict__`` is one allocation (and one object for the
    garbage collector to track) instead of two.
    """

    node_id: str
    version: str
    timestamp: str
    fields: dict[str, str | None]
    default_label: str


@dataclass(frozen=True, slots=True)
class EdgeWrite:
    source_id: str
    target_id: str
    label: EdgeLabel


@dataclass(frozen=True, slots=True)
class CitationUse:
    """Node ``citing_node_id`` (of session ``session_id``) cites ``key`` in its content."""

    citing_node_id: str
    session_id: str
    key: str


@dataclass(frozen=True, slots=True)
class EventWrite:
    """Everything one event writes; adapters apply these in one transaction per batch."""

    event_id: str
    index: int
    session_id: str
    citation_key: str | None
    node: NodeWrite
    edges: tuple[EdgeWrite, ...]
    citations: tuple[CitationUse, ...]


def map_event(event: Event, index: int = 0) -> EventWrite:
    """Map one validated event to its writes (pure; no store access).

    The event's UTC text is computed once and used for both its time and its
    version (:func:`event_version` is ``f"{utc_text(timestamp)}|{id}"``).
    """
    stamp = utc_text(event.timestamp)
    node_type = event.type
    fields: dict[str, str | None] = {
        "type": node_type.value,
        "session_id": event.session_id,
        "run_id": event.run_id,
        "agent_name": event.agent_name,
        "label": event.label,
        "content": event.content,
        "data": json.dumps(event.data, sort_keys=True, ensure_ascii=False) if event.data else None,
        "citation_key": event.citation_key,
        **status_fields(event.effective_status, event.error),
    }
    edges: dict[tuple[str, EdgeLabel], None] = {}
    inferred = EDGE_LABEL_BY_CHILD_TYPE[node_type]
    for parent in event.parent_ids:
        edges[(parent, inferred)] = None
    for spec in event.edges:
        edges[(spec.source_id, spec.label)] = None
    citations: tuple[CitationUse, ...] = ()
    if node_type in CITING_TYPES and event.content:
        citations = tuple(
            CitationUse(event.node_id, event.session_id, key) for key in cited_keys(event.content)
        )
    return EventWrite(
        event_id=event.id,
        index=index,
        session_id=event.session_id,
        citation_key=event.citation_key,
        node=NodeWrite(
            node_id=event.node_id,
            version=f"{stamp}|{event.id}",
            timestamp=stamp,
            fields=fields,
            default_label=default_label(node_type, event.agent_name),
        ),
        edges=tuple(EdgeWrite(src, event.node_id, label) for src, label in edges),
        citations=citations,
    )


def map_events(events: Sequence[tuple[int, Event]]) -> list[EventWrite]:
    """Map a validated batch, keeping each event's index in the original request."""
    return [map_event(event, index) for index, event in events]
