"""GraphQL ``AttributionPath``: one chain from a source (first) to the output (last)."""

import strawberry

from services.api.graphql.types.Node import Node


@strawberry.type
class AttributionPath:
    node_ids: list[strawberry.ID]
    nodes: list[Node]
    hop_count: int
    source: Node
    failed_steps: list[Node] = strawberry.field(
        description="Nodes on this path whose step failed (a tool that raised, a retried call)."
    )
