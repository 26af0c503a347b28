"""Mermaid ``flowchart LR`` export in the seed's style: a shape and a class per node type.

Node and edge labels come from agent runs, so they may contain anything a
model wrote. Every label is emitted inside double quotes with every character
outside a small safe set written as a Mermaid entity code (``#34;``); no label
can end its string, start a comment, open a shape or inject HTML into the
rendered SVG.
"""

from __future__ import annotations

from provgraph.exports._common import (
    FAILED_STROKE,
    PLACEHOLDER,
    TYPE_STYLES,
    display_label,
    drawable_edges,
    safe_node_ids,
    style_key,
)
from provgraph.graph import NodeType, ProvenanceGraph

_SHAPES: dict[str, tuple[str, str]] = {
    NodeType.INPUT.value: ("([", "])"),
    NodeType.AGENT_RUN.value: ("{{", "}}"),
    NodeType.MODEL_REQUEST.value: ("[", "]"),
    NodeType.MODEL_RESPONSE.value: ("(", ")"),
    NodeType.TOOL_CALL.value: ("[[", "]]"),
    NodeType.TOOL_RESULT.value: ("[/", "/]"),
    NodeType.DATA_READ.value: ("[(", ")]"),
    NodeType.FINAL_OUTPUT.value: (">", "]"),
    PLACEHOLDER: ("[", "]"),
}
"""Opening and closing shape brackets per style key (the label goes between, quoted)."""

_SAFE_PUNCTUATION = frozenset(" .,:_+*/=!?'@$~-")


def escape_mermaid_text(text: str) -> str:
    """Quote-safe label text: keep letters, digits and harmless punctuation; encode the rest.

    Mermaid turns ``#<decimal>;`` back into the character when it renders, so
    the reader sees the original text. Encoding by allow-list rather than
    deny-list means characters we did not think of (``"``, ``#``, ``;``, ``|``,
    brackets, ``<``, ``&``, backticks, newlines, U+2028) are covered too;
    non-ASCII letters stay readable.
    """
    out: list[str] = []
    for char in text:
        if (char.isalnum() and char.isprintable()) or char in _SAFE_PUNCTUATION:
            out.append(char)
        else:
            out.append(f"#{ord(char)};")
    return "".join(out)


def graph_to_mermaid(graph: ProvenanceGraph) -> str:
    """The graph as a Mermaid flowchart: one statement per node, one per edge, then class defs.

    Identifiers are position-based (see :func:`safe_node_ids`), so ids sharing
    a prefix stay distinct. Edges to nodes not in the graph are left out.
    """
    ids = safe_node_ids(graph)
    lines = ["flowchart LR"]
    for node in graph.nodes.values():
        key = style_key(node)
        opening, closing = _SHAPES[key]
        label = escape_mermaid_text(display_label(node))
        lines.append(f'    {ids[node.id]}{opening}"{label}"{closing}:::{key}')
        if node.failed:
            lines.append(f"    style {ids[node.id]} stroke:{FAILED_STROKE},stroke-width:3px")
    for edge in drawable_edges(graph):
        source, target = ids[edge.source_id], ids[edge.target_id]
        if edge.label:
            lines.append(f'    {source} -->|"{escape_mermaid_text(edge.label)}"| {target}')
        else:
            lines.append(f"    {source} --> {target}")
    for key, style in TYPE_STYLES.items():
        dash = ",stroke-dasharray:4 4" if key == PLACEHOLDER else ""
        lines.append(
            f"    classDef {key} fill:{style.fill},stroke:{style.stroke},color:#212121{dash}"
        )
    return "\n".join(lines) + "\n"
