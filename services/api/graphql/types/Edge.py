"""GraphQL ``Edge``: a directed provenance edge (data flows from source to target)."""

from __future__ import annotations

import strawberry

from provgraph.graph import ProvenanceEdge
from services.api.graphql import typed
from services.api.graphql.context import GraphQLContext
from services.api.graphql.types.Node import Node


@strawberry.type
class Edge:
    source_id: strawberry.ID
    target_id: strawberry.ID
    label: str

    @classmethod
    def from_domain(cls, edge: ProvenanceEdge) -> Edge:
        return cls(
            source_id=strawberry.ID(edge.source_id),
            target_id=strawberry.ID(edge.target_id),
            label=edge.label,
        )

    @typed.field()
    async def source(self, info: strawberry.Info[GraphQLContext, None]) -> Node | None:
        node = await info.context.loaders.nodes.load(str(self.source_id))
        return Node.from_domain(node) if node else None

    @typed.field()
    async def target(self, info: strawberry.Info[GraphQLContext, None]) -> Node | None:
        node = await info.context.loaders.nodes.load(str(self.target_id))
        return Node.from_domain(node) if node else None
