"""Verify an audit bundle offline: no server, only the bundle (and a pinned key).

Checks, in order: the checkpoint's own hash, its Merkle root over the leaves
and (when present or pinned) its Ed25519 signature; every included entry's
hash against its leaf and its ``prev`` against the leaf before; every included
event against its digest in the sealed header; the session graph against the
replay of the included events; each report and review against the digest of
the latest entry that recorded it.
"""

from __future__ import annotations

from typing import Any

from provgraph.audit.canonical import digest
from provgraph.audit.chain import GENESIS, AuditEntry, EntryKind, report_key
from provgraph.audit.checks import (
    Failure,
    check_payloads,
    checkpoint_message,
    graph_failures,
)
from provgraph.audit.merkle import merkle_root
from provgraph.usecases.audit_bundle import FORMAT, graph_from_dict
from provgraph.usecases.audit_replay import replay
from provgraph.usecases.audit_verify import VerifyReport


def _checkpoint(bundle: dict[str, Any], pinned_key: str | None) -> list[Failure]:
    from provgraph.audit.signing import verify_signature

    checkpoint = AuditEntry.from_dict(bundle["checkpoint"])
    leaves: list[str] = list(bundle["leaves"])
    header = checkpoint.header
    failures: list[Failure] = []
    if checkpoint.recomputed_hash() != checkpoint.hash:
        failures.append(Failure(checkpoint.seq, "hash", "the checkpoint does not hash to its hash"))
    if header.get("from") != 1 or header.get("to") != len(leaves) or not leaves:
        return [
            *failures,
            Failure(checkpoint.seq, "checkpoint", "the leaves do not match the checkpoint's range"),
        ]
    if merkle_root(leaves) != header.get("root") or header.get("head") != leaves[-1]:
        failures.append(
            Failure(
                checkpoint.seq,
                "checkpoint",
                "the Merkle root over the leaves differs from the checkpoint's",
            )
        )
    if checkpoint.prev != leaves[-1]:
        failures.append(
            Failure(checkpoint.seq, "link", "the checkpoint does not follow the leaves")
        )
    signature = header.get("signature")
    if pinned_key is not None and header.get("public_key") != pinned_key:
        failures.append(Failure(checkpoint.seq, "signature", "not signed by the pinned key"))
    if signature and not verify_signature(
        header.get("public_key"), signature, checkpoint_message(checkpoint.project, header)
    ):
        failures.append(Failure(checkpoint.seq, "signature", "the signature does not verify"))
    return failures


def _entries(entries: list[AuditEntry], leaves: list[str]) -> list[Failure]:
    failures: list[Failure] = []
    for entry in entries:
        if not 1 <= entry.seq <= len(leaves):
            failures.append(Failure(entry.seq, "order", "the entry is outside the checkpoint"))
            continue
        if entry.recomputed_hash() != entry.hash or entry.hash != leaves[entry.seq - 1]:
            failures.append(Failure(entry.seq, "hash", "the entry does not match its leaf"))
        expected_prev = leaves[entry.seq - 2] if entry.seq > 1 else GENESIS
        if entry.prev != expected_prev:
            failures.append(Failure(entry.seq, "link", "prev is not the previous leaf"))
    # events left out of a bundle (other sessions) are not erasures: check present ones only
    partial = [
        AuditEntry(**{**e.__dict__, "payload": None}) if e.kind == EntryKind.INGEST else e
        for e in entries
    ]
    failures += [f for f in check_payloads(partial) if f.check != "payload"]
    for entry in entries:
        if entry.kind == EntryKind.INGEST and entry.payload is not None:
            expected = entry.header.get("events", [])
            for position, event in enumerate(entry.payload.get("events", ())):
                if event is not None and digest(event) != expected[position]:
                    failures.append(Failure(entry.seq, "payload", f"event {position} differs"))
    return failures


def _records(bundle: dict[str, Any], entries: list[AuditEntry]) -> list[Failure]:
    by_key: dict[str, AuditEntry] = {}
    reviews: dict[str, AuditEntry] = {}
    for entry in entries:
        if entry.kind == EntryKind.REPORT:
            by_key[str(entry.header.get("key"))] = entry
        elif entry.kind == EntryKind.REVIEW and entry.payload is not None:
            reviews[str(entry.payload["review"]["id"])] = entry
    failures: list[Failure] = []
    for report in bundle["reports"]:
        recorded = by_key.get(report_key(report["output_id"], report["config_hash"]))
        if recorded is None or digest(report) != recorded.header.get("report"):
            seq = recorded.seq if recorded else None
            failures.append(
                Failure(
                    seq,
                    "report",
                    f"report {report['output_id']} v{report['version']} does not match its entry",
                )
            )
    for review in bundle["reviews"]:
        made = reviews.get(str(review["id"]))
        if made is None or digest(review) != made.header.get("review"):
            seq = made.seq if made else None
            failures.append(Failure(seq, "review", f"review {review['id']} does not match"))
    return failures


def verify_bundle(bundle: dict[str, Any], *, pinned_key: str | None = None) -> VerifyReport:
    if bundle.get("format") != FORMAT:
        raise ValueError(f"not an audit bundle (format {bundle.get('format')!r}, want {FORMAT!r})")
    project, session_id = str(bundle["project"]), str(bundle["session_id"])
    entries = [AuditEntry.from_dict(raw) for raw in bundle["entries"]]
    failures = _checkpoint(bundle, pinned_key)
    failures += _entries(entries, list(bundle["leaves"]))
    rebuilt = replay(project, entries)
    failures += graph_failures(
        graph_from_dict(bundle["graph"]),
        rebuilt.store.session_graph(project, session_id),
        session_id,
        rebuilt.written_by,
        rebuilt.erased_nodes,
    )
    failures += _records(bundle, entries)
    ordered = tuple(sorted(failures, key=Failure.sort_key))
    return VerifyReport(project, session_id, len(entries), ordered)
