"""A single self-contained HTML page that draws the graph, offline, with no dependencies.

The page is ``assets/graph.html`` with two slots: the (HTML-escaped) title and
the graph as JSON inside ``<script type="application/json">``. The page's own
script lays the DAG out in columns and builds the SVG with DOM calls, never
``innerHTML``, so labels cannot become markup once loaded; and the embedded
JSON is escaped so that no string in it can end the script element early.
A Content-Security-Policy in the page forbids every network load, so the page
works (and stays inert) without a network.
"""

from __future__ import annotations

import html
import json
import re
from functools import cache
from importlib import resources
from typing import Any

from provgraph.exports._common import TYPE_STYLES, drawable_edges, style_key
from provgraph.exports.json_export import node_to_json
from provgraph.graph import ProvenanceGraph

MAX_EMBEDDED_CONTENT_CHARS = 4000
"""Node content beyond this is not embedded: the page shows a preview, not a transcript."""

_SLOT = re.compile(r"__PROVGRAPH_(TITLE|DATA)__")

_SCRIPT_SAFE = str.maketrans(
    {
        "<": "\\u003c",
        ">": "\\u003e",
        "&": "\\u0026",
        "\u2028": "\\u2028",
        "\u2029": "\\u2029",
    }
)


@cache
def _template() -> str:
    return resources.files("provgraph.exports").joinpath("assets/graph.html").read_text("utf-8")


def script_safe_json(value: Any) -> str:
    """JSON text that can sit inside a ``<script>`` element without ending or altering it.

    ``<``, ``>`` and ``&`` only occur inside JSON strings, where ``\\u003c``
    means the same thing, so ``</script>`` and ``<!--`` can never appear; the
    line separators U+2028/U+2029 are escaped for older JavaScript parsers.
    """
    return json.dumps(value, ensure_ascii=False, default=str).translate(_SCRIPT_SAFE)


def graph_payload(graph: ProvenanceGraph) -> dict[str, Any]:
    """What the page's script reads: nodes (seed JSON shape plus a style key), drawn edges, styles.

    Edges whose endpoint is not in the graph are left out (the page could not
    place them). Long content is cut to :data:`MAX_EMBEDDED_CONTENT_CHARS` and
    the number of characters left out is recorded so the page can say so.
    """
    nodes: list[dict[str, Any]] = []
    for node in graph.nodes.values():
        item = node_to_json(node)
        item["style"] = style_key(node)
        content = item.get("content")
        if isinstance(content, str) and len(content) > MAX_EMBEDDED_CONTENT_CHARS:
            item["content"] = content[:MAX_EMBEDDED_CONTENT_CHARS]
            item["content_omitted_chars"] = len(content) - MAX_EMBEDDED_CONTENT_CHARS
        nodes.append(item)
    return {
        "nodes": nodes,
        "edges": [
            {"source": e.source_id, "target": e.target_id, "label": e.label}
            for e in drawable_edges(graph)
        ],
        "styles": {
            key: {"fill": s.fill, "stroke": s.stroke, "description": s.description}
            for key, s in TYPE_STYLES.items()
        },
    }


def graph_to_html(graph: ProvenanceGraph, title: str = "Provenance Graph") -> str:
    """The graph as one HTML page: layered SVG drawing, node details on click, legend.

    Both slots are filled in one pass, so a title that contains the data slot
    marker (or data that contains the title marker) is never substituted twice.
    """
    values = {
        "TITLE": html.escape(title, quote=True),
        "DATA": script_safe_json(graph_payload(graph)),
    }
    return _SLOT.sub(lambda match: values[match.group(1)], _template())
