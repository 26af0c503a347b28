"""The once-tokenised window counts equal scikit-learn's per-window fit, exactly."""

from __future__ import annotations

import random

import numpy as np
import pytest
from sklearn.feature_extraction.text import CountVectorizer

from provgraph.verification.tfidf import TOKEN_PATTERN
from provgraph.verification.window_counts import window_counts
from provgraph.verification.windows import normalize, seed_windows

WORDS = ["revenue", "grew", "12%", "to", "$4.2", "billion", "in", "2024", "naïve", "co-op", "x"]


def _text(rng: random.Random, n_words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n_words))


def _reference(text: str, spans: list[tuple[int, int]]) -> tuple[dict[str, int], object]:
    vectorizer = CountVectorizer(lowercase=True, token_pattern=TOKEN_PATTERN)
    counts = vectorizer.fit_transform([text[s:e] for s, e in spans])
    vocab = {str(k): int(v) for k, v in vectorizer.vocabulary_.items()}
    return vocab, counts.tocsc().astype(np.float64)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize(("chunk", "stride"), [(1200, 600), (37, 11), (5, 5), (50, 80)])
def test_equal_to_count_vectorizer(seed: int, chunk: int, stride: int) -> None:
    rng = random.Random(seed)
    text = normalize(_text(rng, rng.randint(1, 900))).text
    spans = seed_windows(
        len(text), chunk_chars=chunk, chunk_stride=stride, max_chunks=400, text=text
    )
    vocab, counts = window_counts(text, spans)
    want_vocab, want = _reference(text, spans)
    assert vocab == want_vocab
    assert counts.shape == want.shape  # type: ignore[attr-defined]
    assert (counts != want).nnz == 0
    assert counts.dtype == np.float64


def test_no_token_in_any_window_gives_no_matrix() -> None:
    text = normalize("… — !! ??").text
    assert window_counts(text, [(0, len(text))]) == ({}, None)
    with pytest.raises(ValueError):
        _reference(text, [(0, len(text))])


def test_a_window_inside_one_long_token_counts_the_piece() -> None:
    text = "abcdefghij klm"
    vocab, counts = window_counts(text, [(2, 5), (0, 14)])
    want_vocab, want = _reference(text, [(2, 5), (0, 14)])
    assert vocab == want_vocab and (counts != want).nnz == 0


def test_non_ascii_and_lone_surrogates_are_not_tokens() -> None:
    text = normalize("naïve café \ud800 x1 ünïcode 2024").text
    spans = [(0, 9), (3, len(text)), (0, len(text))]
    vocab, counts = window_counts(text, spans)
    want_vocab, want = _reference(text, spans)
    assert vocab == want_vocab and (counts != want).nnz == 0
