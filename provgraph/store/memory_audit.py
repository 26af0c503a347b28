"""The embedded store's audit trail: chain entries, reviews, node search and erasure.

A mixin of :class:`~provgraph.store.memory.MemoryGraphStore` (kept apart so each
module stays one concern). Chain entries are sealed under the store's lock in
the same call (and the same log line, for ingest and reports) as the write
they record. Erasure rewrites the event log without the erased content
(atomically: a new file replaces the old one) and rebuilds the state from it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any

from provgraph.audit.canonical import text_digest
from provgraph.audit.chain import GENESIS, AuditEntry, PendingEntry, review_entry, seal
from provgraph.errors import ValidationError
from provgraph.graph import ProvenanceGraph, ProvenanceNode
from provgraph.store.audit_types import Erasure, ErasureResult, Review
from provgraph.store.eventlog import EventLog
from provgraph.store.memory_state import NodeState, ProjectState
from provgraph.store.types import MAX_PAGE_SIZE, bounded_int

MAX_AUDIT_PAGE = 10_000


def _searchable(node: NodeState, needle: str) -> bool:
    """Neo4j's ``content``/``label``/``data``/``error_message`` text properties, the same test."""
    return any(
        needle in (node.fields.get(name) or "")
        for name in ("content", "label", "data", "error_message")
    )


def drop_nodes(state: ProjectState, digests: set[str]) -> None:
    """Remove every node whose id digest is listed, with its edges, keys and uses."""
    gone = {node_id for node_id in state.states if text_digest(node_id) in digests}
    if not gone:
        return
    for node_id in gone:
        node = state.states.pop(node_id)
        session = node.fields.get("session_id")
        if session is not None:
            state.sessions.get(session, {}).pop(node_id, None)
    graph = state.graph
    state.graph = ProvenanceGraph(
        nodes={i: n for i, n in graph.nodes.items() if i not in gone},
        edges=[e for e in graph.edges if e.source_id not in gone and e.target_id not in gone],
    )
    state.keys = {b: n for b, n in state.keys.items() if n not in gone}
    state.uses = {b: {u: None for u in us if u not in gone} for b, us in state.uses.items()}


