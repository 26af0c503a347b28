"""Ingest a batch: validate, store durably, reconcile one result per event, name what to verify.

Shared by REST ``/v1/events``, OTLP ``/v1/traces`` and ``provgraph ingest``:
each adapter parses its own wire format, then calls this module, then renders.

* Validation keeps the batch's order and says where and why an event is bad;
  a partially bad batch is applied in part.
* Results are built only after the store call returned, and the store call
  returns only once the accepted events are durable: ``accepted`` means the
  graph has it. An event the store did not mention is reported ``rejected``
  ("resend"), never accepted on faith.
* The accepted final outputs are what auto-verification asks about
  (:func:`request_auto_verification`, best effort after the answer; the
  worker's sweep creates the jobs of any output whose request was lost).
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC
from typing import Any, Protocol

from provgraph.events import Event, EventError, parse_events
from provgraph.graph import NodeType
from provgraph.store.port import AsyncGraphStore, GraphStore
from provgraph.store.types import IngestResult, Job

log = logging.getLogger("provgraph.ingest")

TIMESTAMP_RANGE = "timestamp must fall between years 1000 and 9999 in UTC"


@dataclass(frozen=True)
class ValidatedBatch:
    """The events that passed validation (with their request index) and the errors."""

    good: list[tuple[int, Event]]
    bad: list[EventError] = field(default_factory=list)

    @property
    def events(self) -> list[Event]:
        return [event for _, event in self.good]


@dataclass(frozen=True)
class BatchOutcome:
    """One result per event in request order (``EventResult``-shaped dicts) and the counts.

    Plain dicts: building 1,000 models per batch costs more than encoding them.
    """

    results: list[dict[str, Any]]
    counts: Counter[str]
    final_outputs: list[str]
    """Node ids of the accepted ``final_output`` events (what auto-verify requests)."""


def validate_raw_events(raws: Sequence[Any], unreadable: Mapping[int, str] = {}) -> ValidatedBatch:
    """Validate raw JSON values; ``unreadable`` maps indexes whose line was not JSON to why."""
    if not unreadable:
        return validated(*parse_events(raws))
    good, bad = parse_events(raws)
    good = [(i, e) for i, e in good if i not in unreadable]
    bad = [b for b in bad if b.index not in unreadable]
    bad += [EventError(i, None, "", reason) for i, reason in unreadable.items()]
    return validated(good, sorted(bad, key=lambda e: e.index))


def validated(good: list[tuple[int, Event]], bad: list[EventError] | None = None) -> ValidatedBatch:
    """Model-valid events through the checks the model cannot make (timestamp range)."""
    bad = bad or []
    out_of_range = [
        EventError(i, e.id, "timestamp", TIMESTAMP_RANGE) for i, e in good if not _storable_time(e)
    ]
    if not out_of_range:
        return ValidatedBatch(good, bad)
    skip = {e.index for e in out_of_range}
    good = [(i, e) for i, e in good if i not in skip]
    return ValidatedBatch(good, sorted(bad + out_of_range, key=lambda e: e.index))


def _storable_time(event: Event) -> bool:
    """Years before 1000 break the stores' fixed-width time text (a core bug, guarded here)."""
    try:
        return 1000 <= event.timestamp.astimezone(UTC).year <= 9999
    except (OverflowError, ValueError):
        return False


async def ingest_batch(store: AsyncGraphStore, project: str, batch: ValidatedBatch) -> BatchOutcome:
    """Store the valid events (durably) and reconcile the outcome (async stores: the API)."""
    events = batch.events
    stored = await store.ingest(project, events) if events else IngestResult()
    return reconcile(batch, stored)


def ingest_batch_sync(store: GraphStore, project: str, batch: ValidatedBatch) -> BatchOutcome:
    """:func:`ingest_batch` for a synchronous store (the CLI)."""
    events = batch.events
    stored = store.ingest(project, events) if events else IngestResult()
    return reconcile(batch, stored)


def reconcile(batch: ValidatedBatch, stored: IngestResult) -> BatchOutcome:
    """Map the store's outcome (by position in the stored list, then id) back to request order."""
    good, bad = batch.good, batch.bad
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
    ordered = [results[i] for i in sorted(results)]
    counts = Counter(r["status"] for r in ordered)
    return BatchOutcome(ordered, counts, _accepted_outputs(good, ordered))


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


class VerificationRequester(Protocol):
    """Asks for one output's verification (the API's dispatcher; async)."""

    async def request(self, project: str, output_id: str) -> Job: ...


async def request_auto_verification(
    requester: VerificationRequester,
    project: str,
    output_ids: Iterable[str],
    on_requested: Callable[[], None] | None = None,
) -> None:
    """Best effort after the answer: the events are durable already; failures are logged.

    A request lost here (process killed, broker down) is not lost for good:
    the worker's sweep creates jobs for final outputs that have none.
    """
    for output_id in output_ids:
        try:
            await requester.request(project, output_id)
        except Exception as exc:
            log.warning(
                "auto-verification not enqueued",
                extra={"output_id": output_id, "reason": str(exc)},
            )
            continue
        if on_requested is not None:
            on_requested()
