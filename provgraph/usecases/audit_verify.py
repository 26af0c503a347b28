"""``provgraph audit verify``: recompute a project's chain and check the graph against it.

Four checks, each naming the entry it charges a failure to: the links (seq,
hash, prev, head), the payloads (digests, tombstones), the checkpoints (Merkle
roots, signatures), and the stored data against the chain (the graph rebuilt
from the accepted events, the reports and reviews against their digests).
Reads the store only through the port, so an edit made directly in the
database (Cypher, a text editor on the event log) is caught like any other.
"""

from __future__ import annotations

from dataclasses import dataclass

from provgraph.audit.canonical import digest
from provgraph.audit.chain import AuditEntry, EntryKind, report_key
from provgraph.audit.checks import (
    Failure,
    check_checkpoints,
    check_links,
    check_payloads,
    first_failure,
    graph_failures,
)
from provgraph.store.codec import report_to_dict
from provgraph.store.port import GraphStore
from provgraph.store.types import MAX_PAGE_SIZE, ReportFilter, StoredReport
from provgraph.usecases.audit_replay import Replay, load_entries, replay


@dataclass(frozen=True)
class VerifyReport:
    project: str
    session_id: str | None
    entries: int
    failures: tuple[Failure, ...]

    @property
    def ok(self) -> bool:
        return not self.failures

    @property
    def first(self) -> Failure | None:
        return first_failure(self.failures)


def verify_project(
    store: GraphStore,
    project: str,
    *,
    session_id: str | None = None,
    pinned_key: str | None = None,
) -> VerifyReport:
    """Verify the project's chain, and the graph (one session, or all) against it.

    ``pinned_key`` (hex Ed25519 public key): every checkpoint must be signed
    by it; otherwise signatures are checked against the key each names.
    """
    from provgraph.audit.signing import verify_signature

    entries = load_entries(store, project)
    failures = check_links(entries, store.audit_head(project))
    failures += check_payloads(entries)
    failures += check_checkpoints(entries, verify_signature)
    if pinned_key is not None:
        failures += _pinned(entries, pinned_key)
    rebuilt = replay(project, entries)
    failures += _graph(store, rebuilt, session_id)
    failures += _reports(store, project, entries, rebuilt, session_id)
    failures += _reviews(store, project, entries, session_id)
    ordered = tuple(sorted(failures, key=Failure.sort_key))
    return VerifyReport(project, session_id, len(entries), ordered)


def _pinned(entries: list[AuditEntry], key: str) -> list[Failure]:
    checkpoints = [e for e in entries if e.kind == EntryKind.CHECKPOINT]
    if not checkpoints:
        return [Failure(None, "signature", "no checkpoint to check against the pinned key")]
    return [
        Failure(e.seq, "signature", "the checkpoint is not signed by the pinned key")
        for e in checkpoints
        if e.header.get("public_key") != key or not e.header.get("signature")
    ]


def _sessions(store: GraphStore, project: str) -> set[str]:
    found: set[str] = set()
    after: str | None = None
    while True:
        page = store.list_sessions(project, first=MAX_PAGE_SIZE, after=after)
        found.update(s.id for s in page.items)
        if not page.has_next_page:
            return found
        after = page.end_cursor


def _graph(store: GraphStore, rebuilt: Replay, session_id: str | None) -> list[Failure]:
    project = rebuilt.project
    if session_id is not None:
        sessions = {session_id}
    else:
        sessions = _sessions(store, project) | _sessions(rebuilt.store, project)
    failures: list[Failure] = []
    for sid in sorted(sessions):
        failures += graph_failures(
            store.session_graph(project, sid),
            rebuilt.store.session_graph(project, sid),
            sid,
            rebuilt.written_by,
            rebuilt.erased_nodes,
        )
    return failures


def _stored_reports(store: GraphStore, project: str, session_id: str | None) -> list[StoredReport]:
    found: list[StoredReport] = []
    after: str | None = None
    wanted = ReportFilter(session_id=session_id) if session_id is not None else None
    while True:
        page = store.list_reports(project, first=MAX_PAGE_SIZE, after=after, filter=wanted)
        found.extend(page.items)
        if not page.has_next_page:
            return found
        after = page.end_cursor


def _reports(
    store: GraphStore,
    project: str,
    entries: list[AuditEntry],
    rebuilt: Replay,
    session_id: str | None,
) -> list[Failure]:
    latest: dict[tuple[str, int], AuditEntry] = {}
    by_key: dict[str, AuditEntry] = {}
    for entry in entries:
        if entry.kind == EntryKind.REPORT:
            by_key[str(entry.header.get("key"))] = entry
    failures: list[Failure] = []
    for entry in by_key.values():
        if entry.payload is None:
            continue
        output_id, version = str(entry.payload["output_id"]), int(entry.payload["version"])
        node = rebuilt.store.get_node(project, output_id)
        if session_id is not None and (node is None or node.session_id != session_id):
            continue
        latest[(output_id, version)] = entry
        stored = store.get_report(project, output_id, version)
        if stored is None:
            failures.append(Failure(entry.seq, "report", f"report {output_id} v{version} is gone"))
        elif digest(report_to_dict(stored)) != entry.header.get("report"):
            failures.append(
                Failure(entry.seq, "report", f"report {output_id} v{version} was changed")
            )
    for report in _stored_reports(store, project, session_id):
        entry_for = by_key.get(report_key(report.output_id, report.config_hash))
        if entry_for is None:
            failures.append(
                Failure(
                    None,
                    "report",
                    f"report {report.output_id} v{report.version} is in "
                    "the store but no entry made it",
                )
            )
        elif entry_for.payload is None:
            failures.append(
                Failure(None, "erasure", f"report {report.output_id} was erased but is stored")
            )
    return failures


def _reviews(
    store: GraphStore, project: str, entries: list[AuditEntry], session_id: str | None
) -> list[Failure]:
    chained = {
        str(e.payload["review"]["id"]): e
        for e in entries
        if e.kind == EntryKind.REVIEW and e.payload is not None
    }
    stored = {r.id: r for r in store.list_reviews(project)}
    failures: list[Failure] = []
    for review_id, entry in chained.items():
        if session_id is not None and entry.payload["review"].get("session_id") != session_id:  # type: ignore[index]
            continue
        review = stored.get(review_id)
        if review is None:
            failures.append(Failure(entry.seq, "review", f"review {review_id} is gone"))
        elif digest(review.to_dict()) != entry.header.get("review"):
            failures.append(Failure(entry.seq, "review", f"review {review_id} was changed"))
    for review_id, review in stored.items():
        if review_id not in chained and (session_id is None or review.session_id == session_id):
            failures.append(
                Failure(None, "review", f"review {review_id} is in the store but in no entry")
            )
    return failures
