"""Admission of ingest requests: a bound on the requests one API process works on at once.

Beyond ``PROVGRAPH_INGEST_MAX_IN_FLIGHT`` requests in flight, a new one waits
up to ``PROVGRAPH_INGEST_ADMISSION_WAIT_S`` for a slot and is then refused
with :class:`~provgraph.errors.OverloadedError` (retry later), instead of
queueing without bound: a client that is told to back off sheds load; one
that waits in an unbounded queue times out and re-sends, doubling it. Admission
comes before the body is read, so refused bodies cost no memory. REST
(``/v1/events``, 503) and OTLP (``/v1/traces``, 429) share one gate.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from provgraph.errors import OverloadedError


class IngestGate:
    """At most ``max_in_flight`` holders at once; others wait ``wait_s`` at most, then fail."""

    def __init__(self, max_in_flight: int, wait_s: float, *, retry_after: float = 1.0) -> None:
        if max_in_flight < 1:
            raise ValueError("max_in_flight must be at least 1")
        self.max_in_flight = max_in_flight
        self.wait_s = wait_s
        self.retry_after = retry_after
        self._slots = asyncio.Semaphore(max_in_flight)
        self._in_flight = 0

    @property
    def in_flight(self) -> int:
        """Requests admitted and not finished (for the metrics gauge)."""
        return self._in_flight

    async def _acquire(self) -> None:
        if self.wait_s <= 0:
            if self._slots.locked():
                raise TimeoutError
            await self._slots.acquire()
            return
        await asyncio.wait_for(self._slots.acquire(), self.wait_s)

    @asynccontextmanager
    async def admit(self) -> AsyncIterator[None]:
        """Hold a slot for the body of the ``async with``; OverloadedError when none frees up."""
        try:
            await self._acquire()
        except TimeoutError:
            raise OverloadedError(
                f"the API is busy: {self.max_in_flight} ingest requests in flight "
                f"(PROVGRAPH_INGEST_MAX_IN_FLIGHT); retry later",
                retry_after=self.retry_after,
            ) from None
        self._in_flight += 1
        try:
            yield
        finally:
            self._in_flight -= 1
            self._slots.release()
