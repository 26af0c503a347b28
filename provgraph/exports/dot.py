"""Graphviz DOT export: a left-to-right digraph, nodes shaped and filled by type.

Every node identifier and label is a DOT quoted string; the graph name is
bare when it is a plain identifier (``digraph provenance {``, as in the seed)
and quoted otherwise. Labels are escaped with
HTML entities (``&quot;``, ``&#92;&#92;``, ``&amp;``, ``&lt;``, ``&gt;``), which
Graphviz decodes when it draws, rather than with backslashes: a backslash
escape is ambiguous next to a quote in older Graphviz lexers, and a label
ending in ``\\`` could otherwise swallow its closing quote. The only
backslash the export writes is ``\\n`` for a line break.
"""

from __future__ import annotations

import re
import unicodedata

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

_SHAPES: dict[str, str] = {
    NodeType.INPUT.value: "ellipse",
    NodeType.AGENT_RUN.value: "hexagon",
    NodeType.MODEL_REQUEST.value: "box",
    NodeType.MODEL_RESPONSE.value: "box",
    NodeType.TOOL_CALL.value: "component",
    NodeType.TOOL_RESULT.value: "parallelogram",
    NodeType.DATA_READ.value: "cylinder",
    NodeType.FINAL_OUTPUT.value: "note",
    PLACEHOLDER: "box",
}

_STYLES: dict[str, str] = {
    NodeType.MODEL_RESPONSE.value: "filled,rounded",
    PLACEHOLDER: "filled,dashed",
}

_MAX_GRAPH_NAME_CHARS = 200
_DOT_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DOT_KEYWORDS = frozenset({"node", "edge", "graph", "digraph", "subgraph", "strict"})


def escape_dot_text(text: str) -> str:
    """Text safe inside a DOT quoted string; newlines become ``\\n`` line breaks.

    Graphviz decodes entities *before* it reads label escapes (``\\n``,
    ``\\l``, ``\\N``), so a backslash is written as two encoded backslashes
    (``&#92;&#92;``) to come out as one backslash rather than start an escape.

    U+2028/U+2029 are line breaks too; tabs and other spaces become a plain
    space, and any other control character becomes U+FFFD (Graphviz handles
    labels as C strings, so a NUL would cut the label short).
    """
    text = text.replace("\r\n", "\n")
    for newline in "\r\u2028\u2029":
        text = text.replace(newline, "\n")
    out: list[str] = []
    for char in text:
        if char == "&":
            out.append("&amp;")
        elif char == '"':
            out.append("&quot;")
        elif char == "\\":
            out.append("&#92;&#92;")
        elif char == "<":
            out.append("&lt;")
        elif char == ">":
            out.append("&gt;")
        elif char == "\n":
            out.append("\\n")
        elif char.isprintable():
            out.append(char)
        elif unicodedata.category(char) == "Zs" or char == "\t":
            out.append(" ")
        else:
            out.append("\ufffd")
    return "".join(out)


def validate_graph_name(graph_name: str) -> str:
    """Check ``graph_name`` can be a DOT graph id; raise ``ValueError`` saying why not.

    Names are quoted, but a name is an identifier, not a label, so it is
    rejected rather than entity-escaped: ``"``, ``\\`` and control characters
    are refused, as is an empty or overlong name.
    """
    if not graph_name:
        raise ValueError("graph_name must not be empty")
    if len(graph_name) > _MAX_GRAPH_NAME_CHARS:
        raise ValueError(f"graph_name is longer than {_MAX_GRAPH_NAME_CHARS} characters")
    for char in graph_name:
        if char in '"\\' or not char.isprintable():
            raise ValueError(
                f"graph_name may not contain {char!r}; use letters, digits, spaces or punctuation"
            )
    return graph_name


def dot_graph_id(graph_name: str) -> str:
    """The name as written after ``digraph``: bare when it is a plain DOT identifier.

    The seed wrote ``digraph provenance {``, and code that parses or greps its
    output expects that; a name that is not an identifier (or is a DOT keyword,
    which would change the statement's meaning) is quoted and entity-escaped.
    """
    if _DOT_ID.fullmatch(graph_name) and graph_name.lower() not in _DOT_KEYWORDS:
        return graph_name
    return f'"{escape_dot_text(graph_name)}"'


def graph_to_dot(graph: ProvenanceGraph, graph_name: str = "provenance") -> str:
    """The graph as a DOT digraph: default attributes, one statement per node, one per edge.

    Node identifiers are position-based (unique even when ids share a prefix);
    the full node id is kept in each node's ``tooltip``. Edges to nodes not in
    the graph are left out.
    """
    name = dot_graph_id(validate_graph_name(graph_name))
    ids = safe_node_ids(graph)
    lines = [
        f"digraph {name} {{",
        '    graph [rankdir="LR", fontname="Helvetica"];',
        '    node [fontname="Helvetica", fontsize="10", style="filled"];',
        '    edge [fontname="Helvetica", fontsize="9", color="#616161"];',
    ]
    for node in graph.nodes.values():
        key = style_key(node)
        style = TYPE_STYLES[key]
        attrs = [
            f'label="{escape_dot_text(display_label(node))}"',
            f'tooltip="{escape_dot_text(node.id)}"',
            f'shape="{_SHAPES[key]}"',
            f'style="{_STYLES.get(key, "filled")}"',
            f'fillcolor="{style.fill}"',
            f'color="{FAILED_STROKE if node.failed else style.stroke}"',
        ]
        if node.failed:
            attrs.append('penwidth="3"')
        lines.append(f'    "{ids[node.id]}" [{", ".join(attrs)}];')
    for edge in drawable_edges(graph):
        source, target = ids[edge.source_id], ids[edge.target_id]
        lines.append(f'    "{source}" -> "{target}" [label="{escape_dot_text(edge.label)}"];')
    lines.append("}")
    return "\n".join(lines) + "\n"
