"""Per-process resources of a worker: the graph store and the loaded models.

Celery's prefork pool forks child processes from the main worker process. A
Neo4j driver (sockets, threads) and torch models must not cross a fork, so:

* nothing here is created at import time or in the parent;
* :func:`reset_after_fork` (wired to ``worker_process_init``) drops anything
  inherited, and the store is opened on first use in the child — one driver
  per process, reused by every task of that process;
* models are loaded lazily on the first heavy task of a process and kept for
  the life of the process (:mod:`provgraph.verification.model_cache`).

The same functions serve the API process in embedded mode (one store per
process, shared with the inline job runner).
"""

from __future__ import annotations

import logging
import os
import threading

from provgraph.config import Settings, load_settings
from provgraph.store.factory import open_store
from provgraph.store.port import GraphStore
from provgraph.verification.model_cache import forget_models, loaded_model_count, stage_models

log = logging.getLogger(__name__)

_lock = threading.Lock()
_pid: int | None = None
_settings: Settings | None = None
_store: GraphStore | None = None

__all__ = [
    "close_process_store",
    "loaded_model_count",
    "process_settings",
    "process_store",
    "reset_after_fork",
    "set_process_store",
    "stage_models",
]


def _check_pid() -> None:
    """Forget resources created in another process (we were forked)."""
    global _pid, _store, _settings
    pid = os.getpid()
    if _pid != pid:
        _pid, _store, _settings = pid, None, None
        forget_models()


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
