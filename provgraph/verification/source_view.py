"""What every stage derives from one source text, computed once per content hash.

A session's sources are cited by many claims and re-verified by many reports;
sentence windows, their term matrix and the TF-IDF index depend only on the
text (and window parameters), so they are built once per process and kept in
a bounded LRU keyed by ``(sha256 of the text, parameters)``.

:meth:`SourceView.rank_windows` is the cheap stage every expensive stage is
gated by: it ranks the source's sentence windows by IDF-weighted overlap with
the claim's words (the words a TF-IDF cosine would reward), in one sparse
column slice — embeddings and the relative check embed only the top windows,
and NLI reads evidence around the best ones instead of every window.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from provgraph.verification.tfidf import TfidfSourceIndex
from provgraph.verification.vector_cache import text_key
from provgraph.verification.windows import sentence_chunks

_WORD_RE = re.compile(r"[a-z0-9]+")
T = TypeVar("T")


class _Lru:
    """A small thread-safe LRU of built objects (process-wide)."""

    def __init__(self, max_items: int) -> None:
        self.max_items = max_items
        self._data: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[Any, ...], build: Callable[[], T]) -> T:
        with self._lock:
            if key in self._data:
                self._data.move_to_end(key)
                value: T = self._data[key]
                return value
        built = build()
        with self._lock:
            self._data[key] = built
            while len(self._data) > self.max_items:
                self._data.popitem(last=False)
        return built

    def clear(self) -> None:
        with self._lock:
            self._data.clear()


_VIEWS = _Lru(256)
_TFIDF = _Lru(256)


class SourceView:
    """Sentence windows of one source and their term matrix (binary, CSC)."""

    def __init__(self, text: str, *, window_chars: int = 400) -> None:
        self.text = text
        self.spans: list[tuple[int, int]] = sentence_chunks(text, max_chars=window_chars)
        self.texts: list[str] = [text[s:e] for s, e in self.spans]
        vocab: dict[str, int] = {}
        rows: list[int] = []
        cols: list[int] = []
        for i, window in enumerate(self.texts):
            for word in set(_WORD_RE.findall(window.lower())):
                cols.append(vocab.setdefault(word, len(vocab)))
                rows.append(i)
        self.vocab = vocab
        n = len(self.spans)
        from scipy.sparse import csc_matrix

        self._matrix = csc_matrix(
            (np.ones(len(rows), dtype=np.float32), (rows, cols)), shape=(n, len(vocab))
        )
        df = np.asarray(self._matrix.sum(axis=0)).ravel()
        self._idf = np.log((1.0 + n) / (1.0 + df)) + 1.0

    @property
    def n_windows(self) -> int:
        return len(self.spans)

    def overlap_scores(self, claim: str) -> np.ndarray:
        """IDF-weighted share of the claim's distinct words present in each window (0..1)."""
        n = self.n_windows
        words = set(_WORD_RE.findall(claim.lower()))
        if n == 0 or not words:
            return np.zeros(n, dtype=np.float32)
        cols = [self.vocab[w] for w in words if w in self.vocab]
        # words absent from the source weigh like the rarest word (they count against every window)
        missing = (len(words) - len(cols)) * (float(np.log(1.0 + n)) + 1.0)
        if not cols:
            return np.zeros(n, dtype=np.float32)
        weights = self._idf[cols]
        hits = self._matrix[:, cols] @ weights
        total = float(weights.sum()) + missing
        return np.asarray(hits / total, dtype=np.float32).ravel()

    def rank_windows(self, claim: str, limit: int) -> list[int]:
        """Indices of the ``limit`` best windows by :meth:`overlap_scores`, best first.

        Ties break on the lower index (deterministic).
        """
        n = self.n_windows
        if n == 0 or limit <= 0:
            return []
        scores = self.overlap_scores(claim)
        order = np.lexsort((np.arange(n), -scores))  # last key sorts first
        return [int(i) for i in order[:limit]]


def source_view(text: str, *, window_chars: int = 400) -> SourceView:
    """The :class:`SourceView` of ``text``, built once per content hash in this process."""
    return _VIEWS.get(
        (text_key(text), len(text), window_chars),
        lambda: SourceView(text, window_chars=window_chars),
    )


def tfidf_index(
    text: str, *, max_source_chars: int, chunk_chars: int, chunk_stride: int, max_chunks: int
) -> TfidfSourceIndex:
    """The TF-IDF index of ``text``, built once per content hash and window parameters."""
    return _TFIDF.get(
        (text_key(text), len(text), max_source_chars, chunk_chars, chunk_stride, max_chunks),
        lambda: TfidfSourceIndex(
            text,
            max_source_chars=max_source_chars,
            chunk_chars=chunk_chars,
            chunk_stride=chunk_stride,
            max_chunks=max_chunks,
        ),
    )


def clear_source_caches() -> None:
    """Forget every built view and index (tests; memory pressure)."""
    _VIEWS.clear()
    _TFIDF.clear()
