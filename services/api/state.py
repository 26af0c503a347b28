"""Per-app state: settings, the store (opened lazily), the keys, the verifier, metrics,
and the thread GraphQL queries run on.

Keys: with Neo4j they are read from the graph through the API's async store
(every replica sees the same keys), else from the embedded key file; either
way through one :class:`~provgraph.usecases.keys.KeyAuthenticator` whose
short cache a revocation made in this process clears at once.

The store opens on first use rather than only in the lifespan hook so that an
app driven without lifespan events (``httpx.ASGITransport`` in tests) still
works; the lifespan hook closes what this state opened and nothing it was given.

GraphQL queries run on their own thread and loop (:mod:`services.api.read_thread`)
only when this state opens the store itself, as ``create_app()`` does for
uvicorn and ``provgraph serve``: it can then open a second Neo4j store for that
loop (an async driver is bound to the loop that made it), or share the embedded
store (thread-safe, loop-free). A store handed in by a caller may be bound to
the caller's loop, so with one the queries stay on the main loop.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import weakref
from typing import Any, cast

from provgraph.config import Settings
from provgraph.store.key_factory import open_key_repository
from provgraph.store.key_types import AsyncKeyRepository, KeyRecord, KeyRepository
from provgraph.store.port import AsyncGraphStore
from provgraph.usecases.admission import IngestGate
from provgraph.usecases.keys import KeyAuthenticator, KeyStore
from services.api.metrics import ApiMetrics
from services.api.read_thread import ReadThread
from services.api.verification import VerificationDispatcher, default_dispatcher

log = logging.getLogger("provgraph.api")


class AppState:
    """Everything a request handler needs, held on ``app.state.provgraph``."""

    def __init__(
        self,
        settings: Settings,
        *,
        store: AsyncGraphStore | None,
        verifier: VerificationDispatcher | None = None,
    ) -> None:
        self.settings = settings
        self.metrics = ApiMetrics()
        self.verifier = verifier or default_dispatcher(settings, self.store)
        self._store = store
        self._owns_store = store is None
        self._store_lock = asyncio.Lock()
        self._keys: KeyStore | None = None
        self.authenticator = KeyAuthenticator(self._lookup_key, settings.key_cache_ttl_s)
        self.ingest_gate = IngestGate(
            settings.ingest_max_in_flight, settings.ingest_admission_wait_s
        )
        self.metrics.ingest_in_flight.set_function(lambda: self.ingest_gate.in_flight)
        self._key_locks: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        self.graphql_reads: ReadThread | None = None
        """Where GraphQL queries run; None: on the main loop (a store was handed in)."""
        if self._owns_store:
            self.graphql_reads = ReadThread(self._read_thread_store, owns_store=settings.uses_neo4j)

    async def store(self) -> AsyncGraphStore:
        """The graph store; opened on first call (Neo4j if configured, else embedded)."""
        if self._store is not None:
            return self._store
        async with self._store_lock:
            if self._store is None:
                self._store = await open_async_store(self.settings)
        return self._store

    def key_lock(self, project: str) -> asyncio.Lock:
        """Serialises citation-key allocation of OTLP source reads per project (this process)."""
        lock = self._key_locks.get(project)
        if lock is None:
            lock = self._key_locks[project] = asyncio.Lock()
        return lock

    async def _read_thread_store(self) -> AsyncGraphStore:
        """Runs in the read loop: a Neo4j store of its own, or the shared embedded store."""
        if self.settings.uses_neo4j:
            # every GraphQL request opened (and so migrated) the main store on the
            # main loop first; this one only reads: no migrations, no write driver
            return await open_async_store(self.settings, reads_only=True)
        if self._store is None:  # every GraphQL request opened it on the main loop first
            raise RuntimeError("the embedded store is not open")
        return self._store

    def keys(self) -> KeyStore:
        """The synchronous key store (admin routes run it in a thread; tests; start-up)."""
        if self._keys is None:
            self._keys = KeyStore(
                open_key_repository(self.settings), on_revoke=self.authenticator.forget
            )
        return self._keys

    async def key_repository(self) -> AsyncKeyRepository:
        """Keys for the request path: the graph's through the async Neo4j store, else the
        embedded file (read inline: a local SQLite row is microseconds)."""
        if self.settings.uses_neo4j:
            from provgraph.store.neo4j import AsyncNeo4jGraphStore
            from provgraph.store.neo4j.keys import AsyncNeo4jKeyRepository

            store = await self.store()
            if isinstance(store, AsyncNeo4jGraphStore):
                return AsyncNeo4jKeyRepository(store)
        return _InlineKeys(self.keys().repository)

    async def _lookup_key(self, key_id: str) -> KeyRecord | None:
        return await (await self.key_repository()).get_key(key_id)

    def forget_key(self, key_id: str) -> None:
        """A key revoked through this process: refused here from the next request."""
        self.authenticator.forget(key_id)

    async def close(self) -> None:
        closer = getattr(self.verifier, "close", None)
        if closer is not None:  # first: inline jobs still write through the store
            await closer()
        if self.graphql_reads is not None:
            await self.graphql_reads.close()
        if self._owns_store and self._store is not None:
            await self._store.close()
            self._store = None
        if self._keys is not None:
            self._keys.close()
            self._keys = None


async def open_async_store(settings: Settings, *, reads_only: bool = False) -> AsyncGraphStore:
    """Neo4j when ``PROVGRAPH_NEO4J_URI`` is set, otherwise the embedded store in a thread.

    ``reads_only`` (Neo4j): no migrations and no write driver (the read thread's store).
    """
    if settings.uses_neo4j:
        from provgraph.store import neo4j as neo4j_adapter

        opened: Any = (
            neo4j_adapter.open_async_neo4j_store(settings, reads_only=True)
            if reads_only
            else neo4j_adapter.open_async_neo4j_store(settings)
        )
        if inspect.isawaitable(opened):
            opened = await opened
        log.info("store: neo4j", extra={"uri": settings.neo4j_uri})
        return cast(AsyncGraphStore, opened)
    from provgraph.store.async_memory import AsyncMemoryGraphStore

    path = settings.event_log_path
    store = await asyncio.to_thread(AsyncMemoryGraphStore, path)
    log.info("store: embedded", extra={"event_log": str(path)})
    return store


class _InlineKeys:
    """The sync key repository behind the async interface (embedded file, in-loop)."""

    def __init__(self, repository: KeyRepository) -> None:
        self._repository = repository

    async def insert_key(self, record: KeyRecord) -> None:
        self._repository.insert_key(record)

    async def get_key(self, key_id: str) -> KeyRecord | None:
        return self._repository.get_key(key_id)

    async def list_keys(self) -> list[KeyRecord]:
        return self._repository.list_keys()

    async def revoke_key(self, key_id: str, at: str) -> KeyRecord | None:
        return self._repository.revoke_key(key_id, at)
