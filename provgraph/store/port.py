"""The storage port: what every graph store (embedded, Neo4j) must provide.

One interface, two adapters, one contract test suite (``tests/contract``).
Every call takes the ``project`` (tenant): no call can read or write another
project's nodes. Results are plain dataclasses from :mod:`provgraph.store.types`,
identical across adapters so that the contract tests can compare them directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from provgraph.audit.chain import AuditEntry, PendingEntry
from provgraph.events import Event
from provgraph.graph import ProvenanceEdge, ProvenanceGraph, ProvenanceNode
from provgraph.store.audit_types import Erasure, ErasureResult, Review
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


@runtime_checkable
class GraphStore(Protocol):
    """Synchronous store port (the embedded default, workers, the CLI)."""

    # --- ingestion ---------------------------------------------------------
    def ingest(self, project: str, events: Sequence[Event]) -> IngestResult:
        """Apply validated events; durable before it returns.

        Idempotent (an event id seen before is reported ``duplicate`` and changes
        nothing), order-independent (per-field last-writer-wins by
        ``(timestamp, event id)``), creates placeholders for parents not seen yet.
        An event whose citation key is already bound to another node of its
        session is rejected (``CitationKeyConflictError`` reason), the rest of the
        batch is applied. Raises ``StoreUnavailableError`` (retryable) when the
        store cannot be reached. A batch is applied all-or-nothing per transaction;
        an adapter may split a large call into several transactions (Neo4j: by
        ``neo4j_batch_size``), and a retry of the whole call then reports the
        already-applied events as duplicates, so retrying is always safe.
        """
        ...

    # --- reads -------------------------------------------------------------
    def get_node(self, project: str, node_id: str) -> ProvenanceNode | None: ...

    def get_nodes(self, project: str, node_ids: Sequence[str]) -> dict[str, ProvenanceNode]:
        """Batched look-up (for DataLoaders); unknown ids are absent from the result."""
        ...

    def session_graph(self, project: str, session_id: str) -> ProvenanceGraph:
        """Every node whose ``session_id`` is this session, and the edges among them
        (plus placeholders those edges name)."""
        ...

    def list_sessions(
        self,
        project: str,
        *,
        first: int = 50,
        after: str | None = None,
        filter: SessionFilter | None = None,
    ) -> Page[SessionSummary]:
        """Sessions newest first (by last event time, then id); cursor = opaque string."""
        ...

    def node_edges(self, project: str, node_id: str) -> list[ProvenanceEdge]:
        """Edges into and out of one node."""
        ...

    def resolve_citation_key(
        self, project: str, session_id: str, key: str
    ) -> ProvenanceNode | None:
        """The node a session-scoped citation key names, if any."""
        ...

    def citation_summary(self, project: str, session_id: str) -> list[CitationSummaryEntry]:
        """Every key of the session: the node it resolves to and where it is cited."""
        ...

    # --- attribution and lineage --------------------------------------------
    def attribution(self, project: str, query: AttributionQuery) -> SourcePaths:
        """Paths from the output back to its sources, bounded by depth and count.

        Raises ``NotFoundError`` for an unknown output id and ``LimitExceededError``
        for bounds outside the documented range.
        """
        ...

    def lineage(
        self,
        project: str,
        node_id: str,
        *,
        direction: LineageDirection,
        depth: int,
        limit: int = 1000,
    ) -> LineageResult:
        """Nodes reachable upstream (what it came from) or downstream (what depends on it)."""
        ...

    # --- verification reports and jobs -----------------------------------------
    def save_report(self, project: str, report: StoredReport) -> StoredReport:
        """Store a report; idempotent per ``(output_id, config_hash)``.

        The same output and config keep one report (its content replaced and its
        version kept); a new config gets the next version number. Returns what
        was stored (with the version assigned).
        """
        ...

    def get_report(
        self, project: str, output_id: str, version: int | None = None
    ) -> StoredReport | None:
        """A report by version, or the newest when ``version`` is None."""
        ...

    def list_reports(
        self,
        project: str,
        *,
        first: int = 50,
        after: str | None = None,
        filter: ReportFilter | None = None,
    ) -> Page[StoredReport]: ...

    def save_job(self, project: str, job: Job) -> Job:
        """Create or update a verification job (state, attempts, error, timestamps)."""
        ...

    def complete_job(
        self, project: str, report: StoredReport, job: Job
    ) -> tuple[StoredReport, Job]:
        """Store a job's report and the job's final state in one write (one transaction).

        The report is saved as by :meth:`save_report` (same idempotency and
        audit entry); the job is saved with ``report_version`` set to the
        version the report got. Either both are stored or neither is, so no
        reader sees a report whose job still says ``running``, and a worker
        pays one store round trip for the two writes instead of two.
        """
        ...

    def get_job(self, project: str, job_id: str) -> Job | None: ...

    def list_jobs(
        self, project: str | None, *, state: str | None = None, limit: int = 100
    ) -> list[Job]:
        """Jobs in a state (all projects when ``project`` is None: the re-enqueue sweep)."""
        ...

    def outputs_without_jobs(
        self, project: str | None = None, *, limit: int = 100
    ) -> list[tuple[str, str]]:
        """(project, output id) of final outputs with no job and no report, at most ``limit``.

        All projects when ``project`` is None: the sweep's lost-job pass finds
        outputs whose verification was never requested (the API died between
        answering and enqueueing).
        """
        ...

    # --- audit trail (docs/audit.md) ---------------------------------------------
    # With the chain on (the default), ``ingest``, ``save_report``, ``save_review``
    # and ``erase`` seal their entry in the same transaction as their write.
    def append_audit(self, project: str, pending: PendingEntry) -> AuditEntry:
        """Seal ``pending`` after the project's head and store it (checkpoints)."""
        ...

    def audit_entries(self, project: str, *, after: int = 0, limit: int = 1000) -> list[AuditEntry]:
        """Entries with ``seq > after`` in chain order, as stored (not verified)."""
        ...

    def audit_head(self, project: str) -> tuple[int, str]:
        """The head as the store records it: ``(seq, hash)``, ``(0, GENESIS)`` when empty."""
        ...

    def audit_projects(self) -> list[str]:
        """Every project with a chain (the scheduled jobs' work list)."""
        ...

    def save_review(self, project: str, review: Review) -> Review:
        """Store a new review; an existing id is refused (reviews are never edited)."""
        ...

    def list_reviews(self, project: str, output_id: str | None = None) -> list[Review]:
        """Reviews oldest first, of one output or of the project."""
        ...

    def find_nodes(self, project: str, text: str, *, limit: int = 500) -> list[ProvenanceNode]:
        """Nodes whose content, label or data contains ``text`` (data-subject search)."""
        ...

    def erase(self, project: str, erasure: Erasure) -> ErasureResult:
        """Apply an erasure and seal its tombstone, all-or-nothing."""
        ...

    # --- lifecycle -------------------------------------------------------------
    def ping(self) -> bool:
        """True when the store answers (for ``/readyz``)."""
        ...

    def close(self) -> None: ...


