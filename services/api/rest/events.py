"""``POST /v1/events``: a batch of native v1 events in, one result per event out (207).

A thin resource: parse the body, call the ingest use case
(:mod:`provgraph.usecases.ingest`: validation, durable store, one result per
event, the outputs to verify), render. A client that sees ``accepted`` never
has to resend. Limits: ``max_body_bytes`` (413), ``max_batch_events`` (413),
media types (415), malformed JSON (422).
"""

from __future__ import annotations

import asyncio
from typing import Any, Literal

import pydantic
from fastapi import APIRouter, BackgroundTasks, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, TypeAdapter

from provgraph.events import Event
from provgraph.usecases.ingest import (
    ValidatedBatch,
    ingest_batch,
    request_auto_verification,
    validate_raw_events,
    validated,
)
from provgraph.usecases.roles import Permission, Principal
from services.api.auth.dependency import require
from services.api.errors import PayloadTooLargeError
from services.api.rest.bodies import (
    JSON_LINES_TYPES,
    UnparseableLine,
    check_media_type,
    parse_json_array,
    parse_json_lines,
    read_body,
)
from services.api.state import AppState

router = APIRouter(tags=["ingestion"])
_THREAD_PARSE_BYTES = 512 * 1024
"""Bodies above this are parsed in a worker thread so one big batch does not stall others."""


class EventFailure(BaseModel):
    path: str = Field(description="Field path in the event, e.g. 'timestamp', 'edges[0].label'.")
    reason: str


class EventResult(BaseModel):
    id: str | None = Field(description="The event's delivery id, when it had a readable one.")
    index: int = Field(description="Position of the event in the request.")
    status: Literal["accepted", "duplicate", "rejected"]
    error: EventFailure | None = None


class IngestResponse(BaseModel):
    accepted: int
    duplicate: int
    rejected: int
    results: list[EventResult]


_ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    401: {"description": "Missing or unknown API key."},
    403: {"description": "The key's role cannot post events."},
    413: {"description": "Body or event count over the configured limit."},
    415: {"description": "Content-Type or Content-Encoding not accepted."},
    422: {"description": "The body is not a JSON array / JSON Lines."},
    503: {"description": "The store is unavailable or the API busy; retry after Retry-After."},
}


@router.post(
    "/v1/events",
    status_code=207,
    response_model=IngestResponse,
    responses={207: {"description": "One result per event."}, **_ERROR_RESPONSES},
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {
                    "schema": {"type": "array", "items": {"$ref": "#/components/schemas/Event"}}
                },
                "application/x-ndjson": {"schema": {"type": "string"}},
            },
        }
    },
    summary="Ingest a batch of events",
)
async def ingest_events(
    request: Request,
    background: BackgroundTasks,
    principal: Principal = Depends(require(Permission.WRITE_EVENTS)),  # noqa: B008
) -> JSONResponse:
    """Parse, ingest through the use case, answer one result per event."""
    state: AppState = request.app.state.provgraph
    settings = state.settings
    kind = check_media_type(request)
    async with state.ingest_gate.admit():  # full: OverloadedError, 503 Retry-After
        body = await read_body(request, settings.max_body_bytes)
        in_thread = len(body) > _THREAD_PARSE_BYTES
        limit = settings.max_batch_events
        batch = (
            await asyncio.to_thread(_parse, kind, body, limit)
            if in_thread
            else _parse(kind, body, limit)
        )
        outcome = await ingest_batch(await state.store(), principal.project, batch)
    for status in ("accepted", "duplicate", "rejected"):
        if outcome.counts[status]:
            state.metrics.events.labels(status).inc(outcome.counts[status])
    if settings.auto_verify and outcome.final_outputs:  # inline (embedded) or on workers
        background.add_task(
            request_auto_verification,
            state.verifier,
            principal.project,
            outcome.final_outputs,
            state.metrics.jobs_requested.inc,
        )
    payload = {
        "accepted": outcome.counts["accepted"],
        "duplicate": outcome.counts["duplicate"],
        "rejected": outcome.counts["rejected"],
        "results": outcome.results,
    }
    return JSONResponse(payload, status_code=207)


_WHOLE_BATCH: TypeAdapter[list[Event]] = TypeAdapter(list[Event])


def _parse(kind: str, body: bytes, limit: int) -> ValidatedBatch:
    """The body as a validated batch: one pydantic pass when it is all good, else per event.

    The event count is checked before per-event validation (413 costs no validation).
    """
    if kind not in JSON_LINES_TYPES:
        fast = _validate_whole(body)
        if fast is not None:
            _check_count(len(fast), limit)
            return validated(list(enumerate(fast)))
    parse = parse_json_lines if kind in JSON_LINES_TYPES else parse_json_array
    raws = parse(body)
    _check_count(len(raws), limit)
    unreadable = {i: raw.reason for i, raw in enumerate(raws) if isinstance(raw, UnparseableLine)}
    return validate_raw_events(raws, unreadable)


def _validate_whole(body: bytes) -> list[Event] | None:
    """The common case in one pass: a valid JSON array of valid events, parsed and validated
    by pydantic-core straight from bytes (the same model, so the same events). Anything
    else returns None and takes the per-event path, which says what is wrong where."""
    try:
        return _WHOLE_BATCH.validate_json(body)
    except (pydantic.ValidationError, ValueError):
        return None


def _check_count(count: int, limit: int) -> None:
    if count > limit:
        raise PayloadTooLargeError(
            f"batch has {count} events; the limit is {limit} (PROVGRAPH_MAX_BATCH_EVENTS): split it"
        )
