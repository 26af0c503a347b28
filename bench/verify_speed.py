"""Citations per second per verification stage, on a generated workload.

Usage: ``python bench/verify_speed.py [--json] [--citations N] [--sources K]
[--source-chars C] [--ml-citations M]``

The workload is deterministic (seeded): K long sources of C characters made
of generated sentences, and a text with N cited claims spread over them (each
claim copied or perturbed from a source sentence). Each stage runs alone, with
its model preloaded and warmed up, so the figure is scoring throughput.
ML stages run on the first M citations only (they are slow on shared CPUs);
citations/s normalises that. Wall-clock and CPU-time rates are both given: on
a shared machine wall time mostly measures the neighbours; CPU time of the
single-threaded TF-IDF paths is the fair comparison (torch stages use several
threads, so their CPU rate is not comparable to wall).

The seed library (``pydantic-ai-provenance``) needs Python ≥ 3.12; this
environment is 3.11, so ``seed_citations_per_s`` and ``tfidf_vs_seed`` are
null unless it imports. ``seed_algorithm_citations_per_s`` is a clearly
labelled stand-in: the seed's algorithm (one TF-IDF fit per claim × source)
re-implemented here with scikit-learn, same windows, same inputs.
``--json`` prints ``{"stages": {stage: {"citations_per_s", "skipped"}},
"seed_citations_per_s", "tfidf_vs_seed", ...}``.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import re
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from provgraph.errors import ModelUnavailableError
from provgraph.verification import (
    MappingSourceResolver,
    StageModels,
    VerificationConfig,
    verify_text,
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


def seed_algorithm(text: str, sources: dict[str, str]) -> int:
    """The seed's per-pair TF-IDF fit (re-implemented): returns citations scored."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.metrics.pairwise import cosine_similarity

    from provgraph.citations import citation_tag_spans
    from provgraph.verification.claims import context_before_span

    def norm(s: str) -> str:
        return re.sub(r"\s+", " ", s.strip().lower())

    n = 0
    for start, _e, ref in citation_tag_spans(text):
        claim = norm(context_before_span(text, start))
        for key in ref.refs:
            src = norm(sources[key][:96_000])
            chunks = [src[i : i + 1200] for i in range(0, len(src) - 1200 + 1, 600)]
            if src[-1200:] != chunks[-1]:
                chunks.append(src[-1200:])
            m = TfidfVectorizer(token_pattern=r"(?u)[a-z0-9]+").fit_transform([claim, *chunks])
            float(cosine_similarity(m[0:1], m[1:]).max())
            n += 1
    return n


def seed_library(text: str, sources: dict[str, str]) -> tuple[float | None, str | None]:
    try:
        import pydantic_ai_provenance  # noqa: F401
    except ImportError:
        return None, (
            f"pydantic-ai-provenance needs Python >= 3.12; this is Python "
            f"{platform.python_version()} and no 3.12 environment is available"
        )
    return None, "seed library importable but no store adapter for it is wired here"


def run_stage(
    name: str, text: str, sources: dict[str, str], models: StageModels
) -> tuple[float, float]:
    """(wall citations/s, CPU citations/s) of one stage run alone on ``text``."""
    cfg = VerificationConfig(
        tfidf=name == "tfidf",
        embeddings=name == "embeddings",
        nli=name == "nli",
        consistency=False,
        relative=False,
        coverage=False,
    )
    resolver = MappingSourceResolver(sources)
    verify_text(text[:400], resolver, cfg, models=models)  # warm-up
    t0, c0 = time.perf_counter(), time.process_time()
    report = verify_text(text, resolver, cfg, models=models)
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    status = report.stage(name)
    if status is None or status.status != "ran":
        raise ModelUnavailableError(status.reason if status else "stage missing")
    return len(report.checks) / seconds, len(report.checks) / max(cpu, 1e-9)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--json", action="store_true")
    p.add_argument("--citations", type=int, default=300)
    p.add_argument("--sources", type=int, default=10)
    p.add_argument("--source-chars", type=int, default=30_000)
    p.add_argument("--ml-citations", type=int, default=40)
    args = p.parse_args(argv)
    text, sources = workload(args.citations, args.sources, args.source_chars)
    ml_text = _first_tags(text, args.ml_citations)
    out: dict[str, Any] = {
        "stages": {},
        "workload": {
            "citations": args.citations,
            "sources": args.sources,
            "source_chars": args.source_chars,
            "ml_citations": args.ml_citations,
        },
        "machine": f"{platform.machine()}, {__import__('os').cpu_count()} cores (shared), "
        f"Python {platform.python_version()}",
    }
    models = StageModels()
    try:
        from provgraph.verification.embeddings import EmbeddingEncoder

        models.encoder = EmbeddingEncoder()
    except ModelUnavailableError:
        pass
    try:
        from provgraph.verification.nli import load_nli

        models.nli_model = load_nli(None)
    except ModelUnavailableError:
        pass
    for name, workload_text in (("tfidf", text), ("embeddings", ml_text), ("nli", ml_text)):
        try:
            cps, cpu_cps = run_stage(name, workload_text, sources, models)
            out["stages"][name] = {
                "citations_per_s": round(cps, 2),
                "cpu_citations_per_s": round(cpu_cps, 2),
                "skipped": None,
            }
        except ModelUnavailableError as exc:
            out["stages"][name] = {
                "citations_per_s": None,
                "cpu_citations_per_s": None,
                "skipped": str(exc),
            }
    t0, c0 = time.perf_counter(), time.process_time()
    n = seed_algorithm(text, sources)
    algo = n / (time.perf_counter() - t0)
    algo_cpu = n / max(time.process_time() - c0, 1e-9)
    seed_cps, reason = seed_library(text, sources)
    out["seed_citations_per_s"] = seed_cps
    out["seed_skipped"] = reason
    tfidf_cps = out["stages"]["tfidf"]["citations_per_s"]
    out["tfidf_vs_seed"] = round(tfidf_cps / seed_cps, 2) if seed_cps and tfidf_cps else None
    out["seed_algorithm_citations_per_s"] = round(algo, 2)
    out["seed_algorithm_cpu_citations_per_s"] = round(algo_cpu, 2)
    tfidf_cpu = out["stages"]["tfidf"]["cpu_citations_per_s"]
    out["tfidf_vs_seed_algorithm"] = round(tfidf_cps / algo, 2) if tfidf_cps else None
    out["tfidf_vs_seed_algorithm_cpu"] = round(tfidf_cpu / algo_cpu, 2) if tfidf_cpu else None
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        for name, row in out["stages"].items():
            print(f"{name:12s} {row['citations_per_s']} citations/s {row['skipped'] or ''}")
        print(f"seed library: {seed_cps} ({reason})")
        print(
            f"seed algorithm (re-implemented): {out['seed_algorithm_citations_per_s']} "
            f"citations/s; TF-IDF stage is {out['tfidf_vs_seed_algorithm']}x wall, "
            f"{out['tfidf_vs_seed_algorithm_cpu']}x CPU time"
        )
    return 0


def _first_tags(text: str, n: int) -> str:
    """The prefix of ``text`` holding its first ``n`` tags."""
    ends = [m.end() for m in re.finditer(r"\[REF\|[^\]]+\]", text)]
    return text[: ends[min(n, len(ends)) - 1]] if ends else text


if __name__ == "__main__":
    raise SystemExit(main())
