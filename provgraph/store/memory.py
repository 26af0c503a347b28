"""The embedded graph store: the whole graph in memory, every write in an fsynced log.

This is the default for agent developers and ``provgraph demo``: no server, the
same port and semantics as Neo4j (one contract test suite runs against both).
With ``path=None`` nothing is persisted (tests, throwaway analysis).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from provgraph.errors import CitationKeyConflictError, NotFoundError
from provgraph.events import Event, EventError
from provgraph.graph import EdgeLabel, ProvenanceEdge, ProvenanceGraph, ProvenanceNode
from provgraph.mapping import VERSIONED_FIELDS, EventWrite, map_events, utc_text
from provgraph.store.codec import (
    decode_cursor,
    encode_cursor,
    job_from_dict,
    job_to_dict,
    report_from_dict,
    report_to_dict,
)
from provgraph.store.eventlog import EventLog, LogRecovery
from provgraph.store.memory_state import NodeState, ProjectState, unrequested_outputs
from provgraph.store.shared import (
    EPOCH,
    build_source_paths,
    key_order,
    neg_time,
    report_matches,
    report_sort_key,
    session_cursor,
    session_matches,
    session_sort_key,
    summarise_session,
)
from provgraph.store.types import (
    MAX_JOB_LISTING,
    MAX_LINEAGE_DEPTH,
    MAX_LINEAGE_LIMIT,
    MAX_PAGE_SIZE,
    AttributionQuery,
    CitationSummaryEntry,
    IngestResult,
    Job,
    LineageDirection,
    LineageResult,
    Page,
    ReportFilter,
    SessionFilter,
    SessionSummary,
    SourcePaths,
    StoredReport,
    bounded_int,
)
from provgraph.traversal import contributing_sources, lineage_walk, source_paths

_key_order = key_order  # kept for adapters written against the earlier name
__all__ = ["EPOCH", "MemoryGraphStore", "build_source_paths"]


class MemoryGraphStore:
    """In-memory :class:`~provgraph.store.port.GraphStore` with an optional event log."""

    def __init__(self, path: str | Path | None = None) -> None:
        self._lock = threading.RLock()
        self._projects: dict[str, ProjectState] = {}
        self._log: EventLog | None = EventLog(path) if path is not None else None
        if self._log is not None:
            for record in self._log.replay():
                self._apply_record(record)

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
            events = [(i, Event.model_validate(raw)) for i, raw in enumerate(record["events"])]
            self._apply_events(project, events)
        elif op == "report":
            self._apply_report(project, report_from_dict(record["report"]))
        elif op == "job":
            job = job_from_dict(record["job"])
            self._project(project).jobs[job.id] = job

    def _append(self, record: dict[str, Any]) -> None:
        if self._log is not None:
            self._log.append(record)

    # ------------------------------------------------------------------ ingestion
    def ingest(self, project: str, events: Sequence[Event]) -> IngestResult:
        with self._lock:
            result, applied = self._apply_events(project, list(enumerate(events)))
            if applied:
                self._append(
                    {
                        "op": "ingest",
                        "project": project,
                        "events": [e.model_dump(mode="json") for e in applied],
                    }
                )
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
            conflict = self._key_conflict(state, write)
            if conflict is not None:
                rejected.append(EventError(write.index, event.id, "citation_key", conflict))
                continue
            self._apply_write(state, write)
            state.deliveries.add(event.id)
            accepted.append(event.id)
            applied.append(event)
        return IngestResult(tuple(accepted), tuple(duplicates), tuple(rejected)), applied

    @staticmethod
    def _key_conflict(state: ProjectState, write: EventWrite) -> str | None:
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

    def _apply_write(self, state: ProjectState, write: EventWrite) -> None:
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
            self._ensure_node(state, edge.source_id)
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

    @staticmethod
    def _ensure_node(state: ProjectState, node_id: str) -> None:
        if node_id not in state.states:
            placeholder = NodeState(node_id)
            state.states[node_id] = placeholder
            state.graph.add_node(placeholder.to_node())

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
        summaries = [summarise_session(sid, nodes) for sid, nodes in by_session.items()]
        if filter is not None:
            summaries = [s for s in summaries if session_matches(s, filter)]
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
            distances, edges, truncated = lineage_walk(
                graph, node_id, direction=LineageDirection(direction), depth=depth, limit=limit
            )
            nodes = tuple(
                graph.nodes[i] for i in sorted(distances, key=lambda i: (distances[i], i))
            )
        return LineageResult(
            root, LineageDirection(direction), nodes, distances, tuple(edges), truncated
        )

    # ------------------------------------------------------------------ reports and jobs
    def save_report(self, project: str, report: StoredReport) -> StoredReport:
        with self._lock:
            stored = self._apply_report(project, report)
            self._append({"op": "report", "project": project, "report": report_to_dict(stored)})
            return stored

    def _apply_report(self, project: str, report: StoredReport) -> StoredReport:
        versions = self._project(project).reports.setdefault(report.output_id, [])
        for position, existing in enumerate(versions):
            if existing.config_hash == report.config_hash:
                stored = replace(report, version=existing.version)
                versions[position] = stored
                return stored
        stored = replace(report, version=len(versions) + 1)
        versions.append(stored)
        return stored

    def get_report(
        self, project: str, output_id: str, version: int | None = None
    ) -> StoredReport | None:
        with self._lock:
            versions = self._project(project).reports.get(output_id, [])
            if not versions:
                return None
            if version is None:
                return versions[-1]
            return next((r for r in versions if r.version == version), None)

    def list_reports(
        self,
        project: str,
        *,
        first: int = 50,
        after: str | None = None,
        filter: ReportFilter | None = None,
    ) -> Page[StoredReport]:
        bounded_int(first, name="first", low=1, high=MAX_PAGE_SIZE)
        with self._lock:
            reports = [r for rs in self._project(project).reports.values() for r in rs]
        if filter is not None:
            reports = [r for r in reports if report_matches(r, filter)]
        reports.sort(key=report_sort_key)
        if after is not None:
            created, rid = decode_cursor(after, arity=2)
            reports = [r for r in reports if report_sort_key(r) > (neg_time(created), rid)]
        page = reports[:first]
        cursor = encode_cursor(utc_text(page[-1].created_at), page[-1].id) if page else None
        return Page(tuple(page), cursor, len(reports) > first)

    def save_job(self, project: str, job: Job) -> Job:
        with self._lock:
            self._project(project).jobs[job.id] = job
            self._append({"op": "job", "project": project, "job": job_to_dict(job)})
            return job

    def get_job(self, project: str, job_id: str) -> Job | None:
        with self._lock:
            return self._project(project).jobs.get(job_id)

    def list_jobs(
        self, project: str | None, *, state: str | None = None, limit: int = 100
    ) -> list[Job]:
        bounded_int(limit, name="limit", low=0, high=MAX_JOB_LISTING)
        with self._lock:
            projects = (
                [self._project(project)] if project is not None else list(self._projects.values())
            )
            jobs = [
                j for p in projects for j in p.jobs.values() if state is None or j.state == state
            ]
        jobs.sort(key=lambda j: (j.created_at, j.id))
        return jobs[:limit]

    def outputs_without_jobs(
        self, project: str | None = None, *, limit: int = 100
    ) -> list[tuple[str, str]]:
        bounded_int(limit, name="limit", low=0, high=MAX_JOB_LISTING)
        with self._lock:
            chosen = {project: self._project(project)} if project is not None else self._projects
            return unrequested_outputs(chosen, limit)

    def ping(self) -> bool:
        return True

    def close(self) -> None:
        if self._log is not None:
            self._log.close()
