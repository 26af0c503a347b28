"""Worker tunables: time limits, retry policy and broker timing.

These are operational knobs of the worker service only, so they are read here
(``PROVGRAPH_WORKER_*``) rather than in :class:`provgraph.config.Settings`,
which ignores unknown ``PROVGRAPH_*`` names by design. ``docs/worker.md``
lists them. The defaults suit production; the tests shorten the timings.

The invariants the defaults keep (checked in :meth:`WorkerOptions.validate`):

* ``visibility_timeout`` > ``hard_time_limit`` and > ``retry_backoff_max``:
  Redis redelivers any message still unacknowledged after the visibility
  timeout, so a task or a retry countdown longer than it runs twice
  (harmless, tasks are idempotent, but wasteful).
* a SIGKILLed worker's message comes back only after the visibility timeout
  *and* kombu's restore sweep (``unacked_restore_interval``), so these two
  bound the recovery time after a crash.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields

from provgraph.errors import ConfigurationError

ENV_PREFIX = "PROVGRAPH_WORKER_"


@dataclass(frozen=True)
class WorkerOptions:
    """Timing and retry policy of the worker (see the module docstring for the invariants)."""

    visibility_timeout: float = 1200.0
    """Seconds before Redis redelivers an unacknowledged message."""
    unacked_restore_interval: float = 5.0
    """How often kombu looks for expired unacknowledged messages (default ~100 s)."""
    soft_time_limit: float = 900.0
    """A task running longer gets SoftTimeLimitExceeded (the job fails with that reason)."""
    hard_time_limit: float = 960.0
    """A task running longer has its process killed (then redelivered, bounded by attempts)."""
    max_retries: int = 8
    """Retries of one delivery on transient errors before the job is marked failed."""
    retry_backoff: float = 2.0
    """First retry countdown in seconds; doubles per retry (with full jitter)."""
    retry_backoff_max: float = 300.0
    """Cap of one retry countdown in seconds."""
    sweep_interval: float = 60.0
    """Seconds between two re-enqueue sweeps (beat schedule)."""
    sweep_stale_after: float = 600.0
    """A job ``queued`` for longer than this without progress is re-enqueued by the sweep."""
    retention_interval: float = 3600.0
    """Seconds between two retention runs (beat schedule; policy: PROVGRAPH_RETENTION)."""
    checkpoint_interval: float = 3600.0
    """Seconds between two audit checkpoint runs (beat schedule)."""

    def validate(self) -> WorkerOptions:
        """Refuse settings that break redelivery or double-run every retry."""
        if self.hard_time_limit <= self.soft_time_limit:
            raise ConfigurationError(
                f"{ENV_PREFIX}HARD_TIME_LIMIT must exceed {ENV_PREFIX}SOFT_TIME_LIMIT"
            )
        if self.visibility_timeout <= self.retry_backoff_max:
            raise ConfigurationError(
                f"{ENV_PREFIX}VISIBILITY_TIMEOUT must exceed {ENV_PREFIX}RETRY_BACKOFF_MAX"
                " (longer countdowns are delivered twice)"
            )
        if self.max_retries < 0 or self.retry_backoff <= 0:
            raise ConfigurationError(
                f"{ENV_PREFIX}MAX_RETRIES must be >= 0 and {ENV_PREFIX}RETRY_BACKOFF > 0"
            )
        return self

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> WorkerOptions:
        """Read ``PROVGRAPH_WORKER_<FIELD>`` variables; a malformed one is named in the error."""
        env = os.environ if environ is None else environ
        values: dict[str, float | int] = {}
        for spec in fields(cls):
            name = ENV_PREFIX + spec.name.upper()
            raw = env.get(name, "")
            if raw == "":
                continue
            try:
                values[spec.name] = int(raw) if spec.type in (int, "int") else float(raw)
            except ValueError:
                raise ConfigurationError(f"{name}: not a number: {raw!r}") from None
        return cls(**values).validate()  # type: ignore[arg-type]
