"""Human review as provenance: confirm or override one citation check's verdict.

A review judges one check (a tag's key against its source) of one report
version, carries a required note, the reviewer (an API key's name) and the
time, and is never edited: a later review of the same check supersedes it.
Checks are matched across report versions by their key and claim text, so a
re-verified report shows the earlier judgement ("reviewed on version N").
The machine verdict always stays visible beside the effective one.
"""

from __future__ import annotations

import uuid
from collections import Counter
from dataclasses import dataclass
from typing import Any

from provgraph.audit.canonical import digest
from provgraph.audit.chain import now_text
from provgraph.errors import NotFoundError, ValidationError
from provgraph.store.audit_types import Review, ReviewAction
from provgraph.store.port import AsyncGraphStore, GraphStore
from provgraph.store.types import StoredReport

VERDICTS = ("supported", "weak", "unsupported", "contradicted", "unverifiable")
MAX_NOTE_CHARS = 4000


def _checks(report: StoredReport) -> list[dict[str, Any]]:
    checks = report.report.get("checks")
    return [c for c in checks if isinstance(c, dict)] if isinstance(checks, list) else []


def check_ref(check: dict[str, Any]) -> str:
    """Identity of a check across report versions: its key and its claim's text."""
    claim = check.get("claim")
    text = claim.get("text") if isinstance(claim, dict) else claim
    return digest({"key": check.get("key"), "claim": text})


def _find_check(report: StoredReport, tag_index: int, key: str | None) -> dict[str, Any]:
    matches = [
        c
        for c in _checks(report)
        if c.get("tag_index") == tag_index and (key is None or c.get("key") == key)
    ]
    where = f"report {report.output_id} v{report.version}"
    if not matches:
        wanted = f"tag {tag_index}" + (f" key {key!r}" if key else "")
        raise NotFoundError(f"{where} has no citation check for {wanted}")
    if len(matches) > 1:
        keys = ", ".join(str(c.get("key")) for c in matches)
        raise ValidationError(
            f"key: tag {tag_index} of {where} cites several keys ({keys}); name one"
        )
    return matches[0]


def _decided_verdict(action: ReviewAction, machine: str, verdict: str | None) -> str:
    if action == ReviewAction.CONFIRM:
        if verdict is not None and verdict != machine:
            raise ValidationError(
                f"verdict: confirming keeps the machine verdict '{machine}'; "
                f"use action 'override' to set '{verdict}'"
            )
        return machine
    if verdict is None:
        raise ValidationError("verdict: an override must name the verdict it sets")
    if verdict not in VERDICTS:
        raise ValidationError(f"verdict: '{verdict}' is not one of {', '.join(VERDICTS)}")
    if verdict == machine:
        raise ValidationError(f"verdict: '{verdict}' is the machine verdict; use 'confirm'")
    return verdict


@dataclass(frozen=True)
class ReviewRequest:
    """What a reviewer asks for (validated by :func:`build_review`)."""

    output_id: str
    tag_index: int
    action: str
    note: str
    reviewer: str
    key: str | None = None
    verdict: str | None = None
    version: int | None = None


def build_review(
    request: ReviewRequest, report: StoredReport | None, earlier: list[Review]
) -> Review:
    """The review to store, or a ValidationError/NotFoundError saying what is wrong.

    Pure: callers (sync CLI, async API) load the report and the output's
    existing reviews and store the result.
    """
    note = request.note.strip()
    if not note:
        raise ValidationError("note: a review needs a note saying why")
    if len(note) > MAX_NOTE_CHARS:
        raise ValidationError(f"note: at most {MAX_NOTE_CHARS} characters")
    try:
        action = ReviewAction(request.action)
    except ValueError:
        raise ValidationError(
            f"action: '{request.action}' is not 'confirm' or 'override'"
        ) from None
    if report is None:
        which = f"version {request.version}" if request.version is not None else "any report"
        raise NotFoundError(f"output '{request.output_id}' has no {which}")
    check = _find_check(report, request.tag_index, request.key)
    machine = str(check.get("verdict"))
    ref = check_ref(check)
    same = [r for r in earlier if r.check_ref == ref]
    return Review(
        id=f"rev-{uuid.uuid4().hex}",
        output_id=request.output_id,
        session_id=report.session_id,
        report_version=report.version,
        tag_index=request.tag_index,
        key=str(check.get("key")),
        check_ref=ref,
        action=action,
        machine_verdict=machine,
        verdict=_decided_verdict(action, machine, request.verdict),
        note=note,
        reviewer=request.reviewer,
        created_at=now_text(),
        supersedes=same[-1].id if same else None,
    )


def review_citation(store: GraphStore, project: str, request: ReviewRequest) -> Review:
    """Record a review of one check of a report version (the newest when no version)."""
    report = store.get_report(project, request.output_id, request.version)
    earlier = store.list_reviews(project, request.output_id)
    return store.save_review(project, build_review(request, report, earlier))


async def review_citation_async(
    store: AsyncGraphStore, project: str, request: ReviewRequest
) -> Review:
    """:func:`review_citation` on the async port (the API)."""
    report = await store.get_report(project, request.output_id, request.version)
    earlier = await store.list_reviews(project, request.output_id)
    return await store.save_review(project, build_review(request, report, earlier))


@dataclass(frozen=True)
class ReviewedCheck:
    """One check as a reader sees it: the machine verdict, the effective one, the review."""

    tag_index: int
    key: str
    machine_verdict: str
    effective_verdict: str
    review: Review | None

    @property
    def overridden(self) -> bool:
        return self.review is not None and self.review.action == ReviewAction.OVERRIDE

    @property
    def reviewed_on_version(self) -> int | None:
        return self.review.report_version if self.review else None


def reviewed_checks(report: StoredReport, reviews: list[Review]) -> list[ReviewedCheck]:
    """Apply each check's latest review made on this version or an earlier one."""
    latest: dict[str, Review] = {}
    for review in sorted(reviews, key=lambda r: (r.created_at, r.id)):
        if review.output_id == report.output_id and review.report_version <= report.version:
            latest[review.check_ref] = review
    result = []
    for check in _checks(report):
        applying = latest.get(check_ref(check))
        machine = str(check.get("verdict"))
        result.append(
            ReviewedCheck(
                tag_index=int(check.get("tag_index", -1)),
                key=str(check.get("key")),
                machine_verdict=machine,
                effective_verdict=applying.verdict if applying else machine,
                review=applying,
            )
        )
    return result


def verdict_counts(checks: list[ReviewedCheck]) -> dict[str, dict[str, int]]:
    """Counts by machine verdict and by effective verdict, plus how many were overridden."""
    return {
        "machine": dict(Counter(c.machine_verdict for c in checks)),
        "effective": dict(Counter(c.effective_verdict for c in checks)),
        "reviewed": {
            "reviewed": sum(c.review is not None for c in checks),
            "overridden": sum(c.overridden for c in checks),
        },
    }
