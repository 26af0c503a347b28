"""The Cytoscape page: vendored library, CSP by hashes, and a real browser drawing it offline.

The browser test runs headless Chromium on the page file with no server: the
page must draw every node and edge with its Content-Security-Policy in force
(``default-src 'none'``: no network), which only works if the two inline
scripts match their hashes and the library needs nothing from outside.
"""

from __future__ import annotations

import base64
import hashlib
import re
import shutil
import subprocess
from importlib.resources import files
from pathlib import Path

import pytest

from provgraph.exports.html import CYTOSCAPE_SHA256, CYTOSCAPE_VERSION, graph_to_html
from provgraph.graph import NodeType as T
from provgraph.graph import ProvenanceGraph, ProvenanceNode
from provgraph.store import ProvenanceStore

from .test_exports import HOSTILE, T0, session_graph

ASSETS = files("provgraph.exports") / "assets"
INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)
CSP = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')


def test_vendored_cytoscape_is_the_published_file_with_its_licence() -> None:
    library = (ASSETS / "cytoscape.min.js").read_bytes()
    assert hashlib.sha256(library).hexdigest() == CYTOSCAPE_SHA256
    assert f"Cytoscape.js {CYTOSCAPE_VERSION}" in (ASSETS / "README.md").read_text("utf-8")
    assert "Permission is hereby granted, free of charge" in (
        ASSETS / "cytoscape.LICENSE"
    ).read_text("utf-8")


def test_csp_allows_exactly_the_inline_scripts_and_no_network() -> None:
    page = graph_to_html(session_graph())
    policy = CSP.search(page)
    assert policy is not None
    directives = dict(d.strip().split(" ", 1) for d in policy.group(1).split(";"))
    assert directives["default-src"] == "'none'"
    scripts = INLINE_SCRIPT.findall(page)
    assert len(scripts) == 2  # the library and the page's own script
    hashes = {
        "'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'"
        for s in scripts
    }
    assert set(directives["script-src"].split()) == hashes
    assert "unsafe-inline" not in directives["script-src"]
    assert "unsafe-eval" not in directives["script-src"]


def test_seed_page_shape_const_raw_graph_reads_the_escaped_data() -> None:
    """The seed's test looks between ``const rawGraph = `` and ``;\\n`` for ``</script>``."""
    store = ProvenanceStore()
    hostile = "</script><script>alert(1)</script>"
    store.add_node(ProvenanceNode.create(T.DATA_READ, hostile, "a", "r"))
    page = store.to_html()
    start = page.index("const rawGraph = ") + len("const rawGraph = ")
    assert "</script>" not in page[start : page.index(";\n", start)]
    assert "cytoscape" in page.lower() and '"nodes"' in page


def _render(page: str, tmp_path: Path, fragment: str = "") -> tuple[str, str]:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("no chromium on PATH to render the page")
    path = tmp_path / "page.html"
    path.write_text(page, encoding="utf-8")
    done = subprocess.run(
        [
            chromium,
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--enable-logging=stderr",
            "--v=0",
            "--virtual-time-budget=5000",
            "--dump-dom",
            path.as_uri() + fragment,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return done.stdout, done.stderr


def test_browser_draws_every_node_and_edge_offline(tmp_path: Path) -> None:
    graph = session_graph(HOSTILE)
    dom, log = _render(graph_to_html(graph), tmp_path, "#node=dr-1")
    body = re.search(r"<body([^>]*)>", dom)
    assert body is not None, log[-2000:]
    assert f'data-rendered-nodes="{len(graph.nodes)}"' in body.group(1), log[-2000:]
    assert f'data-rendered-edges="{len(graph.edges)}"' in body.group(1)
    assert "Content Security Policy" not in log  # no violation: nothing blocked or fetched
    assert "Revenue grew 12%" in dom  # the #node= link opened the data read's details
    assert "<script>alert(1)</script>" not in dom.split('id="provgraph-data"')[0]


def test_browser_draws_an_empty_graph_and_a_placeholder(tmp_path: Path) -> None:
    dom, log = _render(graph_to_html(ProvenanceGraph()), tmp_path)
    assert 'data-rendered-nodes="0"' in dom and "This graph has no nodes yet." in dom, log[-2000:]
    graph = ProvenanceGraph()
    graph.add_node(ProvenanceNode("p", None, "", "", "", T0))
    graph.add_node(ProvenanceNode("c", T.TOOL_CALL, "Tool: x", "a", "r", T0))
    graph.add_edge("p", "c", "calls")
    dom, log = _render(graph_to_html(graph), tmp_path)
    assert 'data-rendered-nodes="2" data-rendered-edges="1"' in dom, log[-2000:]
