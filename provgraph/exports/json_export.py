"""The seed's ``to_json`` shape, extended only by optional keys.

Existing consumers read ``{nodes: [{id, type, label, agent_name, run_id,
timestamp, data, citation_key?}], edges: [{source, target, label}]}``; the
keys provgraph adds (``session_id``, ``content``, ``placeholder``, ``status``,
``error``) appear only
when they carry information, so a seed-era graph exports exactly as before.
"""

from __future__ import annotations

from typing import Any

from provgraph.graph import ProvenanceGraph, ProvenanceNode


def node_to_json(node: ProvenanceNode) -> dict[str, Any]:
    """One node in the seed shape; a placeholder has ``type: None`` and ``placeholder: true``."""
    item: dict[str, Any] = {
        "id": node.id,
        "type": None if node.type is None else node.type.value,
        "label": node.label,
        "agent_name": node.agent_name,
        "run_id": node.run_id,
        "timestamp": node.timestamp.isoformat(),
        "data": node.data,
    }
    if node.citation_key is not None:
        item["citation_key"] = node.citation_key
    if node.session_id is not None:
        item["session_id"] = node.session_id
    if node.content is not None:
        item["content"] = node.content
    if node.is_placeholder:
        item["placeholder"] = True
    if node.status is not None:
        item["status"] = node.status.value
    if node.error is not None:
        item["error"] = {"type": node.error.type, "message": node.error.message}
    return item


def graph_to_json(graph: ProvenanceGraph) -> dict[str, Any]:
    """The whole graph as JSON-ready data, nodes and edges in insertion order.

    Every edge of the graph is kept (including one given to the constructor
    whose endpoint is missing): this is the lossless export. A node whose own
    event has not arrived is a placeholder (``type`` null, ``placeholder``
    true). ``data`` is passed through as stored; it is
    JSON-safe when the graph came from events (the event format requires it).
    """
    return {
        "nodes": [node_to_json(node) for node in graph.nodes.values()],
        "edges": [
            {"source": edge.source_id, "target": edge.target_id, "label": edge.label}
            for edge in graph.edges
        ],
    }
