"""Exports: seed JSON shape, Mermaid/DOT/HTML that no label can break, PROV-JSON round trip.

The graph used throughout is a small multi-agent session: a coordinator run
whose tool call delegates to a researcher sub-agent, which reads a report and
returns; the coordinator's final output cites the report (``cited_in``).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from datetime import UTC, datetime, timedelta
from importlib.resources import files
from typing import Any
from xml.etree import ElementTree

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from prov.model import ProvDocument

from provgraph.exports import (
    graph_to_dot,
    graph_to_html,
    graph_to_json,
    graph_to_mermaid,
    graph_to_prov_document,
    graph_to_prov_json,
)
from provgraph.exports.prov_export import local_name
from provgraph.graph import EdgeLabel as L
from provgraph.graph import NodeType as T
from provgraph.graph import ProvenanceGraph, ProvenanceNode

T0 = datetime(2025, 1, 1, tzinfo=UTC)
HOSTILE = ' "q"]; x --> y } \\ </script><script>alert(1)</script> # | & ` %% \n next'
EDGES = [
    ("run-coord", "in-1", L.STARTS_WITH), ("in-1", "req-1", L.FEEDS_INTO),
    ("req-1", "resp-1", L.PRODUCES), ("resp-1", "tool-1", L.CALLS),
    ("tool-1", "run-sub", L.DELEGATES_TO), ("run-sub", "tool-2", L.CALLS),
    ("tool-2", "dr-1", L.CALLS), ("dr-1", "out-sub", L.PRODUCES),
    ("out-sub", "res-1", L.RETURNS), ("tool-1", "res-1", L.RETURNS),
    ("res-1", "req-2", L.FEEDS_INTO), ("req-2", "resp-2", L.PRODUCES),
    ("resp-2", "out", L.PRODUCES), ("dr-1", "out", L.CITED_IN),
]  # fmt: skip


def session_graph(suffix: str = "") -> ProvenanceGraph:
    """The multi-agent session; ``suffix`` is appended to every label."""
    g = ProvenanceGraph()

    def node(id: str, type: T | None, label: str, agent: str, run: str, **kw: Any) -> None:
        at = T0 + timedelta(seconds=len(g.nodes))
        g.add_node(ProvenanceNode(id, type, label + suffix, agent, run, at, **kw))

    node("run-coord", T.AGENT_RUN, "Agent: coordinator", "coordinator", "r1", session_id="s1")
    node("in-1", T.INPUT, "User input", "coordinator", "r1", content="Summarise Q3")
    node("req-1", T.MODEL_REQUEST, "Model request", "coordinator", "r1", data={"model": "gpt-4o"})
    node("resp-1", T.MODEL_RESPONSE, "Model response", "coordinator", "r1")
    node("tool-1", T.TOOL_CALL, "Tool call: research", "coordinator", "r1")
    node("run-sub", T.AGENT_RUN, "Agent: researcher", "researcher", "r2")
    node("tool-2", T.TOOL_CALL, "Tool call: read_report", "researcher", "r2")
    node("dr-1", T.DATA_READ, "Data read: q3.pdf", "researcher", "r2",
         content="Revenue grew 12%", citation_key="d_1")  # fmt: skip
    node("out-sub", T.FINAL_OUTPUT, "Final output: researcher", "researcher", "r2",
         content="Revenue grew 12% [REF|d_1]", citation_key="a_2")  # fmt: skip
    node("res-1", T.TOOL_RESULT, "Tool result", "coordinator", "r1")
    node("req-2", T.MODEL_REQUEST, "Model request", "coordinator", "r1", data={"model": "gpt-4o"})
    node("resp-2", T.MODEL_RESPONSE, "Model response", "coordinator", "r1")
    node("out", T.FINAL_OUTPUT, "Final output: coordinator", "coordinator", "r1",
         content="Q3 revenue grew 12%. [REF|d_1]")  # fmt: skip
    for source, target, label in EDGES:
        g.add_edge(source, target, label)
    return g


def one_node_graph(label: str) -> ProvenanceGraph:
    g = ProvenanceGraph()
    g.add_node(ProvenanceNode("a", T.INPUT, label, "agent", "r", T0))
    g.add_node(ProvenanceNode("b", T.MODEL_REQUEST, "req", "agent", "r", T0))
    g.add_edge("a", "b", label)
    return g


# ---------------------------------------------------------------- JSON


def test_json_has_the_seed_shape() -> None:
    out = graph_to_json(session_graph())
    assert set(out) == {"nodes", "edges"}
    by_id = {n["id"]: n for n in out["nodes"]}
    seed_keys = {"id", "type", "label", "agent_name", "run_id", "timestamp", "data"}
    assert set(by_id["resp-1"]) == seed_keys
    assert set(by_id["dr-1"]) == seed_keys | {"citation_key", "content"}
    assert set(by_id["run-coord"]) == seed_keys | {"session_id"}
    assert by_id["req-1"]["data"] == {"model": "gpt-4o"}
    assert by_id["tool-1"]["type"] == "tool_call"
    assert datetime.fromisoformat(by_id["out"]["timestamp"]) == T0 + timedelta(seconds=12)
    assert out["edges"][0] == {"source": "run-coord", "target": "in-1", "label": "starts_with"}
    assert len(out["edges"]) == len(EDGES)
    json.dumps(out)  # JSON-ready


def test_json_marks_placeholders_and_their_edges() -> None:
    g = ProvenanceGraph()
    g.add_node(ProvenanceNode("parent", None, "", "", "", T0))
    g.add_node(ProvenanceNode("child", T.TOOL_CALL, "Tool: x", "a", "r", T0))
    g.add_edge("parent", "child", "calls")
    g.add_edge("parent", "child-not-yet-seen", "calls")  # ignored, as in the seed
    out = graph_to_json(g)
    assert out["nodes"][0]["type"] is None and out["nodes"][0]["placeholder"] is True
    assert out["edges"] == [{"source": "parent", "target": "child", "label": "calls"}]


# ---------------------------------------------------------------- Mermaid

MERMAID_NODE = re.compile(
    r'    n\d+_\w+(\(\[|\{\{|\[\[|\[/|\[\(|\[|\(|>)"[^"\n]*"(\]\)|\}\}|\]\]|/\]|\)\]|\]|\)):::\w+'
)
MERMAID_EDGE = re.compile(r'    n\d+_\w+ -->(\|"[^"\n]*"\|)? n\d+_\w+')


def mermaid_statements(text: str) -> list[str]:
    lines = text.splitlines()
    assert lines[0] == "flowchart LR"
    return [line for line in lines[1:] if not line.startswith("    classDef ")]


def test_mermaid_escapes_hostile_labels_and_keeps_one_statement_each() -> None:
    g = session_graph(HOSTILE)
    text = graph_to_mermaid(g)
    statements = mermaid_statements(text)
    assert len(statements) == len(g.nodes) + len(g.edges)
    for line in statements[: len(g.nodes)]:
        assert MERMAID_NODE.fullmatch(line), line
    for line in statements[len(g.nodes) :]:
        assert MERMAID_EDGE.fullmatch(line), line
    first = statements[0]
    label = first[first.index('"') + 1 : first.rindex('"')]
    bare = re.sub(r"#\d+;", "", label)  # the label with its entity codes taken out
    for raw in '"];>}<#|\n`%':
        assert raw not in bare and f"#{ord(raw)};" in label
    assert "</script>" not in text and "-->" not in first


def test_mermaid_ids_are_unique_when_ids_share_a_long_prefix() -> None:
    g = ProvenanceGraph()
    for suffix in ("aaaa", "bbbb"):
        g.add_node(ProvenanceNode(f"session-1-tool-call-{suffix}", T.TOOL_CALL, "t", "a", "r", T0))
    g.add_node(ProvenanceNode("end", T.TOOL_RESULT, "r", "a", "r", T0))  # a Mermaid keyword
    ids = [line.split("[")[0].strip() for line in mermaid_statements(graph_to_mermaid(g))]
    assert len(set(ids)) == 3
    assert all(not i.startswith("end") for i in ids)


def test_mermaid_styles_placeholders_and_classes() -> None:
    g = ProvenanceGraph()
    g.add_node(ProvenanceNode("p", None, "", "", "", T0))
    text = graph_to_mermaid(g)
    assert ":::placeholder" in text and '"p"' in text
    assert text.count("classDef ") == 9  # eight types and the placeholder


# ---------------------------------------------------------------- DOT

DOT_QUOTED = r'"(?:[^"\\\n]|\\n)*"'
DOT_NODE = re.compile(rf"    {DOT_QUOTED} \[(\w+={DOT_QUOTED}(, )?)+\];")
DOT_EDGE = re.compile(rf"    {DOT_QUOTED} -> {DOT_QUOTED} \[label={DOT_QUOTED}\];")


def dot_statements(text: str) -> list[str]:
    lines = text.splitlines()
    assert lines[0].startswith("digraph ") and lines[0].endswith("{") and lines[-1] == "}"
    return [ln for ln in lines[1:-1] if not re.match(r"    (graph|node|edge) \[", ln)]


def test_dot_escapes_hostile_labels_and_keeps_one_statement_each() -> None:
    g = session_graph(HOSTILE)
    text = graph_to_dot(g)
    statements = dot_statements(text)
    assert len(statements) == len(g.nodes) + len(g.edges)
    for line in statements[: len(g.nodes)]:
        assert DOT_NODE.fullmatch(line), line
    for line in statements[len(g.nodes) :]:
        assert DOT_EDGE.fullmatch(line), line
    first = statements[0]
    assert "&quot;q&quot;" in first and "&lt;/script&gt;" in first and "&amp;" in first
    assert "--&gt;" in first and "&#92;&#92;" in first and "\\n next" in first


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz not installed")
def test_dot_parses_in_graphviz_and_draws_the_original_text() -> None:
    g = session_graph(HOSTILE)
    svg = subprocess.run(
        ["dot", "-Tsvg"], input=graph_to_dot(g, graph_name="R&D run 1"),
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    root = ElementTree.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert sum(e.get("class") == "node" for e in root.iter(f"{ns}g")) == len(g.nodes)
    assert sum(e.get("class") == "edge" for e in root.iter(f"{ns}g")) == len(g.edges)
    drawn = [t.text for t in root.iter(f"{ns}text")]
    first_line, second_line = HOSTILE.split("\n")
    assert "Agent: coordinator" + first_line in drawn and second_line in drawn


def test_dot_graph_name_is_validated_and_quoted_unless_an_identifier() -> None:
    assert graph_to_dot(ProvenanceGraph(), graph_name="my run <1>").startswith(
        'digraph "my run &lt;1&gt;" {'
    )
    assert graph_to_dot(ProvenanceGraph()).startswith("digraph provenance {")  # seed output
    assert graph_to_dot(ProvenanceGraph(), graph_name="my_graph2").startswith("digraph my_graph2 {")
    for keyword_or_not_an_id in ["node", "Graph", "2x", "a-b", "é"]:
        head = graph_to_dot(ProvenanceGraph(), graph_name=keyword_or_not_an_id).split("{")[0]
        assert head == f'digraph "{keyword_or_not_an_id}" '
    for bad in ["", 'a"b', "a\\b", "a\nb", "x" * 201]:
        with pytest.raises(ValueError, match="graph_name"):
            graph_to_dot(ProvenanceGraph(), graph_name=bad)


# ---------------------------------------------------------------- HTML

EXTERNAL_REF = re.compile(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//|@import|<link\b""", re.I)
DATA_SCRIPT = re.compile(
    r'<script type="application/json" id="provgraph-data">(.*?)</script>', re.S
)


