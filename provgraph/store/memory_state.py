"""In-memory state of the embedded store: per-node field versions and per-project indexes."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime

from provgraph.graph import NodeType, ProvenanceGraph, ProvenanceNode
from provgraph.store.shared import EPOCH
from provgraph.store.types import Job, StoredReport


@dataclass
class NodeState:
    """A node's fields with the version that last wrote each (per-field LWW)."""

    id: str
    fields: dict[str, str | None] = field(default_factory=dict)
    versions: dict[str, str] = field(default_factory=dict)
    timestamp: str | None = None
    default_label: str | None = None

    def to_node(self) -> ProvenanceNode:
        raw_type = self.fields.get("type")
        node_type = NodeType(raw_type) if raw_type else None
        data_text = self.fields.get("data")
        label = self.fields.get("label") or self.default_label or f"(not yet reported) {self.id}"
        return ProvenanceNode(
            id=self.id,
            type=node_type,
            label=label,
            agent_name=self.fields.get("agent_name") or "",
            run_id=self.fields.get("run_id") or "",
            timestamp=datetime.fromisoformat(self.timestamp) if self.timestamp else EPOCH,
            data=json.loads(data_text) if data_text else {},
            session_id=self.fields.get("session_id"),
            content=self.fields.get("content"),
            citation_key=self.fields.get("citation_key"),
        )


@dataclass
class ProjectState:
    states: dict[str, NodeState] = field(default_factory=dict)
    graph: ProvenanceGraph = field(default_factory=ProvenanceGraph)
    deliveries: set[str] = field(default_factory=set)
    keys: dict[tuple[str, str], str] = field(default_factory=dict)
    uses: dict[tuple[str, str], dict[str, None]] = field(default_factory=dict)
    reports: dict[str, list[StoredReport]] = field(default_factory=dict)
    jobs: dict[str, Job] = field(default_factory=dict)
    sessions: dict[str, dict[str, None]] = field(default_factory=dict)


def unrequested_outputs(projects: dict[str, ProjectState], limit: int) -> list[tuple[str, str]]:
    """(project, id) of final outputs with no job and no report, sorted, at most ``limit``."""
    found: list[tuple[str, str]] = []
    for name, data in projects.items():
        requested = {j.output_id for j in data.jobs.values()}
        found += [
            (name, node_id)
            for node_id, node in data.graph.nodes.items()
            if node.type is NodeType.FINAL_OUTPUT
            and not node.is_placeholder
            and node_id not in requested
            and not data.reports.get(node_id)
        ]
    found.sort()
    return found[:limit]
