"""Coverage: uncited sentences that a session source would support.

Cost is bounded: every uncited sentence is pre-scored against every source
with the cheap signals only (TF-IDF, embeddings), the ``top_k`` candidate
sources per sentence are kept, and only those pairs go to the strongest stage
available (NLI when it ran). Never every sentence × every source through NLI.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import numpy as np

from provgraph.citations import citation_tag_spans
from provgraph.verification.claims import Claim
from provgraph.verification.sentences import Sentence, split_sentences

_WORD_RE = re.compile(r"\w+")


def uncited_sentences(
    text: str, claims: Sequence[Claim], *, min_words: int = 5, limit: int = 200
) -> list[Sentence]:
    """Sentences with no tag that do not overlap any claim span (at most ``limit``)."""
    tags = [(s, e) for s, e, _ in citation_tag_spans(text)]
    used = [(c.start, c.end) for c in claims if c.end > c.start]
    out: list[Sentence] = []
    for sentence in split_sentences(text):
        if len(out) >= limit:
            break
        if any(s < sentence.end and sentence.start < e for s, e in tags + used):
            continue
        if sentence.text.endswith("?") or len(_WORD_RE.findall(sentence.text)) < min_words:
            continue
        out.append(sentence)
    return out


def candidate_pairs(prescores: np.ndarray, top_k: int) -> list[tuple[int, int]]:
    """``(sentence, source)`` index pairs: the ``top_k`` best sources of each sentence.

    Ties break on the lower source index (deterministic); zero scores are dropped.
    """
    pairs: list[tuple[int, int]] = []
    for i in range(prescores.shape[0]):
        row = prescores[i]
        order = sorted(range(row.shape[0]), key=lambda j: (-float(row[j]), j))
        pairs.extend((i, j) for j in order[:top_k] if row[j] > 0)
    return pairs


def select_findings(
    pairs: list[tuple[int, int]],
    scores: list[float | None],
    threshold: float,
) -> list[tuple[int, int, float]]:
    """Per sentence the best pair at or above ``threshold``: ``(sentence, source, score)``."""
    best: dict[int, tuple[int, float]] = {}
    for (i, j), score in zip(pairs, scores, strict=True):
        if score is None or score < threshold:
            continue
        if i not in best or score > best[i][1]:
            best[i] = (j, score)
    return [(i, j, s) for i, (j, s) in sorted(best.items())]


PreScorer = Callable[[list[str]], np.ndarray]
"""Maps sentence texts to an ``[n_sentences, n_sources]`` cheap-score matrix."""
