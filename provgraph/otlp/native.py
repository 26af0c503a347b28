"""Spans that carry provgraph's own attributes (``provgraph.node_type`` …): one node each.

A runtime using the provgraph SDK's span attributes says exactly which node a
span is; nothing is inferred beyond the parent the span nests under.
"""

from __future__ import annotations

from provgraph.graph import EdgeLabel, NodeType
from provgraph.otlp.builder import SpanEventBuilder, SpanRejection, cap_content
from provgraph.otlp.classify import SpanInfo
from provgraph.otlp.decode import SpanRecord


def native_node(
    b: SpanEventBuilder, span: SpanRecord, info: SpanInfo, session: str, entry: list[str]
) -> list[str]:
    n = info.native
    try:
        node_type = NodeType(str(n.get("node_type")))
    except ValueError:
        b.out.rejections.append(
            SpanRejection(
                span.trace_id,
                span.span_id,
                f"provgraph.node_type {n.get('node_type')!r} is not one of "
                + ", ".join(t.value for t in NodeType),
            )
        )
        return []
    parents = n.get("parent_ids")
    edge_label = n.get("edge_label")
    extra_edges = []
    if isinstance(edge_label, str) and edge_label in EdgeLabel.__members__.values() and entry:
        extra_edges = [{"source_id": entry[-1], "label": edge_label}]
    nid = b.add(
        span,
        info,
        session,
        "",
        node_type,
        [str(p) for p in parents] if isinstance(parents, list) else ([] if extra_edges else entry),
        node_id=n.get("node_id") if isinstance(n.get("node_id"), str) else None,
        label=n.get("label") if isinstance(n.get("label"), str) else None,
        content=cap_content(n.get("content")) if isinstance(n.get("content"), str) else None,
        citation_key=n.get("citation_key") if isinstance(n.get("citation_key"), str) else None,
        edges=extra_edges or None,
    )
    return [nid]
