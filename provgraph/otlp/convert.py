"""Turn classified OTLP spans into native events (pure: no store, no HTTP).

Node ids are derived from ``(trace_id, span_id)`` and event ids are
deterministic, so an exporter that re-sends a span produces duplicates the
store recognises. A parent span that is not in this export is named anyway:
the store creates it as a placeholder and fills it in when it arrives.

Inside one agent span, children are chained in start-time order the way the
seed capability chains a run (input → request → response → tool call → result
→ next request …), so attribution walks from a final output back to the
documents and tool results that fed it. Generic spans (HTTP, DB, CHAIN spans
that are not graph nodes) get no node; their children hang from the nearest
classified ancestor in the export.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from provgraph.events import is_citation_key
from provgraph.graph import NodeStatus, NodeType
from provgraph.otlp.builder import (
    Conversion,
    SpanEventBuilder,
    SpanRejection,
    cap_content,
    node_id,
)
from provgraph.otlp.classify import AGENT, GENERIC, LLM, NATIVE, RETRIEVAL, STEP, TOOL, SpanInfo
from provgraph.otlp.classify import classify_span as classify
from provgraph.otlp.decode import SpanRecord
from provgraph.otlp.failure import span_failure
from provgraph.otlp.native import native_node
from provgraph.otlp.routing import trace_session
from provgraph.otlp.sessions import trace_sessions
from provgraph.otlp.sources import is_source_tool, read_key

_HEX = re.compile(r"^[0-9a-f]+$")


def _valid_id(value: str, length: int) -> bool:
    return len(value) == length and bool(_HEX.match(value)) and set(value) != {"0"}


def _failed_empty(span: SpanRecord, output: str | None) -> bool:
    """A failed span with no output produced nothing: no response or result node."""
    failure = span_failure(span)
    return not output and failure is not None and failure.status is NodeStatus.ERROR


def _keeps_node(info: SpanInfo) -> bool:
    return info.kind not in (GENERIC, RETRIEVAL) and not (
        info.kind == STEP and not info.graph_node_id
    )


def spans_to_events(
    spans: list[SpanRecord],
    *,
    source_tools: frozenset[str] = frozenset(),
    stored_sessions: Mapping[str, str] | None = None,
) -> Conversion:
    """Map one export's spans to events; invalid spans are rejected with a reason.

    ``source_tools`` names tools whose results are data sources (beyond those
    the spans name, :mod:`provgraph.otlp.sources`); ``stored_sessions`` maps
    traces to the session their already-stored spans live in.
    """
    b = SpanEventBuilder()
    valid: dict[tuple[str, str], SpanRecord] = {}
    for span in spans:
        if not _valid_id(span.trace_id, 32) or not _valid_id(span.span_id, 16):
            b.out.rejections.append(
                SpanRejection(
                    span.trace_id,
                    span.span_id,
                    "traceId must be 32 and spanId 16 hex digits, not all zero",
                )
            )
            continue
        valid[(span.trace_id, span.span_id)] = span
    infos = {k: classify(s) for k, s in valid.items()}
    sessions = trace_sessions(valid, infos, stored_sessions)
    graph_nodes = {i.graph_node_id: k for k, i in infos.items() if i.graph_node_id}

    def structural_parent(key: tuple[str, str]) -> tuple[str, str] | None:
        """Nearest ancestor with a node of its own (may lie outside this export)."""
        parent = valid[key].parent_span_id
        seen = {key}
        while parent:
            pkey = (key[0], parent)
            if pkey in seen:
                return None  # a cycle in malformed input: treat as a root
            seen.add(pkey)
            if pkey not in valid or _keeps_node(infos[pkey]):
                return pkey
            parent = valid[pkey].parent_span_id
        return None

    children: dict[tuple[str, str] | None, list[tuple[str, str]]] = {}
    for key, info in infos.items():
        if _keeps_node(info) or info.kind == RETRIEVAL:
            children.setdefault(structural_parent(key), []).append(key)
    for siblings in children.values():
        siblings.sort(key=lambda k: (valid[k].start_time_unix_nano, k[1]))

    def session_of(key: tuple[str, str]) -> str:
        return infos[key].session_id or sessions.get(key[0]) or trace_session(key[0])

    def emit(key: tuple[str, str], entry: list[str], agent: str | None = None) -> list[str]:
        """Emit one span's nodes; ``entry`` = its parents; returns what feeds the next step.

        ``agent`` is the enclosing agent's name, inherited by spans that name none.
        """
        span, info, session = valid[key], infos[key], session_of(key)
        if info.agent_name is None and agent is not None:
            info = replace(info, agent_name=agent)
        agent = info.agent_name
        if info.kind == NATIVE:
            return native_node(b, span, info, session, entry)
        if info.kind in (AGENT, STEP):
            if info.graph_parent_id and info.graph_parent_id in graph_nodes:
                entry = [*entry, node_id(*graph_nodes[info.graph_parent_id])]
            run = b.add(
                span,
                info,
                session,
                "",
                NodeType.AGENT_RUN,
                entry,
                label=f"Agent: {info.agent_name}" if info.agent_name else None,
            )
            last = [run]
            if info.input_text:
                last = [
                    b.add(
                        span,
                        info,
                        session,
                        "-input",
                        NodeType.INPUT,
                        [run],
                        content=cap_content(info.input_text),
                    )
                ]
            for child in children.get(key, []):
                last = emit(child, last, agent) or last
            if info.output_text:
                key_attr = span.attributes.get("provgraph.citation_key")
                b.add(
                    span,
                    info,
                    session,
                    "-output",
                    NodeType.FINAL_OUTPUT,
                    last,
                    content=cap_content(info.output_text),
                    citation_key=key_attr if isinstance(key_attr, str) else None,
                )
            return []
        if info.kind == LLM:
            request = b.add(
                span,
                info,
                session,
                "",
                NodeType.MODEL_REQUEST,
                entry,
                label=f"Model request: {info.model_name}" if info.model_name else None,
                content=cap_content(info.input_text),
                data={"model_name": info.model_name},
            )
            response = (
                request
                if _failed_empty(span, info.output_text)
                else b.add(
                    span,
                    info,
                    session,
                    "-response",
                    NodeType.MODEL_RESPONSE,
                    [request],
                    content=cap_content(info.output_text),
                    data={
                        "model_name": info.model_name,
                        "tool_calls": list(info.tool_calls) or None,
                        "usage": info.usage or None,
                    },
                )
            )
            for child in children.get(key, []):
                emit(child, [response], agent)
            return [response]
        if info.kind == TOOL:
            key_ = read_key(span, info.output_text)
            source = key_ is not None or is_source_tool(span, info.tool_name, source_tools)
            kind = NodeType.DATA_READ if source else NodeType.TOOL_CALL
            call = b.add(
                span,
                info,
                session,
                "",
                kind,
                entry[-1:],
                label=f"Tool: {info.tool_name}",
                citation_key=key_,
                data={
                    "tool_name": info.tool_name,
                    "tool_call_id": info.tool_call_id,
                    "args": info.input_text,
                },
            )
            if source and key_ is None:
                b.out.unkeyed_reads.append((session, call))
            for child in children.get(key, []):
                emit(child, [call], agent)
            result = (
                call
                if _failed_empty(span, info.output_text)
                else b.add(
                    span,
                    info,
                    session,
                    "-result",
                    NodeType.TOOL_RESULT,
                    [call],
                    label=f"Result: {info.tool_name}",
                    content=cap_content(info.output_text),
                    data={"tool_name": info.tool_name},
                )
            )
            return [result]
        if info.kind == RETRIEVAL:
            reads = []
            for i, doc in enumerate(info.documents):
                meta_key = doc.metadata.get("provgraph.citation_key")
                cite = (
                    meta_key
                    if isinstance(meta_key, str)
                    else (doc.id if doc.id and is_citation_key(doc.id) else None)
                )
                reads.append(
                    b.add(
                        span,
                        info,
                        session,
                        f"-doc-{i}",
                        NodeType.DATA_READ,
                        entry[-1:],
                        label=f"Document {doc.id}" if doc.id else "Retrieved document",
                        content=cap_content(doc.content),
                        citation_key=cite,
                        data={"document_id": doc.id, "score": doc.score, "query": info.input_text},
                    )
                )
            return reads
        return []

    b.out.trace_sessions.update(sessions)

    for root in children.get(None, []):
        emit(root, [])
    for parent, kids in children.items():
        if parent is not None and parent not in valid:  # parent outside this export
            for kid in kids:
                emit(kid, [node_id(*parent)])
    return b.finish()
