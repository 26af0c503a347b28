"""Serve a synchronous graph store (the embedded default) through the async port.

The API service is async; the embedded :class:`MemoryGraphStore` is sync and
fsyncs its log inside ``ingest``. Running each call in a worker thread keeps a
slow fsync or a large traversal from stalling the event loop, while the store's
own lock keeps concurrent calls consistent. Any :class:`GraphStore` can be
wrapped (the tests also wrap fakes), not only the memory store.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

from provgraph.audit.chain import AuditEntry, PendingEntry
from provgraph.events import Event
from provgraph.graph import ProvenanceEdge, ProvenanceGraph, ProvenanceNode
from provgraph.store.audit_types import Erasure, ErasureResult, Review
from provgraph.store.memory import MemoryGraphStore
from provgraph.store.port import GraphStore
from provgraph.store.types import (
    AttributionQuery,
    CitationSummaryEntry,
    IngestResult,
    Job,
    LineageDirection,
    LineageResult,
    Page,
    ReportFilter,
    SessionFilter,
    SessionSummary,
    SourcePaths,
    StoredReport,
)


class ThreadedAsyncStore:
    """:class:`~provgraph.store.port.AsyncGraphStore` over a sync store, one thread per call."""

    def __init__(self, sync_store: GraphStore) -> None:
        self.sync_store = sync_store

    async def ingest(self, project: str, events: Sequence[Event]) -> IngestResult:
        return await asyncio.to_thread(self.sync_store.ingest, project, events)

    async def get_node(self, project: str, node_id: str) -> ProvenanceNode | None:
        return await asyncio.to_thread(self.sync_store.get_node, project, node_id)

    async def get_nodes(self, project: str, node_ids: Sequence[str]) -> dict[str, ProvenanceNode]:
        return await asyncio.to_thread(self.sync_store.get_nodes, project, node_ids)

    async def session_graph(self, project: str, session_id: str) -> ProvenanceGraph:
        return await asyncio.to_thread(self.sync_store.session_graph, project, session_id)

    async def list_sessions(
        self,
        project: str,
        *,
        first: int = 50,
        after: str | None = None,
        filter: SessionFilter | None = None,
    ) -> Page[SessionSummary]:
        return await asyncio.to_thread(
            lambda: self.sync_store.list_sessions(project, first=first, after=after, filter=filter)
        )

    async def node_edges(self, project: str, node_id: str) -> list[ProvenanceEdge]:
        return await asyncio.to_thread(self.sync_store.node_edges, project, node_id)

    async def resolve_citation_key(
        self, project: str, session_id: str, key: str
    ) -> ProvenanceNode | None:
        return await asyncio.to_thread(
            self.sync_store.resolve_citation_key, project, session_id, key
        )

    async def citation_summary(self, project: str, session_id: str) -> list[CitationSummaryEntry]:
        return await asyncio.to_thread(self.sync_store.citation_summary, project, session_id)

    async def attribution(self, project: str, query: AttributionQuery) -> SourcePaths:
        return await asyncio.to_thread(self.sync_store.attribution, project, query)

    async def lineage(
        self,
        project: str,
        node_id: str,
        *,
        direction: LineageDirection,
        depth: int,
        limit: int = 1000,
    ) -> LineageResult:
        return await asyncio.to_thread(
            lambda: self.sync_store.lineage(
                project, node_id, direction=direction, depth=depth, limit=limit
            )
        )

    async def save_report(self, project: str, report: StoredReport) -> StoredReport:
        return await asyncio.to_thread(self.sync_store.save_report, project, report)

    async def get_report(
        self, project: str, output_id: str, version: int | None = None
    ) -> StoredReport | None:
        return await asyncio.to_thread(self.sync_store.get_report, project, output_id, version)

    async def list_reports(
        self,
        project: str,
        *,
        first: int = 50,
        after: str | None = None,
        filter: ReportFilter | None = None,
    ) -> Page[StoredReport]:
        return await asyncio.to_thread(
            lambda: self.sync_store.list_reports(project, first=first, after=after, filter=filter)
        )

    async def save_job(self, project: str, job: Job) -> Job:
        return await asyncio.to_thread(self.sync_store.save_job, project, job)

    async def get_job(self, project: str, job_id: str) -> Job | None:
        return await asyncio.to_thread(self.sync_store.get_job, project, job_id)

    async def append_audit(self, project: str, pending: PendingEntry) -> AuditEntry:
        return await asyncio.to_thread(self.sync_store.append_audit, project, pending)

    async def audit_entries(
        self, project: str, *, after: int = 0, limit: int = 1000
    ) -> list[AuditEntry]:
        return await asyncio.to_thread(
            lambda: self.sync_store.audit_entries(project, after=after, limit=limit)
        )

    async def save_review(self, project: str, review: Review) -> Review:
        return await asyncio.to_thread(self.sync_store.save_review, project, review)

    async def list_reviews(self, project: str, output_id: str | None = None) -> list[Review]:
        return await asyncio.to_thread(self.sync_store.list_reviews, project, output_id)

    async def erase(self, project: str, erasure: Erasure) -> ErasureResult:
        return await asyncio.to_thread(self.sync_store.erase, project, erasure)

    async def list_jobs(
        self, project: str | None, *, state: str | None = None, limit: int = 100
    ) -> list[Job]:
        return await asyncio.to_thread(
            lambda: self.sync_store.list_jobs(project, state=state, limit=limit)
        )

    async def ping(self) -> bool:
        return await asyncio.to_thread(self.sync_store.ping)

    async def close(self) -> None:
        await asyncio.to_thread(self.sync_store.close)


class AsyncMemoryGraphStore(ThreadedAsyncStore):
    """The embedded store behind the async port (``path=None``: nothing persisted)."""

    def __init__(self, path: str | Path | MemoryGraphStore | None = None) -> None:
        store = path if isinstance(path, MemoryGraphStore) else MemoryGraphStore(path)
        super().__init__(store)
        self.memory = store
