"""In-memory state of the embedded store: per-node field versions, per-project indexes,
and the pure rules that apply one event's writes to them."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime

from provgraph.audit.chain import AuditEntry
from provgraph.errors import CitationKeyConflictError
from provgraph.failures import status_from_fields
from provgraph.graph import EdgeLabel, NodeType, ProvenanceGraph, ProvenanceNode
from provgraph.mapping import VERSIONED_FIELDS, EventWrite
from provgraph.store.audit_types import Review
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
        status, error = status_from_fields(self.fields)
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
            status=status,
            error=error,
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
    audit: list[AuditEntry] = field(default_factory=list)
    reviews: dict[str, Review] = field(default_factory=dict)


def key_conflict(state: ProjectState, write: EventWrite) -> str | None:
    """Why ``write`` may not bind its citation key (None: it may)."""
    key = write.citation_key
    if key is None:
        return None
    bound = state.keys.get((write.session_id, key))
    if bound is not None and bound != write.node.node_id:
        return str(
            CitationKeyConflictError(
                f"'{key}' already names node '{bound}' in session '{write.session_id}'"
            ).reason
        )
    existing = state.states.get(write.node.node_id)
    current = existing.fields.get("citation_key") if existing else None
    if current is not None and current != key:
        return f"node '{write.node.node_id}' already has citation key '{current}'"
    return None


def apply_write(state: ProjectState, write: EventWrite) -> None:
    """Apply one event's writes: per-field LWW, earliest timestamp, edges, keys and uses."""
    node_write = write.node
    node = state.states.setdefault(node_write.node_id, NodeState(node_write.node_id))
    previous_session = node.fields.get("session_id")
    for name in VERSIONED_FIELDS:
        value = node_write.fields.get(name)
        if value is None:
            continue
        if node.versions.get(name, "") < node_write.version:
            node.fields[name] = value
            node.versions[name] = node_write.version
    if node.timestamp is None or node_write.timestamp < node.timestamp:
        node.timestamp = node_write.timestamp
    if node.default_label is None or node.versions.get("type", "") == node_write.version:
        node.default_label = node_write.default_label
    current_session = node.fields.get("session_id")
    if current_session != previous_session:
        if previous_session is not None:
            state.sessions.get(previous_session, {}).pop(node.id, None)
        if current_session is not None:
            state.sessions.setdefault(current_session, {})[node.id] = None
    state.graph.add_node(node.to_node())
    for edge in write.edges:
        _ensure_node(state, edge.source_id)
        state.graph.add_edge(edge.source_id, edge.target_id, edge.label.value)
    if write.citation_key is not None:
        binding = (write.session_id, write.citation_key)
        state.keys[binding] = node_write.node_id
        for citing in state.uses.get(binding, {}):
            if citing != node_write.node_id:  # a node never cites itself, in any order
                state.graph.add_edge(node_write.node_id, citing, EdgeLabel.CITED_IN.value)
    for use in write.citations:
        binding = (use.session_id, use.key)
        state.uses.setdefault(binding, {})[use.citing_node_id] = None
        cited = state.keys.get(binding)
        if cited is not None and cited != use.citing_node_id:
            state.graph.add_edge(cited, use.citing_node_id, EdgeLabel.CITED_IN.value)


def _ensure_node(state: ProjectState, node_id: str) -> None:
    if node_id not in state.states:
        placeholder = NodeState(node_id)
        state.states[node_id] = placeholder
        state.graph.add_node(placeholder.to_node())


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
