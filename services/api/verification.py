"""How the API asks for a verification: through the worker's dispatcher when it exists.

``services.worker.dispatch.enqueue_verification`` records the job in the graph
first and then publishes it to Celery (broker mode) or runs it on a
background thread of this process (embedded mode, which needs the API's own
sync store so the inline job sees the graph it serves). When the dispatcher
cannot be imported the mutation answers "not configured" with what to do.
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from provgraph.config import Settings
from provgraph.errors import ProvgraphError
from provgraph.store.async_memory import ThreadedAsyncStore
from provgraph.store.port import AsyncGraphStore
from provgraph.store.types import Job


class VerificationUnavailableError(ProvgraphError):
    """No verification service is configured for this deployment."""


class VerificationDispatcher(Protocol):
    async def request(self, project: str, output_id: str) -> Job: ...


StoreGetter = Callable[[], Awaitable[AsyncGraphStore]]


class WorkerDispatcher:
    """Calls ``enqueue_verification`` in a thread (it writes the graph and may publish)."""

    def __init__(self, enqueue: Callable[..., Job], settings: Settings, store: StoreGetter) -> None:
        self._enqueue = enqueue
        self._settings = settings
        self._store = store

    async def request(self, project: str, output_id: str) -> Job:
        store = await self._store()
        kwargs: dict[str, Any] = {"settings": self._settings}
        if isinstance(store, ThreadedAsyncStore):
            kwargs["store"] = store.sync_store  # embedded: inline jobs must see this graph
        return await asyncio.to_thread(self._enqueue, project, output_id, **kwargs)


class UnconfiguredDispatcher:
    """The fallback: says what is missing."""

    def __init__(self, reason: str) -> None:
        self.reason = reason

    async def request(self, project: str, output_id: str) -> Job:
        raise VerificationUnavailableError(self.reason)


def default_dispatcher(settings: Settings, store: StoreGetter) -> VerificationDispatcher:
    """The worker's dispatcher if it can be imported, else one that explains why not."""
    try:
        module = importlib.import_module("services.worker.dispatch")
        enqueue = module.enqueue_verification
    except (ImportError, AttributeError) as exc:
        return UnconfiguredDispatcher(
            "verification service not configured: the worker dispatcher cannot be loaded "
            f"({type(exc).__name__}: {exc}); install provgraph[worker] or run `make up`"
        )
    return WorkerDispatcher(enqueue, settings, store)
