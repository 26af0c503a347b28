"""``POST /v1/events``: a batch of native v1 events in, one result per event out (207).

Results are written only after the store call returned, and the store call
returns only once the accepted events are durable: a client that sees
``accepted`` never has to resend. A partially bad batch is applied in part;
the bad events say where (field path) and why. Limits: ``max_body_bytes``
(413), ``max_batch_events`` (413), media types (415), malformed JSON (422).
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Sequence
from datetime import UTC
from typing import Any, Literal

import pydantic
from fastapi import APIRouter, BackgroundTasks, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, TypeAdapter

from provgraph.events import Event, EventError, parse_events
from provgraph.graph import NodeType
from provgraph.store.types import IngestResult
from services.api.auth.dependency import require
from services.api.auth.roles import Permission, Principal
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

log = logging.getLogger("provgraph.api.ingest")
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
    503: {"description": "The store is unavailable; retry after Retry-After seconds."},
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
    """Validate, store durably, then answer one result per event."""
    state: AppState = request.app.state.provgraph
    settings = state.settings
    kind = check_media_type(request)
    body = await read_body(request, settings.max_body_bytes)
    in_thread = len(body) > _THREAD_PARSE_BYTES
    fast = (
        None
        if kind in JSON_LINES_TYPES
        else (
            await asyncio.to_thread(_validate_whole, body) if in_thread else _validate_whole(body)
        )
    )
    if fast is not None:
        _check_count(len(fast), settings.max_batch_events)
        good, bad = _guard_timestamps(list(enumerate(fast)), [])
    else:
        parse = parse_json_lines if kind in JSON_LINES_TYPES else parse_json_array
        raws = await asyncio.to_thread(parse, body) if in_thread else parse(body)
        _check_count(len(raws), settings.max_batch_events)
        good, bad = _validate(raws)
    store = await state.store()
    events = [event for _, event in good]
    stored = await store.ingest(principal.project, events) if events else IngestResult()
    results = _results(good, bad, stored)
    counts = Counter(r["status"] for r in results)
    for status in ("accepted", "duplicate", "rejected"):
        if counts[status]:
            state.metrics.events.labels(status).inc(counts[status])
    if settings.auto_verify:  # the dispatcher runs it inline (embedded) or on workers
        outputs = _accepted_outputs(good, results)
        if outputs:
            background.add_task(_auto_verify, state, principal.project, outputs)
    payload = {
        "accepted": counts["accepted"],
        "duplicate": counts["duplicate"],
        "rejected": counts["rejected"],
        "results": results,
    }
    return JSONResponse(payload, status_code=207)


_WHOLE_BATCH: TypeAdapter[list[Event]] = TypeAdapter(list[Event])


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


def _validate(raws: Sequence[Any]) -> tuple[list[tuple[int, Event]], list[EventError]]:
    unparseable = [
        EventError(i, None, "", raw.reason)
        for i, raw in enumerate(raws)
        if isinstance(raw, UnparseableLine)
    ]
    if not unparseable:
        return _guard_timestamps(*parse_events(raws))
    skip = {e.index for e in unparseable}
    good, bad = parse_events(raws)
    good = [(i, e) for i, e in good if i not in skip]
    bad = sorted([b for b in bad if b.index not in skip] + unparseable, key=lambda e: e.index)
    return _guard_timestamps(good, bad)


def _guard_timestamps(
    good: list[tuple[int, Event]], bad: list[EventError]
) -> tuple[list[tuple[int, Event]], list[EventError]]:
    out_of_range = [
        EventError(i, e.id, "timestamp", _TIMESTAMP_RANGE) for i, e in good if not _storable_time(e)
    ]
    if not out_of_range:
        return good, bad
    skip = {e.index for e in out_of_range}
    good = [(i, e) for i, e in good if i not in skip]
    return good, sorted(bad + out_of_range, key=lambda e: e.index)


_TIMESTAMP_RANGE = "timestamp must fall between years 1000 and 9999 in UTC"


def _storable_time(event: Event) -> bool:
    """Years before 1000 break the stores' fixed-width time text (a core bug, guarded here)."""
    try:
        return 1000 <= event.timestamp.astimezone(UTC).year <= 9999
    except (OverflowError, ValueError):
        return False


def _results(
    good: list[tuple[int, Event]], bad: list[EventError], stored: IngestResult
) -> list[dict[str, Any]]:
    """Map the store's outcome (by position in the stored list, then id) back to request order.

    Plain dicts in the shape of :class:`EventResult` (building 1,000 pydantic models per
    batch costs more than the JSON encoding itself).
    """
    results: dict[int, dict[str, Any]] = {
        err.index: _result(err.event_id, err.index, "rejected", err) for err in bad
    }
    rejected_at = {err.index: err for err in stored.rejected}
    rejected_ids = Counter(err.event_id for err in stored.rejected)
    accepted = Counter(stored.accepted)
    duplicates = Counter(stored.duplicates)
    for position, (index, event) in enumerate(good):
        store_err = rejected_at.get(position)
        if store_err is not None and store_err.event_id in (event.id, None):
            rejected_ids[event.id] -= 1
            results[index] = _result(event.id, index, "rejected", store_err)
        elif accepted[event.id] > 0:
            accepted[event.id] -= 1
            results[index] = _result(event.id, index, "accepted")
        elif duplicates[event.id] > 0:
            duplicates[event.id] -= 1
            results[index] = _result(event.id, index, "duplicate")
        elif rejected_ids[event.id] > 0:
            rejected_ids[event.id] -= 1
            err = next(e for e in stored.rejected if e.event_id == event.id)
            results[index] = _result(event.id, index, "rejected", err)
        else:  # the store did not mention it: never claim durability we cannot vouch for
            unconfirmed = EventError(index, event.id, "", "the store did not confirm it; resend")
            results[index] = _result(event.id, index, "rejected", unconfirmed)
    return [results[i] for i in sorted(results)]


def _result(
    event_id: str | None, index: int, status: str, err: EventError | None = None
) -> dict[str, Any]:
    error = {"path": err.path, "reason": err.reason} if err is not None else None
    return {"id": event_id, "index": index, "status": status, "error": error}


def _accepted_outputs(good: list[tuple[int, Event]], results: list[dict[str, Any]]) -> list[str]:
    status = {r["index"]: r["status"] for r in results}
    seen: dict[str, None] = {}
    for index, event in good:
        if event.type == NodeType.FINAL_OUTPUT and status.get(index) == "accepted":
            seen.setdefault(event.node_id, None)
    return list(seen)


async def _auto_verify(state: AppState, project: str, output_ids: list[str]) -> None:
    """Best effort after the response: the events are durable already; failures are logged."""
    for output_id in output_ids:
        try:
            await state.verifier.request(project, output_id)
            state.metrics.jobs_requested.inc()
        except Exception as exc:
            log.warning(
                "auto-verification not enqueued",
                extra={"output_id": output_id, "reason": str(exc)},
            )
