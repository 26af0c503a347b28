"""Compare support fusions and contradiction scores on a dump, held out by dataset family.

Usage::

    python bench/verify_quality.py --data ../shared/evaldata --json --dump-scores scores.jsonl
    python bench/compare_fusions.py --scores scores.jsonl [--json] [--bootstrap 1000]

Reads a ``--dump-scores`` file (every candidate's stage signals) and, without
running a model, scores every row with each candidate fusion. Anything with a
free parameter (the learned combiner, the NLI weight of the weighted mean, a
threshold) is chosen on the other dataset families only (leave one family
out: AttributionBench, WiCE, Factcheck-GPT, HealthVer), so every figure is
held out. Per file: support AUROC (supported vs rest) of each fusion and each
stage, the margin to the file's best single stage, a paired bootstrap 95 %
interval of (fusion − NLI alone) AUROC, balanced accuracy at a held-out
threshold, and contradiction AUROC (contradicted vs supported) of each
contradiction score. Fusions:

* ``nli``: NLI entailment at the best window (the stage alone);
* ``learned``: the combiner refitted without the file's family
  (``bench/fit_combiner.py``'s ``leave_family_out``, λ = 0 as shipped);
* ``weighted``: the hand-weighted mean (no fitted parameter);
* ``weighted_nliW``: the weighted mean with NLI weight W chosen held out;
* ``noisy_or``: ``1 − (1 − nli)(1 − γ · lexical-embedding mean)``, never
  below NLI's part; γ chosen held out.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from fit_combiner import leave_family_out, load_rows
from fusion_fit import auroc, family, signals

from provgraph.verification.verdicts import FusionWeights, Signals, fuse, ramp

NLI_WEIGHTS = (1.0, 2.0, 3.0, 4.0, 6.0, 10.0)
GAMMAS = (0.1, 0.2, 0.3, 0.5, 0.8)
THRESHOLDS = [round(0.2 + 0.025 * i, 3) for i in range(25)]
STAGES = ("tfidf", "embeddings", "nli")

Score = Callable[[Signals], float]


def lexemb(sig: Signals, w: FusionWeights) -> float | None:
    """Mean of the ramped lexical and embedding signals (None when none ran)."""
    vals = []
    if sig.tfidf is not None:
        vals.append(ramp(sig.tfidf, w.tfidf_low, w.tfidf_high))
    if sig.recall is not None:
        vals.append(ramp(sig.recall, w.recall_low, w.recall_high))
    if sig.embedding is not None:
        vals.append(ramp(sig.embedding, w.embedding_low, w.embedding_high))
    return sum(vals) / len(vals) if vals else None


def noisy_or(gamma: float) -> Score:
    w = FusionWeights(method="weighted")

    def score(sig: Signals) -> float:
        nli = max(0.0, (sig.nli_entailment or 0.0) - (sig.nli_contradiction or 0.0))
        le = lexemb(sig, w) or 0.0
        return 1.0 - (1.0 - nli) * (1.0 - gamma * le)

    return score


def weighted(nli_weight: float) -> Score:
    w = FusionWeights(method="weighted", nli=nli_weight)
    return lambda sig: fuse(sig, w)[0] or 0.0


def row_best(row: dict[str, Any], score: Score) -> tuple[float, int]:
    """The row's score: the best candidate's (as scoring does), and that candidate."""
    vals = [score(signals(c)) for c in row["candidates"]]
    best = int(np.argmax(vals))
    return vals[best], best


# --- contradiction scores (of the best-supported candidate) ---------------------------


def _windows(cand: dict[str, Any]) -> list[tuple[float, float]]:
    return [(float(w[2]), float(w[3])) for w in cand.get("nli_windows") or []]


def contra_hand(cand: dict[str, Any]) -> float:
    return fuse(signals(cand), FusionWeights(method="weighted"))[1]


def contra_margin(cand: dict[str, Any]) -> float:
    """NLI's part as ``max(0, P(contra) − P(entail))`` on the window most about the claim."""
    sig = signals(cand)
    explicit = fuse(dataclasses.replace(sig, nli_max_contradiction=None), FusionWeights())[1]
    wins = _windows(cand)
    if not wins:
        return explicit
    # the window with the most entailment + contradiction mass: the one that speaks of the claim
    e, c = max(wins, key=lambda ec: ec[0] + ec[1])
    return max(explicit, max(0.0, c - e))


