"""The async Neo4j :class:`~provgraph.store.port.AsyncGraphStore` (the API service).

Runs the same programs as the sync adapter (:mod:`provgraph.store.neo4j.operations`)
through the async driver, so the two cannot drift apart. The drivers are created
lazily on first use, inside the event loop that will use it.

Reads never make ingestion wait: writes and reads use two drivers with their
own connection pools; reads run at most ``read_concurrency`` at once (the
read pool is that small too), each under a server-side transaction timeout
(``read_timeout_s``). While the server is known to be down, calls are refused
at once (see :mod:`~provgraph.store.neo4j.availability`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from contextlib import aclosing
from typing import Any, TypeVar

from neo4j import AsyncDriver, AsyncGraphDatabase, AsyncManagedTransaction, unit_of_work
from neo4j import exceptions as neo

from provgraph.audit.chain import AuditEntry, PendingEntry
from provgraph.errors import StoreError, StoreUnavailableError
from provgraph.events import Event
from provgraph.graph import ProvenanceEdge, ProvenanceGraph, ProvenanceNode
from provgraph.store.audit_types import Erasure, ErasureResult, Review
from provgraph.store.neo4j import audit_ops, lineage_ops
from provgraph.store.neo4j import operations as ops
from provgraph.store.neo4j.adapter import REPORT_SAVE_ATTEMPTS
from provgraph.store.neo4j.availability import PROBE_TIMEOUT_S, Availability
from provgraph.store.neo4j.driver import (
    RETRY_AFTER_S,
    UNKNOWN_OUTCOME_ATTEMPTS,
    ConnectionConfig,
    batch_may_rerun,
    chunks,
    is_connection_failure,
    new_batch_token,
    translated,
)
from provgraph.store.neo4j.prepared import PreparedBatch, prepared_ahead_async
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

T = TypeVar("T")


async def run_program_async(tx: AsyncManagedTransaction, program: ops.Program[T]) -> T:
    """Drive a program inside an async transaction."""
    try:
        statement = next(program)
        while True:
            result = await tx.run(statement.text, statement.params)
            if statement.meanwhile is not None:
                statement.meanwhile()  # a no-op here: batches come prepared off the loop
            records = [dict(record) async for record in result]  # see run_program
            statement = program.send(records)
    except StopIteration as stop:
        value: T = stop.value
        return value


class AsyncNeo4jGraphStore:
    """Neo4j-backed async store; same contract and results as the embedded store."""

    def __init__(self, config: ConnectionConfig) -> None:
        self.config = config
        self._driver: AsyncDriver | None = None
        self._read_driver: AsyncDriver | None = None
        self._read_slots: asyncio.Semaphore | None = None
        self.availability = Availability()

    @property
    def driver(self) -> AsyncDriver:
        """The write driver (ingestion, reports, jobs)."""
        if self._driver is None:
            self._driver = AsyncGraphDatabase.driver(self.config.uri, **self.config.driver_kwargs())
        return self._driver

    @property
    def has_write_driver(self) -> bool:
        """Whether the write driver exists yet (a reads-only store never creates it)."""
        return self._driver is not None

    @property
    def read_driver(self) -> AsyncDriver:
        """The read driver: its own, smaller pool, so reads cannot hold the writers' connections."""
        if self._read_driver is None:
            self._read_driver = AsyncGraphDatabase.driver(
                self.config.uri, **self.config.read_driver_kwargs()
            )
        return self._read_driver

    async def _run(self, action: str, make: Callable[[], ops.Program[T]], *, write: bool) -> T:
        """One managed transaction; the first program is made before any I/O."""
        programs = [make()]

        async def work(tx: AsyncManagedTransaction) -> T:
            return await run_program_async(tx, programs.pop() if programs else make())

        await self._check_available(action)
        try:
            with translated(action, self.config.uri):
                if write:
                    async with self.driver.session(database=self.config.database) as session:
                        return await session.execute_write(work)
                return await self._read(work)
        except StoreUnavailableError as exc:
            if is_connection_failure(exc):
                self.availability.mark_down()
            raise

    async def run_program(
        self, action: str, make: Callable[[], ops.Program[T]], *, write: bool
    ) -> T:
        """Run a program of another module (API keys) like the store's own operations."""
        return await self._run(action, make, write=write)

    async def _read(self, work: Callable[[AsyncManagedTransaction], Awaitable[T]]) -> T:
        """A read in one of the read slots, stopped by the server after ``read_timeout_s``."""
        if self._read_slots is None:
            self._read_slots = asyncio.Semaphore(self.config.read_concurrency)
        timed = unit_of_work(timeout=self.config.read_timeout_s)(work)
        session = self.read_driver.session(database=self.config.database)
        async with self._read_slots, session:
            return await session.execute_read(timed)

    async def _check_available(self, action: str) -> None:
        """While the server is known down: one quick probe per interval, the rest fail at once."""
        if not self.availability.known_down:
            return
        if self.availability.claim_probe():
            try:
                await asyncio.wait_for(self.driver.verify_connectivity(), PROBE_TIMEOUT_S)
            except (neo.Neo4jError, neo.DriverError, OSError, TimeoutError):
                pass
            else:
                self.availability.mark_up()
                return
        raise StoreUnavailableError(
            f"the graph store (Neo4j) is unavailable ({action}); retry later",
            retry_after=RETRY_AFTER_S,
        )

    # ------------------------------------------------------------------ ingestion
    async def ingest(self, project: str, events: Sequence[Event]) -> IngestResult:
        """See :meth:`Neo4jGraphStore.ingest` (same batching and retry rules)."""
        result = IngestResult()
        batches = list(chunks(events, self.config.batch_size))
        chained = self.config.audit_chain
        async with aclosing(prepared_ahead_async(batches, chained=chained)) as preparations:
            for batch in batches:
                prepared = await anext(preparations)
                result = result.merged(
                    await self._ingest_batch(project, batch, new_batch_token(), prepared)
                )
        return result

    async def _ingest_batch(
        self,
        project: str,
        batch: list[tuple[int, Event]],
        token: str,
        prepared: PreparedBatch | None = None,
    ) -> IngestResult:
        for attempt in range(UNKNOWN_OUTCOME_ATTEMPTS):
            try:
                return await self._run(
                    "ingest",
                    lambda: audit_ops.ingest_program(
                        self.config.audit_chain, project, batch, token, prepared
                    ),
                    write=True,
                )
            except (StoreUnavailableError, StoreError) as exc:
                if not batch_may_rerun(exc) or attempt == UNKNOWN_OUTCOME_ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")

    # ------------------------------------------------------------------ reads
    async def get_node(self, project: str, node_id: str) -> ProvenanceNode | None:
        return await self._run("get_node", lambda: ops.get_node(project, node_id), write=False)

    async def get_nodes(self, project: str, node_ids: Sequence[str]) -> dict[str, ProvenanceNode]:
        return await self._run("get_nodes", lambda: ops.get_nodes(project, node_ids), write=False)

    async def session_graph(self, project: str, session_id: str) -> ProvenanceGraph:
        return await self._run(
            "session_graph", lambda: ops.session_graph(project, session_id), write=False
        )

    async def list_sessions(
        self,
        project: str,
        *,
        first: int = 50,
        after: str | None = None,
        filter: SessionFilter | None = None,
    ) -> Page[SessionSummary]:
        return await self._run(
            "list_sessions", lambda: ops.list_sessions(project, first, after, filter), write=False
        )

    async def node_edges(self, project: str, node_id: str) -> list[ProvenanceEdge]:
        return await self._run("node_edges", lambda: ops.node_edges(project, node_id), write=False)

    async def nodes_edges(
        self, project: str, node_ids: Sequence[str]
    ) -> dict[str, list[ProvenanceEdge]]:
        return await self._run(
            "nodes_edges", lambda: ops.nodes_edges(project, node_ids), write=False
        )

    async def resolve_citation_key(
        self, project: str, session_id: str, key: str
    ) -> ProvenanceNode | None:
        return await self._run(
            "resolve_citation_key",
            lambda: ops.resolve_citation_key(project, session_id, key),
            write=False,
        )

    async def citation_summary(self, project: str, session_id: str) -> list[CitationSummaryEntry]:
        return await self._run(
            "citation_summary", lambda: ops.citation_summary(project, session_id), write=False
        )

    async def attribution(self, project: str, query: AttributionQuery) -> SourcePaths:
        return await self._run("attribution", lambda: ops.attribution(project, query), write=False)

    async def lineage(
        self,
        project: str,
        node_id: str,
        *,
        direction: LineageDirection,
        depth: int,
        limit: int = 1000,
    ) -> LineageResult:
        return await self._run(
            "lineage",
            lambda: lineage_ops.lineage(project, node_id, direction, depth, limit),
            write=False,
        )

    # ------------------------------------------------------------------ reports and jobs
    async def save_report(self, project: str, report: StoredReport) -> StoredReport:
        for attempt in range(REPORT_SAVE_ATTEMPTS):
            try:
                return await self._run(
                    "save_report",
                    lambda: audit_ops.report_program(self.config.audit_chain, project, report),
                    write=True,
                )
            except Exception as exc:
                if not isinstance(exc.__cause__, neo.ConstraintError):
                    raise
                if attempt == REPORT_SAVE_ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")

    async def get_report(
        self, project: str, output_id: str, version: int | None = None
    ) -> StoredReport | None:
        return await self._run(
            "get_report", lambda: ops.get_report(project, output_id, version), write=False
        )

    async def list_reports(
        self,
        project: str,
        *,
        first: int = 50,
        after: str | None = None,
        filter: ReportFilter | None = None,
    ) -> Page[StoredReport]:
        return await self._run(
            "list_reports", lambda: ops.list_reports(project, first, after, filter), write=False
        )

    async def save_job(self, project: str, job: Job) -> Job:
        return await self._run("save_job", lambda: ops.save_job(project, job), write=True)

    async def get_job(self, project: str, job_id: str) -> Job | None:
        return await self._run("get_job", lambda: ops.get_job(project, job_id), write=False)

    async def list_jobs(
        self, project: str | None, *, state: str | None = None, limit: int = 100
    ) -> list[Job]:
        return await self._run(
            "list_jobs", lambda: ops.list_jobs(project, state, limit), write=False
        )

    # ------------------------------------------------------------------ audit trail
    async def append_audit(self, project: str, pending: PendingEntry) -> AuditEntry:
        return await self._run(
            "append_audit", lambda: audit_ops.append(project, pending), write=True
        )

    async def audit_entries(
        self, project: str, *, after: int = 0, limit: int = 1000
    ) -> list[AuditEntry]:
        return await self._run(
            "audit_entries", lambda: audit_ops.entries(project, after, limit), write=False
        )

    async def save_review(self, project: str, review: Review) -> Review:
        chain = self.config.audit_chain
        return await self._run(
            "save_review", lambda: audit_ops.save_review(project, review, chain), write=True
        )

    async def list_reviews(self, project: str, output_id: str | None = None) -> list[Review]:
        return await self._run(
            "list_reviews", lambda: audit_ops.list_reviews(project, output_id), write=False
        )

    async def erase(self, project: str, erasure: Erasure) -> ErasureResult:
        chain = self.config.audit_chain
        return await self._run(
            "erase", lambda: audit_ops.erase(project, erasure, chain), write=True
        )

    # ------------------------------------------------------------------ lifecycle
    async def ping(self) -> bool:
        try:
            return await self._run("ping", ops.ping, write=False)
        except Exception:
            return False

    async def close(self) -> None:
        drivers = (self._driver, self._read_driver)
        self._driver = self._read_driver = None
        for driver in drivers:
            if driver is not None:
                await driver.close()

    async def __aenter__(self) -> AsyncNeo4jGraphStore:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()