def embedded_payload(page: str) -> dict[str, Any]:
    match = DATA_SCRIPT.search(page)
    assert match is not None
    loaded: dict[str, Any] = json.loads(match.group(1))
    return loaded


def without_library(page: str) -> str:
    """The page minus the vendored Cytoscape.js (whose licence comments name URLs)."""
    library = (files("provgraph.exports") / "assets" / "cytoscape.min.js").read_text("utf-8")
    assert page.count(library) == 1
    return page.replace(library, "")


def test_html_is_self_contained() -> None:
    page = graph_to_html(session_graph())
    own = without_library(page)
    assert "http://" not in own and "https://" not in own
    assert not EXTERNAL_REF.search(page)
    assert "default-src 'none'" in page  # the browser refuses any network load
    assert page.count("<script") == 3 and page.count("</script>") == 3  # data, library, page


def test_html_never_embeds_a_hostile_label_raw() -> None:
    g = session_graph(HOSTILE + " https://evil.example/x.js \u2028 \u2029")
    page = graph_to_html(g)
    assert "</script><script>alert(1)</script>" not in page
    assert page.count("</script>") == 3 and page.count("<script") == 3
    assert "\u2028" not in page and "\u2029" not in page
    assert not EXTERNAL_REF.search(page)
    assert "evil.example" not in without_library(page).replace(DATA_SCRIPT.search(page)[0], "")


