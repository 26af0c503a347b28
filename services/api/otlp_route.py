"""``POST /v1/traces``: OTLP/HTTP trace ingestion (protobuf or JSON, optionally gzip).

A thin shell over :mod:`provgraph.otlp`: decode, route to a project, convert
spans to native events, ingest, and answer an ``ExportTraceServiceResponse``
in the request's content type. Spans that cannot be ingested are counted in
``partial_success.rejected_spans`` with the reasons in ``error_message``;
a malformed body is 400; an overloaded API (the ingest admission gate shared
with ``/v1/events``, :mod:`provgraph.usecases.admission`, or a busy store) is
429 and an unavailable store 503, both with ``Retry-After`` (the OTel
exporters retry on both and honour it).

Project routing: with authentication on, the API key's project always wins (a
key is scoped to one project; a routing header naming another project is 403,
and resource attributes never move spans across tenants). With authentication
off (embedded development server) spans are routed by the
``X-Provgraph-Project`` header, then ``openinference.project.name``, then
``service.name``, as ``docs/interop.md`` describes.

Which tool results are data sources (with citation keys) is decided as
:mod:`provgraph.otlp.sources` describes: the ``X-Provgraph-Source-Tools`` header
and ``PROVGRAPH_OTLP_SOURCE_TOOLS`` name source tools besides the spans.

The converted events go through the same ingest use case as ``/v1/events``
(:mod:`provgraph.usecases.ingest`), so accepted final outputs are verified
automatically here too.
"""

from __future__ import annotations

import contextlib
import json
import logging
from typing import Any

from fastapi import APIRouter, BackgroundTasks, Depends, Request, Response

from provgraph.errors import OverloadedError, RetryableError
from provgraph.otlp import (
    SOURCE_TOOLS_HEADER,
    Conversion,
    OtlpDecodeError,
    adopt_events,
    decode_export,
    group_by_project,
    is_json,
    spans_to_events,
    tool_names,
    trace_session,
)
from provgraph.sdk.delivery import PROJECT_HEADER
from provgraph.store.port import AsyncGraphStore
from provgraph.usecases.ingest import request_auto_verification
from provgraph.usecases.otlp_sessions import (
    assign_source_keys,
    backfill_agent_names,
    ingest_with_key_retries,
    stored_trace_sessions,
)
from provgraph.usecases.roles import Permission, Principal
from services.api.auth.dependency import require
from services.api.errors import ForbiddenError, retry_after_header
from services.api.rest.bodies import read_body
from services.api.state import AppState

log = logging.getLogger("provgraph.api.otlp")
_NO_LOCK = contextlib.nullcontext()


router = APIRouter(tags=["ingestion"])
PROTOBUF = "application/x-protobuf"
_MAX_REASONS = 5


def _reply(
    content_json: bool,
    status: int,
    rejected: int = 0,
    message: str = "",
    headers: dict[str, str] | None = None,
) -> Response:
    """An ``ExportTraceServiceResponse`` (or a bare status for errors) in the request's type."""
    if content_json:
        body: dict[str, Any] = {}
        if rejected or message:
            body["partialSuccess"] = {"rejectedSpans": rejected, "errorMessage": message}
        if status >= 400:
            body = {"code": status, "message": message}
        return Response(json.dumps(body), status, headers=headers, media_type="application/json")
    if status >= 400:
        from google.rpc.status_pb2 import Status

        return Response(
            Status(code=status, message=message).SerializeToString(),
            status,
            headers=headers,
            media_type=PROTOBUF,
        )
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTracePartialSuccess,
        ExportTraceServiceResponse,
    )

    answer = ExportTraceServiceResponse()
    if rejected or message:
        answer.partial_success.CopyFrom(
            ExportTracePartialSuccess(rejected_spans=rejected, error_message=message)
        )
    return Response(answer.SerializeToString(), status, headers=headers, media_type=PROTOBUF)


def _routing(request: Request, principal: Principal, state: AppState) -> tuple[str | None, str]:
    """(header project or None, default project) under the tenancy rule in the module doc."""
    header = request.headers.get(PROJECT_HEADER)
    if state.settings.auth:
        if header and header.strip() != principal.project:
            raise ForbiddenError(
                f"this API key is scoped to project '{principal.project}', not '{header.strip()}'"
            )
        return principal.project, principal.project
    return header, principal.project


