"""Graph exports: seed-shaped JSON, Mermaid, Graphviz DOT, a self-contained HTML page, W3C PROV.

Every exporter is a pure function of a :class:`~provgraph.graph.ProvenanceGraph`.
Labels come from agent runs and may contain anything a model wrote, so each
text format escapes them for its own syntax; see the modules for the rules.
"""

from provgraph.exports.dot import graph_to_dot
from provgraph.exports.html import graph_to_html
from provgraph.exports.json_export import graph_to_json
from provgraph.exports.mermaid import graph_to_mermaid
from provgraph.exports.prov_export import graph_to_prov_document, graph_to_prov_json

__all__ = [
    "graph_to_dot",
    "graph_to_html",
    "graph_to_json",
    "graph_to_mermaid",
    "graph_to_prov_document",
    "graph_to_prov_json",
]
