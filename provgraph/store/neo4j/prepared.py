"""A batch's event-only work, done before its transaction, the next batch's beside it.

What an ingest transaction computes in Python falls in two parts. Mapping the
events to writes, the write statement's parameters and the audit entry's
digests and payload depend on the events alone; only *which* writes are applied
depends on what the lookup reads (duplicates, key conflicts). Measured on
``bench/ingest.py --nodes 100000`` (session 8), that event-only part was
about 3.5 s of the adapter's 20–26 s, spent while the server waited.

So a call of several batches prepares batch *n + 1* in a worker thread while
batch *n* is in the database (the driver releases the GIL while it waits on the
socket), and each transaction takes its batch's preparation ready-made. A batch
that was not prepared ahead (a call of one batch to the sync adapter) completes
its preparation while its own lookup is in the database: the lookup statement
carries :meth:`PreparedBatch.complete` as its ``meanwhile`` work, which the
runner does between sending the statement and reading its records (no thread,
so no contention for the GIL with the thread reading the server's reply, which
made session 13's threaded variant no faster). The parameters and the audit
entry are prepared for the case that every event is applied (the rule on a
first delivery); when the lookup rejects some, the transaction computes them
for the applied ones as before. Nothing here does I/O: a prepared batch is the
same value whichever thread computed it, and a transaction re-run by the driver
reuses it unchanged.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncGenerator, Generator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from provgraph.audit.chain import PendingEntry, encoded_ingest_entry
from provgraph.events import Event
from provgraph.mapping import EventWrite, map_events
from provgraph.store.neo4j.ingest import write_params

Batch = list[tuple[int, Event]]


@dataclass
class PreparedBatch:
    """One batch's writes and, once complete, its all-applied parameters and entry.

    Mutable only in that :meth:`complete` fills the two all-applied values, which
    depend on the events alone: whenever and however often it runs, they are the
    same.
    """

    events: Batch
    writes: tuple[EventWrite, ...]
    all_written_params: dict[str, Any] | None = None
    """``write_params(writes)``: valid only when every write is applied."""
    all_written_entry: tuple[PendingEntry, bytes] | None = None
    """The audit entry of every event applied (chained stores only)."""

    def complete(self, *, chained: bool) -> None:
        """Compute the all-applied parameters (and, ``chained``, entry) if not yet done."""
        if not self.writes:
            return
        if self.all_written_params is None:
            self.all_written_params = write_params(self.writes)
        if chained and self.all_written_entry is None:
            self.all_written_entry = encoded_ingest_entry(
                [event.model_dump(mode="json") for _, event in self.events]
            )

    def _all(self, applied: Sequence[EventWrite]) -> bool:
        return len(applied) == len(self.writes)

    def params_for(self, applied: Sequence[EventWrite]) -> dict[str, Any]:
        """The write statement's parameters for ``applied`` (a sub-sequence of ``writes``)."""
        if self.all_written_params is not None and self._all(applied):
            return self.all_written_params
        return write_params(applied)

    def entry_for(self, applied: Sequence[EventWrite]) -> tuple[PendingEntry, bytes]:
        """The audit entry (and its payload's JSON) of ``applied`` (writes of ``events``)."""
        if self.all_written_entry is not None and self._all(applied):
            return self.all_written_entry
        by_index = dict(self.events)
        return encoded_ingest_entry([by_index[w.index].model_dump(mode="json") for w in applied])


def prepare_batch(events: Batch, *, chained: bool, ahead: bool) -> PreparedBatch:
    """The writes of ``events``; with ``ahead``, also the all-applied parameters and entry."""
    prepared = PreparedBatch(events, tuple(map_events(events)))
    if ahead:
        prepared.complete(chained=chained)
    return prepared


def prepared_ahead(
    batches: Sequence[Batch], *, chained: bool
) -> Generator[PreparedBatch, None, None]:
    """Each batch's preparation in order, the next one computed in a worker thread.

    A single batch is prepared inline (nothing to overlap with). When the caller
    stops early (a batch failed), the pool waits for the one preparation in
    flight and the rest are never started.
    """
    if len(batches) < 2:
        for batch in batches:
            yield prepare_batch(batch, chained=chained, ahead=False)
        return
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="provgraph-ingest-prep") as pool:
        pending = pool.submit(prepare_batch, batches[0], chained=chained, ahead=True)
        for following in batches[1:]:
            current = pending.result()
            pending = pool.submit(prepare_batch, following, chained=chained, ahead=True)
            yield current
        yield pending.result()


async def prepared_ahead_async(
    batches: Sequence[Batch], *, chained: bool
) -> AsyncGenerator[PreparedBatch, None]:
    """:func:`prepared_ahead` for the async adapter, in the default executor's threads.

    Even a single batch is prepared off the event loop, and completely (its
    all-applied parameters and entry too): mapping a thousand events is tens of
    milliseconds in which the loop would serve nobody else.
    """
    loop = asyncio.get_running_loop()

    def start(batch: Batch) -> asyncio.Future[PreparedBatch]:
        return loop.run_in_executor(
            None, functools.partial(prepare_batch, batch, chained=chained, ahead=True)
        )

    pending = start(batches[0]) if batches else None
    try:
        for following in [*batches[1:], None]:
            assert pending is not None
            current = await pending
            pending = start(following) if following is not None else None
            yield current
    finally:
        if pending is not None:
            pending.cancel()
