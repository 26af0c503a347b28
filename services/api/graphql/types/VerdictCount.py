"""GraphQL ``VerdictCount``: how many citations of a report got one verdict."""

import strawberry


@strawberry.type
class VerdictCount:
    verdict: str
    count: int
