"""JSON encoding of stored reports and jobs (event log lines, Neo4j properties)."""

from __future__ import annotations

import base64
import json
from datetime import datetime
from typing import Any

from provgraph.errors import ValidationError
from provgraph.store.types import Job, JobState, StoredReport


def report_to_dict(report: StoredReport) -> dict[str, Any]:
    return {
        "output_id": report.output_id,
        "session_id": report.session_id,
        "config_hash": report.config_hash,
        "report": report.report,
        "created_at": report.created_at.isoformat(),
        "version": report.version,
        "verdicts": list(report.verdicts),
        "support_rate": report.support_rate,
    }


def report_from_dict(raw: dict[str, Any]) -> StoredReport:
    return StoredReport(
        output_id=raw["output_id"],
        session_id=raw.get("session_id"),
        config_hash=raw["config_hash"],
        report=raw["report"],
        created_at=datetime.fromisoformat(raw["created_at"]),
        version=int(raw.get("version", 0)),
        verdicts=tuple(raw.get("verdicts", ())),
        support_rate=raw.get("support_rate"),
    )


def job_to_dict(job: Job) -> dict[str, Any]:
    return {
        "id": job.id,
        "output_id": job.output_id,
        "config_hash": job.config_hash,
        "state": job.state.value,
        "created_at": job.created_at.isoformat(),
        "updated_at": job.updated_at.isoformat(),
        "attempts": job.attempts,
        "error": job.error,
        "report_version": job.report_version,
        "extra": job.extra,
    }


def job_from_dict(raw: dict[str, Any]) -> Job:
    return Job(
        id=raw["id"],
        output_id=raw["output_id"],
        config_hash=raw["config_hash"],
        state=JobState(raw["state"]),
        created_at=datetime.fromisoformat(raw["created_at"]),
        updated_at=datetime.fromisoformat(raw["updated_at"]),
        attempts=int(raw.get("attempts", 0)),
        error=raw.get("error"),
        report_version=raw.get("report_version"),
        extra=dict(raw.get("extra") or {}),
    )


def encode_cursor(*parts: str) -> str:
    """Opaque pagination cursor (callers must not parse it)."""
    return base64.urlsafe_b64encode(json.dumps(list(parts)).encode()).decode()


def decode_cursor(cursor: str, *, arity: int) -> list[str]:
    """Parse a cursor made by :func:`encode_cursor`; a bad one is a validation error."""
    try:
        parts = json.loads(base64.urlsafe_b64decode(cursor.encode()))
    except (ValueError, UnicodeDecodeError) as exc:
        raise ValidationError("is not a cursor this API issued", path="after") from exc
    if (
        not isinstance(parts, list)
        or len(parts) != arity
        or not all(isinstance(p, str) for p in parts)
    ):
        raise ValidationError("is not a cursor this API issued", path="after")
    return parts
