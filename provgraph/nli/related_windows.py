"""Neutral pairs shaped like the verifier's reading: a claim against related text not stating it.

Why: the verifier takes the *maximum* entailment over a source's windows, so what
hurts it is a window that is about the claim's topic without stating the claim —
a more confident pair classifier finds such a window in more unsupported sources
(docs/nli-model.md, runs mpnet-2 and epoch2-1). The training data barely holds
that case: FEVER and VitaminC-synthetic have no neutral label at all, and their
premises are each claim's own evidence sentence. This module builds it from the
training data itself:

* the claims are the hypotheses of *entailment* pairs of the Wikipedia sources
  (``CLAIM_SOURCES``), a seeded ``fraction`` of them;
* the pool is every distinct premise of those sources; each claim retrieves its
  most similar premises by TF-IDF cosine (the lexical stage's view of "related");
* a retrieved premise is kept only if it is not the claim's own evidence: never
  paired with the claim, not a near-copy of one of its premises (cosine above
  ``max_own_similarity``: VitaminC holds many revisions of one sentence), and
  missing at least one of the claim's content words (a premise holding them all
  is too likely to entail);
* the "window" is one kept premise, or (``two_sentence_share``) two of them
  joined, as a source window holds several related sentences; label *neutral*.

Constraints: deterministic in ``(pairs, cfg)`` (exact resume depends on it); the
labels are heuristic — a retrieved premise can still entail a claim in other
words, a small noise level accepted for the contrast it adds; every pair's
``source`` is ``related_window`` so its share and held-out accuracy can be
measured. The SNLI/MNLI/SciTail claims are left out on purpose: short generic
captions retrieve premises that entail them ("A man plays a guitar").
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from provgraph.nli.data import Pair

#: Sources whose claims are encyclopaedic facts about a named subject, so that
#: related-but-not-stating text exists in the pool and is rarely an entailment.
CLAIM_SOURCES: frozenset[str] = frozenset(
    {"vitaminc_real", "vitaminc_synthetic", "fever_rte", "fever_sym_adv"}
)
SOURCE_NAME = "related_window"

_WORD_RE = re.compile(r"[a-z0-9]+")
_ORDINAL_RE = re.compile(r"\b(\d+)(?:st|nd|rd|th)\b")


@dataclass(frozen=True)
class RelatedWindowConfig:
    """How many related-window neutrals to build and how strictly to filter them."""

    fraction: float = 0.5
    seed: int = 1457
    #: Candidates retrieved per claim before filtering.
    top_k: int = 12
    #: A candidate at least this similar to the claim counts as related.
    min_similarity: float = 0.12
    #: A candidate this similar to one of the claim's own premises is a revision of it.
    max_own_similarity: float = 0.5
    #: Share of the pairs whose window joins two kept candidates.
    two_sentence_share: float = 0.4

    def __post_init__(self) -> None:
        if not 0.0 <= self.fraction <= 1.0:
            raise ValueError(f"related_windows.fraction must be in [0, 1], not {self.fraction}")
        if not 0.0 <= self.two_sentence_share <= 1.0:
            raise ValueError("related_windows.two_sentence_share must be in [0, 1]")


def content_words(text: str, stop: frozenset[str]) -> set[str]:
    """Lower-cased words of ``text`` that carry content (not stop words, not one letter).

    Ordinal suffixes are dropped ("5th" -> "5") so a date in two spellings is one word.
    """
    plain = _ORDINAL_RE.sub(r"\1", text.lower())
    return {w for w in _WORD_RE.findall(plain) if (len(w) > 1 or w.isdigit()) and w not in stop}


def _claims(pairs: Sequence[Pair], entail_id: int, cfg: RelatedWindowConfig) -> list[str]:
    """The distinct entailed hypotheses of ``CLAIM_SOURCES``, a seeded ``fraction`` of them."""
    rng = np.random.default_rng([cfg.seed, 0x52454C])
    seen: set[str] = set()
    out: list[str] = []
    for p in pairs:
        if p.label != entail_id or p.source not in CLAIM_SOURCES or p.hypothesis in seen:
            continue
        seen.add(p.hypothesis)
        if rng.random() < cfg.fraction:
            out.append(p.hypothesis)
    return out


def generate(pairs: Sequence[Pair], labels: Sequence[str], cfg: RelatedWindowConfig) -> list[Pair]:
    """Related-window neutral pairs for ``cfg.fraction`` of the entailed claims (new pairs only)."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS, TfidfVectorizer

    label_id = {name: i for i, name in enumerate(labels)}
    claims = _claims(pairs, label_id["entailment"], cfg)
    if not claims:
        return []
    pool = sorted({p.premise for p in pairs if p.source in CLAIM_SOURCES})
    index = {text: i for i, text in enumerate(pool)}
    own: dict[str, set[int]] = defaultdict(set)
    for p in pairs:
        if p.premise in index:
            own[p.hypothesis].add(index[p.premise])
    vectorizer = TfidfVectorizer(stop_words="english", sublinear_tf=True, min_df=2)
    pool_matrix = vectorizer.fit_transform(pool)
    claim_matrix = vectorizer.transform(claims)
    stop = frozenset(ENGLISH_STOP_WORDS)
    rng = np.random.default_rng([cfg.seed, 0x57494E])
    out: list[Pair] = []
    chunk = 1024
    for start in range(0, len(claims), chunk):
        sims = (claim_matrix[start : start + chunk] @ pool_matrix.T).toarray()
        for row, claim in enumerate(claims[start : start + chunk]):
            kept = _kept_candidates(claim, sims[row], own[claim], pool, pool_matrix, stop, cfg)
            if not kept:
                continue
            if len(kept) >= 2 and rng.random() < cfg.two_sentence_share:
                first, second = rng.permutation(kept[:3])[:2].tolist()
                window = f"{pool[first]} {pool[second]}"
            else:
                window = pool[kept[int(rng.integers(min(3, len(kept))))]]
            out.append(Pair(window, claim, label_id["neutral"], SOURCE_NAME))
    return out