class AsyncGraphStore(Protocol):
    """The same contract with ``async`` methods (the API service)."""

    async def ingest(self, project: str, events: Sequence[Event]) -> IngestResult: ...
    async def get_node(self, project: str, node_id: str) -> ProvenanceNode | None: ...
    async def get_nodes(
        self, project: str, node_ids: Sequence[str]
    ) -> dict[str, ProvenanceNode]: ...
    async def session_graph(self, project: str, session_id: str) -> ProvenanceGraph: ...
    async def list_sessions(
        self,
        project: str,
        *,
        first: int = 50,
        after: str | None = None,
        filter: SessionFilter | None = None,
    ) -> Page[SessionSummary]: ...
    async def node_edges(self, project: str, node_id: str) -> list[ProvenanceEdge]: ...
    async def nodes_edges(
        self, project: str, node_ids: Sequence[str]
    ) -> dict[str, list[ProvenanceEdge]]:
        """``node_edges`` of several nodes in one round trip (GraphQL loaders batch)."""
        ...

    async def resolve_citation_key(
        self, project: str, session_id: str, key: str
    ) -> ProvenanceNode | None: ...
    async def citation_summary(
        self, project: str, session_id: str
    ) -> list[CitationSummaryEntry]: ...
    async def attribution(self, project: str, query: AttributionQuery) -> SourcePaths: ...
    async def lineage(
        self,
        project: str,
        node_id: str,
        *,
        direction: LineageDirection,
        depth: int,
        limit: int = 1000,
    ) -> LineageResult: ...
    async def save_report(self, project: str, report: StoredReport) -> StoredReport: ...
    async def get_report(
        self, project: str, output_id: str, version: int | None = None
    ) -> StoredReport | None: ...
    async def list_reports(
        self,
        project: str,
        *,
        first: int = 50,
        after: str | None = None,
        filter: ReportFilter | None = None,
    ) -> Page[StoredReport]: ...
    async def save_job(self, project: str, job: Job) -> Job: ...
    async def get_job(self, project: str, job_id: str) -> Job | None: ...
    async def list_jobs(
        self, project: str | None, *, state: str | None = None, limit: int = 100
    ) -> list[Job]: ...
    async def append_audit(self, project: str, pending: PendingEntry) -> AuditEntry: ...
    async def audit_entries(
        self, project: str, *, after: int = 0, limit: int = 1000
    ) -> list[AuditEntry]: ...
    async def save_review(self, project: str, review: Review) -> Review: ...
    async def list_reviews(self, project: str, output_id: str | None = None) -> list[Review]: ...
    async def erase(self, project: str, erasure: Erasure) -> ErasureResult: ...
    async def ping(self) -> bool: ...
    async def close(self) -> None: ...
