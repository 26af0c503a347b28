"""GraphQL ``Attribution``: an output's sources and the bounded paths that connect them."""

from __future__ import annotations

import strawberry

from provgraph.store.types import SourcePaths
from services.api.graphql.types.AttributionPath import AttributionPath
from services.api.graphql.types.Node import Node


@strawberry.type(description="Where an output came from; `truncated` says a bound cut it short.")
class Attribution:
    output: Node
    sources: list[Node]
    paths: list[AttributionPath]
    truncated: bool

    @classmethod
    def from_domain(cls, found: SourcePaths) -> Attribution:
        nodes = {i: Node.from_domain(n) for i, n in found.nodes.items()}
        nodes.setdefault(found.output.id, Node.from_domain(found.output))
        paths = [
            AttributionPath(
                node_ids=[strawberry.ID(i) for i in path],
                nodes=[nodes[i] for i in path],
                hop_count=len(path) - 1,
                source=nodes[path[0]],
            )
            for path in found.paths
        ]
        return cls(
            output=nodes[found.output.id],
            sources=[Node.from_domain(s) for s in found.sources],
            paths=paths,
            truncated=found.truncated,
        )
