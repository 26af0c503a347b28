"""GraphQL ``Session``: one agent session; its graph is fetched once and shared by fields."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

import strawberry

from provgraph.errors import LimitExceededError
from provgraph.graph import EdgeLabel, ProvenanceGraph, ProvenanceNode
from provgraph.graph import NodeType as DomainNodeType
from provgraph.store.shared import EPOCH
from provgraph.store.types import SessionSummary
from services.api.graphql import report_view, typed
from services.api.graphql.context import GraphQLContext
from services.api.graphql.types.Agent import Agent
from services.api.graphql.types.Edge import Edge
from services.api.graphql.types.Node import Node
from services.api.graphql.types.NodeType import NodeType
from services.api.graphql.types.Run import Run
from services.api.graphql.types.VerdictCount import VerdictCount

MAX_SESSION_NODES = 1000


@strawberry.type(description="An agent session: runs, agents, nodes and edges.")
class Session:
    id: strawberry.ID
    node_count: int
    run_count: int
    agent_names: list[str]
    first_event_at: datetime | None
    last_event_at: datetime | None
    final_output_ids: list[strawberry.ID]

    @classmethod
    def from_summary(cls, summary: SessionSummary) -> Session:
        return cls(
            id=strawberry.ID(summary.id),
            node_count=summary.node_count,
            run_count=summary.run_count,
            agent_names=list(summary.agent_names),
            first_event_at=summary.first_event_at,
            last_event_at=summary.last_event_at,
            final_output_ids=[strawberry.ID(i) for i in summary.final_output_ids],
        )

    async def _members(self, info: strawberry.Info[GraphQLContext, None]) -> list[ProvenanceNode]:
        graph = await info.context.loaders.session_graphs.load(str(self.id))
        return members_of(graph, str(self.id))

    @typed.field()
    async def final_outputs(self, info: strawberry.Info[GraphQLContext, None]) -> list[Node]:
        found = await info.context.loaders.nodes.load_many([str(i) for i in self.final_output_ids])
        return [Node.from_domain(n) for n in found if n is not None]

    @typed.field(
        description="Nodes in time order; `first` at most 1000, then `offset`;"
        " `failed: true` keeps only failed steps."
    )
    async def nodes(
        self,
        info: strawberry.Info[GraphQLContext, None],
        type: NodeType | None = None,
        failed: bool | None = None,
        first: int = 100,
        offset: int = 0,
    ) -> list[Node]:
        if not 1 <= first <= MAX_SESSION_NODES:
            raise LimitExceededError(f"must be between 1 and {MAX_SESSION_NODES}", path="first")
        if offset < 0:
            raise LimitExceededError("must be 0 or more", path="offset")
        members = await self._members(info)
        if type is not None:
            members = [n for n in members if n.type == type]
        if failed is not None:
            members = [n for n in members if n.failed is failed]
        return [Node.from_domain(n) for n in members[offset : offset + first]]

    @typed.field(description="Edges among the session's nodes (at most 5000).")
    async def edges(self, info: strawberry.Info[GraphQLContext, None]) -> list[Edge]:
        graph = await info.context.loaders.session_graphs.load(str(self.id))
        return [Edge.from_domain(e) for e in graph.edges[:5000]]

    @typed.field(
        description="Citation verdicts (those with a count above 0) over the newest report "
        "of each output (one report listing per session)."
    )
    async def verdict_counts(
        self, info: strawberry.Info[GraphQLContext, None]
    ) -> list[VerdictCount]:
        latest = await info.context.loaders.session_reports.load(str(self.id))
        counts: dict[str, int] = defaultdict(int)
        for report in latest.values():
            for verdict, count in report_view.verdict_counts(report.report).items():
                counts[verdict] += count
        return [VerdictCount(verdict=v, count=c) for v, c in sorted(counts.items()) if c > 0]

    @typed.field(description="Agent runs, earliest first.")
    async def runs(self, info: strawberry.Info[GraphQLContext, None]) -> list[Run]:
        by_run: dict[str, list[ProvenanceNode]] = defaultdict(list)
        for node in await self._members(info):
            if node.run_id:
                by_run[node.run_id].append(node)
        runs = [Run.from_nodes(run_id, nodes) for run_id, nodes in by_run.items()]
        return sorted(runs, key=lambda r: (r.started_at or EPOCH, str(r.id)))

    @typed.field(description="Agents by name, with their runs and who delegated to them.")
    async def agents(self, info: strawberry.Info[GraphQLContext, None]) -> list[Agent]:
        graph = await info.context.loaders.session_graphs.load(str(self.id))
        members = members_of(graph, str(self.id))
        runs: dict[str, dict[str, None]] = defaultdict(dict)
        counts: dict[str, int] = defaultdict(int)
        for node in members:
            if node.agent_name:
                counts[node.agent_name] += 1
                if node.run_id:
                    runs[node.agent_name][node.run_id] = None
        delegated: dict[str, set[str]] = defaultdict(set)
        for edge in graph.edges:
            if edge.label != EdgeLabel.DELEGATES_TO.value:
                continue
            source, target = graph.nodes.get(edge.source_id), graph.nodes.get(edge.target_id)
            if (
                source
                and target
                and source.agent_name
                and target.agent_name
                and (source.agent_name != target.agent_name)
            ):
                delegated[target.agent_name].add(source.agent_name)
        return [
            Agent(
                name=name,
                run_ids=list(runs[name]),
                node_count=counts[name],
                delegated_by=sorted(delegated[name]),
            )
            for name in sorted(counts)
        ]


def members_of(graph: ProvenanceGraph, session_id: str) -> list[ProvenanceNode]:
    """The session's own nodes (not placeholders it points at), in time order."""
    members = [n for n in graph.nodes.values() if n.session_id == session_id]
    return sorted(members, key=lambda n: (n.timestamp, n.id))


def summary_from_graph(graph: ProvenanceGraph, session_id: str) -> SessionSummary | None:
    """The summary ``sessions`` lists, computed from one session graph (for ``session(id)``)."""
    members = members_of(graph, session_id)
    if not members:
        return None
    stamps = [n.timestamp for n in members if n.timestamp != EPOCH]
    return SessionSummary(
        id=session_id,
        node_count=len(members),
        run_count=len({n.run_id for n in members if n.run_id}),
        agent_names=tuple(sorted({n.agent_name for n in members if n.agent_name})),
        first_event_at=min(stamps) if stamps else None,
        last_event_at=max(stamps) if stamps else None,
        final_output_ids=tuple(
            sorted(n.id for n in members if n.type == DomainNodeType.FINAL_OUTPUT)
        ),
    )
