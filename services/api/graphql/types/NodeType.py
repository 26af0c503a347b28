"""GraphQL enum ``NodeType``: the eight node types (the domain enum, registered as-is)."""

import strawberry

from provgraph.graph import NodeType

strawberry.enum(NodeType, name="NodeType", description="What a node records.")

__all__ = ["NodeType"]
