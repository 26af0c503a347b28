"""Pure checks of an audit chain and of a graph against the chain's replay.

Nothing here reads a store: callers hand in entries and graphs, and get back
:class:`Failure` values naming the entry that first fails. Shared by
``provgraph audit verify`` (a live store) and ``verify-bundle`` (offline).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from provgraph.audit.canonical import digest, text_digest
from provgraph.audit.chain import GENESIS, AuditEntry, EntryKind, report_key
from provgraph.audit.merkle import merkle_root
from provgraph.graph import ProvenanceGraph, ProvenanceNode

DATA_CHECKS = frozenset({"graph", "report", "review", "erasure"})
"""Checks of the stored data against the chain (the rest check the chain itself)."""


@dataclass(frozen=True)
class Failure:
    """One thing that does not verify; ``seq`` is the entry it is charged to.

    ``seq`` None means no entry can be blamed (data in the store that no entry
    records): it sorts after every numbered failure.
    """

    seq: int | None
    check: str
    message: str

    def sort_key(self) -> tuple[int, int, int, str]:
        """The chain's own failures first: with a broken chain, data mismatches are symptoms."""
        data = 1 if self.check in DATA_CHECKS else 0
        return (data, 0 if self.seq is not None else 1, self.seq or 0, self.message)

    def describe(self) -> str:
        where = f"entry {self.seq}" if self.seq is not None else "no entry"
        return f"{where} [{self.check}]: {self.message}"


def first_failure(failures: Iterable[Failure]) -> Failure | None:
    ordered = sorted(failures, key=Failure.sort_key)
    return ordered[0] if ordered else None


# ---------------------------------------------------------------------- the chain itself
def check_links(entries: Sequence[AuditEntry], head: tuple[int, str] | None) -> list[Failure]:
    """Sequence numbers 1..n without gaps, each hash recomputed, each ``prev`` the one before.

    ``head`` (as the store records it) catches a removed last entry; a removed
    or reordered entry elsewhere breaks a link or the numbering.
    """
    failures: list[Failure] = []
    prev = GENESIS
    for position, entry in enumerate(entries, start=1):
        if entry.seq != position:
            failures.append(
                Failure(
                    position,
                    "order",
                    f"expected entry {position} here, found {entry.seq} "
                    "(an entry was removed or the log reordered)",
                )
            )
            return failures
        if entry.recomputed_hash() != entry.hash:
            failures.append(
                Failure(entry.seq, "hash", "the entry's fields do not hash to its hash")
            )
        if entry.prev != prev:
            failures.append(
                Failure(
                    entry.seq,
                    "link",
                    "prev is not the previous entry's hash "
                    "(an entry before it was changed, removed or reordered)",
                )
            )
        prev = entry.hash
    if head is not None and entries and head != (entries[-1].seq, entries[-1].hash):
        failures.append(
            Failure(
                head[0],
                "head",
                f"the chain head names entry {head[0]}, the last entry is "
                f"{entries[-1].seq} (the tail was removed or the head moved)",
            )
        )
    return failures


def erased_digests(entries: Iterable[AuditEntry]) -> tuple[set[str], set[int]]:
    """Event digests and entry numbers whose content tombstones account for."""
    events: set[str] = set()
    seqs: set[int] = set()
    for entry in entries:
        if entry.kind == EntryKind.ERASURE:
            events.update(entry.header.get("events", ()))
            seqs.update(int(s) for s in entry.header.get("entries", ()))
    return events, seqs


def check_payloads(entries: Sequence[AuditEntry]) -> list[Failure]:
    """Each payload matches its header's digests; what is missing, a tombstone covers."""
    erased_events, erased_entries = erased_digests(entries)
    failures: list[Failure] = []
    for entry in entries:
        failures.extend(_payload_failures(entry, erased_events, erased_entries))
    return failures


def _payload_failures(
    entry: AuditEntry, erased_events: set[str], erased_entries: set[int]
) -> list[Failure]:
    payload, header = entry.payload, entry.header
    if payload is None:
        if entry.kind in (EntryKind.ERASURE, EntryKind.CHECKPOINT) or entry.seq in erased_entries:
            return []
        return [Failure(entry.seq, "payload", "the payload is gone and no tombstone covers it")]
    if entry.kind == EntryKind.INGEST:
        digests = list(header.get("events", ()))
        events = list(payload.get("events", ()))
        if len(events) != len(digests):
            return [Failure(entry.seq, "payload", "the number of events changed")]
        for position, (event, expected) in enumerate(zip(events, digests, strict=True)):
            if event is None:
                if expected not in erased_events:
                    return [
                        Failure(
                            entry.seq,
                            "payload",
                            f"event {position} is gone and no tombstone lists it",
                        )
                    ]
            elif digest(event) != expected:
                return [
                    Failure(
                        entry.seq,
                        "payload",
                        f"event {position} ({event.get('id')}) differs from the event as accepted",
                    )
                ]
    elif entry.kind == EntryKind.REPORT:
        key = report_key(str(payload.get("output_id")), str(payload.get("config_hash")))
        if key != header.get("key"):
            return [Failure(entry.seq, "payload", "the report's identity was changed")]
    elif entry.kind == EntryKind.REVIEW and digest(payload.get("review")) != header.get("review"):
        return [Failure(entry.seq, "payload", "the review differs from the review as made")]
    return []


