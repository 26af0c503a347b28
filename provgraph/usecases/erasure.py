"""Erasure: remove one session, or every node whose text names a data subject.

The use case decides *what* goes; the store applies it in one transaction
(:meth:`GraphStore.erase`): the nodes with their edges, key bindings and
deliveries; the reports of erased outputs and every report whose checks cite
an erased source (their evidence quotes it), with those outputs' jobs and
reviews; the erased events inside chain payloads. A tombstone entry seals
digests only (node ids, the erased events' digests, the entries redacted),
never content, so ``audit verify`` still passes and shows when and how much
was erased. Events arriving after the erasure are not affected (erase again).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from provgraph.audit.canonical import text_digest
from provgraph.audit.chain import AuditEntry, EntryKind, PendingEntry
from provgraph.errors import NotFoundError, ValidationError
from provgraph.store.audit_types import Erasure, ErasureResult
from provgraph.store.port import GraphStore
from provgraph.store.types import MAX_PAGE_SIZE, StoredReport
from provgraph.usecases.audit_replay import load_entries

MIN_SUBJECT_CHARS = 3
"""A shorter subject would match half the graph; refuse it rather than guess."""
MAX_SUBJECT_NODES = 10_000


@dataclass(frozen=True)
class ErasurePlan:
    """What an erasure would remove (``--dry-run`` prints this)."""

    scope: str
    erasure: Erasure

    def summary(self) -> dict[str, int]:
        return {
            "nodes": len(self.erasure.node_ids),
            "events": len(self.erasure.event_ids),
            "report_outputs": len(self.erasure.report_outputs),
            "entries_redacted": len({*self.erasure.redactions, *self.erasure.dropped_payloads}),
        }


def _all_reports(store: GraphStore, project: str) -> list[StoredReport]:
    found: list[StoredReport] = []
    after: str | None = None
    while True:
        page = store.list_reports(project, first=MAX_PAGE_SIZE, after=after)
        found.extend(page.items)
        if not page.has_next_page:
            return found
        after = page.end_cursor


def _cites(report: StoredReport, nodes: set[str]) -> bool:
    checks = report.report.get("checks")
    for check in checks if isinstance(checks, list) else []:
        source = check.get("source") if isinstance(check, dict) else None
        if isinstance(source, dict) and source.get("node_id") in nodes:
            return True
    return False


def _payload_output(entry: AuditEntry) -> Any:
    if entry.payload is None:
        return None
    if entry.kind == EntryKind.REPORT:
        return entry.payload.get("output_id")
    if entry.kind == EntryKind.REVIEW:
        return entry.payload["review"].get("output_id")
    return None


def plan_erasure(
    store: GraphStore, project: str, node_ids: Iterable[str], scope: str
) -> ErasurePlan:
    nodes = set(node_ids)
    outputs = {
        r.output_id
        for r in _all_reports(store, project)
        if r.output_id in nodes or _cites(r, nodes)
    }
    event_ids: list[str] = []
    event_digests: list[str] = []
    redactions: dict[int, tuple[int, ...]] = {}
    dropped: list[int] = []
    for entry in load_entries(store, project):
        if entry.kind == EntryKind.INGEST and entry.payload is not None:
            positions = [
                i
                for i, event in enumerate(entry.payload.get("events", ()))
                if event is not None and event.get("node_id") in nodes
            ]
            for i in positions:
                event_ids.append(str(entry.payload["events"][i]["id"]))
                event_digests.append(str(entry.header["events"][i]))
            if positions:
                redactions[entry.seq] = tuple(positions)
        elif _payload_output(entry) in outputs:
            dropped.append(entry.seq)
    header = {
        "scope": scope,
        "nodes": sorted(text_digest(n) for n in nodes),
        "events": sorted(event_digests),
        "entries": sorted({*redactions, *dropped}),
        "report_outputs": sorted(text_digest(o) for o in outputs),
    }
    erasure = Erasure(
        node_ids=tuple(sorted(nodes)),
        event_ids=tuple(event_ids),
        report_outputs=tuple(sorted(outputs)),
        redactions=redactions,
        dropped_payloads=tuple(dropped),
        tombstone=PendingEntry(EntryKind.ERASURE, header, None),
    )
    return ErasurePlan(scope, erasure)


def plan_session_erasure(store: GraphStore, project: str, session_id: str) -> ErasurePlan:
    graph = store.session_graph(project, session_id)
    members = [i for i, n in graph.nodes.items() if n.session_id == session_id]
    if not members:
        raise NotFoundError(f"session '{session_id}' has no nodes in project '{project}'")
    return plan_erasure(store, project, members, "session")


def plan_subject_erasure(store: GraphStore, project: str, subject: str) -> ErasurePlan:
    """Every node whose content, label or data contains ``subject`` (exact substring)."""
    if len(subject.strip()) < MIN_SUBJECT_CHARS:
        raise ValidationError(f"subject: at least {MIN_SUBJECT_CHARS} characters")
    found = store.find_nodes(project, subject, limit=MAX_SUBJECT_NODES)
    if len(found) >= MAX_SUBJECT_NODES:
        raise ValidationError(
            f"subject: matches {MAX_SUBJECT_NODES} nodes or more; use a more specific id"
        )
    return plan_erasure(store, project, [n.id for n in found], "subject")


def apply_erasure(store: GraphStore, project: str, plan: ErasurePlan) -> ErasureResult:
    return store.erase(project, plan.erasure)
