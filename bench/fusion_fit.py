"""Fitting primitives for bench/fit_combiner.py: weighted, sign-constrained, anchored logistic fits.

Why not scikit-learn's ``LogisticRegression``: the fusion must be able to stay
close to a known-good solution (NLI alone) and only move away from it as far
as the data supports, and its coefficients must keep the sign that makes sense
(more entailment never lowers support). Both are a few lines with
``scipy.optimize.minimize`` (L-BFGS-B with bounds): minimise

    mean_i w_i · logloss(y_i, b + x_i·c)  +  (ridge + lam) · ‖c − anchor‖²

where ``anchor`` is the NLI-alone solution (zero for every other feature),
``lam`` = 0 is an ordinary (signed, lightly ridged) logistic regression and
``lam`` = ∞ returns the anchor itself. Deterministic: fixed start, no
randomness. Weights: every file weighs the same, and the two classes weigh the
same overall.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import numpy as np

from provgraph.verification.combiner import (
    GROUPS,
    Combiner,
    ContradictionModel,
    Variant,
    contradiction_features_of,
    features_of,
)
from provgraph.verification.verdicts import Signals

#: The direction in which each feature may move support: +1 only up, -1 only
#: down (0 = free). More entailment, lexical overlap or embedding similarity
#: never lowers support; more contradiction or a consistency problem never
#: raises it. Monotone fusion is what makes it hard to lose to its best stage
#: on new data: no feature can flip the order NLI puts two pairs in unless the
#: others disagree in the sensible direction.
SUPPORT_SIGNS: dict[str, int] = {
    "tfidf": 1,
    "recall": 1,
    "embedding": 1,
    "nli_entailment": 1,
    "nli_contradiction": -1,
    "consistency_penalty": -1,
    "consistency_anchored": -1,
}
#: The same for the contradiction score (contradicted vs supported).
CONTRADICTION_SIGNS: dict[str, int] = {
    "nli_max_contradiction": 1,
    "nli_contradiction_at_best": 1,
    "nli_entailment": -1,
    "consistency_penalty": 1,
    "consistency_anchored": 1,
    "relatedness": 1,
}


def balanced_weights(ys: Sequence[int], files: Sequence[str]) -> np.ndarray:
    """Per-row weights: each file weighs the same, each class half; mean 1."""
    per_file: dict[str, int] = defaultdict(int)
    for f in files:
        per_file[f] += 1
    w = np.array([1.0 / per_file[f] for f in files])
    y = np.asarray(ys)
    pos, neg = w[y == 1].sum(), w[y == 0].sum()
    if pos > 0 and neg > 0:
        w = np.where(y == 1, w / (2 * pos), w / (2 * neg))
    return np.asarray(w * (len(w) / w.sum()), dtype=float)


def fit_logistic(
    x: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    *,
    signs: Sequence[int],
    anchor: np.ndarray | None = None,
    lam: float = 0.0,
    ridge: float | None = None,
) -> tuple[np.ndarray, float]:
    """``(coef, intercept)`` of the weighted, sign-bounded, anchor-regularised fit.

    ``ridge`` defaults to ``1 / (2 n)``, scikit-learn's ``C = 1`` on a
    mean-loss scale. ``lam = inf`` returns ``anchor`` with only the intercept fitted.
    """
    from scipy.optimize import minimize

    n, k = x.shape
    a = np.zeros(k) if anchor is None else np.asarray(anchor, dtype=float)
    fixed = math.isinf(lam)
    reg = (1.0 / (2 * n) if ridge is None else ridge) + (0.0 if fixed else lam)

    def split(theta: np.ndarray) -> tuple[np.ndarray, float]:
        if fixed:
            return a, float(theta[0])
        return theta[:k], float(theta[k])

    def objective(theta: np.ndarray) -> tuple[float, np.ndarray]:
        c, b = split(theta)
        z = x @ c + b
        p = 1.0 / (1.0 + np.exp(-np.clip(z, -60, 60)))
        loss = float(np.mean(w * (np.logaddexp(0.0, z) - y * z)))
        g_z = w * (p - y) / n
        if fixed:
            return loss, np.array([g_z.sum()])
        diff = c - a
        loss += reg * float(diff @ diff)
        grad = np.concatenate([x.T @ g_z + 2 * reg * diff, [g_z.sum()]])
        return loss, grad

    if fixed:
        start = np.zeros(1)
        bounds: list[tuple[float | None, float | None]] = [(None, None)]
    else:
        bounds = [_bound_pair(s) for s in signs] + [(None, None)]
        lows = np.array([-np.inf if lo is None else lo for lo, _ in bounds[:k]])
        highs = np.array([np.inf if hi is None else hi for _, hi in bounds[:k]])
        start = np.concatenate([np.clip(a, lows, highs), [0.0]])
    res = minimize(objective, start, jac=True, method="L-BFGS-B", bounds=bounds)
    coef, intercept = split(res.x)
    return np.asarray(coef, dtype=float), intercept


def _bound_pair(sign: int) -> tuple[float | None, float | None]:
    return (0.0, None) if sign > 0 else (None, 0.0) if sign < 0 else (None, None)


def auroc(ys: Sequence[int], scores: Sequence[float]) -> float | None:
    """ROC AUC (scikit-learn), None when only one class is present."""
    from sklearn.metrics import roc_auc_score

    if len(set(ys)) < 2:
        return None
    return round(float(roc_auc_score(list(ys), list(scores))), 4)


CONTRADICTION_SETS: dict[str, tuple[str, ...]] = {
    "nli_max": ("nli_max_contradiction",),
    "nli": ("nli_max_contradiction", "nli_contradiction_at_best", "nli_entailment"),
    "nli+relatedness": (
        "nli_max_contradiction",
        "nli_contradiction_at_best",
        "nli_entailment",
        "relatedness",
    ),
    "nli+consistency": (
        "nli_max_contradiction",
        "nli_contradiction_at_best",
        "nli_entailment",
        "consistency_penalty",
        "consistency_anchored",
    ),
    "all": (
        "nli_max_contradiction",
        "nli_contradiction_at_best",
        "nli_entailment",
        "consistency_penalty",
        "consistency_anchored",
        "relatedness",
    ),
}


def family(file: str) -> str:
    """Dataset family of an evaldata file name (the part before the first ``_``)."""
    return file.split("_", 1)[0]


def signals(cand: dict[str, Any]) -> Signals:
    """A dumped candidate as :class:`Signals` (fields a newer/older dump lacks are dropped)."""
    known = Signals.__dataclass_fields__
    return Signals(**{k: v for k, v in cand.items() if k in known})


def single_source_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows of the files in which every claim has exactly one source (the fitting data)."""
    multi = {r["file"] for r in rows if len(r["candidates"]) != 1}
    return [r for r in rows if r["file"] not in multi]


