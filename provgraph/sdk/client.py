"""``ProvgraphClient``: sends native events to the API in batches from a background thread.

Guarantees, and why:

* **bounded memory** — at most ``max_buffer`` events wait in memory;
* **never drops silently** — when the buffer is full, ``send`` blocks for up to
  ``block_timeout`` seconds (backpressure on the agent), then spills the rest
  to a fsynced JSONL file in ``spill_dir`` that is resent once the server
  answers again; events still undelivered at ``close()``/exit are spilled too;
  events the server refuses for good go to ``dead-letter.jsonl`` with the reason;
* **no duplicates** — every event keeps its delivery id across retries and
  resends, and the server deduplicates by it;
* **polite retries** — 429/503/connection errors are retried with exponential
  backoff, honouring ``Retry-After``.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import threading
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import httpx

from provgraph.events import Event
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


@dataclass
class DeliveryStats:
    """Counters since the client started (for tests, metrics and debugging)."""

    sent: int = 0
    duplicates: int = 0
    rejected: int = 0
    spilled: int = 0
    resent_from_spill: int = 0
    retries: int = 0


class ProvgraphClient:
    """Thread-backed batching client for ``POST /v1/events`` (an :class:`EventSink`)."""

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
        close_timeout: float = 10.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        if batch_size < 1 or max_buffer < batch_size:
            raise ValueError("need 1 <= batch_size <= max_buffer")
        self.api_url = api_url.rstrip("/")
        self.batch_size = batch_size
        self.flush_interval = flush_interval
        self.max_buffer = max_buffer
        self.block_timeout = block_timeout
        self.close_timeout = close_timeout
        self.backoff = backoff or Backoff()
        self.spill = SpillStore(spill_dir or default_spill_dir())
        self.stats = DeliveryStats()
        self._http = httpx.Client(
            base_url=self.api_url,
            headers=request_headers(api_key, project),
            timeout=timeout,
            transport=transport,
        )
        self._buffer: deque[Event] = deque()
        self._cond = threading.Condition()
        self._in_flight = 0
        self._flush_requested = False
        self._closing = False
        self._deadline: float | None = None
        self._healthy = True
        self._thread = threading.Thread(target=self._run, name="provgraph-sdk", daemon=True)
        self._thread.start()
        atexit.register(self.close)

    # ------------------------------------------------------------------ public API
    def send(self, events: Sequence[Event]) -> None:
        """Queue events; blocks up to ``block_timeout`` when full, then spills the rest."""
        if self._closing:
            self.spill.write(events)
            self.stats.spilled += len(events)
            return
        pending = list(events)
        deadline = time.monotonic() + self.block_timeout
        with self._cond:
            while pending:
                room = self.max_buffer - len(self._buffer)
                if room > 0:
                    self._buffer.extend(pending[:room])
                    del pending[:room]
                    self._cond.notify_all()
                    continue
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                self._cond.wait(remaining)
        if pending:
            self.spill.write(pending)
            self.stats.spilled += len(pending)
            log.warning(
                "provgraph: buffer full; %d event(s) spilled to %s",
                len(pending),
                self.spill.directory,
            )

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until everything queued (and spilled) is delivered; False on timeout."""
        end = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            self._flush_requested = True
            self._cond.notify_all()
            while self._buffer or self._in_flight or self.spill.has_pending():
                if not self._thread.is_alive():
                    return False
                remaining = None if end is None else end - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return False
                self._cond.wait(0.05 if remaining is None else min(remaining, 0.05))
            self._flush_requested = False
            return True

    def close(self, timeout: float | None = None) -> None:
        """Flush for up to ``timeout`` seconds, then spill whatever is left and stop."""
        with self._cond:
            if self._closing:
                return
        self.flush(self.close_timeout if timeout is None else timeout)
        with self._cond:
            self._closing = True
            self._deadline = time.monotonic()
            self._cond.notify_all()
        self._thread.join(timeout=self.close_timeout + 5)
        with self._cond:
            leftover = list(self._buffer)
            self._buffer.clear()
        if leftover:
            self.spill.write(leftover)
            self.stats.spilled += len(leftover)
        self._http.close()
        with contextlib.suppress(Exception):
            atexit.unregister(self.close)

    def __enter__(self) -> ProvgraphClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def buffered(self) -> int:
        return len(self._buffer)

    # ------------------------------------------------------------------ worker
    def _run(self) -> None:
        last_send = time.monotonic()
        while True:
            with self._cond:
                while not self._closing:
                    due = time.monotonic() - last_send >= self.flush_interval
                    if len(self._buffer) >= self.batch_size or (
                        self._buffer and (due or self._flush_requested)
                    ):
                        break
                    if (
                        not self._buffer
                        and (due or self._flush_requested)
                        and (self.spill.has_pending())
                    ):
                        break
                    self._cond.wait(self.flush_interval / 4 if self._buffer else 0.2)
                if self._closing:
                    return
                batch = [
                    self._buffer.popleft() for _ in range(min(self.batch_size, len(self._buffer)))
                ]
                self._in_flight = len(batch)
                self._cond.notify_all()
            try:
                if batch:
                    if not self._deliver(batch):
                        with self._cond:
                            self._buffer.extendleft(reversed(batch))
                else:
                    self._resend_spilled()
            finally:
                with self._cond:
                    self._in_flight = 0
                    self._cond.notify_all()
                last_send = time.monotonic()

    def _stopping(self) -> bool:
        return self._closing and self._deadline is not None and time.monotonic() >= self._deadline

    def _deliver(self, batch: list[Event]) -> bool:
        """Send one batch until it is settled; False when stopping with it unsent."""
        attempt = 0
        while True:
            try:
                answer = self._http.post(EVENTS_PATH, content=encode_batch(batch))
                verdict = judge_response(answer.status_code, answer.headers, answer.content, batch)
            except httpx.HTTPError as exc:
                log.info("provgraph: delivery failed (%s); will retry", exc)
                verdict = judge_response(503, {}, b"", batch)
            if not verdict.retry:
                self._settle(batch, verdict.fatal_reason, verdict.rejected, verdict.duplicates)
                self._healthy = True
                return True
            self._healthy = False
            self.stats.retries += 1
            wait = self.backoff.delay(attempt, verdict.retry_after)
            attempt += 1
            with self._cond:
                end = time.monotonic() + wait
                while not self._closing and time.monotonic() < end:
                    self._cond.wait(end - time.monotonic())
            if self._closing:
                return False

    def _settle(
        self, batch: list[Event], fatal: str | None, rejected: dict[str, str], duplicates: int
    ) -> None:
        if fatal is not None:
            self.spill.dead_letter(batch, fatal)
            self.stats.rejected += len(batch)
            return
        if rejected:
            self.spill.dead_letter([e for e in batch if e.id in rejected], rejected)
            self.stats.rejected += len(rejected)
        self.stats.duplicates += duplicates
        self.stats.sent += len(batch) - len(rejected)

    def _resend_spilled(self) -> None:
        path = self.spill.claim()
        if path is None:
            return
        events = self.spill.read(path)
        for start in range(0, len(events), self.batch_size):
            chunk = events[start : start + self.batch_size]
            if not self._deliver(chunk):
                self.spill.write(events[start:])  # still ours to deliver later
                self.spill.remove(path)
                return
            self.stats.resent_from_spill += len(chunk)
        self.spill.remove(path)
