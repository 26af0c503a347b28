"""Batches prepared ahead (``provgraph.store.neo4j.prepared``): same writes, same store.

The preparation of the next batch runs in a worker thread while the current one
is in the database; a batch not prepared ahead completes its preparation while its
own lookup is in the database. What must hold: a prepared batch is exactly what the
transaction would have computed itself (writes, write parameters, the audit
entry), the all-applied shortcut is never used for a batch with duplicates, and
a multi-batch call through either adapter stores what a one-batch call stores,
duplicates and a mid-call repeat included.
"""

from __future__ import annotations

import asyncio
import threading
import uuid

import pytest
from contract._story import snapshot, story_events

from provgraph.audit.chain import encoded_ingest_entry
from provgraph.config import Settings
from provgraph.events import Event
from provgraph.mapping import map_events
from provgraph.store.neo4j import open_async_neo4j_store, open_neo4j_store
from provgraph.store.neo4j import operations as ops
from provgraph.store.neo4j import prepared as prep
from provgraph.store.neo4j.adapter import run_program
from provgraph.store.neo4j.ingest import write_params

EVENTS = story_events()


def indexed(events: list[Event]) -> list[tuple[int, Event]]:
    return list(enumerate(events))


def test_a_batch_prepared_ahead_holds_what_the_transaction_would_compute() -> None:
    batch = indexed(EVENTS)
    ready = prep.prepare_batch(batch, chained=True, ahead=True)
    writes = map_events(batch)
    assert list(ready.writes) == writes
    assert ready.params_for(ready.writes) == write_params(writes)
    assert ready.all_written_entry == encoded_ingest_entry(
        [event.model_dump(mode="json") for event in EVENTS]
    )


def test_the_all_applied_parameters_are_not_used_when_some_writes_are_not_applied() -> None:
    ready = prep.prepare_batch(indexed(EVENTS), chained=False, ahead=True)
    applied = ready.writes[1:]
    assert ready.all_written_entry is None  # not chained: no audit entry to prepare
    assert ready.params_for(applied) == write_params(applied)
    assert ready.params_for(applied)["delivered"] == [w.event_id for w in applied]


def test_a_single_batch_is_prepared_inline_without_the_speculative_parts() -> None:
    (only,) = list(prep.prepared_ahead([indexed(EVENTS)], chained=True))
    assert only.all_written_params is None and only.all_written_entry is None
    assert list(only.writes) == map_events(indexed(EVENTS))


def test_completing_a_batch_gives_what_preparing_it_ahead_gives_and_is_idempotent() -> None:
    batch = indexed(EVENTS)
    ahead = prep.prepare_batch(batch, chained=True, ahead=True)
    later = prep.prepare_batch(batch, chained=True, ahead=False)
    later.complete(chained=True)
    params, entry = later.all_written_params, later.all_written_entry
    later.complete(chained=True)  # a transaction re-run by the driver completes it again
    assert later.all_written_params is params and later.all_written_entry is entry
    assert (params, entry) == (ahead.all_written_params, ahead.all_written_entry)


def test_the_runner_does_a_statements_meanwhile_work_before_reading_its_records() -> None:
    """The sync runner's order: send the statement, do the program's CPU work while the
    server executes it, then read the records (the overlap that completes a single
    batch's preparation during its lookup)."""
    calls: list[str] = []

    class Sent:
        def __iter__(self):  # type: ignore[no-untyped-def]
            calls.append("read")
            return iter([{"n": 1}])

    class Tx:
        def run(self, text: str, params: dict[str, object]) -> Sent:
            calls.append(f"send {text}")
            return Sent()

    def program():  # type: ignore[no-untyped-def]
        records = yield ops.Statement("A", meanwhile=lambda: calls.append("meanwhile"))
        records += yield ops.Statement("B")
        return records

    assert run_program(Tx(), program()) == [{"n": 1}, {"n": 1}]  # type: ignore[arg-type]
    assert calls == ["send A", "meanwhile", "read", "send B", "read"]


def test_the_next_batch_is_prepared_in_a_worker_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[str] = []
    original = prep.prepare_batch

    def recording(batch: prep.Batch, *, chained: bool, ahead: bool) -> prep.PreparedBatch:
        threads.append(threading.current_thread().name)
        return original(batch, chained=chained, ahead=ahead)

    monkeypatch.setattr(prep, "prepare_batch", recording)
    batches = [indexed(EVENTS)[i : i + 4] for i in range(0, len(EVENTS), 4)]
    out = list(prep.prepared_ahead(batches, chained=True))
    assert [list(p.writes) for p in out] == [map_events(b) for b in batches]
    assert len(threads) == len(batches) >= 2
    assert all(name.startswith("provgraph-ingest-prep") for name in threads)


def test_the_async_preparations_come_in_order_off_the_event_loop() -> None:
    batches = [indexed(EVENTS)[i : i + 4] for i in range(0, len(EVENTS), 4)]

    async def collect() -> list[prep.PreparedBatch]:
        return [p async for p in prep.prepared_ahead_async(batches, chained=False)]

    out = asyncio.run(collect())
    assert [list(p.writes) for p in out] == [map_events(b) for b in batches]
    assert all(p.all_written_params is not None for p in out)


@pytest.mark.neo4j
def test_multi_batch_calls_store_what_one_batch_stores(neo4j_uri: str) -> None:
    """Batches of 3 (prepared ahead) against one batch of everything, same project shape:
    the same graph, every event accepted once, the repeat of the call all duplicates,
    and a call mixing new and stored events accepts only the new ones."""
    one = open_neo4j_store(Settings(neo4j_uri=neo4j_uri, neo4j_batch_size=10_000))
    small = open_neo4j_store(Settings(neo4j_uri=neo4j_uri, neo4j_batch_size=3))
    try:
        p_one, p_small = (f"prep-{kind}-{uuid.uuid4().hex[:6]}" for kind in ("one", "small"))
        assert len(one.ingest(p_one, EVENTS).accepted) == len(EVENTS)
        half = EVENTS[: len(EVENTS) // 2]
        assert len(small.ingest(p_small, half).accepted) == len(half)
        mixed = small.ingest(p_small, EVENTS)
        assert set(mixed.accepted) == {e.id for e in EVENTS[len(half) :]}
        assert set(mixed.duplicates) == {e.id for e in half}
        head = small.audit_head(p_small)
        repeat = small.ingest(p_small, EVENTS)
        assert repeat.accepted == () and len(repeat.duplicates) == len(EVENTS)
        assert small.audit_head(p_small) == head  # nothing written, nothing recorded
        assert snapshot(small, p_small) == snapshot(one, p_one)
    finally:
        one.close()
        small.close()


@pytest.mark.neo4j
def test_the_async_adapter_prepares_ahead_to_the_same_graph(neo4j_uri: str) -> None:
    async def run(project: str) -> int:
        store = await open_async_neo4j_store(Settings(neo4j_uri=neo4j_uri, neo4j_batch_size=3))
        try:
            result = await store.ingest(project, EVENTS)
            return len(result.accepted)
        finally:
            await store.close()

    project = f"prep-async-{uuid.uuid4().hex[:6]}"
    assert asyncio.run(run(project)) == len(EVENTS)
    reference = f"prep-ref-{uuid.uuid4().hex[:6]}"
    store = open_neo4j_store(Settings(neo4j_uri=neo4j_uri, neo4j_batch_size=10_000))
    try:
        store.ingest(reference, EVENTS)
        assert snapshot(store, project) == snapshot(store, reference)
    finally:
        store.close()