def test_html_title_is_escaped_and_filled_once() -> None:
    page = graph_to_html(session_graph(), title='<b>R&D</b> "x" __PROVGRAPH_DATA__')
    assert "<title>&lt;b&gt;R&amp;D&lt;/b&gt; &quot;x&quot; __PROVGRAPH_DATA__</title>" in page
    assert "<b>R&D</b>" not in page
    assert page.count('id="provgraph-data"') == 1


def test_html_embedded_json_round_trips() -> None:
    g = session_graph(HOSTILE)
    payload = embedded_payload(graph_to_html(g))
    expected = graph_to_json(g)
    nodes = payload["nodes"]
    assert isinstance(nodes, list)
    assert [{k: v for k, v in n.items() if k != "style"} for n in nodes] == expected["nodes"]
    assert payload["edges"] == expected["edges"]
    assert {n["style"] for n in nodes} <= set(payload["styles"])


def test_html_cuts_long_content_and_says_how_much() -> None:
    g = one_node_graph("x")
    g.nodes["a"].content = "y" * 10_000
    node = embedded_payload(graph_to_html(g))["nodes"][0]
    assert len(node["content"]) == 4000 and node["content_omitted_chars"] == 6000


# ---------------------------------------------------------------- PROV


def prov_ids(doc: dict[str, dict[str, object]], kind: str) -> set[str]:
    return set(doc.get(kind, {}))


