"""GraphQL ``Query``: every read, scoped to the caller's project by the context.

Ids are the node ids given at ingestion. Bounds (depth, paths, page size) are
validated here or by the store and reported with the argument's name.
"""

from __future__ import annotations

import strawberry

from provgraph.errors import LimitExceededError
from provgraph.store.types import (
    AttributionQuery,
    LineageDirection,
    Page,
    ReportFilter,
    SessionSummary,
    StoredReport,
    bounded_int,
)
from services.api.graphql import pagination, typed
from services.api.graphql.console_queries import ConsoleQueries
from services.api.graphql.context import GraphQLContext
from services.api.graphql.input_types.ReportFilter import ReportFilter as ReportFilterInput
from services.api.graphql.input_types.SessionFilter import SessionFilter as SessionFilterInput
from services.api.graphql.types.Attribution import Attribution
from services.api.graphql.types.CitationKeySummary import CitationKeySummary
from services.api.graphql.types.Job import Job
from services.api.graphql.types.Lineage import Lineage
from services.api.graphql.types.LineageDirection import LineageDirection as DirectionEnum
from services.api.graphql.types.Node import Node
from services.api.graphql.types.PageInfo import PageInfo
from services.api.graphql.types.Session import Session, summary_from_graph
from services.api.graphql.types.SessionConnection import SessionConnection
from services.api.graphql.types.SessionEdge import SessionEdge
from services.api.graphql.types.VerificationReport import VerificationReport
from services.api.graphql.types.VerificationReportConnection import VerificationReportConnection
from services.api.graphql.types.VerificationReportEdge import VerificationReportEdge

Info = strawberry.Info[GraphQLContext, None]
MAX_API_PATHS = 1000
MAX_API_LINEAGE_LIMIT = 1000
MAX_ID_CHARS = 256


def _id(value: str, name: str) -> str:
    if not 1 <= len(value) <= MAX_ID_CHARS:
        raise LimitExceededError(f"must be 1..{MAX_ID_CHARS} characters", path=name)
    return value


@strawberry.type
class Query(ConsoleQueries):
    @typed.field(description="One session by id (null when it has no events here).")
    async def session(self, info: Info, id: strawberry.ID) -> Session | None:
        session_id = _id(str(id), "id")
        graph = await info.context.loaders.session_graphs.load(session_id)
        summary = summary_from_graph(graph, session_id)
        return Session.from_summary(summary) if summary else None

    @typed.field(description="Sessions, newest first; `first` at most 100.")
    async def sessions(
        self,
        info: Info,
        first: int | None = None,
        after: str | None = None,
        filter: SessionFilterInput | None = None,
    ) -> SessionConnection:
        ctx = info.context
        wanted = filter.to_domain() if filter else None

        async def fetch(size: int, store_after: str | None) -> Page[SessionSummary]:
            return await ctx.store.list_sessions(
                ctx.project, first=size, after=store_after, filter=wanted
            )

        page = await pagination.paginate(fetch, first, after)
        return SessionConnection(
            edges=[SessionEdge(cursor=c, node=Session.from_summary(s)) for c, s in page.items],
            page_info=PageInfo(has_next_page=page.has_next_page, end_cursor=page.end_cursor),
        )

    @typed.field(description="One node by its ingestion id.")
    async def node(self, info: Info, id: strawberry.ID) -> Node | None:
        found = await info.context.loaders.nodes.load(_id(str(id), "id"))
        return Node.from_domain(found) if found else None

    @typed.field(
        description="Every source of an output (complete) and its paths (bounded, see `truncated`)."
    )
    async def attribution(
        self,
        info: Info,
        output_id: strawberry.ID,
        max_depth: int = 32,
        max_paths: int = 100,
    ) -> Attribution:
        bounded_int(max_paths, name="maxPaths", low=1, high=MAX_API_PATHS)
        bounded_int(max_depth, name="maxDepth", low=1, high=64)
        query = AttributionQuery(_id(str(output_id), "outputId"), max_depth, max_paths)
        ctx = info.context
        return Attribution.from_domain(await ctx.store.attribution(ctx.project, query))

    @typed.field(description="Nodes upstream (UP) or downstream (DOWN) of a node.")
    async def lineage(
        self,
        info: Info,
        node_id: strawberry.ID,
        direction: DirectionEnum,
        depth: int = 3,
        limit: int = 200,
    ) -> Lineage:
        bounded_int(depth, name="depth", low=1, high=64)
        bounded_int(limit, name="limit", low=1, high=MAX_API_LINEAGE_LIMIT)
        ctx = info.context
        found = await ctx.store.lineage(
            ctx.project,
            _id(str(node_id), "nodeId"),
            direction=LineageDirection(direction),
            depth=depth,
            limit=limit,
        )
        return Lineage.from_domain(found)

    @typed.field(description="Every citation key of a session, where cited, latest verdicts.")
    async def citation_summary(
        self, info: Info, session_id: strawberry.ID
    ) -> list[CitationKeySummary]:
        ctx = info.context
        sid = _id(str(session_id), "sessionId")
        entries = await ctx.store.citation_summary(ctx.project, sid)
        return [
            CitationKeySummary(
                key=e.key,
                node=Node.from_domain(e.node),
                cited_in_ids=[strawberry.ID(i) for i in e.cited_in],
                session_id=sid,
            )
            for e in entries
        ]

    @typed.field(description="A report by output id; the newest when `version` is null.")
    async def verification_report(
        self, info: Info, output_id: strawberry.ID, version: int | None = None
    ) -> VerificationReport | None:
        if version is not None:
            bounded_int(version, name="version", low=1, high=1_000_000)
        ctx = info.context
        stored = await ctx.store.get_report(ctx.project, _id(str(output_id), "outputId"), version)
        return VerificationReport.from_domain(stored) if stored else None

    @typed.field(description="Reports, newest first; `first` at most 100.")
    async def verification_reports(
        self,
        info: Info,
        filter: ReportFilterInput | None = None,
        first: int | None = None,
        after: str | None = None,
    ) -> VerificationReportConnection:
        ctx = info.context
        wanted = (
            ReportFilter(
                filter.session_id, filter.verdict.value if filter.verdict else None, filter.since
            )
            if filter
            else None
        )

        async def fetch(size: int, store_after: str | None) -> Page[StoredReport]:
            return await ctx.store.list_reports(
                ctx.project, first=size, after=store_after, filter=wanted
            )

        page = await pagination.paginate(fetch, first, after)
        return VerificationReportConnection(
            edges=[
                VerificationReportEdge(cursor=c, node=VerificationReport.from_domain(r))
                for c, r in page.items
            ],
            page_info=PageInfo(has_next_page=page.has_next_page, end_cursor=page.end_cursor),
        )

    @typed.field(description="A verification job by id.")
    async def job(self, info: Info, id: strawberry.ID) -> Job | None:
        ctx = info.context
        found = await ctx.store.get_job(ctx.project, _id(str(id), "id"))
        return Job.from_domain(found) if found else None
