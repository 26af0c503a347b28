"""GraphQL ``Mutation``: requesting verification (admin keys only)."""

from __future__ import annotations

import strawberry

from provgraph.errors import NotFoundError
from provgraph.usecases.roles import Permission
from services.api.graphql import typed
from services.api.graphql.context import GraphQLContext
from services.api.graphql.types.Job import Job

Info = strawberry.Info[GraphQLContext, None]


@strawberry.type
class Mutation:
    @typed.mutation(description="Queue verification of an output; returns the job.")
    async def request_verification(self, info: Info, output_id: strawberry.ID) -> Job:
        ctx = info.context
        principal = ctx.require(Permission.REQUEST_VERIFICATION)
        node = await ctx.store.get_node(principal.project, str(output_id))
        if node is None or node.is_placeholder:
            raise NotFoundError(f"outputId: no node '{output_id}' in this project")
        job = await ctx.state.verifier.request(principal.project, str(output_id))
        ctx.state.metrics.jobs_requested.inc()
        return Job.from_domain(job)
