"""Term counts of overlapping character windows, the source tokenised once.

The TF-IDF stage scores claims against the seed's windows: 1,200 characters
every 600, so every character sits in about two windows and a window edge may
cut a word ("…revenu" | "e grew…"). scikit-learn's ``CountVectorizer`` on the
window texts tokenises each window on its own — twice the work — and counts the
cut pieces as terms. :func:`window_counts` tokenises the (already lowercased)
text once and slices the token list per window, counting a token cut by an edge
as the piece inside the window, so the result equals ``CountVectorizer(
token_pattern=TOKEN_PATTERN).fit_transform(windows)`` exactly: the same
vocabulary with the same sorted column order and the same integer counts (the
scores downstream are then bit-identical; ``tests/verification/test_window_counts.py``
checks it against scikit-learn).

Constraint: ``text`` must already be lowercase (``windows.normalize`` output);
the token pattern is ASCII ``[a-z0-9]+``, as the seed's.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

_TOKEN_RE = re.compile(r"[a-z0-9]+")


def _token_runs(text: str) -> tuple[np.ndarray, np.ndarray]:
    """Start and end offsets of the ``[a-z0-9]+`` runs of ``text`` (numpy, no Python loop)."""
    points = np.frombuffer(text.encode("utf-32-le", errors="surrogatepass"), dtype=np.uint32)
    in_token = ((points >= 97) & (points <= 122)) | ((points >= 48) & (points <= 57))
    step = np.diff(np.concatenate(([0], in_token.astype(np.int8), [0])))
    return np.flatnonzero(step == 1), np.flatnonzero(step == -1)


def window_counts(text: str, spans: list[tuple[int, int]]) -> tuple[dict[str, int], Any]:
    """``(vocabulary, counts)``: term → column, and a ``windows × terms`` CSC float64 matrix.

    ``counts`` is None when no window holds a token (scikit-learn raises
    "empty vocabulary" there).
    """
    from scipy.sparse import csr_matrix

    starts, ends = _token_runs(text)
    tokens = _TOKEN_RE.findall(text)  # the same runs, in the same order
    if not tokens or not spans:
        return {}, None
    unique, whole = np.unique(np.array(tokens), return_inverse=True)
    names: list[str] = unique.tolist()
    column = {t: i for i, t in enumerate(names)}
    span_starts = np.array([s for s, _ in spans])
    span_ends = np.array([e for _, e in spans])
    firsts = np.searchsorted(ends, span_starts, side="right")  # first token ending after s
    stops = np.searchsorted(starts, span_ends, side="left")  # tokens starting before e
    rows: list[np.ndarray] = []
    cols: list[np.ndarray] = []

    def term(piece: str) -> int:  # a word cut by a window edge: a term of its own
        if piece not in column:
            column[piece] = len(names)
            names.append(piece)
        return column[piece]

    for row, (s, e) in enumerate(spans):
        first, stop = int(firsts[row]), int(stops[row])
        if first >= stop:
            continue
        ids = whole[first:stop].copy()
        if starts[first] < s or ends[first] > e:  # cut by the left (or both) edges
            ids[0] = term(text[max(s, int(starts[first])) : min(e, int(ends[first]))])
        last = stop - 1
        if last != first and ends[last] > e:  # cut by the right edge
            ids[-1] = term(text[int(starts[last]) : e])
        rows.append(np.full(len(ids), row, dtype=np.int64))
        cols.append(ids)
    if not cols:
        return {}, None
    row_ids, col_ids = np.concatenate(rows), np.concatenate(cols)
    used = np.unique(col_ids)
    order = sorted(used.tolist(), key=names.__getitem__)  # scikit-learn sorts its features
    remap = np.full(len(names), -1, dtype=np.int64)
    remap[order] = np.arange(len(order))
    matrix = csr_matrix(
        (np.ones(len(col_ids), dtype=np.int64), (row_ids, remap[col_ids])),
        shape=(len(spans), len(order)),
    )
    matrix.sum_duplicates()
    vocabulary = {names[j]: k for k, j in enumerate(order)}
    return vocabulary, matrix.tocsc().astype(np.float64)
