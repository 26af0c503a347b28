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

from provgraph.citations import citation_tag_spans, is_valid_key
from provgraph.graph import EdgeLabel, NodeStatus, NodeType
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
from provgraph.otlp.routing import trace_session

_HEX = re.compile(r"^[0-9a-f]+$")


def _valid_id(value: str, length: int) -> bool:
    return len(value) == length and bool(_HEX.match(value)) and set(value) != {"0"}


def header_key(text: str | None) -> str | None:
    """The key of a ``[REF|key]`` first line (how cited tool results are shown to models)."""
    if not text:
        return None
    first = text.partition("\n")[0].strip()
    spans = citation_tag_spans(first)
    if (
        len(spans) == 1
        and spans[0][0] == 0
        and spans[0][1] == len(first)
        and len(spans[0][2].refs) == 1
    ):
        return spans[0][2].refs[0]
    return None


def _failed_empty(span: SpanRecord, output: str | None) -> bool:
    """A failed span with no output produced nothing: no response or result node."""
    failure = span_failure(span)
    return not output and failure is not None and failure.status is NodeStatus.ERROR


def _keeps_node(info: SpanInfo) -> bool:
    return info.kind not in (GENERIC, RETRIEVAL) and not (
        info.kind == STEP and not info.graph_node_id
    )


def spans_to_events(spans: list[SpanRecord]) -> Conversion:
    """Map one export's spans to events; invalid spans are rejected with a reason."""
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
    sessions: dict[str, str] = {}
    for (trace, _), info in sorted(infos.items(), key=lambda kv: valid[kv[0]].start_time_unix_nano):
        if info.session_id and trace not in sessions:
            sessions[trace] = info.session_id
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

    def emit(key: tuple[str, str], entry: list[str]) -> list[str]:
        """Emit one span's nodes; ``entry`` = its parents; returns what feeds the next step."""
        span, info, session = valid[key], infos[key], session_of(key)
        if info.kind == NATIVE:
            return _native(b, span, info, session, entry)
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
                last = emit(child, last) or last
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
                    data={"model_name": info.model_name},
                )
            )
            for child in children.get(key, []):
                emit(child, [response])
            return [response]
        if info.kind == TOOL:
            attr_key = span.attributes.get("provgraph.citation_key")
            key_ = attr_key if isinstance(attr_key, str) else header_key(info.output_text)
            kind = NodeType.DATA_READ if key_ else NodeType.TOOL_CALL
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
            for child in children.get(key, []):
                emit(child, [call])
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
                    else (doc.id if doc.id and is_valid_key(doc.id) else None)
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


def _native(
    b: SpanEventBuilder, span: SpanRecord, info: SpanInfo, session: str, entry: list[str]
) -> list[str]:
    n = info.native
    try:
        node_type = NodeType(str(n.get("node_type")))
    except ValueError:
        b.out.rejections.append(
            SpanRejection(
                span.trace_id,
                span.span_id,
                f"provgraph.node_type {n.get('node_type')!r} is not one of "
                + ", ".join(t.value for t in NodeType),
            )
        )
        return []
    parents = n.get("parent_ids")
    edge_label = n.get("edge_label")
    extra_edges = []
    if isinstance(edge_label, str) and edge_label in EdgeLabel.__members__.values() and entry:
        extra_edges = [{"source_id": entry[-1], "label": edge_label}]
    nid = b.add(
        span,
        info,
        session,
        "",
        node_type,
        [str(p) for p in parents] if isinstance(parents, list) else ([] if extra_edges else entry),
        node_id=n.get("node_id") if isinstance(n.get("node_id"), str) else None,
        label=n.get("label") if isinstance(n.get("label"), str) else None,
        content=cap_content(n.get("content")) if isinstance(n.get("content"), str) else None,
        citation_key=n.get("citation_key") if isinstance(n.get("citation_key"), str) else None,
        edges=extra_edges or None,
    )
    return [nid]
