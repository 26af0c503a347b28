"""GraphQL enum ``JobState``: where a verification job is."""

import strawberry

from provgraph.store.types import JobState as DomainJobState

JobState = strawberry.enum(DomainJobState, name="JobState")