def _kept_candidates(
    claim: str,
    sims: Any,
    own_ids: set[int],
    pool: Sequence[str],
    pool_matrix: Any,
    stop: frozenset[str],
    cfg: RelatedWindowConfig,
) -> list[int]:
    """Pool indices, most similar first, that pass every filter of the module docstring."""
    top = np.argsort(-sims, kind="stable")[: cfg.top_k + len(own_ids)]
    words = content_words(claim, stop)
    own_rows = pool_matrix[sorted(own_ids)] if own_ids else None
    kept: list[int] = []
    for idx in top.tolist():
        if idx in own_ids or sims[idx] < cfg.min_similarity:
            continue
        if words and words <= content_words(pool[idx], stop):
            continue
        if own_rows is not None:
            near = (own_rows @ pool_matrix[idx].T).toarray().max()
            if near > cfg.max_own_similarity:
                continue
        kept.append(idx)
    return kept


def from_config(
    pairs: Sequence[Pair], labels: Sequence[str], section: dict[str, Any]
) -> list[Pair]:
    """Related-window neutrals as configured by a ``[data.related_windows]`` TOML table.

    Keys: the fields of :class:`RelatedWindowConfig`; ``fraction`` 0 or a missing
    table = none. Unknown keys fail loudly, so a typo does not silently train
    without the intended mix.
    """
    known = set(RelatedWindowConfig.__dataclass_fields__)
    unknown = set(section) - known
    if unknown:
        raise ValueError(f"unknown keys in [data.related_windows]: {sorted(unknown)}")
    if float(section.get("fraction", 0.0)) <= 0.0:
        return []
    fields = {k: type(getattr(RelatedWindowConfig, k))(v) for k, v in section.items()}
    return generate(pairs, labels, RelatedWindowConfig(**fields))


def main(argv: list[str] | None = None) -> int:
    """Write related-window neutrals of a JSONL pair file, to read them or measure a model on them.

    ``python -m provgraph.nli.related_windows --input ../shared/nli-train/heldout.jsonl
    --out heldout_related.jsonl [--fraction 1.0]``.
    """
    from provgraph.nli.data import LABELS
    from provgraph.nli.pair_cli import run

    def make(pairs: Sequence[Pair], fraction: float, seed: int) -> list[Pair]:
        return generate(pairs, LABELS, RelatedWindowConfig(fraction=fraction, seed=seed))

    return run(argv, (main.__doc__ or "").split("\n")[0], make)


if __name__ == "__main__":
    raise SystemExit(main())