def all_groupings() -> list[tuple[str, ...]]:
    names = list(GROUPS)
    return [tuple(c) for k in range(1, len(names) + 1) for c in itertools.combinations(names, k)]


def fit_variant(rows: list[dict[str, Any]], groups: tuple[str, ...], lam: float) -> Variant | None:
    """Signed, file- and class-balanced fit; with NLI, pulled toward NLI alone by ``lam``."""
    names = tuple(n for g in groups for n in GROUPS[g])
    xs, ys, files = [], [], []
    for row in rows:
        feats = features_of(signals(row["candidates"][0]))
        if all(n in feats for n in names):
            xs.append([feats[n] for n in names])
            ys.append(1 if row["label"] == "supported" else 0)
            files.append(row["file"])
    if len(set(ys)) < 2:
        return None
    x, y = np.array(xs), np.array(ys, dtype=float)
    w = balanced_weights(ys, files)
    signs = [SUPPORT_SIGNS[n] for n in names]
    anchor = None
    if "nli" in groups:
        i = names.index("nli_entailment")
        c_e, _ = fit_logistic(x[:, [i]], y, w, signs=[1])
        anchor = np.zeros(len(names))
        anchor[i] = c_e[0]
    coef, intercept = fit_logistic(
        x, y, w, signs=signs, anchor=anchor, lam=lam if anchor is not None else 0.0
    )
    return Variant(
        groups=groups,
        features=names,
        coef=tuple(round(float(c), 6) for c in coef),
        intercept=round(float(intercept), 6),
    )


def fit_support(
    rows: list[dict[str, Any]],
    version: str,
    lam: float,
    groupings: list[tuple[str, ...]] | None = None,
) -> Combiner:
    single = single_source_rows(rows)
    wanted = groupings or all_groupings()
    variants = [v for g in wanted if (v := fit_variant(single, g, lam)) is not None]
    return Combiner(version=version, variants=tuple(variants))


def fit_contradiction(
    rows: list[dict[str, Any]], names: tuple[str, ...]
) -> ContradictionModel | None:
    """Contradicted vs supported on single-source rows with NLI (file- and class-balanced)."""
    xs, ys, files = [], [], []
    for row in single_source_rows(rows):
        if row["label"] not in ("contradicted", "supported"):
            continue
        feats = contradiction_features_of(signals(row["candidates"][0]))
        if feats is None:
            continue
        xs.append([feats[n] for n in names])
        ys.append(1 if row["label"] == "contradicted" else 0)
        files.append(row["file"])
    if len(set(ys)) < 2:
        return None
    coef, intercept = fit_logistic(
        np.array(xs),
        np.array(ys, dtype=float),
        balanced_weights(ys, files),
        signs=[CONTRADICTION_SIGNS[n] for n in names],
    )
    return ContradictionModel(
        features=names,
        coef=tuple(round(float(c), 6) for c in coef),
        intercept=round(float(intercept), 6),
    )
