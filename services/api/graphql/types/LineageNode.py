"""GraphQL ``LineageNode``: a node reached by a lineage walk and its distance in edges."""

import strawberry

from services.api.graphql.types.Node import Node


@strawberry.type
class LineageNode:
    distance: int
    node: Node
