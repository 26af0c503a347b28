"""The seed's view of a node: its text under the ``data`` key the seed used.

provgraph keeps a node's text in ``content`` (verification reads it; ``data``
is small, structured and size-capped). ``pydantic_ai_provenance`` kept it in
``data``: the prompt under ``"prompt"``, the final text under ``"output"``, a
tool's result under ``"result"`` and a model response under ``"text"``. Seed
code reads those keys (``node.data["output"]``, ``citation_summary()``), so
the seed-facing graph adds them from ``content`` when they are missing. The
stored node is never changed: the view copies it.
"""

from __future__ import annotations

from dataclasses import replace

from provgraph.graph import NodeType, ProvenanceGraph, ProvenanceNode

SEED_CONTENT_KEYS: dict[NodeType, str] = {
    NodeType.INPUT: "prompt",
    NodeType.FINAL_OUTPUT: "output",
    NodeType.TOOL_RESULT: "result",
    NodeType.MODEL_RESPONSE: "text",
}
"""Where the seed kept each node type's text inside ``data``."""


def seed_node(node: ProvenanceNode) -> ProvenanceNode:
    """``node`` with its content also under the seed's data key (a copy if anything changes).

    A key already present is left alone: seed code that wrote it itself reads
    back what it wrote (a value longer than the data cap is shortened there,
    with a note; the full text is in ``content``).
    """
    key = SEED_CONTENT_KEYS.get(node.type) if node.type is not None else None
    if key is None or node.content is None or key in node.data:
        return node
    return replace(node, data={**node.data, key: node.content})


def seed_graph(graph: ProvenanceGraph) -> ProvenanceGraph:
    """``graph`` with every node passed through :func:`seed_node` (edges unchanged).

    The graph must be a snapshot owned by the caller (a store's
    ``session_graph``): its node table is updated in place, the nodes are not.
    """
    for node_id, node in list(graph.nodes.items()):
        graph.nodes[node_id] = seed_node(node)
    return graph
