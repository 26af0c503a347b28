"""Path-level attribution: from an output back to the inputs and data it derives from.

Compatible with ``pydantic_ai_provenance.attribution``. The walk is bounded
(``max_depth`` edges, ``max_paths`` paths) and says so in ``truncated``: the
seed enumerated every path, which explodes on sessions with many joins.
Failed steps (a tool that raised, a retried call) that an output still
depends on are named: ``failed_steps`` and a ``[failed: Type]`` mark.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from provgraph.graph import NodeType, ProvenanceNode
from provgraph.store.port import GraphStore
from provgraph.store.types import AttributionQuery, SourcePaths

if TYPE_CHECKING:
    from provgraph.provenance_store import ProvenanceStore

DEFAULT_MAX_DEPTH = 32
DEFAULT_MAX_PATHS = 1000


@dataclass
class AttributionPath:
    """One chain from a source (first) to the output (last), inclusive."""

    source: ProvenanceNode
    path: list[ProvenanceNode]

    @property
    def source_label(self) -> str:
        return self.source.label

    @property
    def hop_count(self) -> int:
        """Number of edges: ``len(path) - 1``."""
        return len(self.path) - 1

    @property
    def failed_steps(self) -> list[ProvenanceNode]:
        """Nodes on this path whose step ended in an error."""
        return [n for n in self.path if n.failed]

    def __str__(self) -> str:
        return " → ".join(step_label(n) for n in self.path)


def step_label(node: ProvenanceNode) -> str:
    """A node's label, marked ``[failed: Type]`` when its step failed (seed text otherwise)."""
    if not node.failed:
        return node.label
    kind = node.error.type if node.error is not None else "error"
    return f"{node.label} [failed: {kind}]"


@dataclass
class AttributionResult:
    """Every source of an output and the paths that connect them, shortest first."""

    output_node: ProvenanceNode
    sources: list[ProvenanceNode]
    paths: list[AttributionPath]
    truncated: bool = False

    @property
    def source_labels(self) -> list[str]:
        return [s.label for s in self.sources]

    @property
    def failed_steps(self) -> list[ProvenanceNode]:
        """Distinct failed nodes on any path, in order of first appearance."""
        seen: dict[str, ProvenanceNode] = {}
        for path in self.paths:
            for node in path.failed_steps:
                seen.setdefault(node.id, node)
        return list(seen.values())

    def summary(self) -> str:
        """A multi-line, terminal-friendly summary (seed format, plus truncation)."""
        lines = [f"Output: {self.output_node.label}", ""]
        if not self.sources:
            lines.append("No source nodes found in graph.")
            return "\n".join(lines + self._failed_lines())
        lines.append(f"Contributing sources ({len(self.sources)}):")
        for src in self.sources:
            tag = "[data]" if src.type == NodeType.DATA_READ else "[input]"
            lines.append(f"  {tag} {src.label}")
        lines.append("")
        lines.append(f"Attribution paths ({len(self.paths)}):")
        for i, p in enumerate(self.paths, 1):
            lines.append(f"  {i}. {p}")
        if self.truncated:
            lines.append("  (truncated: raise max_depth or max_paths to see more)")
        return "\n".join(lines + self._failed_lines())

    def _failed_lines(self) -> list[str]:
        failed = self.failed_steps
        if not failed:
            return []
        lines = ["", f"Failed steps on these paths ({len(failed)}):"]
        for node in failed:
            reason = f"{node.error.type}: {node.error.message}" if node.error else "error"
            lines.append(f"  ✗ {node.label} — {reason}")
        return lines


def result_from_source_paths(found: SourcePaths) -> AttributionResult:
    """Turn the store's id paths into the seed's node-object result."""
    paths = [
        AttributionPath(source=found.nodes[p[0]], path=[found.nodes[i] for i in p])
        for p in found.paths
    ]
    return AttributionResult(found.output, list(found.sources), paths, found.truncated)


def attribute(
    store: GraphStore,
    project: str,
    output_id: str,
    *,
    max_depth: int = DEFAULT_MAX_DEPTH,
    max_paths: int = DEFAULT_MAX_PATHS,
) -> AttributionResult:
    """Attribution for any node of a :class:`GraphStore` (raises NotFoundError if unknown)."""
    query = AttributionQuery(output_id, max_depth=max_depth, max_paths=max_paths)
    return result_from_source_paths(store.attribution(project, query))


def attribute_output(
    store: ProvenanceStore,
    output_node_id: str | None = None,
    *,
    max_depth: int = DEFAULT_MAX_DEPTH,
    max_paths: int = DEFAULT_MAX_PATHS,
) -> AttributionResult:
    """Attribution of one final output of a session (seed API).

    ``None`` picks the session's first final output (``ValueError`` if there is
    none); an unknown id raises ``KeyError`` (``NotFoundError`` is one).
    """
    if output_node_id is None:
        outputs = store.graph.final_output_nodes()
        if not outputs:
            raise ValueError("No FINAL_OUTPUT node found in the graph.")
        output_node_id = outputs[0].id
    return attribute(
        store.graph_store, store.project, output_node_id, max_depth=max_depth, max_paths=max_paths
    )


def attribute_all_outputs(store: ProvenanceStore) -> list[AttributionResult]:
    """Attribution of every final output of the session, in graph order."""
    return [attribute_output(store, n.id) for n in store.graph.final_output_nodes()]
