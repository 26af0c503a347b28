"""Conversions between provgraph values and Neo4j parameter rows or records.

Pure functions: records arrive as plain dicts (``Record.data()``), so nothing
here depends on the driver. Node properties mirror the embedded store's
``_NodeState``: one property per versioned field, ``v_<field>`` for the version
that wrote it, the earliest ``timestamp`` (fixed-width UTC text) and the
``default_label``; the decoding rules (label fallback, epoch for a placeholder)
are the embedded store's, so both adapters build equal nodes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from provgraph.failures import status_from_fields
from provgraph.graph import NodeType, ProvenanceEdge, ProvenanceGraph, ProvenanceNode
from provgraph.mapping import utc_text
from provgraph.store.codec import job_from_dict, job_to_dict, report_from_dict, report_to_dict
from provgraph.store.shared import EPOCH
from provgraph.store.types import Job, SessionSummary, StoredReport


def node_from_props(props: Mapping[str, Any]) -> ProvenanceNode:
    """A stored node (or placeholder) as the embedded store would return it."""
    node_id = str(props["id"])
    raw_type = props.get("type")
    data_text = props.get("data")
    stamp = props.get("timestamp")
    label = props.get("label") or props.get("default_label") or f"(not yet reported) {node_id}"
    status, error = status_from_fields(props)
    return ProvenanceNode(
        id=node_id,
        type=NodeType(raw_type) if raw_type else None,
        label=label,
        agent_name=props.get("agent_name") or "",
        run_id=props.get("run_id") or "",
        timestamp=datetime.fromisoformat(stamp) if stamp else EPOCH,
        data=json.loads(data_text) if data_text else {},
        session_id=props.get("session_id"),
        content=props.get("content"),
        citation_key=props.get("citation_key"),
        status=status,
        error=error,
    )


def skeleton_node(node_id: str, raw_type: str | None) -> ProvenanceNode:
    """Id and type only: enough for the pure walks, which look at nothing else."""
    return ProvenanceNode(
        id=node_id,
        type=NodeType(raw_type) if raw_type else None,
        label="",
        agent_name="",
        run_id="",
        timestamp=EPOCH,
    )


def edge_from_row(row: Sequence[Any]) -> ProvenanceEdge:
    """``[source, target, type]`` as returned by the graph queries."""
    return ProvenanceEdge(str(row[0]), str(row[1]), str(row[2]))


def edge_sort_key(edge: ProvenanceEdge) -> tuple[str, str, str]:
    return (edge.source_id, edge.target_id, edge.label)


def neighbourhood_graph(rows: Iterable[Mapping[str, Any]], *, up: bool) -> ProvenanceGraph:
    """A skeleton graph from :func:`~provgraph.store.neo4j.cypher.neighbourhood_query`.

    Edges are added in (source, target, label) order, so which edge a walk
    reports for a node pair never depends on how the rows came back.
    """
    graph = ProvenanceGraph()
    edges: set[tuple[str, str, str]] = set()
    for row in rows:
        node_id = str(row["id"])
        graph.add_node(skeleton_node(node_id, row["type"]))
        for other_id, other_type, rel in row["next"]:
            if other_id not in graph.nodes:
                graph.add_node(skeleton_node(str(other_id), other_type))
            pair = (str(other_id), node_id) if up else (node_id, str(other_id))
            edges.add((*pair, str(rel)))
    for source, target, rel in sorted(edges):
        graph.add_edge(source, target, rel)
    return graph


def session_graph_from_row(row: Mapping[str, Any] | None) -> ProvenanceGraph:
    """Members and far-end nodes (sorted by id) and edges (sorted)."""
    graph = ProvenanceGraph()
    if row is None:
        return graph
    nodes = {str(p["id"]): p for p in [*row["members"], *row["others"]]}
    for node_id in sorted(nodes):
        graph.add_node(node_from_props(nodes[node_id]))
    for edge in sorted((edge_from_row(e) for e in row["edges"]), key=edge_sort_key):
        graph.add_edge(edge.source_id, edge.target_id, edge.label)
    return graph


def session_summary_from_row(row: Mapping[str, Any]) -> SessionSummary:
    """A summary as the embedded store's ``_summarise`` builds it."""
    first_at, last_at = row["first_at"], row["last_at"]
    return SessionSummary(
        id=str(row["session_id"]),
        node_count=int(row["node_count"]),
        run_count=int(row["run_count"]),
        agent_names=tuple(sorted(str(a) for a in row["agent_names"])),
        first_event_at=datetime.fromisoformat(first_at) if first_at else None,
        last_event_at=datetime.fromisoformat(last_at) if last_at else None,
        final_output_ids=tuple(sorted(str(i) for i in row["final_output_ids"])),
    )


def binding_id(session_id: str, key: str) -> str:
    """The id of a (session, key) binding; JSON keeps any session id unambiguous."""
    return json.dumps([session_id, key], ensure_ascii=False, separators=(",", ":"))


# ---------------------------------------------------------------------- reports and jobs
def report_params(report: StoredReport) -> dict[str, Any]:
    """Parameters of ``save_report_query``; ``doc`` is the codec's JSON of the report."""
    return {
        "id": report.id,
        "output_id": report.output_id,
        "session_id": report.session_id,
        "config_hash": report.config_hash,
        "created_at": utc_text(report.created_at),
        "verdicts": list(report.verdicts),
        "doc": json.dumps(report_to_dict(replace(report, version=0)), ensure_ascii=False),
    }


def report_from_row(row: Mapping[str, Any]) -> StoredReport:
    """A stored report with the version the graph assigned."""
    return replace(report_from_dict(json.loads(row["doc"])), version=int(row["version"]))


def job_params(job: Job) -> dict[str, Any]:
    return {
        "id": job.id,
        "state": job.state.value,
        "created_at": utc_text(job.created_at),
        "output_id": job.output_id,
        "doc": json.dumps(job_to_dict(job), ensure_ascii=False),
    }


def job_from_row(row: Mapping[str, Any]) -> Job:
    return job_from_dict(json.loads(row["doc"]))
