"""Plain result and query types shared by every store adapter and its callers.

They are frozen dataclasses (not ORM objects) so results from the embedded
store and from Neo4j compare equal in the contract tests, and so the API and
the worker never see a driver type.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, Generic, TypeVar

from provgraph.errors import LimitExceededError
from provgraph.events import EventError
from provgraph.graph import ProvenanceEdge, ProvenanceNode

T = TypeVar("T")

MAX_ATTRIBUTION_DEPTH = 64
MAX_ATTRIBUTION_PATHS = 10_000
MAX_LINEAGE_DEPTH = 64
MAX_LINEAGE_LIMIT = 10_000
MAX_PAGE_SIZE = 500
MAX_JOB_LISTING = 10_000
"""Most jobs one ``list_jobs`` call returns (the re-enqueue sweep and metrics page by state)."""


def bounded_int(value: object, *, name: str, low: int, high: int) -> int:
    """Validate a bound that ends up in a query (depth, limit, page size).

    Variable-length bounds are interpolated into Cypher (they cannot be
    parameters), so they must be real ints inside a documented range; ``bool``
    is refused although it is an ``int`` subclass.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise LimitExceededError(f"must be an integer, got {value!r}", path=name)
    if not low <= value <= high:
        raise LimitExceededError(f"must be between {low} and {high}, got {value}", path=name)
    return value


@dataclass(frozen=True)
class IngestResult:
    """Per-event outcome of one ingested batch (the API answers 207 from it)."""

    accepted: tuple[str, ...] = ()
    duplicates: tuple[str, ...] = ()
    rejected: tuple[EventError, ...] = ()

    def merged(self, other: IngestResult) -> IngestResult:
        return IngestResult(
            self.accepted + other.accepted,
            self.duplicates + other.duplicates,
            self.rejected + other.rejected,
        )


@dataclass(frozen=True)
class Page(Generic[T]):
    """One page of a cursor-paginated listing; ``end_cursor`` feeds the next ``after``."""

    items: tuple[T, ...]
    end_cursor: str | None
    has_next_page: bool


@dataclass(frozen=True)
class SessionFilter:
    """Narrow a session listing; every given field must hold.

    ``since``/``until`` bound the session's activity (a session matches when it
    has an event at or after ``since`` and one at or before ``until``);
    ``verdict`` keeps sessions where the newest report of some output has a
    citation with that verdict; ``text`` is a case-insensitive substring of a
    member node's label or content.
    """

    agent_name: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    verdict: str | None = None
    text: str | None = None


@dataclass(frozen=True)
class SessionSummary:
    id: str
    node_count: int
    run_count: int
    agent_names: tuple[str, ...]
    first_event_at: datetime | None
    last_event_at: datetime | None
    final_output_ids: tuple[str, ...]


@dataclass(frozen=True)
class AttributionQuery:
    """Which output to attribute and how far to walk (bounds validated on creation)."""

    output_id: str
    max_depth: int = 32
    max_paths: int = 1000

    def __post_init__(self) -> None:
        bounded_int(self.max_depth, name="max_depth", low=1, high=MAX_ATTRIBUTION_DEPTH)
        bounded_int(self.max_paths, name="max_paths", low=1, high=MAX_ATTRIBUTION_PATHS)


@dataclass(frozen=True)
class SourcePaths:
    """Attribution as stored data: the output, its sources, and bounded paths.

    ``paths`` are node-id lists from a source (first) to the output (last),
    sorted by (length, ids) so every adapter returns the same order.
    ``truncated`` says a bound (depth or count) cut the enumeration short.
    """

    output: ProvenanceNode
    sources: tuple[ProvenanceNode, ...]
    paths: tuple[tuple[str, ...], ...]
    nodes: dict[str, ProvenanceNode]
    truncated: bool


class LineageDirection(StrEnum):
    UP = "UP"
    DOWN = "DOWN"


@dataclass(frozen=True)
class LineageResult:
    """Nodes reachable from ``root`` in one direction, with their distance in edges."""

    root: ProvenanceNode
    direction: LineageDirection
    nodes: tuple[ProvenanceNode, ...]
    distances: dict[str, int]
    edges: tuple[ProvenanceEdge, ...]
    truncated: bool


@dataclass(frozen=True)
class CitationSummaryEntry:
    """One citation key of a session: what it names and which outputs cite it."""

    key: str
    node: ProvenanceNode
    cited_in: tuple[str, ...]


@dataclass(frozen=True)
class StoredReport:
    """A verification report as stored: identity, version and the report JSON.

    ``report`` is the full versioned report document (see
    ``provgraph.verification.report``); the store does not interpret it except
    for the summary fields copied out for filtering.
    """

    output_id: str
    session_id: str | None
    config_hash: str
    report: dict[str, Any]
    created_at: datetime
    version: int = 0
    verdicts: tuple[str, ...] = ()
    support_rate: float | None = None

    @property
    def id(self) -> str:
        return f"{self.output_id}@{self.config_hash}"


@dataclass(frozen=True)
class ReportFilter:
    session_id: str | None = None
    verdict: str | None = None
    since: datetime | None = None


class JobState(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


@dataclass(frozen=True)
class Job:
    """A verification job; its state lives in the graph, not only in the queue."""

    id: str
    output_id: str
    config_hash: str
    state: JobState
    created_at: datetime
    updated_at: datetime
    attempts: int = 0
    error: str | None = None
    report_version: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)
