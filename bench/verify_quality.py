"""Quality of the verification stages on labelled claim/source data.

Usage: ``python bench/verify_quality.py --data DIR [--json] [--limit N | --sample N]
[--no-embeddings] [--no-nli] [--no-nli-focus] [--no-nli-polarity] [--no-nli-value-free]
[--embedding-max-windows K] [--dump-scores FILE]``,
or ``--from-scores FILE`` to recompute the metrics of a dump at the current
thresholds without scoring again.

Every ``*.jsonl`` in DIR (format of ``../shared/evaldata``: ``claim``,
``source``, ``label`` in supported/unsupported/contradicted, optional
``extra.chunks`` — score each, take the max — and ``extra.candidates`` — one
``{source, label}`` per candidate, the row's score is the best candidate's).
Per stage and for the fused verdict: AUROC of the support score (supported vs
the rest), balanced accuracy at the default thresholds, and where
contradictions exist the contradiction AUROC (contradicted vs supported) and
3-way macro-F1. ``--json`` prints one object:
``{"files": {name: {"n", "stages": {stage: {"support_auroc", "skipped"}},
"fused": {"support_auroc", "bacc", "contradiction_auroc", "macro_f1"}}}, "seconds"}``.
``--dump-scores`` writes one line per row, file by file as each finishes (a
long run's finished files are usable): the scores, every candidate's stage
signals and, per candidate, every NLI window read (``nli_windows``: start,
end, P(entail), P(contra) in evidence-rank order) for window-level analysis.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from _evaldata import row_sources

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from provgraph.verification.config import VerificationConfig
from provgraph.verification.scoring import score_pairs
from provgraph.verification.sources import ResolvedSource
from provgraph.verification.stages import load_stages
from provgraph.verification.verdicts import Signals, Verdict, decide, fuse

SUPPORT_STAGES = ("tfidf", "embeddings", "nli", "llm_judge")
BATCH = 64


def _auroc(labels: list[int], scores: list[float]) -> float | None:
    from sklearn.metrics import roc_auc_score

    if len(set(labels)) < 2:
        return None
    return round(float(roc_auc_score(labels, scores)), 4)


def evaluate_file(
    path: Path, stages: Any, limit: int | None, sample: int | None = None
) -> tuple[dict[str, Any], list[Any]]:
    rows = [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]
    rows = rows[:limit] if limit else rows
    if sample and len(rows) > sample:  # deterministic, evenly spaced: keeps the label mix
        rows = [rows[(i * len(rows)) // sample] for i in range(sample)]
    cfg = stages.config
    pairs: list[tuple[int, str, ResolvedSource]] = []
    for r, row in enumerate(rows):
        for j, text in enumerate(row_sources(row)):
            key = f"{path.stem}:{r}:{j}"  # unique across files: stages cache by key
            pairs.append((r, str(row["claim"]), ResolvedSource(key, "", None, "", text)))
    scored: list[Any] = []
    for b in range(0, len(pairs), BATCH):
        chunk = pairs[b : b + BATCH]
        scored.extend(score_pairs(stages, [(c, s) for _r, c, s in chunk], use_judge=True))
    best: dict[int, Any] = {}
    candidates: dict[int, list[dict[str, Any]]] = {}
    stage_best: dict[str, dict[int, float]] = {s: {} for s in SUPPORT_STAGES}
    for (r, _c, _s), sc in zip(pairs, scored, strict=True):
        cand = dict(sc.signals.__dict__)
        if sc.nli_windows:  # analysis only: every NLI window read (start, end, ent, con)
            cand["nli_windows"] = [list(w) for w in sc.nli_windows]
        candidates.setdefault(r, []).append(cand)
        if r not in best or (sc.support or 0.0) > (best[r].support or 0.0):
            best[r] = sc
        for name in SUPPORT_STAGES:
            if name in sc.scores and sc.scores[name].score is not None:
                value = float(sc.scores[name].score)
                stage_best[name][r] = max(stage_best[name].get(r, -1.0), value)
    labels = [str(row["label"]) for row in rows]
    support_opt = [best[r].support if r in best else None for r in range(len(rows))]
    contra = [best[r].contradiction if r in best else 0.0 for r in range(len(rows))]
    skipped = {
        n: (None if s.status == "ran" else (s.reason or s.status))
        for n, s in stages.statuses.items()
        if n in SUPPORT_STAGES
    }
    stage_vals = {n: [stage_best[n].get(r) for r in range(len(rows))] for n in SUPPORT_STAGES}
    signals = [best[r].signals if r in best else None for r in range(len(rows))]
    result = metrics(labels, support_opt, contra, stage_vals, skipped, cfg.thresholds, signals)
    dump = [
        {
            "file": path.name,
            "id": row.get("id"),
            "label": labels[r],
            "support": support_opt[r],
            "contradiction": contra[r],
            **{f"stage_{n}": stage_best[n].get(r) for n in SUPPORT_STAGES},
            "skipped": skipped,
            "signals": best[r].signals.__dict__ if r in best else None,
            "candidates": candidates.get(r, []),
        }
        for r, row in enumerate(rows)
    ]
    return result, dump


def metrics(
    labels: list[str],
    support_opt: list[float | None],
    contra: list[float],
    stage_vals: dict[str, list[float | None]],
    skipped: dict[str, str | None],
    thresholds: Any,
    signals: list[Signals | None] | None = None,
) -> dict[str, Any]:
    """The per-file result object from per-row scores (also used by ``--from-scores``).

    ``signals``: each row's best candidate's stage signals, which the verdict
    policy also reads (None: dumps without signals, scores only).
    """
    from sklearn.metrics import balanced_accuracy_score, f1_score

    y_sup = [1 if lab == "supported" else 0 for lab in labels]
    out_stages: dict[str, Any] = {}
    for name in SUPPORT_STAGES:
        if skipped.get(name):
            out_stages[name] = {"support_auroc": None, "skipped": skipped[name]}
            continue
        vals = [v if v is not None else 0.0 for v in stage_vals[name]]
        out_stages[name] = {"support_auroc": _auroc(y_sup, vals), "skipped": None}
    support = [s or 0.0 for s in support_opt]
    verdicts = [
        decide(s, c, thresholds, has_text=s is not None, signals=sig)[0]
        for s, c, sig in zip(support_opt, contra, signals or [None] * len(contra), strict=True)
    ]

    pred_sup = [1 if v == Verdict.SUPPORTED else 0 for v in verdicts]
    fused: dict[str, Any] = {
        "support_auroc": _auroc(y_sup, support),
        "bacc": round(float(balanced_accuracy_score(y_sup, pred_sup)), 4)
        if len(set(y_sup)) > 1
        else None,
        "contradiction_auroc": None,
        "macro_f1": None,
    }
    if "contradicted" in labels:
        idx = [i for i, lab in enumerate(labels) if lab in ("contradicted", "supported")]
        fused["contradiction_auroc"] = _auroc(
            [1 if labels[i] == "contradicted" else 0 for i in idx], [contra[i] for i in idx]
        )
        three = [
            "supported"
            if v == Verdict.SUPPORTED
            else "contradicted"
            if v == Verdict.CONTRADICTED
            else "unsupported"
            for v in verdicts
        ]
        fused["macro_f1"] = round(float(f1_score(labels, three, average="macro")), 4)
    return {"n": len(labels), "stages": out_stages, "fused": fused}


def refuse(row: dict[str, Any], fusion: Any) -> tuple[float | None, float, Signals | None]:
    """A row's fused ``(support, contradiction, signals)`` recomputed from its signals.

    Uses the current fusion (weights or learned combiner) on every candidate
    source of the row and keeps the best-supported one, as scoring does. Rows
    dumped before candidates were stored keep their stored scores.
    """
    cands = row.get("candidates")
    if not cands:
        return row["support"], row["contradiction"], None
    known = set(Signals.__dataclass_fields__)
    signals = [Signals(**{k: v for k, v in c.items() if k in known}) for c in cands]
    fused = [(*fuse(sig, fusion), sig) for sig in signals]
    return max(fused, key=lambda f: -1.0 if f[0] is None else f[0])


def from_scores(path: Path, thresholds: Any, fusion: Any) -> dict[str, Any]:
    """Recompute every metric from a ``--dump-scores`` file at the current fusion and thresholds.

    No model runs: signals come from the dump, so thresholds and combiners can be
    compared in seconds on the same stage outputs.
    """
    by_file: dict[str, list[dict[str, Any]]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            by_file.setdefault(row["file"], []).append(row)
    files: dict[str, Any] = {}
    for name, rows in sorted(by_file.items()):
        refused = [refuse(r, fusion) for r in rows]
        files[name] = metrics(
            [r["label"] for r in rows],
            [f[0] for f in refused],
            [f[1] for f in refused],
            {n: [r.get(f"stage_{n}") for r in rows] for n in SUPPORT_STAGES},
            {
                n: (rows[0].get("skipped") or {}).get(n)
                or (
                    None
                    if any(r.get(f"stage_{n}") is not None for r in rows)
                    else "no scores recorded for this stage"
                )
                for n in SUPPORT_STAGES
            },
            thresholds,
            [f[2] for f in refused],
        )
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument(
        "--from-scores",
        type=Path,
        default=None,
        help="recompute metrics from a --dump-scores file (current thresholds)",
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--limit", type=int, default=None, help="first N rows per file")
    parser.add_argument(
        "--sample",
        type=int,
        default=None,
        help="N evenly spaced rows per file (for slow stages on shared CPUs)",
    )
    parser.add_argument("--embedding-max-windows", type=int, default=None)
    parser.add_argument(
        "--embedding-model", default=None, help="sentence-transformers folder (default: packaged)"
    )
    parser.add_argument("--no-embeddings", action="store_true")
    parser.add_argument("--no-nli", action="store_true")
    parser.add_argument("--nli-model", default=None)
    parser.add_argument(
        "--nli-refine-model", default=None, help="the accurate mode's larger NLI model folder"
    )
    parser.add_argument("--nli-refine-windows", type=int, default=None)
    parser.add_argument(
        "--nli-refine-entailment",
        choices=("agreement", "refiner"),
        default=None,
        help="how the accurate mode scores a re-read window's entailment (default: the config's)",
    )
    parser.add_argument(
        "--no-nli-focus", action="store_true", help="skip the focused NLI pass (its A/B)"
    )
    parser.add_argument(
        "--no-nli-polarity",
        action="store_true",
        help="skip the polarity reading of negated claims (its A/B)",
    )
    parser.add_argument(
        "--no-nli-value-free",
        action="store_true",
        help="skip the value-free reading of contradicted claims with unstated values (its A/B)",
    )
    parser.add_argument("--dump-scores", type=Path, default=None)
    args = parser.parse_args(argv)
    extra: dict[str, Any] = {}
    if args.embedding_max_windows:
        extra["embedding_max_windows"] = args.embedding_max_windows
    if args.embedding_model:
        extra["embedding_model"] = args.embedding_model
    if args.nli_refine_windows:
        extra["nli_refine_windows"] = args.nli_refine_windows
    if args.nli_refine_entailment:
        extra["nli_refine_entailment"] = args.nli_refine_entailment
    cfg = VerificationConfig(
        embeddings=not args.no_embeddings,
        nli=not args.no_nli,
        nli_model=args.nli_model,
        nli_refine_model=args.nli_refine_model,
        nli_focus=not args.no_nli_focus,
        nli_polarity=not args.no_nli_polarity,
        nli_value_free=not args.no_nli_value_free,
        relative=False,
        coverage=False,
        **extra,
    )
    started = time.perf_counter()
    if args.from_scores:
        result = {
            "files": from_scores(args.from_scores, cfg.thresholds, cfg.fusion),
            "seconds": round(time.perf_counter() - started, 2),
        }
        print(json.dumps(result, indent=2))
        return 0
    if args.data is None:
        parser.error("--data is required (or --from-scores)")
    stages = load_stages(cfg)
    files: dict[str, Any] = {}
    if args.dump_scores:
        args.dump_scores.write_text("")
    for path in sorted(args.data.glob("*.jsonl")):
        t0 = time.perf_counter()
        files[path.name], dump = evaluate_file(path, stages, args.limit, args.sample)
        if args.dump_scores:  # file by file: a long run's finished files are usable
            with args.dump_scores.open("a", encoding="utf-8") as fh:
                fh.write("".join(json.dumps(d) + "\n" for d in dump))
        if not args.json:
            print(
                f"{path.name}: {json.dumps(files[path.name])} ({time.perf_counter() - t0:.1f}s)",
                flush=True,
            )
    result = {"files": files, "seconds": round(time.perf_counter() - started, 2)}
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for s in stages.statuses.values():
            print(f"stage {s.name}: {s.status} {s.reason or ''} {s.seconds:.1f}s")
        print(f"total {result['seconds']}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
