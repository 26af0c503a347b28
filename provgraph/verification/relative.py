"""Relative check: does the cited source beat the session's other sources for this claim?

"Right claim, wrong citation": the claim is well supported, but by another
source of the same session than the one cited. Given the claim's score
against every session source (from the cheapest stage that ran — embeddings,
else TF-IDF), the check reports the best other source and the margin. It is a
finding, not a verdict change: the cited source may still support the claim.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from provgraph.verification.source_view import source_view

if TYPE_CHECKING:
    from provgraph.verification.embeddings import EmbeddingEncoder


@dataclass(frozen=True)
class RelativeResult:
    """Cited score vs the best other source; ``better_source_key`` set when it wins clearly."""

    stage: str
    cited_score: float
    best_other_key: str | None
    best_other_score: float | None
    margin: float | None
    better_source_key: str | None


def relative_check(
    stage: str,
    cited_key: str,
    scores: dict[str, float],
    *,
    margin: float = 0.1,
    min_other_score: float = 0.3,
) -> RelativeResult:
    """Compare ``scores[cited_key]`` with the best other key (ties broken by key, deterministic).

    ``better_source_key`` is the other key when it beats the cited one by at
    least ``margin`` and itself reaches ``min_other_score``.
    """
    cited = scores.get(cited_key, 0.0)
    others = sorted(((-v, k) for k, v in scores.items() if k != cited_key))
    if not others:
        return RelativeResult(stage, cited, None, None, None, None)
    best_score, best_key = -others[0][0], others[0][1]
    diff = best_score - cited
    better = best_key if diff >= margin and best_score >= min_other_score else None
    return RelativeResult(stage, cited, best_key, best_score, diff, better)


def relative_embedding_table(
    encoder: EmbeddingEncoder,
    claims: list[str],
    sources: list[tuple[str, str]],
    *,
    window_chars: int = 400,
    max_windows: int = 4,
) -> dict[str, dict[str, float]]:
    """``{claim: {source key: best window cosine}}`` over every source, cheaply.

    Per (claim, source) only the ``max_windows`` best windows by IDF-weighted
    word overlap are compared (the TF-IDF stage's cheap ranking), and window
    vectors come from the encoder's cache — a source's windows are embedded
    once per content hash, never once per claim. All uncached texts of the
    table go through one encode call.
    """
    views = {key: source_view(text, window_chars=window_chars) for key, text in sources}
    chosen = {
        (c, key): [view.texts[i] for i in view.rank_windows(c, max_windows)]
        for c in claims
        for key, view in views.items()
    }
    texts = list(dict.fromkeys([*claims, *(t for ts in chosen.values() for t in ts)]))
    vectors = encoder.encode(texts)
    row = {t: vectors[i] for i, t in enumerate(texts)}
    table: dict[str, dict[str, float]] = {}
    for c in claims:
        table[c] = {}
        for key in views:
            windows = chosen[(c, key)]
            if not windows:
                table[c][key] = 0.0
                continue
            sims = np.stack([row[t] for t in windows]) @ row[c]
            table[c][key] = float(sims.max())
    return table
