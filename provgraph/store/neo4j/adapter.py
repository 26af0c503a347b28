"""The synchronous Neo4j :class:`~provgraph.store.port.GraphStore` (workers, CLI, library).

Thin by design: every operation is a program from
:mod:`provgraph.store.neo4j.operations` run in one managed transaction with the
database always named. The driver is created lazily and again in a forked
child (a driver's sockets must never be shared across ``fork``), so a Celery
worker gets one driver per process, created after fork. Every read transaction
carries the server-side timeout ``read_timeout_s`` (``PROVGRAPH_NEO4J_READ_TIMEOUT_S``,
the API's setting too): a runaway read in a worker or the CLI is stopped by the
server and becomes :class:`~provgraph.errors.StoreTimeoutError` (retryable).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from contextlib import closing
from typing import Any, TypeVar

from neo4j import Driver, GraphDatabase, ManagedTransaction, unit_of_work
from neo4j import exceptions as neo

from provgraph.audit.chain import AuditEntry, PendingEntry
from provgraph.errors import StoreError, StoreUnavailableError
from provgraph.events import Event
from provgraph.graph import ProvenanceEdge, ProvenanceGraph, ProvenanceNode
from provgraph.store.audit_types import Erasure, ErasureResult, Review
from provgraph.store.neo4j import audit_ops, lineage_ops
from provgraph.store.neo4j import operations as ops
from provgraph.store.neo4j.driver import (
    UNKNOWN_OUTCOME_ATTEMPTS,
    ConnectionConfig,
    batch_may_rerun,
    chunks,
    new_batch_token,
    translated,
)
from provgraph.store.neo4j.prepared import PreparedBatch, prepared_ahead
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
REPORT_SAVE_ATTEMPTS = 3


def run_program(tx: ManagedTransaction, program: ops.Program[T]) -> T:
    """Drive a program inside a transaction: run each statement, send back its records.

    ``dict(record)``, not ``record.data()``: no statement returns nodes or
    relationships (only properties, lists and scalars), and ``data()``'s recursive
    conversion was a third of the client's time on large reads (lineage).
    """
    try:
        statement = next(program)
        while True:
            sent = tx.run(statement.text, statement.params)  # the server is at work
            if statement.meanwhile is not None:
                statement.meanwhile()
            records = [dict(record) for record in sent]
            statement = program.send(records)
    except StopIteration as stop:
        result: T = stop.value
        return result


class Neo4jGraphStore:
    """Neo4j-backed store; same contract and results as the embedded store."""

    def __init__(self, config: ConnectionConfig) -> None:
        self.config = config
        self._lock = threading.Lock()
        self._driver: Driver | None = None
        self._pid: int | None = None

    # ------------------------------------------------------------------ plumbing
    @property
    def driver(self) -> Driver:
        """This process's driver (created on first use, re-created after ``fork``)."""
        with self._lock:
            if self._driver is None or self._pid != os.getpid():
                self._driver = GraphDatabase.driver(self.config.uri, **self.config.driver_kwargs())
                self._pid = os.getpid()
            return self._driver

    def _run(self, action: str, make: Callable[[], ops.Program[T]], *, write: bool) -> T:
        """Run a program in one managed transaction (re-made if the driver retries).

        The first program is made before any I/O, so argument validation
        (bounds, cursors) fails fast even when the server is down.
        """
        programs = [make()]

        def work(tx: ManagedTransaction) -> T:
            return run_program(tx, programs.pop() if programs else make())

        with (
            translated(action, self.config.uri),
            self.driver.session(database=self.config.database) as session,
        ):
            if write:
                return session.execute_write(work)
            return session.execute_read(unit_of_work(timeout=self.config.read_timeout_s)(work))

    def run_program(self, action: str, make: Callable[[], ops.Program[T]], *, write: bool) -> T:
        """Run a program of another module (API keys) like the store's own operations."""
        return self._run(action, make, write=write)

    # ------------------------------------------------------------------ ingestion
    def ingest(self, project: str, events: Sequence[Event]) -> IngestResult:
        """Batches of ``batch_size`` events, one transaction each.

        A batch whose commit outcome is unknown is run again with the same
        batch token: what it already stored is recognised as its own (accepted,
        not duplicated). Earlier batches of a call stay applied if a later one
        fails; retrying the call reports them as duplicates and changes nothing.
        The next batch's event-only work is prepared in a worker thread while a
        batch is in the database (:mod:`~provgraph.store.neo4j.prepared`).
        """
        result = IngestResult()
        batches = list(chunks(events, self.config.batch_size))
        with closing(prepared_ahead(batches, chained=self.config.audit_chain)) as preparations:
            for batch, prepared in zip(batches, preparations, strict=True):
                result = result.merged(
                    self._ingest_batch(project, batch, new_batch_token(), prepared)
                )
        return result

    def _ingest_batch(
        self,
        project: str,
        batch: list[tuple[int, Event]],
        token: str,
        prepared: PreparedBatch | None = None,
    ) -> IngestResult:
        for attempt in range(UNKNOWN_OUTCOME_ATTEMPTS):
            try:
                return self._run(
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
    def get_node(self, project: str, node_id: str) -> ProvenanceNode | None:
        return self._run("get_node", lambda: ops.get_node(project, node_id), write=False)

    def get_nodes(self, project: str, node_ids: Sequence[str]) -> dict[str, ProvenanceNode]:
        return self._run("get_nodes", lambda: ops.get_nodes(project, node_ids), write=False)

    def session_graph(self, project: str, session_id: str) -> ProvenanceGraph:
        return self._run(
            "session_graph", lambda: ops.session_graph(project, session_id), write=False
        )

    def list_sessions(
        self,
        project: str,
        *,
        first: int = 50,
        after: str | None = None,
        filter: SessionFilter | None = None,
    ) -> Page[SessionSummary]:
        return self._run(
            "list_sessions", lambda: ops.list_sessions(project, first, after, filter), write=False
        )

    def node_edges(self, project: str, node_id: str) -> list[ProvenanceEdge]:
        return self._run("node_edges", lambda: ops.node_edges(project, node_id), write=False)

    def resolve_citation_key(
        self, project: str, session_id: str, key: str
    ) -> ProvenanceNode | None:
        return self._run(
            "resolve_citation_key",
            lambda: ops.resolve_citation_key(project, session_id, key),
            write=False,
        )

    def citation_summary(self, project: str, session_id: str) -> list[CitationSummaryEntry]:
        return self._run(
            "citation_summary", lambda: ops.citation_summary(project, session_id), write=False
        )

    def attribution(self, project: str, query: AttributionQuery) -> SourcePaths:
        return self._run("attribution", lambda: ops.attribution(project, query), write=False)

    def lineage(
        self,
        project: str,
        node_id: str,
        *,
        direction: LineageDirection,
        depth: int,
        limit: int = 1000,
    ) -> LineageResult:
        return self._run(
            "lineage",
            lambda: lineage_ops.lineage(project, node_id, direction, depth, limit),
            write=False,
        )

    # ------------------------------------------------------------------ reports and jobs
    def save_report(self, project: str, report: StoredReport) -> StoredReport:
        """Upsert; a version-number race with a concurrent save is retried."""
        chain = self.config.audit_chain
        return self._run_report_write(
            "save_report", lambda: audit_ops.report_program(chain, project, report)
        )

    def complete_job(
        self, project: str, report: StoredReport, job: Job
    ) -> tuple[StoredReport, Job]:
        """The report and the job's final state in one transaction (retried like a report)."""
        chain = self.config.audit_chain
        return self._run_report_write(
            "complete_job", lambda: audit_ops.complete_job_program(chain, project, report, job)
        )

    def _run_report_write(self, action: str, make: Callable[[], ops.Program[T]]) -> T:
        """A write that saves a report: a version-number race (constraint error) is re-run."""
        for attempt in range(REPORT_SAVE_ATTEMPTS):
            try:
                return self._run(action, make, write=True)
            except Exception as exc:
                if not isinstance(exc.__cause__, neo.ConstraintError):
                    raise
                if attempt == REPORT_SAVE_ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")

    def get_report(
        self, project: str, output_id: str, version: int | None = None
    ) -> StoredReport | None:
        return self._run(
            "get_report", lambda: ops.get_report(project, output_id, version), write=False
        )

    def list_reports(
        self,
        project: str,
        *,
        first: int = 50,
        after: str | None = None,
        filter: ReportFilter | None = None,
    ) -> Page[StoredReport]:
        return self._run(
            "list_reports", lambda: ops.list_reports(project, first, after, filter), write=False
        )

    def save_job(self, project: str, job: Job) -> Job:
        return self._run("save_job", lambda: ops.save_job(project, job), write=True)

    def get_job(self, project: str, job_id: str) -> Job | None:
        return self._run("get_job", lambda: ops.get_job(project, job_id), write=False)

    def list_jobs(
        self, project: str | None, *, state: str | None = None, limit: int = 100
    ) -> list[Job]:
        return self._run("list_jobs", lambda: ops.list_jobs(project, state, limit), write=False)

    def outputs_without_jobs(
        self, project: str | None = None, *, limit: int = 100
    ) -> list[tuple[str, str]]:
        return self._run(
            "outputs_without_jobs", lambda: ops.outputs_without_jobs(project, limit), write=False
        )

    # ------------------------------------------------------------------ audit trail
    def append_audit(self, project: str, pending: PendingEntry) -> AuditEntry:
        return self._run("append_audit", lambda: audit_ops.append(project, pending), write=True)

    def audit_entries(self, project: str, *, after: int = 0, limit: int = 1000) -> list[AuditEntry]:
        return self._run(
            "audit_entries", lambda: audit_ops.entries(project, after, limit), write=False
        )

    def audit_head(self, project: str) -> tuple[int, str]:
        return self._run("audit_head", lambda: audit_ops.head(project), write=False)

    def audit_projects(self) -> list[str]:
        return self._run("audit_projects", audit_ops.projects, write=False)

    def save_review(self, project: str, review: Review) -> Review:
        chain = self.config.audit_chain
        return self._run(
            "save_review", lambda: audit_ops.save_review(project, review, chain), write=True
        )

    def list_reviews(self, project: str, output_id: str | None = None) -> list[Review]:
        return self._run(
            "list_reviews", lambda: audit_ops.list_reviews(project, output_id), write=False
        )

    def find_nodes(self, project: str, text: str, *, limit: int = 500) -> list[ProvenanceNode]:
        return self._run(
            "find_nodes", lambda: audit_ops.find_nodes(project, text, limit), write=False
        )

    def erase(self, project: str, erasure: Erasure) -> ErasureResult:
        chain = self.config.audit_chain
        return self._run("erase", lambda: audit_ops.erase(project, erasure, chain), write=True)

    # ------------------------------------------------------------------ lifecycle
    def ping(self) -> bool:
        try:
            return self._run("ping", ops.ping, write=False)
        except Exception:
            return False

    def close(self) -> None:
        with self._lock:
            driver, self._driver = self._driver, None
            if driver is not None and self._pid == os.getpid():
                driver.close()

    def __enter__(self) -> Neo4jGraphStore:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
