"""Every store operation as a driver-free *program*, shared by the sync and async adapters.

A program is a generator: it yields :class:`Statement` values, receives each
statement's records (as plain dicts) and returns the operation's result. The
sync adapter runs it inside a managed transaction of the sync driver, the async
adapter inside one of the async driver; the logic (and so the semantics) exists
once. Programs may be re-run from the start when the driver retries a
transaction, so they keep no state outside their own frame.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from provgraph.audit.chain import GENESIS
from provgraph.errors import NotFoundError
from provgraph.events import Event
from provgraph.graph import ProvenanceEdge, ProvenanceGraph, ProvenanceNode
from provgraph.mapping import EventWrite, utc_text
from provgraph.store.codec import decode_cursor, encode_cursor
from provgraph.store.neo4j import cypher, cypher_ingest, cypher_records, cypher_sessions, rows
from provgraph.store.neo4j.ingest import StoredState, decide, lookup_params
from provgraph.store.neo4j.prepared import PreparedBatch, prepare_batch
from provgraph.store.shared import build_source_paths
from provgraph.store.shared import key_order as _key_order
from provgraph.store.types import (
    MAX_JOB_LISTING,
    MAX_PAGE_SIZE,
    AttributionQuery,
    CitationSummaryEntry,
    IngestResult,
    Job,
    Page,
    ReportFilter,
    SessionFilter,
    SessionSummary,
    SourcePaths,
    StoredReport,
    bounded_int,
)
from provgraph.traversal import contributing_sources, source_paths

T = TypeVar("T")
Record = dict[str, Any]


@dataclass(frozen=True)
class Statement:
    """One Cypher statement and its parameters.

    ``meanwhile``: pure CPU work of the program's (no I/O, safe to repeat) that the
    runner does after sending the statement and before reading its records, so it
    overlaps the server's execution instead of following it.
    """

    text: str
    params: dict[str, Any] = field(default_factory=dict)
    meanwhile: Callable[[], None] | None = field(default=None, compare=False)


Program = Generator[Statement, list[Record], T]


def _one(records: list[Record]) -> Record | None:
    return records[0] if records else None


# ---------------------------------------------------------------------- ingestion
def ingest(
    project: str,
    events: Sequence[tuple[int, Event]],
    batch: str,
    prepared: PreparedBatch | None = None,
) -> Program[IngestResult]:
    """One batch in one transaction: lock and look up, decide in Python, write."""
    result, _ = yield from ingest_decided(project, events, batch, prepared=prepared)
    return result


Sealer = Callable[[tuple[int, str], tuple[EventWrite, ...]], dict[str, Any]]
"""Given the locked chain head ``(seq, hash)`` and the writes to apply, the parameters
of the batch's audit entry (``audit_ops.ingest`` seals it; see ``cypher_ingest``)."""


def ingest_decided(
    project: str,
    events: Sequence[tuple[int, Event]],
    batch: str,
    sealer: Sealer | None = None,
    prepared: PreparedBatch | None = None,
) -> Program[tuple[IngestResult, tuple[EventWrite, ...]]]:
    """:func:`ingest`, also returning the writes applied.

    With a ``sealer`` the lookup also locks and reads the audit chain head and the
    write statement creates the entry the sealer made: the chained batch is still
    two statements (lookup, write) in one transaction. ``prepared``: the batch's
    event-only work done beforehand (:mod:`~provgraph.store.neo4j.prepared`).
    """
    if prepared is None:
        prepared = prepare_batch(list(events), chained=False, ahead=False)
    writes = prepared.writes
    if not writes:
        return IngestResult(), ()
    chained = sealer is not None
    lookup = {"project": project, **lookup_params(writes)}
    if chained:
        lookup["genesis"] = GENESIS
    looked_up = yield Statement(
        cypher.ingest_lookup_query(chained=chained),
        lookup,
        meanwhile=functools.partial(prepared.complete, chained=chained),
    )
    found = _one(looked_up)
    state = StoredState.from_row(found) if found else StoredState()
    decision = decide(writes, state, batch)
    if decision.to_write:
        params = {"project": project, "batch": batch, **prepared.params_for(decision.to_write)}
        if sealer is not None:
            assert found is not None, "the chained lookup always returns one row"
            params |= sealer((int(found["head_seq"]), str(found["head_hash"])), decision.to_write)
        yield Statement(cypher_ingest.ingest_write_query(chained=chained), params)
    return decision.result, decision.to_write


# ---------------------------------------------------------------------- node reads
def get_nodes(project: str, node_ids: Sequence[str]) -> Program[dict[str, ProvenanceNode]]:
    if not node_ids:
        return {}
    records = yield Statement(
        cypher.get_nodes_query(), {"project": project, "ids": list(dict.fromkeys(node_ids))}
    )
    found = {str(r["props"]["id"]): rows.node_from_props(r["props"]) for r in records}
    return {i: found[i] for i in node_ids if i in found}


