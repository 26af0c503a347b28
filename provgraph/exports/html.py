"""A single self-contained HTML page that draws the graph with Cytoscape.js, offline.

This is the seed's interactive page (Cytoscape, left-to-right layers, node
details on click), without its CDN: Cytoscape.js (version
:data:`CYTOSCAPE_VERSION`, MIT, see ``assets/README.md``) ships inside the
package and is inlined, so the page needs no network. The page is
``assets/graph.html`` with two slots filled per graph: the (HTML-escaped) title
and the graph as JSON inside a non-executable ``<script type="application/json">``
block, escaped so that no string in it can end the element early. Its own
script (``assets/graph-page.js``) reads that JSON (``const rawGraph = …``, as
in the seed), lays the DAG out in columns and writes every string through
``textContent`` or the canvas, never ``innerHTML``. A Content-Security-Policy
forbids every network load and allows exactly the two inline scripts by their
SHA-256 hashes, so the page works (and stays inert) without a network.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from functools import cache
from importlib import resources
from typing import Any

from provgraph.errors import ConfigurationError
from provgraph.exports._common import TYPE_STYLES, drawable_edges, style_key
from provgraph.exports.json_export import node_to_json
from provgraph.graph import ProvenanceGraph

MAX_EMBEDDED_CONTENT_CHARS = 4000
"""Node content beyond this is not embedded: the page shows a preview, not a transcript."""

CYTOSCAPE_VERSION = "3.34.4"
"""The vendored Cytoscape.js (``assets/cytoscape.min.js``, from npm ``cytoscape@3.34.4``)."""
CYTOSCAPE_SHA256 = "081591ab735b2b6a3b31a3c60f8f3a3e2fee8c92939e0c7820ad1208571b6cd8"
"""SHA-256 (hex) of ``assets/cytoscape.min.js`` exactly as published in that package."""

_SLOT = re.compile(r"__PROVGRAPH_(TITLE|DATA)__")
_SCRIPT_END = re.compile(r"</?script|<!--", re.IGNORECASE)

_SCRIPT_SAFE = str.maketrans(
    {
        "<": "\\u003c",
        ">": "\\u003e",
        "&": "\\u0026",
        "\u2028": "\\u2028",
        "\u2029": "\\u2029",
    }
)


def _asset(name: str) -> str:
    return resources.files("provgraph.exports").joinpath(f"assets/{name}").read_text("utf-8")


def csp_hash(script: str) -> str:
    """The CSP source expression allowing exactly this inline script (``'sha256-…'``)."""
    digest = hashlib.sha256(script.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


@cache
def _template() -> str:
    """``graph.html`` with the two scripts and their CSP hashes in place (graph slots left)."""
    library, page_script = _asset("cytoscape.min.js"), _asset("graph-page.js")
    for name, script in (("cytoscape.min.js", library), ("graph-page.js", page_script)):
        if _SCRIPT_END.search(script) or "__PROVGRAPH_" in script:
            raise ConfigurationError(f"assets/{name} cannot be inlined in a <script> element")
    csp = (
        "default-src 'none'; style-src 'unsafe-inline'; "
        f"script-src {csp_hash(library)} {csp_hash(page_script)}"
    )
    fixed = {"CSP": csp, "CYTOSCAPE": library, "PAGE_SCRIPT": page_script}
    slots = re.compile(r"__PROVGRAPH_(CSP|CYTOSCAPE|PAGE_SCRIPT)__")
    return slots.sub(lambda m: fixed[m.group(1)], _asset("graph.html"))


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
    """The graph as one HTML page: Cytoscape drawing, node details on click, legend.

    Both slots are filled in one pass, so a title that contains the data slot
    marker (or data that contains the title marker) is never substituted twice.
    """
    values = {
        "TITLE": html.escape(title, quote=True),
        "DATA": script_safe_json(graph_payload(graph)),
    }
    return _SLOT.sub(lambda match: values[match.group(1)], _template())
