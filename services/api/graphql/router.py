"""Mount GraphQL at ``/graphql``: POST for queries (authenticated), GET for GraphiQL."""

from __future__ import annotations

from strawberry.fastapi import GraphQLRouter

from services.api.graphql.context import GraphQLContext, get_context
from services.api.graphql.schema import schema


def graphql_router() -> GraphQLRouter[GraphQLContext, None]:
    """Queries over GET are off: a GET only renders GraphiQL, so no key travels in a URL."""
    return GraphQLRouter(
        schema,
        context_getter=get_context,
        graphql_ide="graphiql",
        allow_queries_via_get=False,
        subscription_protocols=(),
    )