def get_node(project: str, node_id: str) -> Program[ProvenanceNode | None]:
    found = yield from get_nodes(project, [node_id])
    return found.get(node_id)


def session_graph(project: str, session_id: str) -> Program[ProvenanceGraph]:
    records = yield Statement(
        cypher.session_graph_query(), {"project": project, "session_id": session_id}
    )
    return rows.session_graph_from_row(_one(records))


def node_edges(project: str, node_id: str) -> Program[list[ProvenanceEdge]]:
    records = yield Statement(cypher.node_edges_query(), {"project": project, "id": node_id})
    edges = {(str(r["source"]), str(r["target"]), str(r["label"])) for r in records}
    return [ProvenanceEdge(s, t, label) for s, t, label in sorted(edges)]


def nodes_edges(project: str, node_ids: Sequence[str]) -> Program[dict[str, list[ProvenanceEdge]]]:
    ids = list(dict.fromkeys(node_ids))
    records = yield Statement(cypher.nodes_edges_query(), {"project": project, "ids": ids})
    found: dict[str, set[tuple[str, str, str]]] = {i: set() for i in ids}
    for r in records:
        found[str(r["id"])].add((str(r["source"]), str(r["target"]), str(r["label"])))
    return {i: [ProvenanceEdge(s, t, label) for s, t, label in sorted(e)] for i, e in found.items()}


def list_sessions(
    project: str, first: int, after: str | None, wanted: SessionFilter | None
) -> Program[Page[SessionSummary]]:
    """Validates eagerly (bounds, cursor), then returns the program."""
    bounded_int(first, name="first", low=1, high=MAX_PAGE_SIZE)
    cursor = decode_cursor(after, arity=2) if after is not None else None
    return _list_sessions(project, first, cursor, wanted)


def _list_sessions(
    project: str, first: int, after: list[str] | None, wanted: SessionFilter | None
) -> Program[Page[SessionSummary]]:
    params: dict[str, Any] = {"project": project, "first": first + 1}
    agent = wanted is not None and wanted.agent_name is not None
    since = wanted is not None and wanted.since is not None
    if wanted is not None and wanted.agent_name is not None:
        params["agent_name"] = wanted.agent_name
    if wanted is not None and wanted.since is not None:
        params["since"] = utc_text(wanted.since)
    if wanted is not None and wanted.until is not None:
        params["until"] = utc_text(wanted.until)
    if wanted is not None and wanted.verdict is not None:
        params["verdict"] = wanted.verdict
    if wanted is not None and wanted.text:
        params["text"] = wanted.text.lower()
    if after is not None:
        params["after_at"], params["after_id"] = after
    if since and "until" not in params and "text" not in params:
        query = cypher_sessions.recent_sessions_query(
            agent=agent, after=after is not None, verdict="verdict" in params
        )
    else:
        query = cypher.list_sessions_query(
            agent=agent,
            since=since,
            after=after is not None,
            until="until" in params,
            verdict="verdict" in params,
            text="text" in params,
        )
    records = yield Statement(query, params)
    summaries = [rows.session_summary_from_row(r) for r in records]
    page = summaries[:first]
    cursor = None
    if page:
        last = page[-1].last_event_at
        cursor = encode_cursor(utc_text(last) if last else "", page[-1].id)
    return Page(tuple(page), cursor, len(summaries) > first)


def resolve_citation_key(project: str, session_id: str, key: str) -> Program[ProvenanceNode | None]:
    records = yield Statement(
        cypher.resolve_citation_key_query(),
        {"project": project, "id": rows.binding_id(session_id, key)},
    )
    found = _one(records)
    return rows.node_from_props(found["props"]) if found else None


def citation_summary(project: str, session_id: str) -> Program[list[CitationSummaryEntry]]:
    records = yield Statement(
        cypher.citation_summary_query(), {"project": project, "session_id": session_id}
    )
    entries = [
        CitationSummaryEntry(
            key=str(r["key"]),
            node=rows.node_from_props(r["props"]),
            cited_in=tuple(sorted(str(u) for u in r["uses"] or ())),
        )
        for r in records
    ]
    return sorted(entries, key=lambda e: _key_order(e.key))


