"""What every drawn export shares: per-type styles, display labels, safe ids.

Mermaid, DOT and the HTML page colour a node by its type; keeping the palette
here means the three drawings and the HTML legend never disagree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from provgraph.graph import NodeType, ProvenanceEdge, ProvenanceGraph, ProvenanceNode

PLACEHOLDER = "placeholder"
"""Style key for a node whose own event has not arrived (``type is None``)."""

FAILED_STROKE = "#c62828"
"""Outline of a node whose step failed (``status = error``), in every drawing."""

FAILED_MARK = "\u2717 "
"""Prefix of a failed node's drawn label, so the failure survives a monochrome print."""

MAX_DRAWN_LABEL_CHARS = 120
"""Labels longer than this are cut in drawings: a box with a paragraph in it is unreadable."""

_ID_PREFIX_CHARS = 16
_UNSAFE_ID_CHARS = re.compile(r"[^A-Za-z0-9_]")


@dataclass(frozen=True)
class TypeStyle:
    """How one node type is drawn (colours are ``#rrggbb``; shapes name the variant)."""

    fill: str
    stroke: str
    description: str


TYPE_STYLES: dict[str, TypeStyle] = {
    NodeType.INPUT.value: TypeStyle("#e3f2fd", "#1565c0", "user input"),
    NodeType.AGENT_RUN.value: TypeStyle("#e0f7fa", "#00838f", "agent run"),
    NodeType.MODEL_REQUEST.value: TypeStyle("#f3e5f5", "#6a1b9a", "model request"),
    NodeType.MODEL_RESPONSE.value: TypeStyle("#ede7f6", "#4527a0", "model response"),
    NodeType.TOOL_CALL.value: TypeStyle("#fff3e0", "#ef6c00", "tool call"),
    NodeType.TOOL_RESULT.value: TypeStyle("#fff8e1", "#f9a825", "tool result"),
    NodeType.DATA_READ.value: TypeStyle("#e8f5e9", "#2e7d32", "data read"),
    NodeType.FINAL_OUTPUT.value: TypeStyle("#fce4ec", "#ad1457", "final output"),
    PLACEHOLDER: TypeStyle("#fafafa", "#9e9e9e", "placeholder (event not yet received)"),
}
"""Style per node type value, plus ``placeholder``; insertion order is legend order."""


def style_key(node: ProvenanceNode) -> str:
    """The :data:`TYPE_STYLES` key for ``node`` (placeholders have no type)."""
    return PLACEHOLDER if node.type is None else node.type.value


def display_label(node: ProvenanceNode) -> str:
    """The text drawn in a node box, at most :data:`MAX_DRAWN_LABEL_CHARS` characters.

    A placeholder usually has no label yet; its id is the only thing that names it.
    A failed step is marked with :data:`FAILED_MARK`.
    """
    text = (FAILED_MARK if node.failed else "") + (node.label or node.id)
    if len(text) > MAX_DRAWN_LABEL_CHARS:
        text = text[: MAX_DRAWN_LABEL_CHARS - 1] + "…"
    return text


def safe_node_ids(graph: ProvenanceGraph) -> dict[str, str]:
    """Map every node id to a unique identifier made only of ``[A-Za-z0-9_]``.

    The seed used the first 16 characters of the id, so two ids sharing a
    prefix (``run-1-tool-call-a`` / ``run-1-tool-call-b``) drew as one node.
    Here the node's position makes the identifier unique and a sanitised prefix
    keeps it readable; the leading ``n`` keeps it from being a keyword such as
    Mermaid's ``end`` or DOT's ``node``.
    """
    return {
        node_id: f"n{index}_{_UNSAFE_ID_CHARS.sub('_', node_id[:_ID_PREFIX_CHARS])}"
        for index, node_id in enumerate(graph.nodes)
    }


def drawable_edges(graph: ProvenanceGraph) -> list[ProvenanceEdge]:
    """Edges whose two endpoints are nodes of ``graph``.

    ``add_edge`` never creates any other, but a graph built with an explicit
    ``edges`` list may hold one; a drawing cannot show an endpoint it knows
    nothing about, so such edges are left out (the JSON export keeps them).
    """
    return [e for e in graph.edges if e.source_id in graph.nodes and e.target_id in graph.nodes]
