"""Mount GraphQL at ``/graphql``: POST for queries (authenticated), GET for GraphiQL,
and WebSocket subscriptions (``graphql-transport-ws``, the key in ``connection_init``)."""

from __future__ import annotations

from datetime import timedelta

from strawberry.exceptions import ConnectionRejectionError
from strawberry.fastapi import GraphQLRouter
from strawberry.subscriptions import GRAPHQL_TRANSPORT_WS_PROTOCOL
from strawberry.types.unset import UnsetType

from provgraph.errors import ProvgraphError
from services.api.graphql.context import GraphQLContext, get_context
from services.api.graphql.schema import schema

MAX_SUBSCRIPTIONS_PER_CONNECTION = 10
"""A console page holds two or three; the bound keeps one socket from fanning out polls."""


class _Router(GraphQLRouter[GraphQLContext, None]):
    async def on_ws_connect(self, context: GraphQLContext) -> UnsetType | dict[str, object] | None:
        """Refuse the socket (close 4403) unless the payload carries a key that may read."""
        try:
            await context.accept_websocket()
        except ProvgraphError as exc:
            raise ConnectionRejectionError({"message": str(exc)}) from exc
        principal = context.principal
        assert principal is not None
        return {"project": principal.project, "role": str(principal.role)}


def graphql_router() -> GraphQLRouter[GraphQLContext, None]:
    """Queries over GET are off: a GET only renders GraphiQL, so no key travels in a URL."""
    return _Router(
        schema,
        context_getter=get_context,
        graphql_ide="graphiql",
        allow_queries_via_get=False,
        subscription_protocols=(GRAPHQL_TRANSPORT_WS_PROTOCOL,),
        connection_init_wait_timeout=timedelta(seconds=10),
        max_subscriptions_per_connection=MAX_SUBSCRIPTIONS_PER_CONNECTION,
    )
