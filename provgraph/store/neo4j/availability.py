"""Fail fast while Neo4j is known to be down, so a 503 arrives at once instead of after retries.

When a call finds the server unreachable, the store remembers it. Until the
server answers again, each call either becomes the one probe allowed per
``probe_interval`` (a connectivity check bounded by a short timeout) or is
refused immediately with :class:`~provgraph.errors.StoreUnavailableError`.
The clock is injected so the rule is testable without sleeping.
"""

from __future__ import annotations

import time
from collections.abc import Callable

PROBE_INTERVAL_S = 0.5
PROBE_TIMEOUT_S = 1.0


class Availability:
    """What the store last learned about the server: up, or down since a given time."""

    def __init__(
        self,
        probe_interval: float = PROBE_INTERVAL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._interval = probe_interval
        self._clock = clock
        self._down = False
        self._last_probe = 0.0

    @property
    def known_down(self) -> bool:
        return self._down

    def claim_probe(self) -> bool:
        """True for the one caller per interval that should check the server; others fail fast."""
        now = self._clock()
        if now - self._last_probe < self._interval:
            return False
        self._last_probe = now
        return True

    def mark_down(self) -> None:
        if not self._down:
            self._down = True
            self._last_probe = self._clock()

    def mark_up(self) -> None:
        self._down = False
