"""GraphQL input ``ReportFilter``."""

from datetime import datetime

import strawberry

from services.api.graphql.types.Verdict import Verdict


@strawberry.input(description="Narrow a report listing.")
class ReportFilter:
    session_id: str | None = None
    verdict: Verdict | None = strawberry.field(
        default=None, description="Reports with at least one citation of this verdict."
    )
    since: datetime | None = strawberry.field(default=None, description="Created at or after.")
