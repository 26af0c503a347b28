"""GraphQL ``CitationVerdict``: a key's verdict in the latest report of one citing output."""

import strawberry


@strawberry.type
class CitationVerdict:
    output_id: strawberry.ID
    report_version: int
    verdict: str | None
    confidence: float | None
    claim: str | None
    effective_verdict: str | None = strawberry.field(
        default=None, description="After the latest human review (else the machine verdict)."
    )
    overridden: bool = False
