"""The one exception root of provgraph and its specific subclasses.

Callers catch :class:`ProvgraphError` to handle anything the library raises on
purpose; the subclasses let them be precise (``RetryableError`` is the one the
API turns into ``503 Retry-After`` and the worker retries with backoff).
Every message says what was wrong, where, and what to do about it.
"""

from __future__ import annotations


class ProvgraphError(Exception):
    """Root of every error provgraph raises on purpose."""


class ConfigurationError(ProvgraphError):
    """A setting is missing or malformed (names the ``PROVGRAPH_*`` variable)."""


class ValidationError(ProvgraphError):
    """Input was rejected; ``path`` names the offending field (dotted)."""

    def __init__(self, message: str, *, path: str = "") -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.reason = message
        self.path = path


class NotFoundError(ProvgraphError, KeyError):
    """A node, session, report or job does not exist in the caller's project.

    It is also a ``KeyError`` so that seed code catching ``KeyError`` for an
    unknown node id keeps working.
    """

    def __str__(self) -> str:  # KeyError quotes its argument; keep the message readable
        return str(self.args[0]) if self.args else "not found"


class CitationKeyConflictError(ValidationError):
    """A citation key is already bound to a different node in the same session."""


class StoreError(ProvgraphError):
    """The graph store failed in a way a retry will not fix."""


class RetryableError(ProvgraphError):
    """A transient failure (store or broker unreachable, restarting): retry later.

    ``retry_after`` is a hint in seconds for callers that answer HTTP 503.
    """

    def __init__(self, message: str, *, retry_after: float = 1.0) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class OverloadedError(RetryableError):
    """Too much work in flight right now (ingest requests, store transactions): slow down.

    ``/v1/events`` answers it 503 like any retryable error; ``/v1/traces``
    answers 429, the OTLP throttling signal. Both send ``Retry-After``.
    """


class StoreUnavailableError(RetryableError):
    """The graph store cannot be reached right now."""


class StoreBusyError(StoreUnavailableError, OverloadedError):
    """The store is up but overloaded (no pooled connection in time, lock contention)."""


class StoreTimeoutError(RetryableError):
    """A read ran past the store's transaction timeout and was stopped by the server.

    Retryable because a loaded server may answer in time later; the message says
    how to ask for less (smaller pages, shallower walks).
    """


class EventLogCorruptionError(StoreError):
    """The embedded event log has damage other than a torn final line."""


class ModelUnavailableError(ProvgraphError):
    """A model's weights cannot be loaded (offline, missing package, bad path).

    Verification stages catch this and record the stage as skipped with the reason.
    """


class LimitExceededError(ValidationError):
    """A request exceeds a documented limit (depth, page size, batch size)."""
