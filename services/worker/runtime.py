"""Per-process resources of a worker: the graph store and the loaded models.

Celery's prefork pool forks child processes from the main worker process. A
Neo4j driver (sockets, threads) and torch models must not cross a fork, so:

* nothing here is created at import time or in the parent;
* :func:`reset_after_fork` (wired to ``worker_process_init``) drops anything
  inherited, and the store is opened on first use in the child — one driver
  per process, reused by every task of that process;
* models are loaded lazily on the first heavy task of a process and kept for
  the life of the process (a model load costs seconds; a task should not);
* embedding vectors go to a cache shared by all worker processes (an SQLite
  file under ``PROVGRAPH_CACHE_DIR``), opened per process after fork.

The same functions serve the API process in embedded mode (one store per
process, shared with the inline job runner).
"""

from __future__ import annotations

import logging
import os
import threading
from typing import Any

from provgraph.config import Settings, load_settings
from provgraph.errors import ModelUnavailableError
from provgraph.store.factory import open_store
from provgraph.store.port import GraphStore
from provgraph.verification.config import StageModels, VerificationConfig
from provgraph.verification.vector_cache import (
    MemoryVectorCache,
    SqliteVectorCache,
    TieredVectorCache,
    VectorCache,
)

log = logging.getLogger(__name__)

_lock = threading.Lock()
_pid: int | None = None
_settings: Settings | None = None
_store: GraphStore | None = None
_encoders: dict[tuple[str, int], Any] = {}
_nli_models: dict[str | None, Any] = {}


def _check_pid() -> None:
    """Forget resources created in another process (we were forked)."""
    global _pid, _store, _settings
    pid = os.getpid()
    if _pid != pid:
        _pid, _store, _settings = pid, None, None
        _encoders.clear()
        _nli_models.clear()


def reset_after_fork() -> None:
    """Drop inherited resources without closing them (they belong to the parent)."""
    with _lock:
        _check_pid()


def process_settings() -> Settings:
    """The settings of this process, read once from the environment."""
    global _settings
    with _lock:
        _check_pid()
        if _settings is None:
            _settings = load_settings()
        return _settings


def process_store(settings: Settings | None = None) -> GraphStore:
    """This process's store, opened on first use (one Neo4j driver per process).

    ``settings`` only matters for the first call of a process; later calls get
    the already-open store.
    """
    global _store, _settings
    with _lock:
        _check_pid()
        if _store is None:
            if settings is not None:
                _settings = settings
            if _settings is None:
                _settings = load_settings()
            _store = open_store(_settings)
        return _store


def set_process_store(store: GraphStore | None) -> None:
    """Use this store for the process (the embedded API shares its own store this way)."""
    global _store
    with _lock:
        _check_pid()
        _store = store


def close_process_store() -> None:
    """Close the store at process shutdown (``worker_process_shutdown``)."""
    global _store
    with _lock:
        store, _store = _store, None
    if store is not None:
        try:
            store.close()
        except Exception as exc:  # shutting down: report and go on
            log.info("closing the store failed: %s", exc)


def stage_models(config: VerificationConfig) -> StageModels:
    """Models for this config, loaded once per process and reused across tasks.

    A model that cannot be loaded is left None: the engine then tries itself,
    fails the same way and records the stage as skipped with the reason, so
    the report says why. The failure is not cached (the model may appear).
    """
    from provgraph.verification.embeddings import EmbeddingEncoder
    from provgraph.verification.nli import load_nli

    settings = process_settings()
    models = StageModels()
    with _lock:
        _check_pid()
        if config.embeddings:
            key = (config.embedding_model, config.embedding_batch_size)
            if key not in _encoders:
                try:
                    _encoders[key] = EmbeddingEncoder(
                        config.embedding_model,
                        batch_size=config.embedding_batch_size,
                        cache=vector_cache(settings),
                    )
                except ModelUnavailableError as exc:
                    log.warning("embedding model unavailable: %s", exc)
            models.encoder = _encoders.get(key)
        if config.nli:
            if config.nli_model not in _nli_models:
                try:
                    # One thread per prefork child: the pool runs one child per core
                    # by default, and more would oversubscribe (docs/nli-model.md).
                    _nli_models[config.nli_model] = load_nli(config.nli_model, threads=1)
                except ModelUnavailableError as exc:
                    log.warning("NLI model unavailable: %s", exc)
            models.nli_model = _nli_models.get(config.nli_model)
    return models


def vector_cache(settings: Settings) -> VectorCache:
    """The embedding vector cache of this process: memory, then the shared SQLite file.

    The file (``<cache dir>/embeddings.sqlite3``) is shared by every worker
    process on the host, so a source's windows are embedded once for all of
    them; ``PROVGRAPH_EMBEDDING_CACHE_ROWS=0`` keeps the cache in memory only.
    """
    disk = (
        SqliteVectorCache(
            settings.cache_path / "embeddings.sqlite3", max_rows=settings.embedding_cache_rows
        )
        if settings.embedding_cache_rows > 0
        else None
    )
    return TieredVectorCache(MemoryVectorCache(), disk)


def loaded_model_count() -> int:
    """How many models this process holds (for tests of load-once behaviour)."""
    with _lock:
        return len(_encoders) + len(_nli_models)