@router.post(
    "/v1/traces",
    summary="Ingest OpenTelemetry traces (OTLP/HTTP)",
    responses={
        200: {"description": "ExportTraceServiceResponse, maybe with partial_success."},
        400: {"description": "Malformed OTLP body."},
        415: {"description": "Content-Type is not application/x-protobuf or application/json."},
        429: {
            "description": "The API is busy (ingest requests in flight); retry after Retry-After."
        },
        503: {"description": "Store unavailable; retry after Retry-After seconds."},
    },
)
async def export_traces(
    request: Request,
    background: BackgroundTasks,
    principal: Principal = Depends(require(Permission.WRITE_EVENTS)),  # noqa: B008
) -> Response:
    state: AppState = request.app.state.provgraph
    content_type = request.headers.get("content-type", "")
    as_json = is_json(content_type)
    if not as_json and content_type.split(";")[0].strip().lower() != PROTOBUF:
        return _reply(True, 415, message="send application/x-protobuf or application/json")
    try:
        async with state.ingest_gate.admit():
            return await _export(request, background, principal, state, as_json, content_type)
    except RetryableError as exc:
        overloaded = isinstance(exc, OverloadedError)
        return _reply(
            as_json,
            429 if overloaded else 503,
            message=f"{exc}" if "retry later" in str(exc) else f"{exc} (retry later)",
            headers={"Retry-After": retry_after_header(exc.retry_after)},
        )


async def _export(
    request: Request,
    background: BackgroundTasks,
    principal: Principal,
    state: AppState,
    as_json: bool,
    content_type: str,
) -> Response:
    """Decode, convert and ingest one admitted export (retryable errors propagate)."""
    body = await read_body(request, state.settings.max_body_bytes)
    try:
        spans = decode_export(body, content_type)
    except OtlpDecodeError as exc:
        return _reply(as_json, 400, message=str(exc))
    header, default = _routing(request, principal, state)
    source_tools = tool_names(state.settings.otlp_source_tools or "") | tool_names(
        request.headers.get(SOURCE_TOOLS_HEADER, "")
    )
    rejected: set[tuple[str, str]] = set()
    reasons: list[str] = []
    store = await state.store()
    for project, group in group_by_project(spans, header, default).items():
        stored = await stored_trace_sessions(store, project, group)
        conversion = spans_to_events(group, source_tools=source_tools, stored_sessions=stored)
        # keys handed out by the store's session state: one export of a project at a time
        # allocates and ingests them, so two exports cannot both take the next d_N
        async with state.key_lock(project) if conversion.unkeyed_reads else _NO_LOCK:
            await assign_source_keys(store, project, conversion)
            outputs = await _ingest(
                store, project, conversion, state.settings.max_batch_events, rejected, reasons
            )
        await backfill_agent_names(store, project, conversion)
        if state.settings.auto_verify and outputs:
            background.add_task(
                request_auto_verification,
                state.verifier,
                project,
                outputs,
                state.metrics.jobs_requested.inc,
            )
    message = "; ".join(reasons[:_MAX_REASONS])
    if len(reasons) > _MAX_REASONS:
        message += f"; and {len(reasons) - _MAX_REASONS} more"
    return _reply(as_json, 200, rejected=len(rejected), message=message)


async def _ingest(
    store: AsyncGraphStore,
    project: str,
    conversion: Conversion,
    chunk: int,
    rejected: set[tuple[str, str]],
    reasons: list[str],
) -> list[str]:
    """Ingest a project's events in chunks; record every rejected span once, with why.

    Returns the accepted final outputs (what auto-verification asks about).
    """
    for r in conversion.rejections:
        if (r.trace_id, r.span_id) not in rejected:
            rejected.add((r.trace_id, r.span_id))
            reasons.append(f"span {r.trace_id}/{r.span_id}: {r.reason}")
    for trace_id, session_id in conversion.trace_sessions.items():
        # children exported before the span naming the session sit in the trace's session;
        # moved first, so this export's outputs find the keys those children bound
        provisional = await store.session_graph(project, trace_session(trace_id))
        moved = [n for n in provisional.nodes.values() if n.session_id == trace_session(trace_id)]
        if moved:
            await store.ingest(project, adopt_events(moved, session_id))
    outputs, refused = await ingest_with_key_retries(store, project, conversion, chunk)
    for result in refused:
        span = conversion.span_of_event.get(result["id"] or "")
        if span is not None and span not in rejected:
            rejected.add(span)
            reasons.append(f"span {span[0]}/{span[1]}: {result['error']['reason']}")
    return outputs
