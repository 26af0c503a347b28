"""GraphQL ``Mutation``: requesting verification (admin keys), reviewing verdicts (review keys)."""

from __future__ import annotations

import strawberry

from provgraph.errors import NotFoundError
from provgraph.usecases.reviews import ReviewRequest, review_citation_async
from provgraph.usecases.roles import Permission
from services.api.graphql import typed
from services.api.graphql.context import GraphQLContext
from services.api.graphql.input_types.ReviewCitationInput import ReviewCitationInput
from services.api.graphql.types.CitationReview import CitationReview
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

    @typed.mutation(description="Confirm or override a citation's verdict (review or admin key).")
    async def review_citation(self, info: Info, input: ReviewCitationInput) -> CitationReview:
        ctx = info.context
        principal = ctx.require(Permission.REVIEW)
        request = ReviewRequest(
            output_id=str(input.output_id),
            tag_index=input.tag_index,
            action=input.action,
            note=input.note,
            reviewer=principal.key_name or principal.key_id or "local-dev",
            key=input.key,
            verdict=input.verdict,
            version=input.version,
        )
        review = await review_citation_async(ctx.store, principal.project, request)
        return CitationReview.from_domain(review)
