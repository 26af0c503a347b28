"""Failed steps are visible in every export: JSON keys, coloured drawings, the HTML page."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from provgraph.exports import (
    graph_to_dot,
    graph_to_html,
    graph_to_json,
    graph_to_mermaid,
    graph_to_prov_json,
)
from provgraph.exports._common import FAILED_STROKE
from provgraph.graph import NodeError, NodeStatus, ProvenanceGraph

from .test_exports import session_graph
from .test_html_page import _render

ERROR = NodeError("ConnectionError", "backend unreachable")


def failed_graph() -> ProvenanceGraph:
    """The export suite's session with its delegating tool call failed and its output ok."""
    graph = session_graph()
    graph.add_node(replace(graph.nodes["tool-2"], status=NodeStatus.ERROR, error=ERROR))
    graph.add_node(replace(graph.nodes["out"], status=NodeStatus.OK))
    return graph


def test_json_adds_status_and_error_only_when_reported() -> None:
    nodes = {n["id"]: n for n in graph_to_json(failed_graph())["nodes"]}
    assert nodes["tool-2"]["status"] == "error"
    assert nodes["tool-2"]["error"] == {"type": "ConnectionError", "message": "backend unreachable"}
    assert nodes["out"]["status"] == "ok" and "error" not in nodes["out"]
    assert "status" not in nodes["tool-1"] and "error" not in nodes["tool-1"]  # seed shape kept


def test_dot_and_mermaid_outline_and_mark_the_failed_step() -> None:
    dot = graph_to_dot(failed_graph())
    [failed_line] = [line for line in dot.splitlines() if 'penwidth="3"' in line]
    assert f'color="{FAILED_STROKE}"' in failed_line and "\u2717 " in failed_line
    assert dot.count(FAILED_STROKE) == 1
    mermaid = graph_to_mermaid(failed_graph())
    styled = re.findall(r"^    style (\S+) stroke:#c62828,stroke-width:3px$", mermaid, re.M)
    assert len(styled) == 1
    assert re.search(rf'^    {styled[0]}\S*"#10007; Tool call', mermaid, re.M)  # ✗, escaped


def test_prov_keeps_the_failure_as_attributes() -> None:
    document = graph_to_prov_json(failed_graph())
    activities = document["activity"].values()
    [failed] = [a for a in activities if a.get("provgraph:status") == "error"]
    assert failed["provgraph:errorType"] == "ConnectionError"
    assert failed["provgraph:errorMessage"] == "backend unreachable"


def test_html_page_colours_and_explains_the_failed_step(tmp_path: Path) -> None:
    page = graph_to_html(failed_graph())
    dom, log = _render(page, tmp_path, "#node=tool-2")
    body = re.search(r"<body([^>]*)>", dom)
    assert body is not None, log[-2000:]
    assert 'data-failed-nodes="1"' in body.group(1), log[-2000:]
    assert "ConnectionError: backend unreachable" in dom  # the details of the opened node
    assert "failed step (1)" in dom  # the legend counts it