class MemoryAuditMixin:
    """Audit operations of the embedded store (see :class:`~provgraph.store.port.GraphStore`)."""

    _lock: threading.RLock
    _projects: dict[str, ProjectState]
    _log: EventLog | None
    _records: list[dict[str, Any]]
    audit_chain: bool

    def _project(self, project: str) -> ProjectState:  # provided by the store
        raise NotImplementedError

    def _apply_record(self, record: dict[str, Any]) -> None:  # provided by the store
        raise NotImplementedError

    def _append(self, record: dict[str, Any]) -> None:  # provided by the store
        raise NotImplementedError

    # ------------------------------------------------------------------ chain
    def _seal(self, project: str, pending: PendingEntry) -> AuditEntry:
        """Seal after the project's head (caller holds the lock and records it)."""
        audit = self._project(project).audit
        head = (audit[-1].seq, audit[-1].hash) if audit else (0, GENESIS)
        return seal(project, head, pending)

    def _apply_audit_record(self, project: str, record: dict[str, Any]) -> None:
        """Replay of ``audit``, ``review`` and ``erase`` log lines."""
        state = self._project(project)
        op = record.get("op")
        if op == "review":
            review = Review.from_dict(record["review"])
            state.reviews[review.id] = review
        entry_raw = record.get("entry")
        if entry_raw is not None:
            entry = AuditEntry.from_dict(entry_raw)
            state.audit.append(entry)
            if entry.kind == "erasure":
                drop_nodes(state, set(entry.header.get("nodes", ())))
        elif op == "erase":
            drop_nodes(state, set(record.get("nodes", ())))

    def append_audit(self, project: str, pending: PendingEntry) -> AuditEntry:
        with self._lock:
            entry = self._seal(project, pending)
            self._project(project).audit.append(entry)
            self._append({"op": "audit", "project": project, "entry": entry.to_dict()})
            return entry

    def audit_entries(self, project: str, *, after: int = 0, limit: int = 1000) -> list[AuditEntry]:
        bounded_int(limit, name="limit", low=1, high=MAX_AUDIT_PAGE)
        with self._lock:
            return [e for e in self._project(project).audit if e.seq > after][:limit]

    def audit_head(self, project: str) -> tuple[int, str]:
        with self._lock:
            audit = self._project(project).audit
            return (audit[-1].seq, audit[-1].hash) if audit else (0, GENESIS)

    def audit_projects(self) -> list[str]:
        with self._lock:
            return sorted(p for p, s in self._projects.items() if s.audit)

    # ------------------------------------------------------------------ reviews
    def save_review(self, project: str, review: Review) -> Review:
        """Store a new review (ids are never reused: a review is never edited)."""
        with self._lock:
            state = self._project(project)
            if review.id in state.reviews:
                raise ValidationError(f"review '{review.id}' exists; reviews are never edited")
            state.reviews[review.id] = review
            record: dict[str, Any] = {"op": "review", "project": project}
            record["review"] = review.to_dict()
            if self.audit_chain:
                entry = self._seal(project, review_entry(review.to_dict()))
                state.audit.append(entry)
                record["entry"] = entry.to_dict()
            self._append(record)
            return review

    def list_reviews(self, project: str, output_id: str | None = None) -> list[Review]:
        with self._lock:
            reviews = self._project(project).reviews.values()
            found = [r for r in reviews if output_id is None or r.output_id == output_id]
        return sorted(found, key=lambda r: (r.created_at, r.id))

    # ------------------------------------------------------------------ search and erasure
    def find_nodes(self, project: str, text: str, *, limit: int = 500) -> list[ProvenanceNode]:
        """Nodes whose content, label or data contains ``text`` (a data-subject search)."""
        bounded_int(limit, name="limit", low=1, high=MAX_PAGE_SIZE * 20)
        with self._lock:
            state = self._project(project)
            found = [state.graph.nodes[i] for i, n in state.states.items() if _searchable(n, text)]
        return sorted(found, key=lambda n: n.id)[:limit]

    def erase(self, project: str, erasure: Erasure) -> ErasureResult:
        """Drop the content, rewrite the log atomically (tombstone included), rebuild."""
        with self._lock:
            state = self._project(project)
            outputs = set(erasure.report_outputs)
            counts: dict[str, Any] = {
                "nodes": sum(1 for i in erasure.node_ids if i in state.states),
                "reports": sum(len(state.reports.get(o, [])) for o in outputs),
                "jobs": sum(1 for j in state.jobs.values() if j.output_id in outputs),
                "reviews": sum(1 for r in state.reviews.values() if r.output_id in outputs),
            }
            records = [
                kept
                for record in self._records
                if (kept := _erased(record, project, erasure)) is not None
            ]
            entry = self._seal(project, erasure.tombstone)
            if self.audit_chain:
                records.append({"op": "audit", "project": project, "entry": entry.to_dict()})
            else:
                digests = list(erasure.tombstone.header.get("nodes", ()))
                records.append({"op": "erase", "project": project, "nodes": digests})
            if self._log is not None:
                self._log.rewrite(records)
            self._rebuild(records)
            return ErasureResult(entry=entry, **counts)

    def forget_nodes(self, project: str, digests: Iterable[str]) -> None:
        """Drop nodes by id digest, as a tombstone says (used when replaying a chain)."""
        with self._lock:
            drop_nodes(self._project(project), set(digests))

    def _rebuild(self, records: Iterable[dict[str, Any]]) -> None:
        self._projects = {}
        self._records = []
        for record in records:
            self._apply_record(record)
            self._records.append(record)


def _erased(record: dict[str, Any], project: str, erasure: Erasure) -> dict[str, Any] | None:
    """One log record with the erasure applied (None: the record goes)."""
    if record.get("project") != project:
        return record
    op = record.get("op")
    outputs = set(erasure.report_outputs)
    if op == "ingest":
        erased, nodes = set(erasure.event_ids), set(erasure.node_ids)
        events = [
            None if e is None or e.get("id") in erased or e.get("node_id") in nodes else e
            for e in record["events"]
        ]
        return {**record, "events": events}
    if op in ("report", "review"):
        subject = record["report"] if op == "report" else record["review"]
        if subject["output_id"] not in outputs:
            return record
        entry = record.get("entry")
        if entry is None:
            return None
        return {"op": "audit", "project": project, "entry": {**entry, "payload": None}}
    if op == "job":
        return None if record["job"]["output_id"] in outputs else record
    if op == "audit" and int(record["entry"]["seq"]) in set(erasure.dropped_payloads):
        return {**record, "entry": {**record["entry"], "payload": None}}
    return record
