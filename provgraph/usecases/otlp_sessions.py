"""What an OTLP export needs from the store before its events are final.

Two lookups the pure conversion (:mod:`provgraph.otlp`) cannot make:

* the session a trace already lives in, read from the stored parent of a span
  that arrived without it (so later exports of a trace join its session);
* the citation keys of reads from source tools, handed out after the highest
  key of their session (a node that already has a key keeps it). The API
  process serialises allocation per project, but another replica may take the
  same key between the read and the commit: the store rejects that read
  (``path: citation_key``) and it is given the next free key and ingested
  again (:func:`ingest_with_key_retries`), up to :data:`KEY_RACE_RETRIES` times;
* after an agent span that arrived alone, the stored spans under it that name
  no agent (:mod:`provgraph.otlp.backfill`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from provgraph.events import Event
from provgraph.graph import NodeType
from provgraph.otlp import Conversion, SpanRecord, next_keys, node_id, trace_session
from provgraph.otlp.backfill import agent_name_events, chain_events
from provgraph.store.port import AsyncGraphStore
from provgraph.usecases.ingest import ingest_batch, validated


async def stored_trace_sessions(
    store: AsyncGraphStore, project: str, spans: list[SpanRecord]
) -> dict[str, str]:
    """trace id → session of a stored parent of a span whose parent is not in ``spans``."""
    present = {(s.trace_id, s.span_id) for s in spans}
    parents = {
        node_id(s.trace_id, s.parent_span_id): s.trace_id
        for s in spans
        if s.parent_span_id and (s.trace_id, s.parent_span_id) not in present
    }
    if not parents:
        return {}
    found = await store.get_nodes(project, list(parents))
    out: dict[str, str] = {}
    for nid, node in found.items():
        trace = parents[nid]
        if node.session_id and node.session_id != trace_session(trace):
            out.setdefault(trace, node.session_id)
    return out


#: How many times a read whose allocated key a concurrent export took gets a fresh one.
KEY_RACE_RETRIES = 8


async def _allocate(
    store: AsyncGraphStore, project: str, pending: list[tuple[str, str]]
) -> dict[str, str]:
    """Keys for ``(session, node_id)`` reads: kept ones, else after the session's highest."""
    stored = await store.get_nodes(project, [n for _, n in pending])
    kept = {nid: n.citation_key for nid, n in stored.items() if n.citation_key}
    session_keys: Mapping[str, list[str]] = {
        session: [e.key for e in await store.citation_summary(project, session)]
        for session in dict.fromkeys(s for s, _ in pending)
    }
    return next_keys(pending, session_keys, kept)


async def assign_source_keys(store: AsyncGraphStore, project: str, conversion: Conversion) -> None:
    """Give the conversion's unkeyed data reads their keys, in place."""
    pending = conversion.unkeyed_reads
    if not pending:
        return
    given = await _allocate(store, project, pending)
    conversion.events = [
        e.model_copy(update={"citation_key": given[e.node_id]})
        if e.node_id in given and e.type == NodeType.DATA_READ and e.citation_key is None
        else e
        for e in conversion.events
    ]


def lost_key_race(conversion: Conversion, event: Event, result: Mapping[str, Any]) -> bool:
    """True for a read whose key this export allocated and the store refused as taken.

    Only allocated keys: a key the span itself named (``provgraph.citation_key``,
    a ``[REF|d_N]`` first line) is the sender's claim and its conflict is a real
    rejection.
    """
    error = result.get("error") or {}
    return (
        event.type == NodeType.DATA_READ
        and error.get("path") == "citation_key"
        and any(node == event.node_id for _, node in conversion.unkeyed_reads)
    )


async def reallocate_keys(store: AsyncGraphStore, project: str, events: list[Event]) -> list[Event]:
    """``events`` (reads that lost a key race) with keys allocated afresh from the store."""
    given = await _allocate(store, project, [(e.session_id, e.node_id) for e in events])
    return [e.model_copy(update={"citation_key": given[e.node_id]}) for e in events]


async def ingest_with_key_retries(
    store: AsyncGraphStore, project: str, conversion: Conversion, chunk: int
) -> tuple[list[str], list[dict[str, Any]]]:
    """Ingest the conversion's events in chunks of ``chunk``, re-keying reads that lost a race.

    Returns the accepted final outputs and the store's results for the events it
    finally rejected (a lost race still unresolved after :data:`KEY_RACE_RETRIES`
    rounds is among them).
    """
    events = conversion.events
    outputs: list[str] = []
    refused: list[dict[str, Any]] = []
    for attempt in range(KEY_RACE_RETRIES + 1):
        by_id = {e.id: e for e in events}
        raced: list[Event] = []
        for start in range(0, len(events), chunk):
            batch = validated(list(enumerate(events[start : start + chunk])))
            outcome = await ingest_batch(store, project, batch)
            outputs += outcome.final_outputs
            for result in outcome.results:
                if result["status"] != "rejected":
                    continue
                event = by_id.get(result["id"] or "")
                if (
                    event is not None
                    and attempt < KEY_RACE_RETRIES
                    and lost_key_race(conversion, event, result)
                ):
                    raced.append(event)
                else:
                    refused.append(result)
        if not raced:
            break
        events = await reallocate_keys(store, project, raced)
    return outputs, refused


async def backfill_agent_names(
    store: AsyncGraphStore, project: str, conversion: Conversion
) -> None:
    """Name the agent of stored descendants of this export's lonely agent spans."""
    lonely = conversion.lonely_agents
    if not lonely:
        return
    traces = {trace for trace, _ in lonely}
    sessions = {session for _, session in lonely.values()} | {trace_session(t) for t in traces}
    for session in sorted(sessions):
        graph = await store.session_graph(project, session)
        nodes = [n for n in graph.nodes.values() if n.run_id in {f"otel-{t}" for t in traces}]
        events = agent_name_events(nodes, lonely) + chain_events(nodes, lonely)
        if events:
            await store.ingest(project, events)
