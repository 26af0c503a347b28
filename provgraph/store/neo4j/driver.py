"""What the sync and async adapters share about the driver: settings, errors, batching.

Error policy: anything that means "the server cannot be reached right now"
(connection refused or lost, session expired, routing or pool exhaustion, a
transient server error that outlived the driver's own retries, a commit whose
outcome is unknown) becomes :class:`~provgraph.errors.StoreUnavailableError`,
a ``RetryableError`` the API answers with 503 and the worker retries. Every
other driver or server error becomes :class:`~provgraph.errors.StoreError`
naming the operation, because retrying will not fix it. A read stopped by its
transaction timeout becomes :class:`~provgraph.errors.StoreTimeoutError`.

Messages never carry the server's address: they reach API clients (503
bodies, GraphQL errors); the address and the driver's own text go to the log.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from neo4j import exceptions as neo

from provgraph.config import Settings
from provgraph.errors import (
    ProvgraphError,
    StoreBusyError,
    StoreError,
    StoreTimeoutError,
    StoreUnavailableError,
)

T = TypeVar("T")
log = logging.getLogger("provgraph.store.neo4j")

MAX_TRANSACTION_RETRY_S = 2.0
"""Driver-side retries of transient failures; short so the API answers 503 quickly."""
CONNECTION_TIMEOUT_S = 5.0
ACQUISITION_TIMEOUT_S = 10.0
READ_ACQUISITION_TIMEOUT_S = 5.0
UNKNOWN_OUTCOME_ATTEMPTS = 3
"""Re-runs of a batch whose commit outcome was unknown (same batch token: safe)."""
RETRY_AFTER_S = 2.0


@dataclass(frozen=True)
class ConnectionConfig:
    """Where and how to connect; built from :class:`~provgraph.config.Settings`."""

    uri: str
    user: str
    password: str | None
    database: str
    batch_size: int
    read_timeout_s: float = 10.0
    read_concurrency: int = 16
    audit_chain: bool = True
    """Seal accepted batches, reports and reviews into the audit chain (off: benchmarks)."""

    @classmethod
    def from_settings(cls, settings: Settings) -> ConnectionConfig:
        if not settings.neo4j_uri:
            raise StoreError("PROVGRAPH_NEO4J_URI is not set; the Neo4j store needs it")
        return cls(
            uri=settings.neo4j_uri,
            user=settings.neo4j_user,
            password=settings.neo4j_password,
            database=settings.neo4j_database,
            batch_size=settings.neo4j_batch_size,
            read_timeout_s=settings.neo4j_read_timeout_s,
            read_concurrency=settings.neo4j_read_concurrency,
            audit_chain=settings.audit_chain,
        )

    @property
    def auth(self) -> tuple[str, str] | None:
        """No password means a server with auth off (throwaway test instances)."""
        return (self.user, self.password) if self.password is not None else None

    def driver_kwargs(self) -> dict[str, Any]:
        return {
            "auth": self.auth,
            "max_transaction_retry_time": MAX_TRANSACTION_RETRY_S,
            "connection_timeout": CONNECTION_TIMEOUT_S,
            "connection_acquisition_timeout": ACQUISITION_TIMEOUT_S,
            # Server notifications (unknown label before the first write, …) are
            # noise for fixed, tested statements; turning them off saves traffic.
            "notifications_min_severity": "OFF",
        }

    def read_driver_kwargs(self) -> dict[str, Any]:
        """The API's read pool: no larger than the read slots, so reads cannot starve writes."""
        return {
            **self.driver_kwargs(),
            "max_connection_pool_size": self.read_concurrency,
            "connection_acquisition_timeout": READ_ACQUISITION_TIMEOUT_S,
        }


_UNAVAILABLE: tuple[type[BaseException], ...] = (
    neo.ServiceUnavailable,
    neo.SessionExpired,
    neo.TransientError,
    neo.ConnectionPoolError,
    ConnectionError,
    TimeoutError,
)


def _busy(exc: BaseException) -> bool:
    """Overload rather than absence: no pooled connection in time, or a transient
    conflict (deadlock, lock wait); a database that is not available is not busy."""
    if isinstance(exc, neo.ConnectionPoolError):
        return True
    return isinstance(exc, neo.TransientError) and "Unavailable" not in (exc.code or "")


def translate(exc: BaseException, action: str, uri: str) -> ProvgraphError:
    """The provgraph error for a driver exception raised while doing ``action``.

    ``uri`` is logged, never put in the message (see the module docstring).
    """
    if isinstance(exc, ProvgraphError):
        return exc
    log.log(
        logging.WARNING if isinstance(exc, _UNAVAILABLE) else logging.DEBUG,
        "neo4j call failed",
        extra={"uri": uri, "action": action, "error": f"{type(exc).__name__}: {exc}"},
    )
    if isinstance(exc, neo.IncompleteCommit):
        return StoreUnavailableError(
            f"Neo4j: the connection was lost while committing ({action}); "
            "the outcome is unknown and retrying the same batch is safe (it is idempotent)",
            retry_after=RETRY_AFTER_S,
        )
    if isinstance(exc, neo.Neo4jError) and "TransactionTimedOut" in (exc.code or ""):
        return StoreTimeoutError(
            f"the store stopped this read ({action}) after its time limit "
            "(PROVGRAPH_NEO4J_READ_TIMEOUT_S): ask for less (smaller pages, shallower walks) "
            "or retry later",
            retry_after=RETRY_AFTER_S,
        )
    if _busy(exc):
        return StoreBusyError(
            f"the graph store (Neo4j) is busy ({action}); retry later",
            retry_after=RETRY_AFTER_S,
        )
    if isinstance(exc, _UNAVAILABLE):
        return StoreUnavailableError(
            f"the graph store (Neo4j) is unavailable ({action}); retry later",
            retry_after=RETRY_AFTER_S,
        )
    if isinstance(exc, neo.AuthError):
        return StoreError(
            "Neo4j refused the credentials; check PROVGRAPH_NEO4J_USER and PROVGRAPH_NEO4J_PASSWORD"
        )
    if isinstance(exc, neo.Neo4jError):
        return StoreError(f"Neo4j failed ({action}): {exc.code}")
    return StoreError(f"Neo4j driver failed ({action}): {type(exc).__name__}")


def is_connection_failure(exc: BaseException) -> bool:
    """The server cannot be reached (as opposed to busy): later calls may fail fast."""
    cause = exc.__cause__
    return isinstance(cause, neo.ServiceUnavailable | neo.SessionExpired | OSError)


@contextmanager
def translated(action: str, uri: str) -> Iterator[None]:
    """Re-raise driver errors as provgraph errors (see :func:`translate`)."""
    try:
        yield
    except (neo.Neo4jError, neo.DriverError, OSError) as exc:
        raise translate(exc, action, uri) from exc


def batch_may_rerun(exc: ProvgraphError) -> bool:
    """An ingest batch that failed like this is re-run with its token: a commit whose
    outcome is unknown, or a ``:Delivery`` uniqueness failure (the same event id in a
    batch of another session committed first; the re-run reports it a duplicate)."""
    return isinstance(exc.__cause__, neo.IncompleteCommit | neo.ConstraintError)


def chunks(items: Sequence[T], size: int) -> Iterator[list[tuple[int, T]]]:
    """``(index in the call, item)`` chunks of at most ``size``: one transaction each."""
    for start in range(0, len(items), size):
        yield [(start + i, item) for i, item in enumerate(items[start : start + size])]


def new_batch_token() -> str:
    """Identifies one ingest call's transaction across re-runs of that same call."""
    return uuid.uuid4().hex
