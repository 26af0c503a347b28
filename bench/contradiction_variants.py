"""NLI contradiction scores on the dev files with contradictions, read in several ways.

Usage::

    python bench/contradiction_variants.py --data ../shared/evaldata \
        [--files healthver_dev factcheckgpt_stance] [--json]

Analysis only (nothing here ships). For every row the shipped NLI model reads
the pair as the stage does (source = premise, claim = hypothesis), reversed,
per claim sentence and per source sentence; each score below is then the
AUROC of contradicted vs supported (and, for the entailment readings, of
supported vs the rest). No parameter is fitted, so each file is out of sample
for every choice made on the other. Used for docs/benchmarks.md, session 4
(issue 14): why HealthVer's contradictions are near chance.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from provgraph.verification.nli import label_index, load_nli
from provgraph.verification.sentences import split_sentences

Probs = list[float]
Reading = dict[str, Any]


def _sentences(text: str) -> list[str]:
    return [s.text for s in split_sentences(text)] or [text]


def read_file(model: Any, path: Path) -> list[Reading]:
    """Every reading of every row, from one batched ``predict``."""
    rows = [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]
    plans = []
    pairs: dict[tuple[str, str], None] = {}
    for row in rows:
        claim, source = str(row["claim"]), str(row["source"])
        plan = {
            "label": row["label"],
            "fwd": (source, claim),
            "rev": (claim, source),
            "claim_sents": [(source, c) for c in _sentences(claim)],
            "source_sents": [(s, claim) for s in _sentences(source)],
        }
        for pair in (plan["fwd"], plan["rev"], *plan["claim_sents"], *plan["source_sents"]):
            pairs[pair] = None
        plans.append(plan)
    ordered = list(pairs)
    probs = np.asarray(model.predict(ordered, batch_size=32), dtype=float)
    table = {pair: [float(v) for v in row] for pair, row in zip(ordered, probs, strict=True)}
    return [
        {
            "label": p["label"],
            "fwd": table[p["fwd"]],
            "rev": table[p["rev"]],
            "claim_sents": [table[x] for x in p["claim_sents"]],
            "source_sents": [table[x] for x in p["source_sents"]],
        }
        for p in plans
    ]


def scores(e: int, c: int) -> dict[str, Callable[[Reading], float]]:
    """Contradiction scores of one reading (e, c: entailment and contradiction columns)."""

    def top_mass(r: Reading) -> Probs:
        return list(max(r["source_sents"], key=lambda p: p[e] + p[c]))

    return {
        "P(contra)": lambda r: r["fwd"][c],
        "P(contra) x (1 - P(entail))": lambda r: r["fwd"][c] * (1 - r["fwd"][e]),
        "P(contra) - P(entail)": lambda r: r["fwd"][c] - r["fwd"][e],
        "reversed P(contra)": lambda r: r["rev"][c],
        "both directions, mean P(contra)": lambda r: (r["fwd"][c] + r["rev"][c]) / 2,
        "both directions, mean P(contra) - P(entail)": lambda r: (
            (r["fwd"][c] + r["rev"][c] - r["fwd"][e] - r["rev"][e]) / 2
        ),
        "max over claim sentences P(contra)": lambda r: max(p[c] for p in r["claim_sents"]),
        "max over claim sentences P(contra) - P(entail)": lambda r: max(
            p[c] - p[e] for p in r["claim_sents"]
        ),
        "max over source sentences P(contra)": lambda r: max(p[c] for p in r["source_sents"]),
        "source sentence with most mass: P(contra) - P(entail)": lambda r: (
            top_mass(r)[c] - top_mass(r)[e]
        ),
    }


def evaluate(readings: list[Reading], e: int, c: int) -> dict[str, float]:
    from sklearn.metrics import roc_auc_score

    pick = [r for r in readings if r["label"] in ("contradicted", "supported")]
    y = [1 if r["label"] == "contradicted" else 0 for r in pick]
    out = {
        name: round(float(roc_auc_score(y, [f(r) for r in pick])), 4)
        for name, f in scores(e, c).items()
    }
    ys = [1 if r["label"] == "supported" else 0 for r in readings]
    out["support: P(entail)"] = round(float(roc_auc_score(ys, [r["fwd"][e] for r in readings])), 4)
    out["n_contradicted"] = sum(y)
    out["n_supported"] = len(y) - sum(y)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, required=True)
    ap.add_argument("--files", nargs="+", default=["healthver_dev", "factcheckgpt_stance"])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    model = load_nli(None)
    idx = label_index(tuple(model.labels))
    if idx.contradiction is None:
        raise SystemExit("the NLI model has no contradiction class")
    result = {
        name: evaluate(
            read_file(model, args.data / f"{name}.jsonl"), idx.entailment, idx.contradiction
        )
        for name in args.files
    }
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        for name, res in result.items():
            print(name)
            for k, v in res.items():
                print(f"   {k:55s} {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
