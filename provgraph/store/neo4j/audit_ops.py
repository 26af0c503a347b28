"""The audit trail's store operations as driver-free programs (see ``operations``).

Appending an entry is two statements inside the caller's transaction: take
the project's chain head (a write lock that serialises appends, held until the
commit; it is the last lock an ingest takes, see docs/adr/0012), then create
the entry sealed after it and move the head. Ingest, report saves, reviews
and erasures call :func:`append` inside their own transaction, so an entry
exists exactly when the write it records committed.
"""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from provgraph.audit.chain import (
    GENESIS,
    AuditEntry,
    PendingEntry,
    report_entry,
    review_entry,
    seal,
)
from provgraph.errors import ValidationError
from provgraph.events import Event
from provgraph.graph import ProvenanceNode
from provgraph.mapping import EventWrite
from provgraph.store.audit_types import Erasure, ErasureResult, Review
from provgraph.store.codec import report_to_dict
from provgraph.store.neo4j import audit_cypher as q
from provgraph.store.neo4j import operations as ops
from provgraph.store.neo4j import rows
from provgraph.store.neo4j.ingest_locks import lock_sessions
from provgraph.store.neo4j.operations import Program, Record, Statement
from provgraph.store.neo4j.prepared import PreparedBatch, prepare_batch
from provgraph.store.types import MAX_PAGE_SIZE, IngestResult, Job, StoredReport, bounded_int

MAX_AUDIT_PAGE = 10_000


def _json(value: Any) -> str | None:
    if value is None:
        return None
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


PACKED = "zlib+b64:"
"""Prefix of a packed payload: zlib (level 1) of its JSON, base64. Measured on this
project's ingest workload, a plain JSON payload cost a median 17 % per batch, packed 4 %
(``bench/audit_chain.py``); plain JSON text is still read."""


def pack_payload(payload: dict[str, Any] | None) -> str | None:
    if payload is None:
        return None
    return pack_json(json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode())


def pack_json(raw: bytes) -> str:
    """A payload already serialised to JSON (UTF-8), packed."""
    return PACKED + base64.b64encode(zlib.compress(raw, 1)).decode("ascii")


def unpack_payload(text: Any) -> dict[str, Any] | None:
    """The payload; damaged text becomes a marker the verification reports (never raises)."""
    if text is None:
        return None
    if isinstance(text, str) and text.startswith(PACKED):
        try:
            text = zlib.decompress(base64.b64decode(text[len(PACKED) :], validate=True)).decode()
        except (ValueError, zlib.error):
            return {"unreadable": "packed payload does not decode"}
    return _loads(text)


