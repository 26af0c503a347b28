"""GraphQL ``Run``: the nodes of one agent run inside a session."""

from __future__ import annotations

from datetime import datetime

import strawberry

from provgraph.graph import ProvenanceNode
from services.api.graphql.types.Node import Node


@strawberry.type(description="One agent run (nodes sharing a run id) within a session.")
class Run:
    id: strawberry.ID
    agent_name: str
    started_at: datetime | None
    ended_at: datetime | None
    node_count: int
    nodes: list[Node]

    @classmethod
    def from_nodes(cls, run_id: str, members: list[ProvenanceNode]) -> Run:
        members = sorted(members, key=lambda n: (n.timestamp, n.id))
        agents = sorted({n.agent_name for n in members if n.agent_name})
        return cls(
            id=strawberry.ID(run_id),
            agent_name=agents[0] if agents else "",
            started_at=members[0].timestamp if members else None,
            ended_at=members[-1].timestamp if members else None,
            node_count=len(members),
            nodes=[Node.from_domain(n) for n in members],
        )