def contra_maxc(cand: dict[str, Any]) -> float:
    sig = signals(cand)
    return float(sig.nli_max_contradiction or 0.0)


CONTRA: dict[str, Callable[[dict[str, Any]], float]] = {
    "hand": contra_hand,
    "margin_top_mass": contra_margin,
    "nli_max_contradiction": contra_maxc,
}


# --- measuring --------------------------------------------------------------------------


def paired_ci(
    y: list[int], a: list[float], b: list[float], n_boot: int, seed: int = 0
) -> tuple[float, float]:
    """95 % paired bootstrap interval of AUROC(a) − AUROC(b) (rows resampled)."""
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(seed)
    ya, aa, bb = np.asarray(y), np.asarray(a), np.asarray(b)
    diffs = []
    for _ in range(n_boot):
        i = rng.integers(0, len(ya), len(ya))
        if len(set(ya[i])) < 2:
            continue
        diffs.append(roc_auc_score(ya[i], aa[i]) - roc_auc_score(ya[i], bb[i]))
    lo, hi = np.percentile(diffs, [2.5, 97.5])
    return round(float(lo), 4), round(float(hi), 4)


def bacc(y: list[int], s: list[float], t: float) -> float:
    ys, pred = np.asarray(y), np.asarray(s) >= t
    pos, neg = ys == 1, ys == 0
    return float((pred[pos].mean() + (~pred[neg]).mean()) / 2)


def mean_bacc(files: dict[str, Any], names: list[str], key: str, t: float) -> float:
    return float(np.mean([bacc(files[f]["y"], files[f][key], t) for f in names]))


def lofo_threshold(files: dict[str, Any], key: str, held: str) -> float:
    """The threshold with the best mean bacc over the two-class files of the other families."""
    other = [f for f in files if family(f) != family(held) and len(set(files[f]["y"])) > 1]
    return max(THRESHOLDS, key=lambda t: (round(mean_bacc(files, other, key, t), 6), -abs(t - 0.5)))


def lofo_param(
    rows: list[dict[str, Any]], options: dict[str, Score]
) -> tuple[list[float], dict[str, str]]:
    """Per row, the score of the option with the best mean AUROC on the other families."""
    per_option = {k: [row_best(r, f)[0] for r in rows] for k, f in options.items()}
    out = [0.0] * len(rows)
    chosen: dict[str, str] = {}
    for fam in sorted({family(r["file"]) for r in rows}):

        def mean_other(k: str, fam: str = fam) -> float:
            vals = []
            for f in sorted({r["file"] for r in rows if family(r["file"]) != fam}):
                idx = [i for i, r in enumerate(rows) if r["file"] == f]
                y = [1 if rows[i]["label"] == "supported" else 0 for i in idx]
                a = auroc(y, [per_option[k][i] for i in idx])
                if a is not None:
                    vals.append(a)
            return float(np.mean(vals))

        best = max(options, key=mean_other)
        chosen[fam] = best
        for i, r in enumerate(rows):
            if family(r["file"]) == fam:
                out[i] = per_option[best][i]
    return out, chosen


