"""GraphQL ``ReviewedCitation``: a check's machine verdict beside its effective verdict."""

from __future__ import annotations

import strawberry

from provgraph.usecases.reviews import ReviewedCheck
from services.api.graphql.types.CitationReview import CitationReview


@strawberry.type(description="One citation check with the review that applies to it, if any.")
class ReviewedCitation:
    tag_index: int
    key: str
    machine_verdict: str
    effective_verdict: str = strawberry.field(description="The latest review's, else machine's.")
    overridden: bool
    reviewed_on_version: int | None = strawberry.field(
        description="Report version the applying review was made on (earlier = re-verified since)."
    )
    review: CitationReview | None

    @classmethod
    def from_domain(cls, check: ReviewedCheck) -> ReviewedCitation:
        return cls(
            tag_index=check.tag_index,
            key=check.key,
            machine_verdict=check.machine_verdict,
            effective_verdict=check.effective_verdict,
            overridden=check.overridden,
            reviewed_on_version=check.reviewed_on_version,
            review=CitationReview.from_domain(check.review) if check.review else None,
        )
