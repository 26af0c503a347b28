"""How the API asks for a verification: through the worker's dispatcher when it exists.

The API never runs verification itself (it is CPU-heavy and would stall
requests); it hands the job to ``services.worker.dispatch`` and returns the
job. When no dispatcher is available the mutation answers "not configured"
with what to set, rather than failing obscurely.
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Callable
from typing import Protocol

from provgraph.errors import ProvgraphError
from provgraph.store.types import Job


class VerificationUnavailableError(ProvgraphError):
    """No verification service is configured for this deployment."""


class VerificationDispatcher(Protocol):
    async def request(self, project: str, output_id: str) -> Job: ...


class WorkerDispatcher:
    """Calls ``services.worker.dispatch.enqueue_verification`` in a thread (it may block)."""

    def __init__(self, enqueue: Callable[[str, str], Job]) -> None:
        self._enqueue = enqueue

    async def request(self, project: str, output_id: str) -> Job:
        return await asyncio.to_thread(self._enqueue, project, output_id)


class UnconfiguredDispatcher:
    """The fallback: says what is missing."""

    def __init__(self, reason: str) -> None:
        self.reason = reason

    async def request(self, project: str, output_id: str) -> Job:
        raise VerificationUnavailableError(self.reason)


def default_dispatcher() -> VerificationDispatcher:
    """The worker's dispatcher if it can be imported, else one that explains why not."""
    try:
        module = importlib.import_module("services.worker.dispatch")
        enqueue = module.enqueue_verification
    except (ImportError, AttributeError) as exc:
        return UnconfiguredDispatcher(
            "verification service not configured: the worker dispatcher is not installed "
            f"({type(exc).__name__}); run the platform with `make up` "
            "(PROVGRAPH_BROKER_URL and a worker)"
        )
    return WorkerDispatcher(enqueue)
