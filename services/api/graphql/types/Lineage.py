"""GraphQL ``Lineage``: what a node came from (UP) or what depends on it (DOWN)."""

from __future__ import annotations

import strawberry

from provgraph.store.types import LineageResult
from services.api.graphql.types.Edge import Edge
from services.api.graphql.types.LineageDirection import LineageDirection
from services.api.graphql.types.LineageNode import LineageNode
from services.api.graphql.types.Node import Node


@strawberry.type
class Lineage:
    root: Node
    direction: LineageDirection
    nodes: list[LineageNode]
    edges: list[Edge]
    truncated: bool

    @classmethod
    def from_domain(cls, found: LineageResult) -> Lineage:
        return cls(
            root=Node.from_domain(found.root),
            direction=found.direction,
            nodes=[
                LineageNode(distance=found.distances.get(n.id, 0), node=Node.from_domain(n))
                for n in found.nodes
            ],
            edges=[Edge.from_domain(e) for e in found.edges],
            truncated=found.truncated,
        )
