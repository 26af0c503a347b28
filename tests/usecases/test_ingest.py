"""The ingest use case: validation with paths, results in request order, outputs to verify."""

from __future__ import annotations

import asyncio
from typing import Any

from provgraph.events import Event, EventError
from provgraph.store.async_memory import AsyncMemoryGraphStore
from provgraph.store.memory import MemoryGraphStore
from provgraph.store.types import IngestResult, Job
from provgraph.usecases.ingest import (
    ValidatedBatch,
    ingest_batch,
    ingest_batch_sync,
    reconcile,
    request_auto_verification,
    validate_raw_events,
)
from tests.worker.conftest import OUTPUT_ID, session_events


def _raw(events: list[Event]) -> list[dict[str, Any]]:
    return [e.model_dump(mode="json") for e in events]


def test_bad_events_say_where_and_the_rest_is_stored() -> None:
    raws: list[Any] = _raw(session_events())
    raws[1] = {**raws[1], "timestamp": "1000-01-01T00:30:00+01:00"}  # 999 in UTC
    raws[2] = {**raws[2], "type": "nonsense"}
    raws.append("not an object")
    batch = validate_raw_events(raws, unreadable={3: "not valid JSON: Expecting value"})
    outcome = ingest_batch_sync(MemoryGraphStore(), "p", batch)
    by_index = {r["index"]: r for r in outcome.results}
    assert [r["index"] for r in outcome.results] == list(range(len(raws)))
    assert by_index[1]["error"]["path"] == "timestamp" and "9999" in by_index[1]["error"]["reason"]
    assert by_index[2]["status"] == "rejected" and by_index[2]["error"]["path"] == "type"
    assert by_index[3]["error"]["reason"].startswith("not valid JSON")
    assert by_index[len(raws) - 1]["status"] == "rejected"
    assert outcome.counts["rejected"] == 4
    assert outcome.counts["accepted"] == len(raws) - 4
    assert outcome.final_outputs == [OUTPUT_ID]


def test_duplicates_are_reported_and_not_verified_twice() -> None:
    store = AsyncMemoryGraphStore()
    events = session_events()
    batch = ValidatedBatch(list(enumerate(events)))
    first = asyncio.run(ingest_batch(store, "p", batch))
    again = asyncio.run(ingest_batch(store, "p", batch))
    assert first.final_outputs == [OUTPUT_ID] and again.final_outputs == []
    assert again.counts == {"duplicate": len(events)}


def test_an_event_the_store_did_not_confirm_is_never_accepted() -> None:
    events = session_events()[:2]
    stored = IngestResult(accepted=(events[0].id,))
    outcome = reconcile(ValidatedBatch(list(enumerate(events))), stored)
    assert [r["status"] for r in outcome.results] == ["accepted", "rejected"]
    assert "resend" in outcome.results[1]["error"]["reason"]


def test_auto_verification_is_best_effort_and_counts_requests() -> None:
    asked: list[str] = []
    counted: list[int] = []

    class Flaky:
        async def request(self, project: str, output_id: str) -> Job:
            asked.append(output_id)
            if output_id == "bad":
                raise ConnectionError("broker down")
            return None  # type: ignore[return-value]

    asyncio.run(request_auto_verification(Flaky(), "p", ["bad", "good"], lambda: counted.append(1)))
    assert asked == ["bad", "good"] and counted == [1]


def test_event_errors_keep_their_shape() -> None:
    batch = validate_raw_events([{"id": "x"}])
    assert isinstance(batch.bad[0], EventError) and batch.bad[0].event_id == "x"
