"""Export one session as an audit bundle that verifies offline (``audit verify-bundle``).

The bundle holds the session's graph, reports and reviews, the chain entries
that recorded them (other sessions' events in those entries left out: only
their digests, in the sealed header, remain), the hashes of every entry up
to a fresh whole-chain checkpoint, and that checkpoint (signed when a key is
configured). See :mod:`provgraph.usecases.audit_bundle_verify`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from provgraph.audit.chain import AuditEntry, EntryKind
from provgraph.audit.signing import CheckpointSigner
from provgraph.errors import NotFoundError
from provgraph.graph import NodeError, NodeStatus, NodeType, ProvenanceGraph, ProvenanceNode
from provgraph.store.codec import report_to_dict
from provgraph.store.port import GraphStore
from provgraph.store.types import StoredReport
from provgraph.usecases.audit_checkpoint import create_checkpoint
from provgraph.usecases.audit_replay import load_entries

FORMAT = "provgraph-audit-bundle/1"


def node_to_dict(node: ProvenanceNode) -> dict[str, Any]:
    return {
        "id": node.id,
        "type": node.type.value if node.type else None,
        "label": node.label,
        "agent_name": node.agent_name,
        "run_id": node.run_id,
        "timestamp": node.timestamp.isoformat(),
        "data": node.data,
        "session_id": node.session_id,
        "content": node.content,
        "citation_key": node.citation_key,
        "status": node.status.value if node.status is not None else None,
        "error": {"type": node.error.type, "message": node.error.message} if node.error else None,
    }


def node_from_dict(raw: dict[str, Any]) -> ProvenanceNode:
    return ProvenanceNode(
        id=raw["id"],
        type=NodeType(raw["type"]) if raw.get("type") else None,
        label=raw["label"],
        agent_name=raw["agent_name"],
        run_id=raw["run_id"],
        timestamp=datetime.fromisoformat(raw["timestamp"]),
        data=raw.get("data") or {},
        session_id=raw.get("session_id"),
        content=raw.get("content"),
        citation_key=raw.get("citation_key"),
        status=NodeStatus(raw["status"]) if raw.get("status") else None,
        error=NodeError(str(error["type"]), str(error.get("message", "")))
        if isinstance(error := raw.get("error"), dict)
        else None,
    )


def graph_to_dict(graph: ProvenanceGraph) -> dict[str, Any]:
    return {
        "nodes": [node_to_dict(n) for _, n in sorted(graph.nodes.items())],
        "edges": sorted([e.source_id, e.target_id, e.label] for e in graph.edges),
    }


def graph_from_dict(raw: dict[str, Any]) -> ProvenanceGraph:
    graph = ProvenanceGraph()
    for node in raw["nodes"]:
        graph.add_node(node_from_dict(node))
    for source, target, label in raw["edges"]:
        graph.add_edge(source, target, label)
    return graph


def _touches(event: dict[str, Any], members: set[str], session_id: str) -> bool:
    if event.get("session_id") == session_id or event.get("node_id") in members:
        return True
    parents = set(event.get("parent_ids") or ()) | {
        e["source_id"] for e in event.get("edges") or ()
    }
    return bool(parents & members)


def _session_entry(entry: AuditEntry, members: set[str], session_id: str) -> AuditEntry | None:
    """The entry with only this session's content in its payload (None: not about it)."""
    payload = entry.payload
    if entry.kind == EntryKind.INGEST and payload is not None:
        events = [
            e if e is not None and _touches(e, members, session_id) else None
            for e in payload.get("events", ())
        ]
        if all(e is None for e in events):
            return None
        return AuditEntry(**{**entry.__dict__, "payload": {"events": events}})
    if entry.kind == EntryKind.REPORT and payload is not None:
        return entry if payload.get("output_id") in members else None
    if entry.kind == EntryKind.REVIEW and payload is not None:
        return entry if payload["review"].get("output_id") in members else None
    if entry.kind == EntryKind.ERASURE:
        return entry
    return None


def _reports(store: GraphStore, project: str, entries: list[AuditEntry]) -> list[StoredReport]:
    found: list[StoredReport] = []
    for entry in entries:
        if entry.kind == EntryKind.REPORT and entry.payload is not None:
            payload = entry.payload
            report = store.get_report(project, payload["output_id"], int(payload["version"]))
            if report is not None and report not in found:
                found.append(report)
    return found


def export_bundle(
    store: GraphStore,
    project: str,
    session_id: str,
    *,
    signer: CheckpointSigner | None = None,
) -> dict[str, Any]:
    """The bundle as a JSON-able dict; NotFoundError for an unknown session."""
    graph = store.session_graph(project, session_id)
    members = {i for i, n in graph.nodes.items() if n.session_id == session_id}
    if not members:
        raise NotFoundError(f"session '{session_id}' has no nodes in project '{project}'")
    checkpoint = create_checkpoint(store, project, signer=signer, whole_chain=True)
    assert checkpoint is not None, "a session with nodes has chain entries"
    entries = [e for e in load_entries(store, project) if e.seq < checkpoint.seq]
    selected = [s for e in entries if (s := _session_entry(e, members, session_id)) is not None]
    reviews = [r for r in store.list_reviews(project) if r.output_id in members]
    return {
        "format": FORMAT,
        "project": project,
        "session_id": session_id,
        "graph": graph_to_dict(graph),
        "reports": [report_to_dict(r) for r in _reports(store, project, selected)],
        "reviews": [r.to_dict() for r in reviews],
        "entries": [e.to_dict() for e in selected],
        "leaves": [e.hash for e in entries],
        "checkpoint": checkpoint.to_dict(),
    }