def _loads(text: Any) -> dict[str, Any]:
    """A stored JSON object; damaged text comes back as a marker (verification then fails
    on that entry's hash or payload) rather than an exception that hides which entry."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return {"unreadable": str(text)[:200]}
    return value if isinstance(value, dict) else {"unreadable": str(text)[:200]}


def entry_from_row(project: str, row: Record) -> AuditEntry:
    return AuditEntry(
        project=project,
        seq=int(row["seq"]),
        kind=str(row["kind"]),
        at=str(row["at"]),
        header=_loads(row["header"]),
        prev=str(row["prev"]),
        hash=str(row["hash"]),
        payload=unpack_payload(row.get("payload")),
    )


def append(project: str, pending: PendingEntry) -> Program[AuditEntry]:
    """Lock the head, seal after it, create the entry (inside the caller's transaction)."""
    records = yield Statement(q.audit_head_lock_query(), {"project": project, "genesis": GENESIS})
    head = records[0]
    entry = seal(project, (int(head["seq"]), str(head["hash"])), pending)
    yield Statement(q.audit_append_query(), {"project": project, **entry_params(entry)})
    return entry


def entry_params(entry: AuditEntry, payload_json: bytes | None = None) -> dict[str, Any]:
    """The parameters of ``audit_append_clause`` for a sealed entry; ``payload_json``
    is the payload's JSON text when the caller already has it (ingest)."""
    payload = pack_payload(entry.payload) if payload_json is None else pack_json(payload_json)
    return {
        "seq": entry.seq,
        "kind": entry.kind,
        "at": entry.at,
        "header": _json(entry.header),
        "prev": entry.prev,
        "hash": entry.hash,
        "payload": payload,
    }


def ingest_program(
    chained: bool,
    project: str,
    events: Sequence[tuple[int, Event]],
    batch: str,
    prepared: PreparedBatch | None = None,
) -> Program[IngestResult]:
    """The ingest program both adapters run; ``prepared`` as in
    :func:`operations.ingest_decided`.

    Chained, the batch is sealed into the chain, and the chain head its lookup
    takes first is the project's lock (:mod:`~provgraph.store.neo4j.ingest_locks`);
    unchained, its sessions are locked first
    (:func:`~provgraph.store.neo4j.ingest_locks.lock_sessions`).
    """
    if chained:
        program = ingest(project, events, batch, prepared)
    else:
        yield from lock_sessions(
            project, (e.session_id for _, e in events), (e.node_id for _, e in events)
        )
        program = ops.ingest(project, events, batch, prepared)
    result: IngestResult = yield from program
    return result


def report_program(chained: bool, project: str, report: StoredReport) -> Program[StoredReport]:
    """The save-report program both adapters run: sealed into the chain when ``chained``."""
    return save_report(project, report) if chained else ops.save_report(project, report)


def complete_job_program(
    chained: bool, project: str, report: StoredReport, job: Job
) -> Program[tuple[StoredReport, Job]]:
    """The report (as :func:`report_program`) and then the job, with the report's version."""
    stored = yield from report_program(chained, project, report)
    done = yield from ops.save_job(project, replace(job, report_version=stored.version))
    return stored, done


def ingest(
    project: str,
    events: Sequence[tuple[int, Event]],
    batch: str,
    prepared: PreparedBatch | None = None,
) -> Program[IngestResult]:
    """:func:`operations.ingest` plus the batch's chain entry, in the same transaction.

    The lookup locks the chain head and the write statement creates the entry
    (two statements per batch). Only the events this attempt writes are
    recorded: after a lost commit the retried batch finds its events stored by
    its own token (accepted, not written again), and the first attempt's entry
    already has them.
    """
    ready = prepared or prepare_batch(list(events), chained=True, ahead=False)

    def sealer(head: tuple[int, str], written: tuple[EventWrite, ...]) -> dict[str, Any]:
        pending, payload_json = ready.entry_for(written)
        return entry_params(seal(project, head, pending), payload_json)

    result, _ = yield from ops.ingest_decided(project, events, batch, sealer, ready)
    return result


def save_report(project: str, report: StoredReport) -> Program[StoredReport]:
    """:func:`operations.save_report` plus the report's chain entry, in one transaction."""
    stored = yield from ops.save_report(project, report)
    yield from append(project, report_entry(report_to_dict(stored)))
    return stored


def entries(project: str, after: int, limit: int) -> Program[list[AuditEntry]]:
    bounded_int(limit, name="limit", low=1, high=MAX_AUDIT_PAGE)
    return _entries(project, after, limit)


def _entries(project: str, after: int, limit: int) -> Program[list[AuditEntry]]:
    records = yield Statement(
        q.audit_entries_query(), {"project": project, "after": after, "limit": limit}
    )
    return [entry_from_row(project, r) for r in records]


def head(project: str) -> Program[tuple[int, str]]:
    records = yield Statement(q.audit_head_query(), {"project": project})
    if not records:
        return (0, GENESIS)
    return (int(records[0]["seq"]), str(records[0]["hash"]))


def projects() -> Program[list[str]]:
    records = yield Statement(q.audit_projects_query())
    return [str(r["project"]) for r in records]


# ---------------------------------------------------------------------- reviews
def save_review(project: str, review: Review, chain: bool) -> Program[Review]:
    doc = review.to_dict()
    found = yield Statement(q.review_exists_query(), {"project": project, "id": review.id})
    if found and int(found[0]["found"]):
        raise ValidationError(f"review '{review.id}' exists; reviews are never edited")
    yield Statement(
        q.save_review_query(),
        {
            "project": project,
            "id": review.id,
            "output_id": review.output_id,
            "report_version": review.report_version,
            "created_at": review.created_at,
            "doc": json.dumps(doc, ensure_ascii=False),
        },
    )
    if chain:
        yield from append(project, review_entry(doc))
    return review


def list_reviews(project: str, output_id: str | None) -> Program[list[Review]]:
    params: dict[str, Any] = {"project": project}
    if output_id is not None:
        params["output_id"] = output_id
    records = yield Statement(q.list_reviews_query(by_output=output_id is not None), params)
    return [Review.from_dict(json.loads(r["doc"])) for r in records]


# ---------------------------------------------------------------------- search and erasure
def find_nodes(project: str, text: str, limit: int) -> Program[list[ProvenanceNode]]:
    bounded_int(limit, name="limit", low=1, high=MAX_PAGE_SIZE * 20)
    return _find_nodes(project, text, limit)


def _find_nodes(project: str, text: str, limit: int) -> Program[list[ProvenanceNode]]:
    records = yield Statement(
        q.find_nodes_query(), {"project": project, "text": text, "limit": limit}
    )
    return [rows.node_from_props(r["props"]) for r in records]


def _redacted(payload: dict[str, Any] | None, positions: Sequence[int]) -> dict[str, Any] | None:
    if payload is None or "events" not in payload:
        return None
    events = list(payload["events"])
    for position in positions:
        if 0 <= position < len(events):
            events[position] = None
    return {**payload, "events": events}


def erase(project: str, erasure: Erasure, chain: bool) -> Program[ErasureResult]:
    """Everything in one transaction: under the lock chained ingest takes (the chain
    head) or, unchained, the locks of the erased nodes' sessions (no batch of theirs
    interleaves), delete, redact, tombstone."""
    base = {"project": project}
    if chain:
        yield Statement(q.audit_head_lock_query(), {**base, "genesis": GENESIS})
    else:
        yield from lock_sessions(project, (), erasure.node_ids)
    deleted = yield Statement(
        q.erase_nodes_query(),
        {**base, "node_ids": list(erasure.node_ids), "event_ids": list(erasure.event_ids)},
    )
    outputs = list(erasure.report_outputs)
    found = yield Statement(q.erase_outputs_query(), {**base, "outputs": outputs})
    row = found[0]
    gone_jobs = [
        str(job_id)
        for job_id, doc in row["jobs"]
        if json.loads(doc).get("output_id") in set(outputs)
    ]
    if gone_jobs:
        yield Statement(q.delete_jobs_query(), {**base, "ids": gone_jobs})
    seqs = sorted({*erasure.redactions, *erasure.dropped_payloads})
    if seqs:
        stored = yield Statement(q.entry_payloads_query(), {**base, "seqs": seqs})
        updates = []
        for record in stored:
            seq = int(record["seq"])
            payload = unpack_payload(record["payload"])
            if seq in erasure.dropped_payloads:
                payload = None
            else:
                payload = _redacted(payload, erasure.redactions.get(seq, ()))
            updates.append({"seq": seq, "payload": pack_payload(payload)})
        yield Statement(q.set_entry_payloads_query(), {**base, "rows": updates})
    if chain:
        entry = yield from append(project, erasure.tombstone)
    else:
        entry = seal(project, (0, GENESIS), erasure.tombstone)
    return ErasureResult(
        nodes=int(deleted[0]["nodes"]),
        reports=int(row["reports"]),
        jobs=len(gone_jobs),
        reviews=int(row["reviews"]),
        entry=entry,
    )
