"""The provenance graph model: node types, nodes, edges, and an in-memory DAG.

Compatible with ``pydantic_ai_provenance.graph``: the same names, fields and
constructor order. provgraph adds optional fields at the end (``session_id``,
``content``, ``citation_key``, ``status``, ``error``) and allows ``type=None`` for a *placeholder*:
a node that another node named as its parent before its own event arrived.
"""

from __future__ import annotations

import uuid
from collections import deque
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any


class NodeType(StrEnum):
    """What a node records; the eight types of the seed library."""

    INPUT = "input"
    DATA_READ = "data_read"
    TOOL_CALL = "tool_call"
    TOOL_RESULT = "tool_result"
    MODEL_REQUEST = "model_request"
    MODEL_RESPONSE = "model_response"
    AGENT_RUN = "agent_run"
    FINAL_OUTPUT = "final_output"


class EdgeLabel(StrEnum):
    """Relationship types; a fixed whitelist (storage adapters never take labels from input)."""

    STARTS_WITH = "starts_with"
    FEEDS_INTO = "feeds_into"
    PRODUCES = "produces"
    CALLS = "calls"
    RETURNS = "returns"
    DELEGATES_TO = "delegates_to"
    CITED_IN = "cited_in"


class NodeStatus(StrEnum):
    """How the step a node records ended; ``None`` on a node means nobody said."""

    OK = "ok"
    ERROR = "error"


@dataclass(frozen=True)
class NodeError:
    """Why a step failed: the exception type and a bounded message (never a stack trace)."""

    type: str
    message: str


SOURCE_TYPES: frozenset[NodeType] = frozenset({NodeType.INPUT, NodeType.DATA_READ})
"""Node types where attribution stops: what an output ultimately derives from."""

CITING_TYPES: frozenset[NodeType] = frozenset({NodeType.MODEL_RESPONSE, NodeType.FINAL_OUTPUT})
"""Node types whose content is scanned for ``[REF|…]`` tags (``cited_in`` edges)."""


@dataclass
class ProvenanceNode:
    """One thing that happened (or one piece of data) in an agent session."""

    id: str
    type: NodeType | None
    label: str
    agent_name: str
    run_id: str
    timestamp: datetime
    data: dict[str, Any] = field(default_factory=dict)
    session_id: str | None = None
    content: str | None = None
    citation_key: str | None = None
    status: NodeStatus | None = None
    error: NodeError | None = None

    @property
    def failed(self) -> bool:
        """True when the step this node records ended in an error (run, call, tool)."""
        return self.status is NodeStatus.ERROR

    @property
    def is_placeholder(self) -> bool:
        """True while only a child has named this node (its own event has not arrived)."""
        return self.type is None

    @classmethod
    def create(
        cls,
        type: NodeType,
        label: str,
        agent_name: str,
        run_id: str,
        **data: Any,
    ) -> ProvenanceNode:
        """Create a node with a fresh UUID and the current UTC time (seed signature)."""
        return cls(
            id=str(uuid.uuid4()),
            type=type,
            label=label,
            agent_name=agent_name,
            run_id=run_id,
            timestamp=datetime.now(UTC),
            data={k: v for k, v in data.items() if v is not None},
        )


@dataclass
class ProvenanceEdge:
    """A directed edge ``source_id → target_id`` (data flows along it)."""

    source_id: str
    target_id: str
    label: str = ""


