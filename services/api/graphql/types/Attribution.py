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
    failed_steps: list[Node] = strawberry.field(
        description="Distinct failed nodes on any path, in order of first appearance."
    )

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
                failed_steps=[nodes[i] for i in path if nodes[i].failed],
            )
            for path in found.paths
        ]
        on_paths = dict.fromkeys(i for path in found.paths for i in path)
        return cls(
            output=nodes[found.output.id],
            sources=[Node.from_domain(s) for s in found.sources],
            paths=paths,
            truncated=found.truncated,
            failed_steps=[nodes[i] for i in on_paths if nodes[i].failed],
        )