# ---------------------------------------------------------------------- traversal
def attribution(project: str, query: AttributionQuery) -> Program[SourcePaths]:
    """Fetch the whole upstream neighbourhood (distinct nodes, linear), walk it with
    :func:`provgraph.traversal.source_paths` (bounded) and
    :func:`provgraph.traversal.contributing_sources` (complete), then load the
    nodes on the paths and the sources."""
    records = yield Statement(
        cypher.attribution_neighbourhood_query(),
        {"project": project, "id": query.output_id},
    )
    if not records:
        raise NotFoundError(f"node '{query.output_id}' does not exist in project '{project}'")
    graph = rows.neighbourhood_graph(records, up=True)
    paths, truncated = source_paths(
        graph, query.output_id, max_depth=query.max_depth, max_paths=query.max_paths
    )
    source_ids = contributing_sources(graph, query.output_id)
    wanted = sorted({query.output_id, *source_ids, *(i for p in paths for i in p)})
    nodes = yield from get_nodes(project, wanted)
    output = nodes[query.output_id]
    on_paths = {i: nodes[i] for p in paths for i in p}
    sources = [nodes[i] for i in source_ids]
    return build_source_paths(output, paths, on_paths, truncated, sources)


# ---------------------------------------------------------------------- reports and jobs
def save_report(project: str, report: StoredReport) -> Program[StoredReport]:
    records = yield Statement(
        cypher_records.save_report_query(), {"project": project, **rows.report_params(report)}
    )
    found = _one(records)
    assert found is not None, "save_report_query always returns one row"
    return replace(report, version=int(found["version"]))


def get_report(project: str, output_id: str, version: int | None) -> Program[StoredReport | None]:
    params: dict[str, Any] = {"project": project, "output_id": output_id}
    if version is not None:
        params["version"] = version
    records = yield Statement(
        cypher_records.get_report_query(by_version=version is not None), params
    )
    found = _one(records)
    return rows.report_from_row(found) if found else None


def list_reports(
    project: str, first: int, after: str | None, wanted: ReportFilter | None
) -> Program[Page[StoredReport]]:
    """Validates eagerly (bound, cursor), then returns the program."""
    bounded_int(first, name="first", low=1, high=MAX_PAGE_SIZE)
    cursor = decode_cursor(after, arity=2) if after is not None else None
    return _list_reports(project, first, cursor, wanted)


def _list_reports(
    project: str, first: int, after: list[str] | None, wanted: ReportFilter | None
) -> Program[Page[StoredReport]]:
    params: dict[str, Any] = {"project": project, "first": first + 1}
    flags = {"session": False, "verdict": False, "since": False}
    if wanted is not None:
        if wanted.session_id is not None:
            flags["session"], params["session_id"] = True, wanted.session_id
        if wanted.verdict is not None:
            flags["verdict"], params["verdict"] = True, wanted.verdict
        if wanted.since is not None:
            flags["since"], params["since"] = True, utc_text(wanted.since)
    if after is not None:
        params["after_at"], params["after_id"] = after
    records = yield Statement(
        cypher_records.list_reports_query(after=after is not None, **flags), params
    )
    reports = [rows.report_from_row(r) for r in records]
    page = reports[:first]
    cursor = encode_cursor(utc_text(page[-1].created_at), page[-1].id) if page else None
    return Page(tuple(page), cursor, len(reports) > first)


def save_job(project: str, job: Job) -> Program[Job]:
    yield Statement(cypher_records.save_job_query(), {"project": project, **rows.job_params(job)})
    return job


def get_job(project: str, job_id: str) -> Program[Job | None]:
    records = yield Statement(cypher_records.get_job_query(), {"project": project, "id": job_id})
    found = _one(records)
    return rows.job_from_row(found) if found else None


def list_jobs(project: str | None, state: str | None, limit: int) -> Program[list[Job]]:
    """Validates the bound eagerly, then returns the program."""
    bounded_int(limit, name="limit", low=0, high=MAX_JOB_LISTING)
    return _list_jobs(project, state, limit)


def _list_jobs(project: str | None, state: str | None, limit: int) -> Program[list[Job]]:
    params: dict[str, Any] = {"project": project, "limit": limit}
    if state is not None:
        params["state"] = str(state)
    records = yield Statement(
        cypher_records.list_jobs_query(all_projects=project is None, state=state is not None),
        params,
    )
    return [rows.job_from_row(r) for r in records]


def outputs_without_jobs(project: str | None, limit: int) -> Program[list[tuple[str, str]]]:
    """Validates the bound eagerly, then returns the program."""
    bounded_int(limit, name="limit", low=0, high=MAX_JOB_LISTING)
    return _outputs_without_jobs(project, limit)


def _outputs_without_jobs(project: str | None, limit: int) -> Program[list[tuple[str, str]]]:
    records = yield Statement(
        cypher_records.outputs_without_jobs_query(all_projects=project is None),
        {"project": project, "limit": limit},
    )
    return [(str(r["project"]), str(r["id"])) for r in records]


def ping() -> Program[bool]:
    records = yield Statement(cypher_records.ping_query())
    return bool(records) and records[0].get("ok") == 1
