"""Stage models loaded once per process and reused by every job of that process.

A model load costs seconds; a job should not pay it. The worker's processes
and the embedded runner (API or CLI, no broker) share this cache. Models must
not cross a fork (torch threads): a process that finds itself forked forgets
the parent's models and loads its own on first use. Embedding vectors go
through :func:`vector_cache` (memory, then an SQLite file shared by processes).
"""

from __future__ import annotations

import logging
import os
import threading
from typing import Any

from provgraph.config import load_settings
from provgraph.errors import ModelUnavailableError
from provgraph.verification.config import StageModels, VerificationConfig
from provgraph.verification.judge_client import JudgeClient
from provgraph.verification.vector_cache import (
    MemoryVectorCache,
    SqliteVectorCache,
    TieredVectorCache,
    VectorCache,
)

log = logging.getLogger(__name__)

_lock = threading.Lock()
_pid: int | None = None
_encoders: dict[tuple[str, int], Any] = {}
_nli_models: dict[str | None, Any] = {}


def _check_pid() -> None:
    """Forget models loaded in another process (we were forked); call under the lock."""
    global _pid
    pid = os.getpid()
    if _pid != pid:
        _pid = pid
        _encoders.clear()
        _nli_models.clear()


def forget_models() -> None:
    """Drop inherited models without touching them (they belong to the parent)."""
    with _lock:
        _check_pid()


def stage_models(config: VerificationConfig) -> StageModels:
    """Models for this config, loaded once per process and reused across jobs.

    A model that cannot be loaded is left None: the engine then tries itself,
    fails the same way and records the stage as skipped with the reason, so
    the report says why. The failure is not cached (the model may appear).
    """
    from provgraph.verification.embeddings import EmbeddingEncoder

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
                        cache=vector_cache(),
                    )
                except ModelUnavailableError as exc:
                    log.warning("embedding model unavailable: %s", exc)
            models.encoder = _encoders.get(key)
        if config.nli:
            models.nli_model = _nli_model(config.nli_model)
            if config.nli_refine_model is not None:
                models.nli_refiner = _nli_model(config.nli_refine_model)
    if config.llm_judge:
        # from the settings (PROVGRAPH_LLM_JUDGE_*); None: the stage is skipped, saying why
        models.judge_agent = JudgeClient.from_settings(load_settings())
    return models


def _nli_model(name: str | None) -> Any:
    """An NLI model of this process (the default one or a named folder); call under the lock.

    One thread per prefork child: the pool runs one child per core by default,
    and more would oversubscribe (docs/nli-model.md).
    """
    from provgraph.verification.nli import load_nli

    if name not in _nli_models:
        try:
            _nli_models[name] = load_nli(name, threads=1)
        except ModelUnavailableError as exc:
            log.warning("NLI model %s unavailable: %s", name or "(shipped)", exc)
    return _nli_models.get(name)


def vector_cache() -> VectorCache:
    """The embedding vector cache of this process: memory, then the shared SQLite file.

    The file (``<PROVGRAPH_CACHE_DIR>/embeddings.sqlite3``, default
    ``<home>/cache``) is shared by every process on the host that verifies
    (worker children, the embedded runner), so a source's windows are embedded
    once for all of them; ``PROVGRAPH_EMBEDDING_CACHE_ROWS=0`` keeps the
    cache in memory only. The connection is opened per process, after fork.
    """
    settings = load_settings()
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
