"""TF-IDF stage: the seed's lexical score, fitted once per source.

The seed fitted a ``TfidfVectorizer`` on ``[claim, *windows]`` for every claim ×
source pair. :class:`TfidfSourceIndex` counts the windows' terms once and then,
per claim, computes *exactly* the score the seed's per-pair fit gives: with
``n`` windows the fit has ``N = n + 1`` documents, smooth IDF
``idf(t) = ln((1 + N) / (1 + df(t))) + 1``, and a claim only changes ``df`` of
its own terms by one. So the base window norms are computed once and corrected
only on the claim's columns — many claims on one source cost one fit.

Defaults (seed): sources cut at 96,000 characters, lowercased, whitespace
collapsed, windows of 1,200 characters every 600 plus a tail, at most 400
windows, tokens ``[a-z0-9]+``, score = best window's cosine clipped to [0, 1].
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np

from provgraph.verification.window_counts import window_counts
from provgraph.verification.windows import NormalizedText, normalize, seed_windows

TOKEN_PATTERN = r"(?u)[a-z0-9]+"
DEFAULT_MAX_SOURCE_CHARS = 96_000
DEFAULT_CHUNK_CHARS = 1_200
DEFAULT_CHUNK_STRIDE = 600
DEFAULT_MAX_CHUNKS = 400


@dataclass(frozen=True)
class TfidfMatch:
    """Best window for one claim: cosine in [0, 1] and its span in the original source."""

    score: float
    window_index: int
    start: int
    end: int


class TfidfSourceIndex:
    """Term counts of one source's windows; scores any number of claims against them."""

    def __init__(
        self,
        source: str,
        *,
        max_source_chars: int = DEFAULT_MAX_SOURCE_CHARS,
        chunk_chars: int = DEFAULT_CHUNK_CHARS,
        chunk_stride: int = DEFAULT_CHUNK_STRIDE,
        max_chunks: int = DEFAULT_MAX_CHUNKS,
    ) -> None:
        from sklearn.feature_extraction.text import CountVectorizer

        self._norm: NormalizedText = normalize(source[:max_source_chars])
        text = self._norm.text
        self._spans = (
            seed_windows(
                len(text),
                chunk_chars=chunk_chars,
                chunk_stride=chunk_stride,
                max_chunks=max_chunks,
                text=text,
            )
            if text.strip()
            else []
        )
        self.windows: list[tuple[int, int]] = [
            self._norm.original_span(s, e) for s, e in self._spans
        ]
        vectorizer = CountVectorizer(lowercase=True, token_pattern=TOKEN_PATTERN)
        self._analyzer = vectorizer.build_analyzer()
        # = vectorizer.fit_transform(windows), tokenising the source once (window_counts.py)
        self._vocab: dict[str, int]
        self._counts: Any
        self._vocab, self._counts = window_counts(text, self._spans)
        n = len(self._spans)
        self._n_docs = n + 1
        if self._counts is not None:
            df = np.asarray((self._counts > 0).sum(axis=0)).ravel().astype(np.float64)
            self._df = df
            self._idf = np.log((1.0 + self._n_docs) / (1.0 + df)) + 1.0
            weighted = self._counts.multiply(self._idf[np.newaxis, :]).tocsr()
            self._base_sq = np.asarray(weighted.multiply(weighted).sum(axis=1)).ravel()
        else:
            self._df = np.zeros(0)
            self._idf = np.zeros(0)
            self._base_sq = np.zeros(n)

    @property
    def n_windows(self) -> int:
        return len(self._spans)

    def window_text(self, index: int, source: str) -> str:
        """Original text of window ``index`` (``source`` is the text the index was built on)."""
        s, e = self.windows[index]
        return source[s:e]

    def window_scores(self, claim: str) -> np.ndarray:
        """Cosine of the claim against every window (seed-exact, not clipped)."""
        n = self.n_windows
        if n == 0 or not claim.strip():
            return np.zeros(n)
        terms = Counter(self._analyzer(claim.lower()))
        if not terms:
            return np.zeros(n)
        in_vocab = [(self._vocab[t], c) for t, c in terms.items() if t in self._vocab]
        oov_idf = math.log((1.0 + self._n_docs) / 2.0) + 1.0
        q_sq = sum(c * c for t, c in terms.items() if t not in self._vocab) * oov_idf**2
        if not in_vocab or self._counts is None:
            return np.zeros(n)
        cols = np.array([j for j, _ in in_vocab])
        qc = np.array([float(c) for _, c in in_vocab])
        idf_new = np.log((1.0 + self._n_docs) / (2.0 + self._df[cols])) + 1.0
        idf_old = self._idf[cols]
        q_sq += float(np.sum((qc * idf_new) ** 2))
        # the claim's CSC columns gathered in one go (scipy fancy indexing costs ~1 ms
        # per call, a Python loop over the columns ~0.1 ms per claim)
        indptr, indices, data = self._counts.indptr, self._counts.indices, self._counts.data
        first, lengths = indptr[cols], indptr[cols + 1] - indptr[cols]
        column = np.repeat(np.arange(len(cols)), lengths)
        at = np.arange(int(lengths.sum())) + np.repeat(
            first - (np.cumsum(lengths) - lengths), lengths
        )
        rows, vals = indices[at], data[at]
        delta = idf_new**2 - idf_old**2
        weight = qc * idf_new**2
        norm_sq = self._base_sq + np.bincount(
            rows, weights=vals * vals * delta[column], minlength=n
        )
        dots = np.bincount(rows, weights=vals * weight[column], minlength=n)
        denom = np.sqrt(np.maximum(norm_sq, 0.0)) * math.sqrt(q_sq)
        with np.errstate(divide="ignore", invalid="ignore"):
            cos = np.where(denom > 0, dots / np.where(denom > 0, denom, 1.0), 0.0)
        return np.asarray(cos, dtype=np.float64)

    def claim_recall(self, claim: str) -> float:
        """:func:`claim_recall` against the indexed windows (the source's words, counted once)."""
        words = set(_RECALL_WORD_RE.findall(claim.lower())) - _RECALL_STOP
        if not words:
            return 0.0
        return sum(1 for w in words if w in self._vocab) / len(words)

    def best(self, claim: str) -> TfidfMatch:
        """The best window for ``claim`` (score clipped to [0, 1]; 0.0 when nothing overlaps)."""
        scores = self.window_scores(claim)
        if scores.size == 0:
            return TfidfMatch(0.0, -1, 0, 0)
        i = int(np.argmax(scores))
        value = float(scores[i])
        if value != value:
            value = 0.0
        s, e = self.windows[i]
        return TfidfMatch(min(1.0, max(0.0, value)), i, s, e)


