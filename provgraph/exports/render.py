"""One entry point over every export format (used by the CLI and the API)."""

from __future__ import annotations

import json

from provgraph.errors import ValidationError
from provgraph.graph import ProvenanceGraph

FORMATS = ("json", "mermaid", "dot", "html", "prov")
MEDIA_TYPES = {
    "json": "application/json",
    "mermaid": "text/plain; charset=utf-8",
    "dot": "text/vnd.graphviz; charset=utf-8",
    "html": "text/html; charset=utf-8",
    "prov": "application/json",
}


def render_graph(graph: ProvenanceGraph, format: str, *, title: str = "Provenance Graph") -> str:
    """The graph as text in ``format`` (one of :data:`FORMATS`)."""
    from provgraph.exports import (
        graph_to_dot,
        graph_to_html,
        graph_to_json,
        graph_to_mermaid,
        graph_to_prov_json,
    )

    if format == "json":
        return json.dumps(graph_to_json(graph), indent=2, default=str, ensure_ascii=False)
    if format == "mermaid":
        return graph_to_mermaid(graph)
    if format == "dot":
        return graph_to_dot(graph)
    if format == "html":
        return graph_to_html(graph, title=title)
    if format == "prov":
        return json.dumps(graph_to_prov_json(graph), indent=2, ensure_ascii=False)
    raise ValidationError(
        f"unknown format {format!r}; use one of {', '.join(FORMATS)}", path="format"
    )
