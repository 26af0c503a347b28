"""GraphQL input ``SessionFilter``."""

from __future__ import annotations

from datetime import UTC, datetime

import strawberry

from provgraph.errors import LimitExceededError
from provgraph.store.types import SessionFilter as DomainSessionFilter
from services.api.graphql.types.Verdict import Verdict

MAX_SEARCH_CHARS = 200


@strawberry.input(description="Narrow a session listing.")
class SessionFilter:
    agent_name: str | None = None
    since: datetime | None = strawberry.field(
        default=None, description="Only sessions with an event at or after this time."
    )
    until: datetime | None = strawberry.field(
        default=None, description="Only sessions with an event at or before this time."
    )
    verdict: Verdict | None = strawberry.field(
        default=None,
        description="Only sessions where the newest report of an output has this verdict.",
    )
    search: str | None = strawberry.field(
        default=None,
        description="Case-insensitive text in a node's label or content (at most 200 chars).",
    )

    def to_domain(self) -> DomainSessionFilter:
        """Validate bounds (naming the field) and build the store's filter."""
        if self.search is not None and len(self.search) > MAX_SEARCH_CHARS:
            raise LimitExceededError(
                f"must be at most {MAX_SEARCH_CHARS} characters", path="filter.search"
            )
        since, until = _utc(self.since), _utc(self.until)
        if since is not None and until is not None and since > until:
            raise LimitExceededError("must not be after filter.until", path="filter.since")
        return DomainSessionFilter(
            agent_name=self.agent_name,
            since=since,
            until=until,
            verdict=self.verdict.value if self.verdict else None,
            text=self.search.strip() or None if self.search else None,
        )


def _utc(moment: datetime | None) -> datetime | None:
    """A time without a zone is UTC (as ingestion reads it), never the server's local time."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)
