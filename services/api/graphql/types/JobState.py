"""GraphQL enum ``JobState``: where a verification job is."""

import strawberry

from provgraph.store.types import JobState

strawberry.enum(JobState, name="JobState")

__all__ = ["JobState"]