def compare(rows: list[dict[str, Any]], n_boot: int) -> dict[str, Any]:
    fusions: dict[str, list[float]] = {}
    fusions["nli"] = [row_best(r, lambda s: s.nli_entailment or 0.0)[0] for r in rows]
    fusions["weighted"] = [row_best(r, weighted(3.0))[0] for r in rows]
    fusions["weighted_nliW"], chosen_w = lofo_param(
        rows, {f"w={w:g}": weighted(w) for w in NLI_WEIGHTS}
    )
    fusions["noisy_or"], chosen_g = lofo_param(rows, {f"gamma={g:g}": noisy_or(g) for g in GAMMAS})
    learned = leave_family_out(rows, 0.0)
    fusions["learned"] = [s["learned"] for s in learned]
    best_cand = [int(s["best"]) for s in learned]
    weighted_best = [row_best(r, weighted(3.0))[1] for r in rows]
    files: dict[str, Any] = {}
    for i, r in enumerate(rows):
        f = files.setdefault(r["file"], {"idx": [], "y": [], "labels": []})
        f["idx"].append(i)
        f["y"].append(1 if r["label"] == "supported" else 0)
        f["labels"].append(r["label"])
    for f in files.values():
        for k, vals in fusions.items():
            f[k] = [vals[i] for i in f["idx"]]
    out: dict[str, Any] = {"choices": {"nli_weight": chosen_w, "gamma": chosen_g}, "files": {}}
    for name, f in sorted(files.items()):
        res: dict[str, Any] = {"n": len(f["idx"])}
        out["files"][name] = res
        if len(set(f["y"])) < 2:
            continue
        for st in STAGES:
            res[st] = auroc(f["y"], [rows[i].get(f"stage_{st}") or 0.0 for i in f["idx"]])
        best_stage = max(res[st] or 0.0 for st in STAGES)
        res["best_stage"] = best_stage
        for k in fusions:
            a = auroc(f["y"], f[k])
            t = lofo_threshold(files, k, name)
            res[k] = {
                "auroc": a,
                "margin": round((a or 0.0) - best_stage, 4),
                "ci_vs_nli": paired_ci(f["y"], f[k], f["nli"], n_boot) if k != "nli" else None,
                "threshold": t,
                "bacc": round(bacc(f["y"], f[k], t), 4),
            }
        if "contradicted" in f["labels"]:
            pick = [j for j, lab in enumerate(f["labels"]) if lab in ("contradicted", "supported")]
            yc = [1 if f["labels"][j] == "contradicted" else 0 for j in pick]
            cres: dict[str, Any] = {}
            for cname, cfun in CONTRA.items():
                for label, cands in (("learned_best", best_cand), ("weighted_best", weighted_best)):
                    vals = [cfun(rows[f["idx"][j]]["candidates"][cands[f["idx"][j]]]) for j in pick]
                    cres[f"{cname}@{label}"] = auroc(yc, vals)
            res["contradiction"] = cres
    two = [r for r in out["files"].values() if "nli" in r]
    out["mean"] = {
        k: {
            "auroc": round(float(np.mean([r[k]["auroc"] for r in two])), 4),
            "bacc": round(float(np.mean([r[k]["bacc"] for r in two])), 4),
            "worst_margin": round(min(r[k]["margin"] for r in two), 4),
        }
        for k in fusions
    }
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scores", type=Path, required=True)
    ap.add_argument("--bootstrap", type=int, default=1000)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    result = compare(load_rows(args.scores), args.bootstrap)
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print("choices (held-out family -> option):", json.dumps(result["choices"]))
    for name, res in result["files"].items():
        if "nli" not in res:
            print(f"{name}: n={res['n']} (one class)")
            continue
        stages = " ".join(f"{s}={res[s]}" for s in STAGES)
        print(f"{name}: n={res['n']} {stages}")
        for k in ("nli", "learned", "weighted", "weighted_nliW", "noisy_or"):
            v = res[k]
            print(
                f"   {k:14s} AUROC {v['auroc']} margin {v['margin']:+.4f} "
                f"CI(vs nli) {v['ci_vs_nli']} bacc {v['bacc']} @ {v['threshold']}"
            )
        if "contradiction" in res:
            print("   contradiction:", json.dumps(res["contradiction"]))
    for k, v in result["mean"].items():
        print(f"mean {k:14s} {json.dumps(v)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