_RECALL_WORD_RE = re.compile(r"[a-z0-9]+")
_RECALL_STOP = frozenset(
    {
        "the",
        "a",
        "an",
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "and",
        "or",
        "is",
        "was",
        "were",
        "are",
        "be",
        "been",
        "by",
        "with",
        "as",
        "from",
        "that",
        "this",
        "it",
        "its",
        "his",
        "her",
        "their",
        "he",
        "she",
        "they",
        "which",
        "who",
    }
)


def claim_recall(claim: str, source: str) -> float:
    """Share of the claim's distinct content words (stop words removed) found in the source.

    Cosine against a 1,200-character window under-rates long claims whose words
    are spread over the source; recall does not (on the WiCE dev data it ranks
    supported claims far better than cosine: AUROC ~0.75 vs ~0.48).
    """
    words = set(_RECALL_WORD_RE.findall(claim.lower())) - _RECALL_STOP
    if not words:
        return 0.0
    present = set(_RECALL_WORD_RE.findall(source.lower()))
    return len(words & present) / len(words)


def claim_source_tfidf_cosine(
    claim_text: str,
    source_text: str,
    *,
    max_source_chars: int = DEFAULT_MAX_SOURCE_CHARS,
    chunk_chars: int = DEFAULT_CHUNK_CHARS,
    chunk_stride: int = DEFAULT_CHUNK_STRIDE,
    max_chunks: int = DEFAULT_MAX_CHUNKS,
) -> float:
    """Best-window TF-IDF cosine of a claim against a source, in [0, 1] (seed API).

    Identical texts give 1.0, an empty claim or source 0.0.
    """
    if not claim_text.strip() or not source_text.strip():
        return 0.0
    index = TfidfSourceIndex(
        source_text,
        max_source_chars=max_source_chars,
        chunk_chars=chunk_chars,
        chunk_stride=chunk_stride,
        max_chunks=max_chunks,
    )
    return index.best(claim_text).score