def checkpoint_message(project: str, header: dict[str, Any]) -> bytes:
    """What a checkpoint's signature covers (canonical JSON)."""
    from provgraph.audit.canonical import canonical_json

    fields = {k: header[k] for k in ("from", "to", "root", "head")}
    return canonical_json({"project": project, **fields})


def check_checkpoints(entries: Sequence[AuditEntry], verify_signature: Any = None) -> list[Failure]:
    """Each checkpoint's Merkle root over its range; its signature when one is given.

    ``verify_signature(public_key_hex, signature_hex, message) -> bool`` checks
    Ed25519 signatures (:mod:`provgraph.audit.signing`); None skips them.
    """
    hashes = {e.seq: e.hash for e in entries}
    failures: list[Failure] = []
    for entry in entries:
        if entry.kind != EntryKind.CHECKPOINT:
            continue
        header = entry.header
        start, end = int(header["from"]), int(header["to"])
        covered = [hashes.get(seq) for seq in range(start, end + 1)]
        if (
            any(h is None for h in covered)
            or merkle_root([h for h in covered if h]) != header["root"]
        ):
            failures.append(
                Failure(
                    entry.seq,
                    "checkpoint",
                    f"the Merkle root over entries {start}..{end} differs from the checkpoint's",
                )
            )
            continue
        signature = header.get("signature")
        if signature and verify_signature is not None:
            message = checkpoint_message(entry.project, header)
            if not verify_signature(header.get("public_key"), signature, message):
                failures.append(
                    Failure(entry.seq, "signature", "the checkpoint's signature does not verify")
                )
    return failures


# ---------------------------------------------------------------------- graph vs replay
def graph_failures(
    stored: ProvenanceGraph,
    replayed: ProvenanceGraph,
    session_id: str,
    written_by: dict[str, int],
    erased_nodes: set[str],
) -> list[Failure]:
    """Compare one session: its member nodes field by field, and every edge touching them."""
    failures: list[Failure] = []
    members_stored = {i for i, n in stored.nodes.items() if n.session_id == session_id}
    members_replayed = {i for i, n in replayed.nodes.items() if n.session_id == session_id}
    for node_id in sorted(members_stored | members_replayed):
        failures.extend(
            _node_failures(
                node_id,
                stored.nodes.get(node_id),
                replayed.nodes.get(node_id),
                written_by.get(node_id),
                erased_nodes,
            )
        )
    members = members_stored | members_replayed

    def touching(graph: ProvenanceGraph) -> set[tuple[str, str, str]]:
        return {
            (e.source_id, e.target_id, e.label)
            for e in graph.edges
            if e.source_id in members or e.target_id in members
        }

    have, want = touching(stored), touching(replayed)
    for edge in sorted(want - have):
        seq = max(written_by.get(edge[0], 0), written_by.get(edge[1], 0)) or None
        failures.append(
            Failure(
                seq, "graph", f"edge {edge[0]} -[{edge[2]}]-> {edge[1]} is missing from the store"
            )
        )
    for edge in sorted(have - want):
        failures.append(
            Failure(
                None,
                "graph",
                f"edge {edge[0]} -[{edge[2]}]-> {edge[1]} is in the store but no entry made it",
            )
        )
    return failures


def _node_failures(
    node_id: str,
    stored: ProvenanceNode | None,
    replayed: ProvenanceNode | None,
    seq: int | None,
    erased_nodes: set[str],
) -> list[Failure]:
    if stored is None:
        return [Failure(seq, "graph", f"node {node_id} is missing from the store")]
    if replayed is None:
        if text_digest(node_id) in erased_nodes:
            return [Failure(None, "erasure", f"node {node_id} was erased but is still stored")]
        return [Failure(None, "graph", f"node {node_id} is in the store but no entry made it")]
    if stored != replayed:
        fields = [
            name
            for name in (
                "type",
                "label",
                "agent_name",
                "run_id",
                "timestamp",
                "data",
                "session_id",
                "content",
                "citation_key",
                "status",
                "error",
            )
            if getattr(stored, name) != getattr(replayed, name)
        ]
        return [
            Failure(
                seq,
                "graph",
                f"node {node_id} differs from the events that wrote it "
                f"(fields: {', '.join(fields)})",
            )
        ]
    return []
