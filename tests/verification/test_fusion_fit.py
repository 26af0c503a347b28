"""Anchored, sign-constrained fusion fitting and the learned contradiction score."""

from __future__ import annotations

import importlib.util
import math
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from provgraph.verification.combiner import Combiner, ContradictionModel
from provgraph.verification.verdicts import FusionWeights, Signals, Thresholds, fuse

REPO = Path(__file__).resolve().parents[2]


def _module(name: str) -> ModuleType:
    if name in sys.modules:
        return sys.modules[name]
    sys.path.insert(0, str(REPO / "bench"))
    spec = importlib.util.spec_from_file_location(name, REPO / "bench" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_infinite_lambda_returns_the_anchor_and_signs_hold() -> None:
    ff = _module("fusion_fit")
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 400).astype(float)
    good = y + rng.normal(0, 0.7, 400)
    wrong_way = -y + rng.normal(0, 0.7, 400)  # anti-correlated, but its sign must be >= 0
    x = np.column_stack([good, wrong_way])
    w = np.ones(400)
    coef, _ = ff.fit_logistic(x, y, w, signs=[1, 1], anchor=np.array([2.0, 0.0]), lam=math.inf)
    assert coef.tolist() == [2.0, 0.0]
    free, _ = ff.fit_logistic(x, y, w, signs=[1, 1])
    assert free[0] > 0.5 and free[1] == 0.0
    unsigned, _ = ff.fit_logistic(x, y, w, signs=[1, 0])
    assert unsigned[1] < -0.5
    pulled, _ = ff.fit_logistic(x, y, w, signs=[1, 0], anchor=np.array([free[0], 0.0]), lam=10.0)
    assert abs(pulled[1]) < abs(unsigned[1]) / 5  # regularised toward the anchor


def test_balanced_weights_weigh_files_and_classes_equally() -> None:
    ff = _module("fusion_fit")
    w = ff.balanced_weights([1, 0, 0, 0, 1, 0], ["a", "a", "a", "a", "b", "b"])
    assert w.mean() == pytest.approx(1.0)
    assert w[[0, 4]].sum() == pytest.approx(w[[1, 2, 3, 5]].sum())


def _rows(seed: int, lexical_helps: bool) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    rows = []
    for fam in ("aa", "bb", "cc"):
        for i in range(240):
            label = ("supported", "unsupported", "contradicted")[i % 3]
            sup, con = label == "supported", label == "contradicted"
            ent = min(0.99, max(0.01, rng.gauss(0.6 if sup else 0.4, 0.2)))
            mc = min(0.99, max(0.01, rng.gauss(0.7 if con else 0.3, 0.15)))
            tfidf = min(1.0, max(0.0, rng.gauss(0.7 if (sup and lexical_helps) else 0.4, 0.15)))
            cand = {
                "tfidf": tfidf,
                "recall": rng.random(),
                "embedding": rng.random(),
                "nli_entailment": ent,
                "nli_contradiction": mc / 2,
                "nli_max_contradiction": mc,
                "consistency_penalty": 0.0,
                "consistency_anchored": False,
            }
            rows.append(
                {
                    "file": f"{fam}_x.jsonl",
                    "label": label,
                    "stage_tfidf": tfidf,
                    "stage_embeddings": cand["embedding"],
                    "stage_nli": ent,
                    "candidates": [cand],
                }
            )
    return rows


def test_fusion_is_chosen_only_when_it_never_loses_held_out() -> None:
    fit = _module("fit_combiner")
    helps = _rows(1, lexical_helps=True)
    lam, table = fit.choose_lambda(helps)
    assert not math.isinf(lam)
    chosen = next(t for t in table if t["lam"] == lam)
    assert chosen["worst_margin"] >= 0.0
    noise = _rows(2, lexical_helps=False)
    lam_noise, table_noise = fit.choose_lambda(noise)
    chosen_noise = next(t for t in table_noise if t["lam"] == lam_noise)
    assert chosen_noise["worst_margin"] >= 0.0  # NLI alone (lam = inf) always qualifies
    measured = fit.measure(noise, fit.leave_family_out(noise, lam_noise), Thresholds())
    assert all(r["learned"] >= r["nli"] for r in measured.values())


