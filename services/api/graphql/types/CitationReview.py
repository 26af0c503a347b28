"""GraphQL ``CitationReview``: a human judgement on one citation check (never edited)."""

from __future__ import annotations

import strawberry

from provgraph.store.audit_types import Review


@strawberry.type(description="A reviewer's confirm or override of one check, with the note.")
class CitationReview:
    id: strawberry.ID
    output_id: strawberry.ID
    report_version: int = strawberry.field(description="The report version it judged.")
    tag_index: int
    key: str
    action: str = strawberry.field(description="confirm or override.")
    machine_verdict: str
    verdict: str = strawberry.field(description="The verdict it sets (machine's when confirm).")
    note: str
    reviewer: str = strawberry.field(description="The API key's name (never the secret).")
    created_at: str = strawberry.field(description="UTC, fixed-width text.")
    supersedes: strawberry.ID | None = strawberry.field(description="The earlier review of it.")

    @classmethod
    def from_domain(cls, review: Review) -> CitationReview:
        return cls(
            id=strawberry.ID(review.id),
            output_id=strawberry.ID(review.output_id),
            report_version=review.report_version,
            tag_index=review.tag_index,
            key=review.key,
            action=review.action.value,
            machine_verdict=review.machine_verdict,
            verdict=review.verdict,
            note=review.note,
            reviewer=review.reviewer,
            created_at=review.created_at,
            supersedes=strawberry.ID(review.supersedes) if review.supersedes else None,
        )
