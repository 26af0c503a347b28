"""GraphQL ``Subscription``: what the console watches live (jobs, reports, sessions).

The store has no change feed, so each subscription polls it server-side
(``POLL_SECONDS``) and sends a message only when something changed: one
bounded store call per tick per subscription, whatever the number of
messages. Every tick re-checks the WebSocket's key, so revoking it ends the
stream with an error. Loader caches are dropped before each message (the
connection's context outlives any one result).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Callable
from datetime import datetime
from typing import Any, TypeVar, cast

import strawberry

from provgraph.errors import NotFoundError
from provgraph.store.types import JobState as DomainJobState
from provgraph.store.types import ReportFilter
from services.api.graphql.context import GraphQLContext
from services.api.graphql.types.Job import Job
from services.api.graphql.types.Session import Session
from services.api.graphql.types.VerificationReport import VerificationReport

Info = strawberry.Info[GraphQLContext, None]
F = TypeVar("F", bound=Callable[..., Any])
POLL_SECONDS = 1.0
WATCHED_REPORTS = 20
WATCHED_SESSIONS = 50
_DONE = (DomainJobState.DONE, DomainJobState.FAILED)


def _subscription(description: str) -> Callable[[F], F]:
    return cast(Callable[[F], F], strawberry.subscription(description=description))


async def _tick(ctx: GraphQLContext) -> None:
    await asyncio.sleep(POLL_SECONDS)
    await ctx.recheck()
    ctx.fresh_loaders()


@strawberry.type
class Subscription:
    @_subscription("A job's state: now, then at each change until it is done or failed.")
    async def job_progress(self, info: Info, job_id: strawberry.ID) -> AsyncGenerator[Job, None]:
        ctx = info.context
        last: tuple[Any, ...] | None = None
        while True:
            job = await ctx.store.get_job(ctx.project, str(job_id))
            if job is None:
                raise NotFoundError(f"jobId: no job '{job_id}' in this project")
            marker = (job.state, job.updated_at, job.attempts, job.report_version)
            if marker != last:
                last = marker
                yield Job.from_domain(job)
            if job.state in _DONE:
                return
            await _tick(ctx)

    @_subscription(
        "Reports stored after the subscription started (optionally of one session), oldest first."
    )
    async def report_added(
        self, info: Info, session_id: strawberry.ID | None = None
    ) -> AsyncGenerator[VerificationReport, None]:
        ctx = info.context
        wanted = ReportFilter(session_id=str(session_id)) if session_id else None

        async def newest() -> list[Any]:
            page = await ctx.store.list_reports(ctx.project, first=WATCHED_REPORTS, filter=wanted)
            return list(page.items)

        seen = {(r.id, r.version) for r in await newest()}
        while True:
            await _tick(ctx)
            for report in reversed(await newest()):
                if (report.id, report.version) not in seen:
                    seen.add((report.id, report.version))
                    yield VerificationReport.from_domain(report)

    @_subscription("Sessions among the newest 50 that appeared or changed (nodes, last event).")
    async def session_updated(self, info: Info) -> AsyncGenerator[Session, None]:
        ctx = info.context

        async def snapshot() -> dict[str, tuple[int, datetime | None, Any]]:
            page = await ctx.store.list_sessions(ctx.project, first=WATCHED_SESSIONS)
            return {s.id: (s.node_count, s.last_event_at, s) for s in page.items}

        known = {k: v[:2] for k, v in (await snapshot()).items()}
        while True:
            await _tick(ctx)
            for session_id, (count, last, summary) in (await snapshot()).items():
                if known.get(session_id) != (count, last):
                    known[session_id] = (count, last)
                    yield Session.from_summary(summary)
