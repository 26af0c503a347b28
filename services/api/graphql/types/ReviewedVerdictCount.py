"""GraphQL ``ReviewedVerdictCount``: citations per verdict, by machine and after review."""

import strawberry


@strawberry.type
class ReviewedVerdictCount:
    verdict: str
    machine: int = strawberry.field(description="Citations the engine gave this verdict.")
    effective: int = strawberry.field(description="Citations with this verdict after reviews.")
