"""GraphSourceResolver through the storage port only (a minimal fake port)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from provgraph.graph import NodeType, ProvenanceEdge, ProvenanceNode
from provgraph.verification import GraphSourceResolver, VerificationConfig, verify_output


def node(
    node_id: str,
    type_: NodeType,
    *,
    content: str | None = None,
    key: str | None = None,
    **data: object,
) -> ProvenanceNode:
    return ProvenanceNode(
        node_id, type_, node_id, "agent", "run", datetime.now(UTC), dict(data), "s1", content, key
    )


@dataclass
class FakeStore:
    """Only the port methods the resolver may use."""

    nodes: dict[str, ProvenanceNode] = field(default_factory=dict)
    edges: list[ProvenanceEdge] = field(default_factory=list)

    def get_node(self, project: str, node_id: str) -> ProvenanceNode | None:
        return self.nodes.get(node_id) if project == "p" else None

    def node_edges(self, project: str, node_id: str) -> list[ProvenanceEdge]:
        return [e for e in self.edges if node_id in (e.source_id, e.target_id)]

    def resolve_citation_key(
        self, project: str, session_id: str, key: str
    ) -> ProvenanceNode | None:
        return next((n for n in self.nodes.values() if n.citation_key == key), None)

    def citation_summary(self, project: str, session_id: str) -> list[object]:
        @dataclass
        class Entry:
            key: str
            node: ProvenanceNode
            cited_in: tuple[str, ...] = ()

        return [Entry(n.citation_key, n) for n in self.nodes.values() if n.citation_key]


def build() -> FakeStore:
    s = FakeStore()
    s.nodes = {
        "call": node("call", NodeType.DATA_READ, key="d_1"),
        "res": node("res", NodeType.TOOL_RESULT, result="[REF|d_1]\nThe bridge opened in 1932."),
        "dr2": node("dr2", NodeType.DATA_READ, key="d_2", output="Tides rise twice a day."),
        "sub": node(
            "sub", NodeType.FINAL_OUTPUT, key="a_3", content="The bridge opened in 1932. [REF|d_1]"
        ),
        "empty": node("empty", NodeType.DATA_READ, key="d_4"),
        "out": node(
            "out",
            NodeType.FINAL_OUTPUT,
            content="The bridge opened in 1932. [REF|d_1|d_9] Tides rise. [REF|d_4]",
        ),
    }
    s.edges = [ProvenanceEdge("call", "res", "returns")]
    return s


def test_node_text_rules() -> None:
    r = GraphSourceResolver(build(), "p", "s1")  # type: ignore[arg-type]
    assert r.resolve("d_1").text == "The bridge opened in 1932."  # type: ignore[union-attr]
    assert r.resolve("d_2").text == "Tides rise twice a day."  # type: ignore[union-attr]
    assert r.resolve("a_3").text == "The bridge opened in 1932. "  # type: ignore[union-attr]
    assert r.resolve("d_4").text == ""  # type: ignore[union-attr]
    assert r.resolve("d_9") is None
    assert {s.key for s in r.all_sources()} == {"d_1", "d_2", "a_3", "d_4"}


def test_agent_output_with_cited_sources() -> None:
    r = GraphSourceResolver(build(), "p", "s1", include_cited_sources_for_agents=True)  # type: ignore[arg-type]
    assert r.resolve("a_3").text == (  # type: ignore[union-attr]
        "The bridge opened in 1932. \n\nThe bridge opened in 1932."
    )


def test_verify_output_reads_the_output_node() -> None:
    config = VerificationConfig(embeddings=False, nli=False)
    report = verify_output(build(), "p", "out", config)  # type: ignore[arg-type]
    assert [(c.key, c.verdict.value) for c in report.checks] == [
        ("d_1", "supported"),
        ("d_4", "unverifiable"),
    ]
    assert report.unresolvable_keys == ["d_9"]
    assert report.text_with_verified_citations == (
        "The bridge opened in 1932. [REF|d_1] Tides rise. [REF|d_4]"
    )