def relations(doc: dict[str, dict[str, dict[str, str]]], kind: str) -> list[dict[str, str]]:
    return list(doc.get(kind, {}).values())


def test_prov_document_round_trips_through_prov_json() -> None:
    doc = graph_to_prov_document(session_graph(HOSTILE))
    text = doc.serialize(format="json")
    assert isinstance(text, str)
    assert ProvDocument.deserialize(content=text, format="json") == doc
    assert ProvDocument.deserialize(content=text, format="json").get_provn()


def test_prov_maps_the_multi_agent_session() -> None:
    doc = graph_to_prov_json(session_graph())
    assert doc["prefix"] == {"provgraph": "https://provgraph.dev/ns#"}

    def q(node_id: str) -> str:
        return f"provgraph:{local_name('node', node_id)}"

    assert prov_ids(doc, "activity") == {q(i) for i in
        ["run-coord", "req-1", "tool-1", "run-sub", "tool-2", "req-2"]}  # fmt: skip
    assert prov_ids(doc, "entity") == {q(i) for i in
        ["in-1", "resp-1", "dr-1", "out-sub", "res-1", "resp-2", "out"]}  # fmt: skip
    agents = doc["agent"]
    assert set(agents) == {"provgraph:agent_coordinator", "provgraph:agent_researcher",
                           "provgraph:model_gpt-4o"}  # fmt: skip
    assert all(a["prov:type"] == {"$": "prov:SoftwareAgent", "type": "xsd:QName"}
               for a in agents.values())  # fmt: skip
    assert {(r["prov:delegate"], r["prov:responsible"], r["prov:activity"])
            for r in relations(doc, "actedOnBehalfOf")} == {
        ("provgraph:agent_researcher", "provgraph:agent_coordinator", q("run-sub"))}  # fmt: skip
    derived = {(r["prov:generatedEntity"], r["prov:usedEntity"], r["provgraph:edgeLabel"])
               for r in relations(doc, "wasDerivedFrom")}  # fmt: skip
    assert (q("out"), q("dr-1"), "cited_in") in derived
    used = {(r["prov:activity"], r["prov:entity"]) for r in relations(doc, "used")}
    assert used == {(q("run-coord"), q("in-1")), (q("req-1"), q("in-1")),
                    (q("tool-1"), q("resp-1")), (q("req-2"), q("res-1"))}  # fmt: skip
    generated = {(r["prov:entity"], r["prov:activity"]) for r in relations(doc, "wasGeneratedBy")}
    assert (q("dr-1"), q("tool-2")) in generated and (q("res-1"), q("tool-1")) in generated
    informed = {(r["prov:informed"], r["prov:informant"]) for r in relations(doc, "wasInformedBy")}
    assert (q("run-sub"), q("tool-1")) in informed
    # 6 activities with their agent, plus two model requests with the model
    assert len(relations(doc, "wasAssociatedWith")) == 8
    assert len(relations(doc, "wasAttributedTo")) == 7


