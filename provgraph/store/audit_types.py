"""Stored records of the audit trail: reviews and erasures (shared by both adapters).

Plain frozen dataclasses, JSON-able by ``to_dict``, so that the embedded log,
Neo4j properties and the audit chain's digests all see the same bytes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from provgraph.audit.chain import AuditEntry, PendingEntry


class ReviewAction(StrEnum):
    CONFIRM = "confirm"
    OVERRIDE = "override"


@dataclass(frozen=True)
class Review:
    """A human judgement on one citation check of one report version.

    Never edited: a later review of the same check names the one it
    ``supersedes``. ``check_ref`` identifies the check across report versions
    (digest of its key and claim text), so a review survives re-verification.
    ``reviewer`` is the API key's *name* (never its secret); ``created_at`` is
    fixed-width UTC text.
    """

    id: str
    output_id: str
    session_id: str | None
    report_version: int
    tag_index: int
    key: str
    check_ref: str
    action: ReviewAction
    machine_verdict: str
    verdict: str
    note: str
    reviewer: str
    created_at: str
    supersedes: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "output_id": self.output_id,
            "session_id": self.session_id,
            "report_version": self.report_version,
            "tag_index": self.tag_index,
            "key": self.key,
            "check_ref": self.check_ref,
            "action": self.action.value,
            "machine_verdict": self.machine_verdict,
            "verdict": self.verdict,
            "note": self.note,
            "reviewer": self.reviewer,
            "created_at": self.created_at,
            "supersedes": self.supersedes,
        }

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Review:
        return cls(
            id=str(raw["id"]),
            output_id=str(raw["output_id"]),
            session_id=raw.get("session_id"),
            report_version=int(raw["report_version"]),
            tag_index=int(raw["tag_index"]),
            key=str(raw["key"]),
            check_ref=str(raw["check_ref"]),
            action=ReviewAction(raw["action"]),
            machine_verdict=str(raw["machine_verdict"]),
            verdict=str(raw["verdict"]),
            note=str(raw["note"]),
            reviewer=str(raw["reviewer"]),
            created_at=str(raw["created_at"]),
            supersedes=raw.get("supersedes"),
        )


@dataclass(frozen=True)
class Erasure:
    """What one erasure removes, decided by the use case; the store applies it atomically.

    ``redactions`` maps an ingest entry's ``seq`` to the positions of its
    payload events to drop; ``dropped_payloads`` are entries whose whole
    payload goes (reports, reviews of erased outputs). ``tombstone`` is the
    erasure entry (digests only) sealed in the same transaction.
    """

    node_ids: tuple[str, ...]
    event_ids: tuple[str, ...]
    report_outputs: tuple[str, ...]
    redactions: dict[int, tuple[int, ...]]
    dropped_payloads: tuple[int, ...]
    tombstone: PendingEntry


@dataclass(frozen=True)
class ErasureResult:
    nodes: int
    reports: int
    jobs: int
    reviews: int
    entry: AuditEntry
    extra: dict[str, Any] = field(default_factory=dict)
