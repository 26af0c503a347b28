"""GraphQL ``Node``: one provenance node, addressed by the id given at ingestion."""

from __future__ import annotations

from datetime import datetime
from typing import cast

import strawberry
from strawberry.scalars import JSON

from provgraph.graph import ProvenanceNode
from services.api.graphql import typed
from services.api.graphql.context import GraphQLContext
from services.api.graphql.types.NodeError import NodeError
from services.api.graphql.types.NodeStatus import NodeStatus
from services.api.graphql.types.NodeType import NodeType

MAX_NEIGHBOURS = 500


@strawberry.type(description="One thing that happened, or one piece of data, in a session.")
class Node:
    id: strawberry.ID
    type: NodeType | None = strawberry.field(description="Null while the node is a placeholder.")
    label: str
    agent_name: str
    run_id: str
    timestamp: datetime
    session_id: str | None
    content: str | None
    citation_key: str | None
    data: JSON
    is_placeholder: bool
    status: NodeStatus | None = strawberry.field(
        description="How the step ended; null when nobody reported it."
    )
    error: NodeError | None = strawberry.field(description="Why the step failed, if it did.")
    failed: bool = strawberry.field(description="True when `status` is ERROR.")

    @classmethod
    def from_domain(cls, node: ProvenanceNode) -> Node:
        return cls(
            id=strawberry.ID(node.id),
            type=node.type,
            label=node.label,
            agent_name=node.agent_name,
            run_id=node.run_id,
            timestamp=node.timestamp,
            session_id=node.session_id,
            content=node.content,
            citation_key=node.citation_key,
            data=cast(JSON, node.data),
            is_placeholder=node.is_placeholder,
            status=node.status,
            error=NodeError.from_domain(node.error),
            failed=node.failed,
        )

    @typed.field(description="Nodes with an edge into this one (at most 500).")
    async def parents(self, info: strawberry.Info[GraphQLContext, None]) -> list[Node]:
        edges = await info.context.loaders.node_edges.load(str(self.id))
        ids = [e.source_id for e in edges if e.target_id == self.id][:MAX_NEIGHBOURS]
        return await _load(info, ids)

    @typed.field(description="Nodes this one has an edge to (at most 500).")
    async def children(self, info: strawberry.Info[GraphQLContext, None]) -> list[Node]:
        edges = await info.context.loaders.node_edges.load(str(self.id))
        ids = [e.target_id for e in edges if e.source_id == self.id][:MAX_NEIGHBOURS]
        return await _load(info, ids)


async def _load(info: strawberry.Info[GraphQLContext, None], ids: list[str]) -> list[Node]:
    unique = list(dict.fromkeys(ids))
    found = await info.context.loaders.nodes.load_many(unique)
    return [Node.from_domain(n) for n in found if n is not None]
