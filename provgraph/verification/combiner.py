"""The learned fusion of stage signals: a logistic regression per set of available stages.

Why per set: a logistic regression needs every feature it was fitted with, and
stages can be disabled or skipped (no NLI model, embeddings off). Instead of
imputing a missing signal, one small model is fitted for every combination of
stage groups that can occur, and the variant matching the signals present is
used. Every variant is fitted class-balanced, so its probability crosses 0.5 at
its own best-balanced boundary and one set of verdict thresholds serves all.

Features, grouped by the stage that produces them:

* ``lexical``: ``tfidf`` (best-window cosine), ``recall`` (claim content words
  present in the source);
* ``embedding``: best-window cosine;
* ``nli``: ``nli_entailment`` and ``nli_contradiction``: the log-odds / 10 of
  the entailment probability at the best window and of the maximum
  contradiction probability over windows (log-odds keep the difference between
  0.95 and 0.999 that a probability squashes; held out by family, mean AUROC
  0.795 vs 0.791 with raw entailment − contradiction: within noise);
* ``consistency``: ``consistency_penalty`` and ``consistency_anchored``.

The coefficients live in ``combiner.json`` beside this module (package data),
written by ``bench/fit_combiner.py`` from a ``bench/verify_quality.py
--dump-scores`` file; that file also records what it was fitted on and how
(docs/verification.md). Pure: no I/O after loading, no sklearn at run time.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, model_validator

from provgraph.errors import ConfigurationError

if TYPE_CHECKING:
    from provgraph.verification.signals import Signals

SHIPPED_COMBINER = Path(__file__).with_name("combiner.json")

#: Stage groups and the features each contributes, in a fixed order.
GROUPS: dict[str, tuple[str, ...]] = {
    "lexical": ("tfidf", "recall"),
    "embedding": ("embedding",),
    "nli": ("nli_entailment", "nli_contradiction"),
    "consistency": ("consistency_penalty", "consistency_anchored"),
}


def log_odds(p: float) -> float:
    """``log(p / (1 − p))`` with ``p`` clipped to [1e-4, 1 − 1e-4] (finite, ±9.2)."""
    p = min(max(p, 1e-4), 1.0 - 1e-4)
    return math.log(p / (1.0 - p))


def features_of(signals: Signals) -> dict[str, float]:
    """The features present in ``signals`` (a group is present only when complete)."""
    values: dict[str, float | None] = {
        "tfidf": signals.tfidf,
        "recall": signals.recall,
        "embedding": signals.embedding,
        "nli_entailment": None,
        "nli_contradiction": None,
        "consistency_penalty": signals.consistency_penalty,
        "consistency_anchored": (
            float(signals.consistency_anchored) if signals.consistency_penalty is not None else None
        ),
    }
    if signals.nli_entailment is not None:
        worst = signals.nli_max_contradiction
        if worst is None:
            worst = signals.nli_contradiction or 0.0
        values["nli_entailment"] = log_odds(signals.nli_entailment) / 10.0
        values["nli_contradiction"] = log_odds(worst) / 10.0
    out: dict[str, float] = {}
    for names in GROUPS.values():
        if all(values[n] is not None for n in names):
            out.update({n: float(values[n] or 0.0) for n in names})
    return out


def groups_of(features: dict[str, float]) -> tuple[str, ...]:
    """The stage groups fully present in ``features``, in :data:`GROUPS` order."""
    return tuple(g for g, names in GROUPS.items() if all(n in features for n in names))


class Variant(BaseModel):
    """One logistic regression: ``sigmoid(intercept + Σ coef × feature)``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    groups: tuple[str, ...]
    features: tuple[str, ...]
    coef: tuple[float, ...]
    intercept: float

    @model_validator(mode="after")
    def _consistent(self) -> Variant:
        expected = tuple(n for g in self.groups for n in GROUPS[g])
        if self.features != expected or len(self.coef) != len(self.features):
            raise ValueError(
                f"variant {self.groups}: features {self.features} / {len(self.coef)} "
                f"coefficients do not match the groups' features {expected}"
            )
        return self

    def probability(self, features: dict[str, float]) -> float:
        pairs = zip(self.coef, self.features, strict=True)
        z = self.intercept + sum(c * features[n] for c, n in pairs)
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


class Combiner(BaseModel):
    """All fitted variants plus a record of how they were fitted."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    version: str
    variants: tuple[Variant, ...]
    fitted: dict[str, Any] = {}

    def variant_for(self, groups: tuple[str, ...]) -> Variant | None:
        """The variant fitted on exactly these stage groups (None if there is none)."""
        return next((v for v in self.variants if v.groups == groups), None)

    def support(self, signals: Signals) -> float | None:
        """Probability of support, or None when no variant fits the signals present.

        An LLM judge signal is not a feature: with a judge the weighted fusion is
        used (see :func:`provgraph.verification.verdicts.fuse`).
        """
        features = features_of(signals)
        variant = self.variant_for(groups_of(features))
        return None if variant is None else variant.probability(features)


@lru_cache(maxsize=4)
def load_combiner(path: str | None = None) -> Combiner | None:
    """The combiner in ``path`` (default: the shipped one); None if the file is absent.

    A present but malformed file raises :class:`ConfigurationError` naming the
    file: a broken package must not silently fall back to another fusion.
    """
    target = Path(path) if path else SHIPPED_COMBINER
    if not target.is_file():
        return None
    try:
        return Combiner.model_validate(json.loads(target.read_text(encoding="utf-8")))
    except (ValueError, TypeError) as exc:
        raise ConfigurationError(f"combiner file {target} is malformed: {exc}") from exc