def test_prov_placeholders_and_awkward_ids() -> None:
    g = ProvenanceGraph()
    ids = ["a b", "a_b", "a%20b", "a/b.", "é:1"]
    for node_id in ids:
        g.add_node(ProvenanceNode(node_id, T.DATA_READ, "d", "agent", "r", T0))
    g.add_node(ProvenanceNode("pending", None, "", "", "", T0))
    g.add_edge("pending", "a b", "calls")
    doc = graph_to_prov_json(g)
    local_parts = [k.split(":", 1)[1] for k in doc["entity"]]
    assert len(local_parts) == len(ids) + 1  # the escape never merges two ids
    assert all(re.fullmatch(r"[A-Za-z0-9_\-%]+", part) for part in local_parts)
    assert doc["entity"]["provgraph:node_pending"]["provgraph:placeholder"] is True
    influence = relations(doc, "wasInfluencedBy")
    assert [(r["prov:influencee"], r["prov:influencer"]) for r in influence] == [
        ("provgraph:node_a%20b", "provgraph:node_pending")
    ]


# ---------------------------------------------------------------- properties


@settings(max_examples=200, deadline=None)
@given(label=st.text(max_size=200))
def test_any_label_keeps_mermaid_and_dot_well_formed(label: str) -> None:
    g = one_node_graph(label)
    mermaid = mermaid_statements(graph_to_mermaid(g))
    assert len(mermaid) == 3
    assert MERMAID_NODE.fullmatch(mermaid[0]) and MERMAID_EDGE.fullmatch(mermaid[2])
    dot = dot_statements(graph_to_dot(g, graph_name="p"))
    assert len(dot) == 3
    assert DOT_NODE.fullmatch(dot[0]) and DOT_EDGE.fullmatch(dot[2])


def html_skeleton(page: str) -> str:
    """The page with its two slots emptied: what must not depend on the graph or title."""
    page = DATA_SCRIPT.sub('<script type="application/json" id="provgraph-data"></script>', page)
    return re.sub(r"<(title|h1)>.*?</\1>", r"<\1></\1>", page, flags=re.S)


EMPTY_SKELETON = html_skeleton(graph_to_html(ProvenanceGraph(), title=""))


@settings(max_examples=150, deadline=None)
@given(
    prefix=st.text(max_size=40),
    tag=st.sampled_from(
        ["", "/script>", "script>", "!--", "img src=x onerror=alert(1)>", "/title>"]
    ),
    suffix=st.text(max_size=40),
)
def test_html_never_contains_a_raw_label_with_a_tag_opener(
    prefix: str, tag: str, suffix: str
) -> None:
    label = f"{prefix}<{tag}{suffix}"
    page = graph_to_html(one_node_graph(label), title=label)
    data = DATA_SCRIPT.search(page)
    assert data is not None and label not in data.group(1)
    assert f"<title>{label}</title>" not in page and f"<h1>{label}</h1>" not in page
    assert html_skeleton(page) == EMPTY_SKELETON  # no label leaked into the page's structure
    assert embedded_payload(page)["nodes"][0]["label"] == label
