"""GraphQL enum ``NodeType``: the eight node types of the provenance graph."""

import strawberry

from provgraph.graph import NodeType as DomainNodeType

NodeType = strawberry.enum(DomainNodeType, name="NodeType", description="What a node records.")
