"""How the API asks for a verification: the request use case with the API's adapters.

The use case (:func:`provgraph.usecases.verification.request_and_publish`)
records the job in the graph, then hands it to a publisher port. The API
never imports the worker: with a broker it publishes through its own Celery
*client* (:mod:`services.api.task_client`), which sends the task by name;
without one (embedded mode) it runs the job on this process's inline runner,
which must use the API's own sync store so the job sees the graph it serves.
Jobs are written through a sync store (the job state machine is synchronous),
so each request runs in a thread.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from typing import Protocol

from provgraph.config import Settings
from provgraph.errors import ProvgraphError
from provgraph.store.async_memory import ThreadedAsyncStore
from provgraph.store.factory import open_store
from provgraph.store.port import AsyncGraphStore, GraphStore
from provgraph.store.types import Job
from provgraph.usecases.jobs_inline import InlineJobRunner
from provgraph.usecases.publishing import JobPublisher, TaskQueuePublisher
from provgraph.usecases.verification import request_and_publish
from provgraph.verification.config import VerificationConfig
from provgraph.verification.from_settings import config_from_settings


class VerificationUnavailableError(ProvgraphError):
    """No verification service is configured for this deployment."""


class VerificationDispatcher(Protocol):
    async def request(self, project: str, output_id: str) -> Job: ...


StoreGetter = Callable[[], Awaitable[AsyncGraphStore]]


class UseCaseDispatcher:
    """The API's dispatcher: the request use case over a sync store and a publisher.

    Adapters are created on first use: a Neo4j deployment opens one sync
    driver for jobs in this process; the embedded one reuses the sync store
    under the API's async store. :meth:`close` releases what this opened.
    ``config`` is the verifier config of every request (default: the defaults,
    which the worker's sweep also uses for outputs nobody requested).
    """

    def __init__(
        self, settings: Settings, store: StoreGetter, config: VerificationConfig | None = None
    ) -> None:
        self._settings = settings
        self._config = config or VerificationConfig()
        self._store_getter = store
        self._lock = threading.Lock()
        self._adapters: tuple[GraphStore, JobPublisher] | None = None
        self._owned_store: GraphStore | None = None
        self._runner: InlineJobRunner | None = None

    async def request(self, project: str, output_id: str) -> Job:
        store = await self._store_getter()
        return await asyncio.to_thread(self._request, store, project, output_id)

    def _request(self, api_store: AsyncGraphStore, project: str, output_id: str) -> Job:
        store, publisher = self._open(api_store)
        return request_and_publish(store, publisher, project, output_id, self._config)

    def _open(self, api_store: AsyncGraphStore) -> tuple[GraphStore, JobPublisher]:
        with self._lock:
            if self._adapters is None:
                store = self._sync_store(api_store)
                publisher: JobPublisher
                if self._settings.uses_broker:
                    from services.api.task_client import celery_client

                    publisher = TaskQueuePublisher(celery_client(self._settings))
                else:
                    from provgraph.verification.model_cache import stage_models

                    self._runner = InlineJobRunner(store, models_for=stage_models)
                    publisher = self._runner
                self._adapters = (store, publisher)
            return self._adapters

    def _sync_store(self, api_store: AsyncGraphStore) -> GraphStore:
        if isinstance(api_store, ThreadedAsyncStore):
            return api_store.sync_store  # embedded: inline jobs must see this graph
        self._owned_store = open_store(self._settings)
        return self._owned_store

    def wait_idle(self, timeout: float = 60.0) -> bool:
        """Embedded mode: block until the inline jobs finished (tests, shutdown)."""
        return self._runner.wait_idle(timeout) if self._runner is not None else True

    async def close(self) -> None:
        with self._lock:
            runner, self._runner = self._runner, None
            owned, self._owned_store = self._owned_store, None
            self._adapters = None
        if runner is not None:
            await asyncio.to_thread(runner.shutdown, True)
        if owned is not None:
            await asyncio.to_thread(owned.close)


class UnconfiguredDispatcher:
    """The fallback: says what is missing."""

    def __init__(self, reason: str) -> None:
        self.reason = reason

    async def request(self, project: str, output_id: str) -> Job:
        raise VerificationUnavailableError(self.reason)


def default_dispatcher(settings: Settings, store: StoreGetter) -> VerificationDispatcher:
    """The use-case dispatcher, or one that explains what to install for a broker."""
    if settings.uses_broker:
        try:
            import celery  # noqa: F401  (the client that sends tasks by name)
        except ImportError as exc:
            return UnconfiguredDispatcher(
                "verification service not configured: PROVGRAPH_BROKER_URL is set but the "
                f"Celery client is missing ({exc}); install provgraph[worker]"
            )
    return UseCaseDispatcher(settings, store, config_from_settings(settings))
