"""Pure helpers shared by the store adapters: listing order, cursors, summaries.

Both adapters sort, page and summarise with these functions so their results are
identical (the contract tests compare them directly).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from provgraph.graph import NodeType, ProvenanceNode
from provgraph.mapping import utc_text
from provgraph.store.codec import encode_cursor
from provgraph.store.types import (
    ReportFilter,
    SessionFilter,
    SessionSummary,
    SourcePaths,
    StoredReport,
)

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
"""Timestamp of a placeholder node (its own event has not arrived)."""


def build_source_paths(
    output: ProvenanceNode,
    paths: list[tuple[str, ...]],
    nodes: dict[str, ProvenanceNode],
    truncated: bool,
    sources: Sequence[ProvenanceNode],
) -> SourcePaths:
    """Assemble a :class:`SourcePaths` (shared by adapters).

    ``sources`` come from :func:`provgraph.traversal.contributing_sources`, not
    from the paths: enumeration is bounded and may miss a source (or find no
    path at all) while the reachability walk that yields ``sources`` never does.
    """
    return SourcePaths(output, tuple(sources), tuple(paths), nodes, truncated)


def summarise_session(session_id: str, nodes: list[ProvenanceNode]) -> SessionSummary:
    stamps = [n.timestamp for n in nodes if n.timestamp != EPOCH]
    return SessionSummary(
        id=session_id,
        node_count=len(nodes),
        run_count=len({n.run_id for n in nodes if n.run_id}),
        agent_names=tuple(sorted({n.agent_name for n in nodes if n.agent_name})),
        first_event_at=min(stamps) if stamps else None,
        last_event_at=max(stamps) if stamps else None,
        final_output_ids=tuple(sorted(n.id for n in nodes if n.type == NodeType.FINAL_OUTPUT)),
    )


def session_matches(summary: SessionSummary, wanted: SessionFilter) -> bool:
    """The summary-level predicates of ``wanted`` (text and verdict need more than a summary)."""
    if wanted.agent_name is not None and wanted.agent_name not in summary.agent_names:
        return False
    if wanted.until is not None and (
        summary.first_event_at is None or summary.first_event_at > wanted.until
    ):
        return False
    return not (
        wanted.since is not None
        and (summary.last_event_at is None or summary.last_event_at < wanted.since)
    )


def nodes_contain_text(nodes: list[ProvenanceNode], text: str) -> bool:
    """Case-insensitive substring of a node's label or content (the listing's search)."""
    needle = text.lower()
    return any(needle in n.label.lower() or needle in (n.content or "").lower() for n in nodes)


def sessions_with_verdict(reports: list[StoredReport], verdict: str) -> set[str]:
    """Sessions where the newest report of some output has a citation with ``verdict``."""
    newest: dict[str, StoredReport] = {}
    for report in reports:
        known = newest.get(report.output_id)
        if known is None or report.version > known.version:
            newest[report.output_id] = report
    return {r.session_id for r in newest.values() if r.session_id and verdict in r.verdicts}


def neg_time(iso: str) -> str:
    """Sort key component that orders ISO times newest first (string complement)."""
    return "".join(chr(0x10FFFF - ord(c)) for c in iso)


def session_sort_key(summary: SessionSummary) -> tuple[str, str]:
    stamp = utc_text(summary.last_event_at) if summary.last_event_at else ""
    return (neg_time(stamp), summary.id)


def session_cursor(summary: SessionSummary) -> str:
    stamp = utc_text(summary.last_event_at) if summary.last_event_at else ""
    return encode_cursor(stamp, summary.id)


def report_matches(report: StoredReport, wanted: ReportFilter) -> bool:
    if wanted.session_id is not None and report.session_id != wanted.session_id:
        return False
    if wanted.verdict is not None and wanted.verdict not in report.verdicts:
        return False
    return wanted.since is None or report.created_at >= wanted.since


def report_sort_key(report: StoredReport) -> tuple[str, str]:
    return (neg_time(utc_text(report.created_at)), report.id)


def key_order(key: str) -> tuple[int, str]:
    """d_2 before d_10: numeric suffix first, then the key text."""
    _, _, number = key.rpartition("_")
    return (int(number) if number.isdigit() else 1 << 30, key)
