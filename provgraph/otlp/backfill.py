"""Completing spans that were stored before their agent span arrived (pure).

Children end, and are exported, before their parents. When a span names no
agent (OpenInference LLM spans from the ``openai`` instrumentor do not), it
inherits the enclosing agent span's name, but only if that span is in the
same export. With one-span exports the agent span comes last, alone: then its
stored descendants are found by walking their recorded parent span ids
(``data.otel.parent_span_id``) up to it, and each gets the name by one more
event (the field is last-writer-wins; nothing else of the node changes).
A chain that passes through a span with no node (an HTTP span) stops there.

The run's steps are chained too, as :mod:`provgraph.otlp.emit` chains them
within one export: the agent's input → its first step, each step's last node
(a response, a tool result) → the next step, the last step → the final
output. So attribution leads from the answer back to the documents whatever
the exporter's batching.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from provgraph.events import Event

_NODE_ID = re.compile(r"^otel-([0-9a-f]{32})-([0-9a-f]{16})")
SpanKey = tuple[str, str]


def _span_of(node: Any) -> SpanKey | None:
    m = _NODE_ID.match(node.id)
    return (m.group(1), m.group(2)) if m else None


def _parents(nodes: list[Any]) -> tuple[dict[SpanKey, str | None], dict[SpanKey, str]]:
    """Span → parent span id, and span → agent name, from each span's own stored node."""
    parents: dict[SpanKey, str | None] = {}
    names: dict[SpanKey, str] = {}
    for node in nodes:
        otel = node.data.get("otel") if isinstance(node.data, dict) else None
        key = _span_of(node)
        if key and isinstance(otel, dict) and "parent_span_id" in otel:
            parent = otel["parent_span_id"]
            parents[key] = parent if isinstance(parent, str) else None
            if node.agent_name:
                names[key] = node.agent_name
    return parents, names


def agent_name_events(
    nodes: Iterable[Any], agents: Mapping[SpanKey, tuple[str, str]]
) -> list[Event]:
    """Events naming the agent of stored nodes whose nearest agent span is one of ``agents``."""
    listed = list(nodes)
    parents, names = _parents(listed)
    names.update({k: name for k, (name, _) in agents.items()})
    now = datetime.now(UTC)
    out: list[Event] = []
    for node in listed:
        key = _span_of(node)
        if node.agent_name or node.type is None or key is None:
            continue
        name = _enclosing_agent(key, parents, names)
        if name is not None:
            out.append(
                Event(
                    id=f"otlp-agent-{node.id}"[:256],
                    type=node.type,
                    timestamp=now,
                    session_id=node.session_id,
                    node_id=node.id,
                    agent_name=name,
                )
            )
    return out


def _enclosing_agent(
    key: SpanKey, parents: Mapping[SpanKey, str | None], names: Mapping[SpanKey, str]
) -> str | None:
    """The name of the nearest ancestor span that has one (stored, or in this export)."""
    seen = {key}
    parent = parents.get(key)
    while parent:
        pkey = (key[0], parent)
        if pkey in names:
            return names[pkey]
        if pkey in seen or pkey not in parents:
            return None
        seen.add(pkey)
        parent = parents[pkey]
    return None


_EXIT_SUFFIXES = ("-response", "-result")


def chain_events(nodes: Iterable[Any], agents: Mapping[SpanKey, tuple[str, str]]) -> list[Event]:
    """Edges chaining each lonely agent's stored direct children in start order."""
    listed = list(nodes)
    by_id = {n.id: n for n in listed}
    parents, _ = _parents(listed)
    now = datetime.now(UTC)
    out: list[Event] = []
    for (trace, span), _agent in agents.items():
        steps = sorted(
            (by_id[f"otel-{t}-{s}"] for (t, s), p in parents.items() if t == trace and p == span),
            key=lambda n: (n.timestamp, n.id),
        )
        previous = f"otel-{trace}-{span}-input"
        if previous not in by_id:
            previous = f"otel-{trace}-{span}"
        for step in steps:
            if step.type is not None and not step.id.startswith(f"otel-{trace}-{span}"):
                out.append(_edge_event(step, previous, now))
            exits = [step.id + s for s in _EXIT_SUFFIXES if step.id + s in by_id]
            previous = exits[0] if exits else step.id
        output = by_id.get(f"otel-{trace}-{span}-output")
        if output is not None and output.type is not None and steps:
            out.append(_edge_event(output, previous, now))
    return out


def _edge_event(node: Any, parent: str, now: datetime) -> Event:
    """One more parent for a stored node (its edge label follows from its type)."""
    return Event(
        id=f"otlp-chain-{node.id}-{parent}"[:256],
        type=node.type,
        timestamp=now,
        session_id=node.session_id,
        node_id=node.id,
        parent_ids=[parent],
    )
