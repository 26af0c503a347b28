"""GraphQL ``Job``: a verification job and, once done, its report."""

from __future__ import annotations

from datetime import datetime

import strawberry

from provgraph.store.types import Job as DomainJob
from services.api.graphql import typed
from services.api.graphql.context import GraphQLContext
from services.api.graphql.types.JobState import JobState
from services.api.graphql.types.VerificationReport import VerificationReport


@strawberry.type(description="A verification job; its state lives in the graph store.")
class Job:
    id: strawberry.ID
    output_id: strawberry.ID
    state: JobState
    attempts: int
    error: str | None
    created_at: datetime
    updated_at: datetime
    report_version: int | None

    @classmethod
    def from_domain(cls, job: DomainJob) -> Job:
        return cls(
            id=strawberry.ID(job.id),
            output_id=strawberry.ID(job.output_id),
            state=job.state,
            attempts=job.attempts,
            error=job.error,
            created_at=job.created_at,
            updated_at=job.updated_at,
            report_version=job.report_version,
        )

    @typed.field(description="The report this job produced (null until it is done).")
    async def report(
        self, info: strawberry.Info[GraphQLContext, None]
    ) -> VerificationReport | None:
        if self.report_version is None:
            return None
        ctx = info.context
        stored = await ctx.store.get_report(ctx.project, str(self.output_id), self.report_version)
        return VerificationReport.from_domain(stored) if stored else None
