"""GraphQL queries run on their own thread and event loop, so ingestion never waits behind one.

Why (issue 16, ADR 0009): a heavy *allowed* query spends seconds of CPU decoding
Neo4j records and completing GraphQL objects. On the API's one event loop that
CPU ran between every step of an ingest sent meanwhile, so the ingest finished
after the read, however separate their connection pools were: asyncio has no
priorities, and thousands of ready resolver callbacks run before the ingest's
next step. Here a query runs on a second event loop in its own thread; the
interpreter switches threads every few milliseconds (``sys.getswitchinterval``),
so an ingest gets its share at once instead of waiting for the whole read.

Constraints:
- Only queries come here. Mutations write and publish jobs through the main
  loop's store and task client; subscriptions poll on the main loop (each poll
  is one small read).
- Async drivers are bound to the loop that made them, so the read loop has its
  own store (:meth:`ReadThread.run` gets it from ``open_store``, called once, in
  the read loop). For Neo4j that is a second store with its own read pool and
  read slots, under the same read timeout; it never writes, and is opened
  ``reads_only`` (no migration check, no write driver).
- The caller's context variables (the request id in logs and masked errors)
  travel with the query; cancelling the awaiting request cancels the query.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from provgraph.store.port import AsyncGraphStore

T = TypeVar("T")
JOIN_TIMEOUT_S = 10.0


class ReadThread:
    """One daemon thread running one event loop, started on the first query."""

    def __init__(
        self,
        open_store: Callable[[], Awaitable[AsyncGraphStore]],
        *,
        owns_store: bool,
        name: str = "provgraph-graphql-reads",
    ) -> None:
        """``open_store`` runs in the read loop; ``owns_store``: close it on :meth:`close`."""
        self._open_store = open_store
        self._owns_store = owns_store
        self._name = name
        self._start_lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._store: AsyncGraphStore | None = None
        self._store_lock: asyncio.Lock | None = None

    @property
    def running(self) -> bool:
        """True once a query has started the thread, until :meth:`close`."""
        return self._thread is not None and self._thread.is_alive()

    def _started(self) -> asyncio.AbstractEventLoop:
        with self._start_lock:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                thread = threading.Thread(target=loop.run_forever, name=self._name, daemon=True)
                thread.start()
                self._loop, self._thread = loop, thread
            return self._loop

    async def run(self, work: Callable[[AsyncGraphStore], Coroutine[Any, Any, T]]) -> T:
        """Run ``work(read_store)`` on the read loop and await its result here."""
        context = contextvars.copy_context()
        future = asyncio.run_coroutine_threadsafe(self._call(work, context), self._started())
        return await asyncio.wrap_future(future)

    async def _call(
        self,
        work: Callable[[AsyncGraphStore], Coroutine[Any, Any, T]],
        context: contextvars.Context,
    ) -> T:
        store = await self._read_store()
        task = asyncio.get_running_loop().create_task(work(store), context=context)
        return await task

    async def _read_store(self) -> AsyncGraphStore:
        if self._store is not None:
            return self._store
        if self._store_lock is None:  # made here: a lock belongs to the read loop
            self._store_lock = asyncio.Lock()
        async with self._store_lock:
            if self._store is None:
                self._store = await self._open_store()
        return self._store

    async def close(self) -> None:
        """Close the read store (if owned) in its loop, then stop the loop and the thread."""
        with self._start_lock:
            loop, thread = self._loop, self._thread
            self._loop = self._thread = None
        if loop is None or thread is None:
            return
        store, self._store = self._store, None
        if store is not None and self._owns_store:
            await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(store.close(), loop))
        loop.call_soon_threadsafe(loop.stop)
        await asyncio.to_thread(thread.join, JOIN_TIMEOUT_S)
        if not thread.is_alive():
            loop.close()