@dataclass
class ProvenanceGraph:
    """An in-memory DAG with adjacency indexes (seed API; O(degree) neighbour look-ups)."""

    nodes: dict[str, ProvenanceNode] = field(default_factory=dict)
    edges: list[ProvenanceEdge] = field(default_factory=list)
    _in: dict[str, dict[str, None]] = field(default_factory=dict, repr=False, compare=False)
    _out: dict[str, dict[str, None]] = field(default_factory=dict, repr=False, compare=False)
    _edge_keys: set[tuple[str, str, str]] = field(default_factory=set, repr=False, compare=False)
    _by_node: dict[str, list[ProvenanceEdge]] = field(
        default_factory=dict, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        edges, self.edges = self.edges, []
        for edge in edges:
            self._index_edge(edge)

    def add_node(self, node: ProvenanceNode) -> None:
        """Add or replace a node by id."""
        self.nodes[node.id] = node

    def add_edge(self, source_id: str, target_id: str, label: str = "") -> None:
        """Add an edge once, if both endpoints are nodes of this graph (seed behaviour).

        An edge naming an unknown node is ignored, as in the seed. Out-of-order
        reporting (a child before its parent) is handled where events arrive,
        not here: the stores keep the missing endpoint as a placeholder node
        (``type=None``) and the seed facade holds an edge until its target is
        added, so by the time a graph is built both endpoints exist.
        """
        if source_id in self.nodes and target_id in self.nodes:
            self._index_edge(ProvenanceEdge(source_id, target_id, label))

    def _index_edge(self, edge: ProvenanceEdge) -> None:
        key = (edge.source_id, edge.target_id, edge.label)
        if key in self._edge_keys:
            return
        self._edge_keys.add(key)
        self.edges.append(edge)
        self._by_node.setdefault(edge.source_id, []).append(edge)
        if edge.target_id != edge.source_id:
            self._by_node.setdefault(edge.target_id, []).append(edge)
        self._in.setdefault(edge.target_id, {})[edge.source_id] = None
        self._out.setdefault(edge.source_id, {})[edge.target_id] = None

    def edges_of(self, node_id: str) -> list[ProvenanceEdge]:
        """Edges into and out of ``node_id``, in insertion order (indexed, O(degree))."""
        return list(self._by_node.get(node_id, ()))

    def predecessors(self, node_id: str) -> list[ProvenanceNode]:
        """Nodes with an edge into ``node_id``, in first-seen order."""
        return [self.nodes[n] for n in self._in.get(node_id, {}) if n in self.nodes]

    def successors(self, node_id: str) -> list[ProvenanceNode]:
        """Nodes ``node_id`` has an edge to, in first-seen order."""
        return [self.nodes[n] for n in self._out.get(node_id, {}) if n in self.nodes]

    def final_output_nodes(self) -> list[ProvenanceNode]:
        """Every ``final_output`` node, in insertion order."""
        return [n for n in self.nodes.values() if n.type == NodeType.FINAL_OUTPUT]

    def source_nodes(self) -> list[ProvenanceNode]:
        """Every ``input`` and ``data_read`` node, in insertion order."""
        return [n for n in self.nodes.values() if n.type in SOURCE_TYPES]

    def ancestors(self, node_id: str) -> set[str]:
        """Ids of every node ``node_id`` depends on (breadth-first; cycles are safe)."""
        visited: set[str] = set()
        queue = deque([node_id])
        while queue:
            current = queue.popleft()
            for pred in self.predecessors(current):
                if pred.id not in visited:
                    visited.add(pred.id)
                    queue.append(pred.id)
        return visited

    def descendants(self, node_id: str) -> set[str]:
        """Ids of every node that depends on ``node_id``."""
        visited: set[str] = set()
        queue = deque([node_id])
        while queue:
            current = queue.popleft()
            for succ in self.successors(current):
                if succ.id not in visited:
                    visited.add(succ.id)
                    queue.append(succ.id)
        return visited

    def all_paths_to_sources(
        self, node_id: str, *, max_paths: int | None = None, max_depth: int | None = None
    ) -> list[list[ProvenanceNode]]:
        """Paths from each source (or root) to ``node_id``, source first.

        The seed enumerated every path with no bound, which explodes on sessions
        with many joins; ``max_paths`` and ``max_depth`` (edges) bound the walk.
        Use :func:`provgraph.attribution.attribute_output` to learn whether a
        bound cut the result short.
        """
        paths, _ = enumerate_source_paths(self, node_id, max_paths=max_paths, max_depth=max_depth)
        return paths


def enumerate_source_paths(
    graph: ProvenanceGraph,
    node_id: str,
    *,
    max_paths: int | None = None,
    max_depth: int | None = None,
) -> tuple[list[list[ProvenanceNode]], bool]:
    """Walk backwards from ``node_id`` to sources; return ``(paths, truncated)``.

    A path ends at a source-type node, at a node with no predecessors, or at
    ``max_depth`` edges (then ``truncated`` is set). Cycles (which a well-formed
    session never has) are cut rather than followed forever.
    """
    start = graph.nodes.get(node_id)
    if start is None:
        return [], False
    completed: list[list[ProvenanceNode]] = []
    truncated = False
    # iterative DFS: stack of (node, path-from-node-to-output)
    stack: list[tuple[ProvenanceNode, list[ProvenanceNode]]] = [(start, [start])]
    while stack:
        node, path = stack.pop()
        preds = graph.predecessors(node.id)
        on_path = {n.id for n in path}
        preds = [p for p in preds if p.id not in on_path]
        if node.type in SOURCE_TYPES or not preds:
            if max_paths is not None and len(completed) >= max_paths:
                truncated = True
                break
            completed.append(list(reversed(path)))
            continue
        if max_depth is not None and len(path) - 1 >= max_depth:
            truncated = True
            continue
        for pred in reversed(preds):
            stack.append((pred, [*path, pred]))
    return completed, truncated
