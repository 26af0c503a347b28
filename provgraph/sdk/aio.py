"""``AsyncProvgraphClient``: the batching client for asyncio programs.

Same guarantees as :class:`~provgraph.sdk.client.ProvgraphClient` (bounded
buffer, spill instead of drop, retries honouring ``Retry-After``, delivery ids
kept), but the sender is an asyncio task on the caller's loop. ``send`` never
blocks the loop: when the buffer is full it spills at once; ``await asend``
waits up to ``block_timeout`` for room first. Call ``await aclose()`` before
the loop ends (an ``atexit`` hook cannot run coroutines, so it only spills
what is still buffered).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import time
from collections import deque
from collections.abc import Sequence
from pathlib import Path

import httpx

from provgraph.events import Event
from provgraph.sdk.client import DeliveryStats
from provgraph.sdk.delivery import (
    EVENTS_PATH,
    Backoff,
    SpillStore,
    default_spill_dir,
    encode_batch,
    judge_response,
    request_headers,
)

log = logging.getLogger("provgraph.sdk")


class AsyncProvgraphClient:
    """Asyncio batching client for ``POST /v1/events`` (an :class:`EventSink`)."""

    def __init__(
        self,
        api_url: str,
        api_key: str | None = None,
        *,
        project: str | None = None,
        batch_size: int = 100,
        flush_interval: float = 1.0,
        max_buffer: int = 10_000,
        spill_dir: str | Path | None = None,
        block_timeout: float = 0.5,
        timeout: float = 10.0,
        backoff: Backoff | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        if batch_size < 1 or max_buffer < batch_size:
            raise ValueError("need 1 <= batch_size <= max_buffer")
        self.batch_size = batch_size
        self.flush_interval = flush_interval
        self.max_buffer = max_buffer
        self.block_timeout = block_timeout
        self.backoff = backoff or Backoff()
        self.spill = SpillStore(spill_dir or default_spill_dir())
        self.stats = DeliveryStats()
        self._http = httpx.AsyncClient(
            base_url=api_url.rstrip("/"),
            headers=request_headers(api_key, project),
            timeout=timeout,
            transport=transport,
        )
        self._buffer: deque[Event] = deque()
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        atexit.register(self._spill_leftovers)

    # ------------------------------------------------------------------ public API
    def send(self, events: Sequence[Event]) -> None:
        """Queue events without waiting; what does not fit is spilled to disk."""
        room = max(0, self.max_buffer - len(self._buffer))
        self._buffer.extend(events[:room])
        overflow = list(events[room:])
        if overflow or self._closing:
            self._spill(overflow if not self._closing else list(events))
        self._start()
        if len(self._buffer) >= self.batch_size:
            self._wake.set()

    async def asend(self, events: Sequence[Event]) -> None:
        """Queue events, waiting up to ``block_timeout`` for room before spilling."""
        pending = list(events)
        end = time.monotonic() + self.block_timeout
        while pending and time.monotonic() < end:
            room = self.max_buffer - len(self._buffer)
            if room > 0:
                self.send(pending[:room])
                del pending[:room]
            else:
                self._wake.set()
                await asyncio.sleep(0.01)
        if pending:
            self.send(pending)

    async def flush(self, timeout: float | None = None) -> bool:
        """Wait until everything queued and spilled is delivered; False on timeout."""
        self._start()
        end = None if timeout is None else time.monotonic() + timeout
        while self._buffer or not self._idle.is_set() or self.spill.has_pending():
            if end is not None and time.monotonic() >= end:
                return False
            self._wake.set()
            await asyncio.sleep(0.02)
        return True

    async def aclose(self, timeout: float = 10.0) -> None:
        """Flush for up to ``timeout`` seconds, spill the rest, stop the sender."""
        await self.flush(timeout)
        self._closing = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._spill_leftovers()
        await self._http.aclose()
        with contextlib.suppress(Exception):
            atexit.unregister(self._spill_leftovers)

    async def __aenter__(self) -> AsyncProvgraphClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # ------------------------------------------------------------------ internals
    def _spill(self, events: list[Event]) -> None:
        if events:
            self.spill.write(events)
            self.stats.spilled += len(events)
            log.warning("provgraph: %d event(s) spilled to %s", len(events), self.spill.directory)

    def _spill_leftovers(self) -> None:
        leftover = list(self._buffer)
        self._buffer.clear()
        self._spill(leftover)

    def _start(self) -> None:
        if self._task is None or self._task.done():
            try:
                self._task = asyncio.get_running_loop().create_task(self._run())
            except RuntimeError:
                self._task = None  # no loop yet: the first flush() or send() in a loop starts it

    async def _run(self) -> None:
        while not self._closing:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.flush_interval)
            self._wake.clear()
            while self._buffer:
                batch = [
                    self._buffer.popleft() for _ in range(min(self.batch_size, len(self._buffer)))
                ]
                self._idle.clear()
                try:
                    await self._deliver(batch)
                except asyncio.CancelledError:
                    self._buffer.extendleft(reversed(batch))
                    raise
                finally:
                    self._idle.set()
            if self.spill.has_pending():
                await self._resend_spilled()

    async def _deliver(self, batch: list[Event]) -> None:
        attempt = 0
        while True:
            try:
                answer = await self._http.post(EVENTS_PATH, content=encode_batch(batch))
                verdict = judge_response(answer.status_code, answer.headers, answer.content, batch)
            except httpx.HTTPError as exc:
                log.info("provgraph: delivery failed (%s); will retry", exc)
                verdict = judge_response(503, {}, b"", batch)
            if not verdict.retry:
                break
            self.stats.retries += 1
            await asyncio.sleep(self.backoff.delay(attempt, verdict.retry_after))
            attempt += 1
        if verdict.fatal_reason is not None:
            self.spill.dead_letter(batch, verdict.fatal_reason)
            self.stats.rejected += len(batch)
            return
        if verdict.rejected:
            self.spill.dead_letter([e for e in batch if e.id in verdict.rejected], verdict.rejected)
            self.stats.rejected += len(verdict.rejected)
        self.stats.duplicates += verdict.duplicates
        self.stats.sent += len(batch) - len(verdict.rejected)

    async def _resend_spilled(self) -> None:
        path = self.spill.claim()
        if path is None:
            return
        events = self.spill.read(path)
        self._idle.clear()
        try:
            for start in range(0, len(events), self.batch_size):
                chunk = events[start : start + self.batch_size]
                try:
                    await self._deliver(chunk)
                except asyncio.CancelledError:
                    self.spill.write(events[start:])
                    self.spill.remove(path)
                    raise
                self.stats.resent_from_spill += len(chunk)
            self.spill.remove(path)
        finally:
            self._idle.set()
