"""The embedded graph store: the whole graph in memory, every write in an fsynced log.

This is the default for agent developers and ``provgraph demo``: no server, the
same port and semantics as Neo4j (one contract test suite runs against both).
With ``path=None`` nothing is persisted (tests, throwaway analysis).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from provgraph.audit.chain import AuditEntry, ingest_entry
from provgraph.errors import NotFoundError
from provgraph.events import Event, EventError
from provgraph.graph import ProvenanceEdge, ProvenanceGraph, ProvenanceNode
from provgraph.mapping import map_events
from provgraph.store.codec import (
    decode_cursor,
    job_from_dict,
    report_from_dict,
)
from provgraph.store.eventlog import EventLog, LogRecovery
from provgraph.store.memory_records import MemoryRecordsMixin
from provgraph.store.memory_state import (
    ProjectState,
    apply_write,
    key_conflict,
)
from provgraph.store.shared import (
    EPOCH,
    build_source_paths,
    key_order,
    neg_time,
    nodes_contain_text,
    session_cursor,
    session_matches,
    session_sort_key,
    sessions_with_verdict,
    summarise_session,
)
from provgraph.store.types import (
    MAX_LINEAGE_DEPTH,
    MAX_LINEAGE_LIMIT,
    MAX_PAGE_SIZE,
    AttributionQuery,
    CitationSummaryEntry,
    IngestResult,
    LineageDirection,
    LineageResult,
    Page,
    SessionFilter,
    SessionSummary,
    SourcePaths,
    bounded_int,
)
from provgraph.traversal import (
    contributing_sources,
    edges_among,
    lineage_rings,
    source_paths,
    walk_graph,
)

_key_order = key_order  # kept for adapters written against the earlier name
__all__ = ["EPOCH", "MemoryGraphStore", "build_source_paths"]


class MemoryGraphStore(MemoryRecordsMixin):
    """In-memory :class:`~provgraph.store.port.GraphStore` with an optional event log.

    ``audit_chain`` seals every accepted batch, report and review into the
    project's hash chain (in the same log line); off only to measure its cost.
    """

    def __init__(self, path: str | Path | None = None, *, audit_chain: bool = True) -> None:
        self._lock = threading.RLock()
        self.audit_chain = audit_chain
        self._projects: dict[str, ProjectState] = {}
        self._records: list[dict[str, Any]] = []
        self._log: EventLog | None = EventLog(path) if path is not None else None
        if self._log is not None:
            for record in self._log.replay():
                self._apply_record(record)
                self._records.append(record)

    @property
    def recovery(self) -> LogRecovery | None:
        """Set when opening had to truncate a torn last log line."""
        return self._log.recovery if self._log else None

    # ------------------------------------------------------------------ helpers
    def _project(self, project: str) -> ProjectState:
        return self._projects.setdefault(project, ProjectState())

    def _apply_record(self, record: dict[str, Any]) -> None:
        op = record.get("op")
        project = str(record.get("project", ""))
        if op == "ingest":
            raws = [raw for raw in record["events"] if raw is not None]
            self._apply_events(project, [(i, Event.model_validate(r)) for i, r in enumerate(raws)])
            if "entry" in record:
                entry = {**record["entry"], "payload": {"events": record["events"]}}
                self._project(project).audit.append(AuditEntry.from_dict(entry))
        elif op == "report":
            self._apply_report(project, report_from_dict(record["report"]))
            if "entry" in record:
                self._project(project).audit.append(AuditEntry.from_dict(record["entry"]))
            if "job" in record:  # complete_job: the job's final state in the same line
                done = job_from_dict(record["job"])
                self._project(project).jobs[done.id] = done
        elif op == "job":
            job = job_from_dict(record["job"])
            self._project(project).jobs[job.id] = job
        else:
            self._apply_audit_record(project, record)

    def _append(self, record: dict[str, Any]) -> None:
        self._records.append(record)
        if self._log is not None:
            self._log.append(record)

    # ------------------------------------------------------------------ ingestion
    def ingest(self, project: str, events: Sequence[Event]) -> IngestResult:
        with self._lock:
            result, applied = self._apply_events(project, list(enumerate(events)))
            if applied:
                dumped = [e.model_dump(mode="json") for e in applied]
                record: dict[str, Any] = {"op": "ingest", "project": project, "events": dumped}
                if self.audit_chain:
                    entry = self._seal(project, ingest_entry(dumped))
                    self._project(project).audit.append(entry)
                    record["entry"] = {**entry.to_dict(), "payload": None}
                self._append(record)
            return result

    def _apply_events(
        self, project: str, events: list[tuple[int, Event]]
    ) -> tuple[IngestResult, list[Event]]:
        state = self._project(project)
        accepted: list[str] = []
        duplicates: list[str] = []
        rejected: list[EventError] = []
        applied: list[Event] = []
        for write, (_, event) in zip(map_events(events), events, strict=True):
            if event.id in state.deliveries:
                duplicates.append(event.id)
                continue
            conflict = key_conflict(state, write)
            if conflict is not None:
                rejected.append(EventError(write.index, event.id, "citation_key", conflict))
                continue
            apply_write(state, write)
            state.deliveries.add(event.id)
            accepted.append(event.id)
            applied.append(event)
        return IngestResult(tuple(accepted), tuple(duplicates), tuple(rejected)), applied

    # ------------------------------------------------------------------ reads
    def get_node(self, project: str, node_id: str) -> ProvenanceNode | None:
        with self._lock:
            return self._project(project).graph.nodes.get(node_id)

    def get_nodes(self, project: str, node_ids: Sequence[str]) -> dict[str, ProvenanceNode]:
        with self._lock:
            nodes = self._project(project).graph.nodes
            return {i: nodes[i] for i in node_ids if i in nodes}

    def _require(self, project: str, node_id: str) -> ProvenanceNode:
        node = self.get_node(project, node_id)
        if node is None:
            raise NotFoundError(f"node '{node_id}' does not exist in project '{project}'")
        return node

    def session_graph(self, project: str, session_id: str) -> ProvenanceGraph:
        with self._lock:
            state = self._project(project)
            full = state.graph
            members = set(state.sessions.get(session_id, {}))
            sub = ProvenanceGraph()
            edges = list({id(e): e for m in sorted(members) for e in full.edges_of(m)}.values())
            for node_id in sorted(members | {x for e in edges for x in (e.source_id, e.target_id)}):
                if node_id in full.nodes:
                    sub.add_node(full.nodes[node_id])
            for edge in edges:
                sub.add_edge(edge.source_id, edge.target_id, edge.label)
            return sub

    def node_edges(self, project: str, node_id: str) -> list[ProvenanceEdge]:
        with self._lock:
            return self._project(project).graph.edges_of(node_id)

    def list_sessions(
        self,
        project: str,
        *,
        first: int = 50,
        after: str | None = None,
        filter: SessionFilter | None = None,
    ) -> Page[SessionSummary]:
        bounded_int(first, name="first", low=1, high=MAX_PAGE_SIZE)
        with self._lock:
            by_session: dict[str, list[ProvenanceNode]] = {}
            for node in self._project(project).graph.nodes.values():
                if node.session_id is not None:
                    by_session.setdefault(node.session_id, []).append(node)
            reports = [r for rs in self._project(project).reports.values() for r in rs]
        summaries = [summarise_session(sid, nodes) for sid, nodes in by_session.items()]
        if filter is not None:
            summaries = [s for s in summaries if session_matches(s, filter)]
            if filter.text:
                text = filter.text
                summaries = [s for s in summaries if nodes_contain_text(by_session[s.id], text)]
            if filter.verdict is not None:
                with_verdict = sessions_with_verdict(reports, filter.verdict)
                summaries = [s for s in summaries if s.id in with_verdict]
        summaries.sort(key=session_sort_key)
        if after is not None:
            last, sid = decode_cursor(after, arity=2)
            summaries = [s for s in summaries if session_sort_key(s) > (neg_time(last), sid)]
        page = summaries[:first]
        cursor = session_cursor(page[-1]) if page else None
        return Page(tuple(page), cursor, len(summaries) > first)

    def resolve_citation_key(
        self, project: str, session_id: str, key: str
    ) -> ProvenanceNode | None:
        with self._lock:
            state = self._project(project)
            node_id = state.keys.get((session_id, key))
            return state.graph.nodes.get(node_id) if node_id else None

    def citation_summary(self, project: str, session_id: str) -> list[CitationSummaryEntry]:
        with self._lock:
            state = self._project(project)
            entries = [
                CitationSummaryEntry(
                    key=key,
                    node=state.graph.nodes[node_id],
                    cited_in=tuple(sorted(state.uses.get((sid, key), {}))),
                )
                for (sid, key), node_id in state.keys.items()
                if sid == session_id
            ]
        return sorted(entries, key=lambda e: key_order(e.key))

    # ------------------------------------------------------------------ traversal
    def attribution(self, project: str, query: AttributionQuery) -> SourcePaths:
        with self._lock:
            output = self._require(project, query.output_id)
            graph = self._project(project).graph
            paths, truncated = source_paths(
                graph, query.output_id, max_depth=query.max_depth, max_paths=query.max_paths
            )
            nodes = {i: graph.nodes[i] for p in paths for i in p}
            sources = [graph.nodes[i] for i in contributing_sources(graph, query.output_id)]
        return build_source_paths(output, paths, nodes, truncated, sources)

    def lineage(
        self,
        project: str,
        node_id: str,
        *,
        direction: LineageDirection,
        depth: int,
        limit: int = 1000,
    ) -> LineageResult:
        bounded_int(depth, name="depth", low=1, high=MAX_LINEAGE_DEPTH)
        bounded_int(limit, name="limit", low=1, high=MAX_LINEAGE_LIMIT)
        with self._lock:
            root = self._require(project, node_id)
            graph = self._project(project).graph
            walk = lineage_rings(node_id, depth=depth, limit=limit)
            distances, truncated = walk_graph(graph, walk, direction=LineageDirection(direction))
            edges = edges_among(graph, {node_id, *distances})
            nodes = tuple(
                graph.nodes[i] for i in sorted(distances, key=lambda i: (distances[i], i))
            )
        return LineageResult(
            root, LineageDirection(direction), nodes, distances, tuple(edges), truncated
        )

    def ping(self) -> bool:
        return True

    def close(self) -> None:
        if self._log is not None:
            self._log.close()
