"""Verification speed: the full pipeline, and the TF-IDF path beside the real predecessor.

Usage: ``python bench/verify_speed.py [--json] [--citations 200] [--sources 10]
[--source-chars 20000] [--full-citations N] [--rounds 3] [--no-seed]
[--seed-venv DIR] [--seed-python PATH] [--threads T]``

Workload (deterministic, seeded): K sources of C characters of generated
sentences, and a text with N cited claims spread over them (each copied from a
source sentence, a third with a changed year).

* **Predecessor side by side.** The real ``pydantic-ai-provenance`` (PyPI) runs
  in its own Python ≥ 3.12 venv (built once under ``--seed-venv``; see
  ``bench/_seed_env.py``) on the same text and sources, held in its own
  ``ProvenanceStore``. After one warm-up each, ``--rounds`` alternating rounds
  time the predecessor's ``compare_claim_to_sources_tfidf`` and
  ``verify_citations`` against provgraph's drop-ins of the same name and the
  engine with only the TF-IDF stage. provgraph runs **cold**: its per-source
  caches are cleared before every run, as for a report over sources it never
  saw; ``warm`` figures (sources seen before) are reported apart. The ratio
  is the median of per-round ratios, wall and CPU time. Scores of both are
  compared (max absolute difference). When the predecessor cannot run, the
  output says why and the ratios are null.
* **Full pipeline.** ``verify_text`` with the default config (every stage the
  default runs: TF-IDF, embeddings, NLI, consistency, relative, coverage),
  models preloaded and warmed up, one process, ``--threads`` torch threads.
  ``cold`` = empty embedding and source caches (the first report over these
  sources); ``warm`` = the same report again (source windows cached, as when
  many outputs cite the same sources). Per-stage seconds, texts embedded, NLI
  pairs, and the NLI model's pairs/s on 128-token pairs measured in the same
  run (a gauge of how busy the machine is: 104.5 pairs/s on the idle machine,
  docs/benchmarks.md).

``--json`` prints one object with ``workload``, ``predecessor``, ``full_pipeline``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _seed_env import SeedProcess, ensure_venv

from provgraph.verification import (
    MappingSourceResolver,
    StageModels,
    VerificationConfig,
    compare_claim_to_sources_tfidf,
    verify_citations,
    verify_text,
)
from provgraph.verification.source_view import clear_source_caches

TFIDF_ONLY = VerificationConfig(
    embeddings=False, nli=False, consistency=False, relative=False, coverage=False
)

WORDS = [
    "river",
    "city",
    "bank",
    "company",
    "founded",
    "grew",
    "revenue",
    "market",
    "people",
    "village",
    "castle",
    "duke",
    "built",
    "century",
    "spices",
    "trade",
    "ship",
    "harbour",
    "museum",
    "opened",
    "year",
    "population",
    "school",
    "railway",
    "station",
    "bridge",
    "mayor",
    "council",
    "elected",
    "festival",
    "church",
    "tower",
]


def workload(n_cit: int, k_src: int, chars: int, seed: int = 7) -> tuple[str, dict[str, str]]:
    rng = random.Random(seed)
    sources: dict[str, list[str]] = {}
    for k in range(k_src):
        sents: list[str] = []
        while sum(len(s) + 1 for s in sents) < chars:
            words = [rng.choice(WORDS) for _ in range(rng.randint(8, 20))]
            sents.append(" ".join(words).capitalize() + f" in {rng.randint(1200, 2024)}.")
        sources[f"d_{k + 1}"] = sents
    parts: list[str] = []
    for i in range(n_cit):
        key = f"d_{i % k_src + 1}"
        sent = rng.choice(sources[key])
        if i % 3 == 1:
            sent = re.sub(r"\d{4}", str(rng.randint(1200, 2024)), sent)
        parts.append(f"{sent} [REF|{key}]")
    return " ".join(parts), {k: " ".join(v) for k, v in sources.items()}


def _timed(fn: Any) -> tuple[Any, float, float]:
    t0, c0 = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.perf_counter() - t0, time.process_time() - c0


def _provgraph_op(op: str, text: str, sources: dict[str, str], *, cold: bool) -> dict[str, Any]:
    """One provgraph run of ``op`` (seconds, cpu_seconds, citations, scores)."""
    if cold:
        clear_source_caches()
    if op == "tfidf":
        records, wall, cpu = _timed(lambda: compare_claim_to_sources_tfidf(text, sources))
        scores = [s for r in records for s in r.scores]
    elif op == "verify_citations":
        rep, wall, cpu = _timed(lambda: asyncio.run(verify_citations(text, sources)))
        scores = [s for r in rep.claim_source_similarities for s in r.scores]
    else:  # the engine, TF-IDF stage only
        report, wall, cpu = _timed(
            lambda: verify_text(text, MappingSourceResolver(sources), TFIDF_ONLY)
        )
        scores = [c.scores["tfidf"].score or 0.0 for c in report.checks]
    return {"seconds": wall, "cpu_seconds": cpu, "citations": len(scores), "scores": scores}


def _rate(run: dict[str, Any], key: str) -> float:
    return float(run["citations"]) / max(float(run[key]), 1e-9)


def predecessor(
    text: str, sources: dict[str, str], rounds: int, venv: Path, python: str | None
) -> dict[str, Any]:
    """Alternating rounds: provgraph vs the real predecessor on the same inputs."""
    py, reason = ensure_venv(venv, python)
    if py is None:
        return {"ran": False, "reason": f"the predecessor could not be run: {reason}"}
    seed = SeedProcess(py, text, sources)
    out: dict[str, Any] = {"ran": True, "package": seed.info, "ops": {}}
    try:
        pairs = {"tfidf": "tfidf", "verify_citations": "verify_citations", "engine_tfidf": "tfidf"}
        for ours, theirs in pairs.items():
            _provgraph_op(ours, text, sources, cold=True)  # warm-up (imports, first calls)
            seed.run(theirs)
            rows: list[dict[str, Any]] = []
            for _ in range(rounds):
                mine = _provgraph_op(ours, text, sources, cold=True)
                warm = _provgraph_op(ours, text, sources, cold=False)
                theirs_run = seed.run(theirs)
                rows.append({"provgraph": mine, "warm": warm, "predecessor": theirs_run})
            diff = max(
                (
                    abs(a - b)
                    for a, b in zip(
                        rows[0]["provgraph"]["scores"],
                        rows[0]["predecessor"]["scores"],
                        strict=False,
                    )
                ),
                default=None,
            )

            def med(who: str, key: str, rows: list[dict[str, Any]] = rows) -> float:
                return round(statistics.median(_rate(r[who], key) for r in rows), 1)

            def ratio(key: str, rows: list[dict[str, Any]] = rows) -> float:
                per_round = [
                    _rate(r["provgraph"], key) / _rate(r["predecessor"], key) for r in rows
                ]
                return round(statistics.median(per_round), 2)

            out["ops"][ours] = {
                "predecessor_function": theirs,
                "provgraph_citations_per_s": med("provgraph", "seconds"),
                "provgraph_warm_citations_per_s": med("warm", "seconds"),
                "predecessor_citations_per_s": med("predecessor", "seconds"),
                "ratio_wall": ratio("seconds"),
                "ratio_cpu": ratio("cpu_seconds"),
                "ratio_wall_per_round": [
                    round(_rate(r["provgraph"], "seconds") / _rate(r["predecessor"], "seconds"), 2)
                    for r in rows
                ],
                "citations": rows[0]["provgraph"]["citations"],
                "predecessor_citations": rows[0]["predecessor"]["citations"],
                "max_abs_score_difference": None if diff is None else round(diff, 9),
            }
    finally:
        seed.close()
    return out


def _nli_gauge(model: Any) -> float | None:
    """Pairs/s of the NLI model on 64 pairs of ~128 tokens (machine-load gauge)."""
    if model is None:
        return None
    premise = " ".join(["the river city bank grew"] * 22)
    pairs = [(premise + f" {i}", "the bank grew in the city") for i in range(64)]
    model.predict(pairs[:8], batch_size=32)
    _, wall, _ = _timed(lambda: model.predict(pairs, batch_size=32))
    return round(64 / wall, 1)


def full_pipeline(
    text: str, sources: dict[str, str], threads: int | None, refine_model: str | None = None
) -> dict[str, Any]:
    """The default config end to end, models warm; cold then warm caches.

    ``refine_model``: the accurate mode (its larger NLI model re-reads the best windows).
    """
    from provgraph.errors import ModelUnavailableError
    from provgraph.verification.embeddings import EmbeddingEncoder
    from provgraph.verification.nli import load_nli
    from provgraph.verification.vector_cache import MemoryVectorCache, TieredVectorCache

    models = StageModels()
    skipped: dict[str, str] = {}
    t0 = time.perf_counter()
    try:
        models.encoder = EmbeddingEncoder(cache=TieredVectorCache(MemoryVectorCache(), None))
    except ModelUnavailableError as exc:
        skipped["embeddings"] = str(exc)
    try:
        models.nli_model = load_nli(None, threads=threads)
        if refine_model:
            models.nli_refiner = load_nli(refine_model, threads=threads)
    except ModelUnavailableError as exc:
        skipped["nli"] = str(exc)
    load_seconds = time.perf_counter() - t0
    pairs = {"n": 0}
    if models.nli_model is not None:
        inner = models.nli_model.predict

        def counting(batch: list[tuple[str, str]], batch_size: int = 32) -> Any:
            pairs["n"] += len(batch)
            return inner(batch, batch_size=batch_size)

        models.nli_model.predict = counting
    cfg = VerificationConfig(nli_refine_model=refine_model)
    warm_text, warm_sources = workload(4, 2, 3_000, seed=99)
    verify_text(warm_text, MappingSourceResolver(warm_sources), cfg, models=models)  # warm-up
    gauge = _nli_gauge(models.nli_model)
    out: dict[str, Any] = {
        "config_hash": cfg.config_hash(),
        "model_load_seconds": round(load_seconds, 1),
        "skipped": skipped,
        "threads": threads,
        "nli_gauge_pairs_per_s": gauge,
    }
    clear_source_caches()
    for phase in ("cold", "warm"):
        encoded = models.encoder.encoded if models.encoder else 0
        pairs["n"] = 0
        report, wall, cpu = _timed(
            lambda: verify_text(text, MappingSourceResolver(sources), cfg, models=models)
        )
        n = len(report.checks)
        out[phase] = {
            "citations": n,
            "seconds": round(wall, 2),
            "cpu_seconds": round(cpu, 2),
            "citations_per_s": round(n / wall, 2),
            "citations_per_cpu_s": round(n / max(cpu, 1e-9), 2),
            "stage_seconds": {s.name: round(s.seconds, 2) for s in report.stages},
            "stages_ran": [s.name for s in report.stages if s.status == "ran"],
            "texts_embedded": (models.encoder.encoded - encoded) if models.encoder else 0,
            "nli_pairs": pairs["n"],
            "verdicts": report.totals,
        }
    out["nli_gauge_pairs_per_s_after"] = _nli_gauge(models.nli_model)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--json", action="store_true")
    p.add_argument("--citations", type=int, default=200)
    p.add_argument("--sources", type=int, default=10)
    p.add_argument("--source-chars", type=int, default=20_000)
    p.add_argument("--full-citations", type=int, default=None, help="default: --citations")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--no-seed", action="store_true", help="skip the predecessor comparison")
    p.add_argument("--no-full", action="store_true", help="skip the full pipeline")
    p.add_argument("--seed-venv", type=Path, default=Path(".provgraph/bench/seed-venv"))
    p.add_argument("--seed-python", default=None, help="a Python >= 3.12 for the seed venv")
    p.add_argument("--threads", type=int, default=None, help="torch threads (default: all CPUs)")
    p.add_argument(
        "--nli-refine-model", default=None, help="the accurate mode's larger NLI model folder"
    )
    args = p.parse_args(argv)
    text, sources = workload(args.citations, args.sources, args.source_chars)
    out: dict[str, Any] = {
        "workload": {
            "citations": args.citations,
            "sources": args.sources,
            "source_chars": args.source_chars,
        },
        "machine": f"{platform.machine()}, {os.cpu_count()} cores (shared), "
        f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f}",
    }
    if not args.no_seed:
        out["predecessor"] = predecessor(
            text, sources, args.rounds, args.seed_venv, args.seed_python
        )
    if not args.no_full:
        full_text = _first_tags(text, args.full_citations or args.citations)
        out["full_pipeline"] = full_pipeline(
            full_text, sources, args.threads, args.nli_refine_model
        )
    out["load_average_after"] = round(os.getloadavg()[0], 1)
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        _print(out)
    return 0


def _print(out: dict[str, Any]) -> None:
    print(out["machine"], json.dumps(out["workload"]))
    pred = out.get("predecessor")
    if pred is not None and not pred["ran"]:
        print(pred["reason"])
    elif pred is not None:
        for name, row in pred["ops"].items():
            print(
                f"{name:18s} provgraph {row['provgraph_citations_per_s']} cit/s "
                f"(warm {row['provgraph_warm_citations_per_s']}), predecessor "
                f"{row['predecessor_citations_per_s']} cit/s: {row['ratio_wall']}x wall, "
                f"{row['ratio_cpu']}x CPU; max score diff {row['max_abs_score_difference']}"
            )
    full = out.get("full_pipeline")
    if full is not None:
        for phase in ("cold", "warm"):
            r = full[phase]
            print(
                f"full pipeline {phase}: {r['citations']} citations, {r['citations_per_s']} cit/s "
                f"wall, {r['citations_per_cpu_s']} cit/CPU-s; {r['stage_seconds']}"
            )
        print(f"NLI gauge {full['nli_gauge_pairs_per_s']} pairs/s (idle machine: 104.5)")


def _first_tags(text: str, n: int) -> str:
    """The prefix of ``text`` holding its first ``n`` tags."""
    ends = [m.end() for m in re.finditer(r"\[REF\|[^\]]+\]", text)]
    return text[: ends[min(n, len(ends)) - 1]] if ends else text


if __name__ == "__main__":
    raise SystemExit(main())
