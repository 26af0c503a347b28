"""The per-project audit chain: entries, how each is sealed, what each kind records.

An entry's ``hash`` is ``digest({project, seq, kind, at, header, prev})``: it
covers the previous entry's hash, so removing, reordering or editing any entry
breaks every later link. The ``header`` holds only digests and counts (never
content); the ``payload`` holds what the header's digests are of (the accepted
events, a report's identity, a review) and is kept beside the entry, outside
the hash, so that an erasure can drop content while the chain still verifies:
the tombstone entry lists the digests of what was dropped.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from provgraph.audit.canonical import digest, exact_canonical_json

GENESIS = "0" * 64
"""``prev`` of a project's first entry."""


class EntryKind(StrEnum):
    INGEST = "ingest"
    REPORT = "report"
    REVIEW = "review"
    ERASURE = "erasure"
    CHECKPOINT = "checkpoint"


@dataclass(frozen=True)
class AuditEntry:
    """One sealed entry; ``payload`` may be None (or hold ``None`` events) after erasure."""

    project: str
    seq: int
    kind: str
    at: str
    header: dict[str, Any]
    prev: str
    hash: str
    payload: dict[str, Any] | None = None

    def sealed_fields(self) -> dict[str, Any]:
        """What the hash covers (everything but the hash and the payload)."""
        return {
            "project": self.project,
            "seq": self.seq,
            "kind": self.kind,
            "at": self.at,
            "header": self.header,
            "prev": self.prev,
        }

    def recomputed_hash(self) -> str:
        return digest(self.sealed_fields())

    def to_dict(self) -> dict[str, Any]:
        return {**self.sealed_fields(), "hash": self.hash, "payload": self.payload}

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> AuditEntry:
        return cls(
            project=str(raw["project"]),
            seq=int(raw["seq"]),
            kind=str(raw["kind"]),
            at=str(raw["at"]),
            header=dict(raw["header"]),
            prev=str(raw["prev"]),
            hash=str(raw["hash"]),
            payload=raw.get("payload"),
        )


@dataclass(frozen=True)
class PendingEntry:
    """An entry before sealing: the store seals it under its lock, after the head."""

    kind: EntryKind
    header: dict[str, Any]
    payload: dict[str, Any] | None


def now_text() -> str:
    """Entry time: fixed-width UTC text (sorts as time)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def seal(
    project: str, head: tuple[int, str], pending: PendingEntry, at: str | None = None
) -> AuditEntry:
    """Seal ``pending`` after the head ``(seq, hash)`` (``(0, GENESIS)`` when empty)."""
    seq, prev = head
    unsealed = AuditEntry(
        project=project,
        seq=seq + 1,
        kind=pending.kind.value,
        at=at or now_text(),
        header=pending.header,
        prev=prev,
        hash="",
        payload=pending.payload,
    )
    return AuditEntry(**{**unsealed.__dict__, "hash": unsealed.recomputed_hash()})


# ---------------------------------------------------------------------- what each kind records
def ingest_entry(events: list[dict[str, Any]]) -> PendingEntry:
    """An accepted batch: the digest of each event's canonical JSON, in acceptance order."""
    return PendingEntry(
        EntryKind.INGEST, {"events": [digest(e) for e in events]}, {"events": list(events)}
    )


def encoded_ingest_entry(events: list[dict[str, Any]]) -> tuple[PendingEntry, bytes]:
    """:func:`ingest_entry` and its payload's JSON text, from one serialisation per event.

    Each event's canonical bytes are hashed and, when they are a faithful JSON
    text of the event (:func:`~provgraph.audit.canonical.exact_canonical_json`),
    reused as its element of the payload; otherwise (an integer beyond I-JSON's
    range, which the digest takes as a string) the element is the plain JSON.
    The payload parses back to ``events`` either way, so the chain's verifier
    (which re-hashes the parsed payload) is unchanged; only the stored text's
    key order differs from ``json.dumps(payload)``.
    """
    digests: list[str] = []
    parts: list[bytes] = []
    for event in events:
        exact = exact_canonical_json(event)
        if exact is None:
            digests.append(digest(event))
            parts.append(json.dumps(event, ensure_ascii=False, separators=(",", ":")).encode())
        else:
            digests.append(hashlib.sha256(exact).hexdigest())
            parts.append(exact)
    pending = PendingEntry(EntryKind.INGEST, {"events": digests}, {"events": list(events)})
    return pending, b'{"events":[' + b",".join(parts) + b"]}"


def report_key(output_id: str, config_hash: str) -> str:
    return digest([output_id, config_hash])


def report_entry(report: dict[str, Any]) -> PendingEntry:
    """A stored report (``codec.report_to_dict`` form): its digest and its key's digest."""
    output_id, config_hash = str(report["output_id"]), str(report["config_hash"])
    header = {"report": digest(report), "key": report_key(output_id, config_hash)}
    payload = {"output_id": output_id, "config_hash": config_hash, "version": report["version"]}
    return PendingEntry(EntryKind.REPORT, header, payload)


def review_entry(review: dict[str, Any]) -> PendingEntry:
    """A stored review: its digest; the review itself is the payload."""
    return PendingEntry(EntryKind.REVIEW, {"review": digest(review)}, {"review": review})
