"""Query fields the web console needs beyond the data itself (kept apart from ``Query``)."""

from __future__ import annotations

import strawberry

from provgraph.usecases.roles import Permission
from services.api.graphql import typed
from services.api.graphql.context import GraphQLContext
from services.api.graphql.types.Viewer import Viewer

Info = strawberry.Info[GraphQLContext, None]


@strawberry.type
class ConsoleQueries:
    @typed.field(description="The caller's key: project, role and what it may do.")
    def viewer(self, info: Info) -> Viewer:
        return Viewer.from_principal(info.context.require(Permission.READ))