def test_contradiction_model_is_fitted_held_out_and_beats_the_hand_formula() -> None:
    fit = _module("fit_combiner")
    rows = _rows(3, lexical_helps=False)
    chosen, table = fit.choose_contradiction(rows, math.inf)
    assert {t["set"] for t in table} == set(fit.CONTRADICTION_SETS)
    assert all(0.0 <= t["worst"] <= 1.0 for t in table)
    if chosen is not None:
        best = next(t for t in table if t["set"] == chosen)
        assert best["worst"] > best["hand_worst"] and best["beats_hand_everywhere"]
    # a candidate that loses to the hand formula on any held-out file never ships,
    # however much it gains on another
    for t in table:
        assert t["beats_hand_everywhere"] == all(
            f > h for f, h in zip(t["per_file"], _hand_per_file(fit, rows), strict=True)
        )
    if not any(t["beats_hand_everywhere"] for t in table):
        assert chosen is None
    model = fit.fit_contradiction(rows, fit.CONTRADICTION_SETS["nli"])
    assert model is not None and model.coef[0] > 0  # more NLI contradiction, more contradiction


def _hand_per_file(fit: ModuleType, rows: list[dict[str, Any]]) -> list[float]:
    measured = fit.measure(rows, fit.leave_family_out(rows, math.inf), Thresholds())
    return [r["hand_contradiction_auroc"] for r in fit.single_contra(rows, measured)]


def test_fuse_uses_a_learned_contradiction_model_only_with_nli() -> None:
    model = ContradictionModel(features=("nli_max_contradiction",), coef=(10.0,), intercept=0.0)
    assert model.probability(Signals(tfidf=0.5)) is None
    with pytest.raises(ValueError, match="unknown features"):
        ContradictionModel(features=("nope",), coef=(1.0,), intercept=0.0)
    combiner = Combiner(version="t", variants=(), contradiction=model)
    sig = Signals(nli_entailment=0.2, nli_contradiction=0.3, nli_max_contradiction=0.9)
    assert combiner.contradiction_score(sig) == pytest.approx(1 / (1 + math.exp(-math.log(9))))
    # the shipped combiner: fuse's contradiction is its model's (or the hand formula's) value
    _, learned = fuse(sig, FusionWeights())
    _, hand = fuse(sig, FusionWeights(method="weighted"))
    assert hand == pytest.approx(0.9 * 0.8)
    assert 0.0 <= learned <= 1.0


def test_compared_fusions_noisy_or_is_bounded_monotone_and_never_below_nli() -> None:
    cmp = _module("compare_fusions")
    base = Signals(tfidf=0.3, recall=0.5, embedding=0.5, nli_entailment=0.6, nli_contradiction=0.1)
    score = cmp.noisy_or(0.8)
    nli_part = 0.6 - 0.1
    assert nli_part <= score(base) <= 1.0
    more_overlap = Signals(**{**base.__dict__, "tfidf": 0.6, "embedding": 0.9})
    assert score(more_overlap) >= score(base)  # monotone in the lexical/embedding signals
    no_lexical = Signals(nli_entailment=0.6, nli_contradiction=0.1)
    assert score(no_lexical) == pytest.approx(nli_part)  # a missing stage adds nothing
    assert cmp.noisy_or(0.0)(base) == pytest.approx(nli_part)
    # identical scores: the paired bootstrap interval of the AUROC difference is exactly 0
    ys = [i % 2 for i in range(40)]
    vals = [float(i) for i in range(40)]
    assert cmp.paired_ci(ys, vals, vals, 50) == (0.0, 0.0)
