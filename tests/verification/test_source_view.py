"""Per-source views: window ranking by word overlap, and caching by content hash."""

from __future__ import annotations

from provgraph.verification.source_view import clear_source_caches, source_view, tfidf_index


def test_rank_windows_prefers_rare_shared_words() -> None:
    text = (
        "The river floods in spring. " * 3
        + "The castle was built by the duke in 1157. "
        + "The river is long. " * 3
    )
    view = source_view(text, window_chars=60)
    assert view.n_windows > 3
    best = view.rank_windows("Which duke built the castle?", 2)
    assert "duke" in view.texts[best[0]]
    assert view.rank_windows("nothing shared here", 3) == [0, 1, 2]  # ties: lower index first
    assert view.rank_windows("", 2) == [0, 1]
    scores = view.overlap_scores("the castle")
    assert float(scores.min()) >= 0.0 and float(scores.max()) <= 1.0


def test_views_and_indexes_are_built_once_per_content() -> None:
    clear_source_caches()
    text = "Alpha beta gamma. Delta epsilon. " * 20
    assert source_view(text) is source_view(text[:] + "")
    assert source_view(text) is not source_view(text + " More.")
    a = tfidf_index(text, max_source_chars=96_000, chunk_chars=100, chunk_stride=50, max_chunks=40)
    b = tfidf_index(text, max_source_chars=96_000, chunk_chars=100, chunk_stride=50, max_chunks=40)
    c = tfidf_index(text, max_source_chars=96_000, chunk_chars=200, chunk_stride=50, max_chunks=40)
    assert a is b and a is not c
    assert a.best("beta gamma").score > 0.0
    assert source_view("").n_windows == 0 and source_view("").rank_windows("x", 3) == []
