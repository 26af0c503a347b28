"""The seed library's verification API, built on the new engine.

``verify_citations`` keeps the seed's name, parameters, defaults and report
shape. Differences, all fixes of the seed's defects:

* records are one per (tag, key) with ``source_keys == [key]``: an agent key
  is never widened with the keys of the sources it cited (defect 2), and the
  rewrite of a multi-key tag considers all its keys together (defect 1);
* ``claim_source_similarities`` holds the raw records and
  ``refined_claim_source_similarities`` the refined copies (defect 4);
* adjacent tags share one claim (defect 3); abbreviations do not end
  sentences (defect 6);
* ``report`` carries the full :class:`VerificationReport`; pass ``config`` to
  run more stages (embeddings, NLI, the LLM judge: defect 5). Without it the
  run is TF-IDF only, like the seed, and the text is rewritten by the seed's
  rule (``min_score`` on the TF-IDF cosine, top ``max_keys_per_tag`` keys per
  tag), keeping written order and never adding a key.
"""

from __future__ import annotations

import asyncio
import copy
from dataclasses import dataclass, field, replace
from typing import Any

from provgraph.citations import citation_tag_spans
from provgraph.verification.config import StageModels, VerificationConfig
from provgraph.verification.engine import verify_text
from provgraph.verification.llm_judge import EntailmentRecord
from provgraph.verification.report import VerificationReport
from provgraph.verification.sanitize import filter_tag_keys
from provgraph.verification.sources import as_resolver


@dataclass
class ClaimSourceSimilarity:
    """Similarity of one tag's claim to one cited key's source (seed shape)."""

    method: str
    claim_key: str
    source_keys: list[str]
    scores: list[float]
    claim_excerpt: str
    source_excerpts: list[str]
    source_file_paths: list[str | None]
    raw_tag: str
    verified_tag: str
    tag_start: int | None = None
    tag_end: int | None = None


@dataclass
class CitationVerificationReport:
    """Seed report shape plus the refined records and the full report."""

    original_text: str
    text_with_verified_citations: str
    claim_source_similarities: list[ClaimSourceSimilarity] = field(default_factory=list)
    refined_claim_source_similarities: list[ClaimSourceSimilarity] = field(default_factory=list)
    report: VerificationReport | None = None
    entailment_records: list[EntailmentRecord] = field(default_factory=list)


def _seed_config(
    claim_context_chars: int,
    source_max_chars: int,
    chunk_chars: int,
    chunk_stride: int,
    max_chunks: int,
) -> VerificationConfig:
    return VerificationConfig(
        claim_context_chars=claim_context_chars,
        source_max_chars=source_max_chars,
        tfidf_chunk_chars=chunk_chars,
        tfidf_chunk_stride=chunk_stride,
        tfidf_max_chunks=max_chunks,
        embeddings=False,
        nli=False,
        llm_judge=False,
        relative=False,
        coverage=False,
    )


def records_from_report(report: VerificationReport, text: str) -> list[ClaimSourceSimilarity]:
    """One seed record per (tag, key) whose source had TF-IDF scored (raw scores)."""
    out: list[ClaimSourceSimilarity] = []
    tags = {t.tag_index: t for t in report.tags}
    for check in report.checks:
        tfidf = check.scores.get("tfidf")
        tag = tags[check.tag_index]
        out.append(
            ClaimSourceSimilarity(
                method="tfidf",
                claim_key=check.key,
                source_keys=[check.key],
                scores=[float(tfidf.score or 0.0) if tfidf else 0.0],
                claim_excerpt=check.claim.text,
                source_excerpts=[tfidf.evidence.text if tfidf and tfidf.evidence else ""],
                source_file_paths=[None],
                raw_tag=tag.raw_tag,
                verified_tag=f"[REF|{check.key}]",
                tag_start=tag.start,
                tag_end=tag.end,
            )
        )
    return out


def entailment_records_from_report(report: VerificationReport) -> list[EntailmentRecord]:
    """One record per (tag, key) the LLM judge scored, in check order (Step 3 of the seed)."""
    out: list[EntailmentRecord] = []
    for check in report.checks:
        judged = check.scores.get("llm_judge")
        if judged is None or judged.score is None:
            continue
        rationale = judged.raw.get("rationale", "")
        out.append(EntailmentRecord(check.key, float(judged.score), str(rationale)))
    return out


def compare_claim_to_sources_tfidf(
    text: str,
    store: Any,
    *,
    claim_max_chars: int = 720,
    max_source_chars: int = 96_000,
    chunk_chars: int = 1_200,
    chunk_stride: int = 600,
    max_chunks: int = 400,
) -> list[ClaimSourceSimilarity]:
    """Seed Step 2: one TF-IDF record per (tag, resolvable key); one fit per source."""
    cfg = _seed_config(claim_max_chars, max_source_chars, chunk_chars, chunk_stride, max_chunks)
    return records_from_report(verify_text(text, as_resolver(store), cfg), text)


def refine_claim_source_similarities(
    records: list[ClaimSourceSimilarity],
    *,
    max_top_n_keys_per_tag: int = 2,
    min_score_for_shared_source: float = 0.3,
) -> list[ClaimSourceSimilarity]:
    """Seed refinement on *copies*: drop keys below the minimum, then keep the top N.

    The input records are never modified (defect 4). Ranking ties break on the
    key; kept keys stay in their original order.
    """
    out: list[ClaimSourceSimilarity] = []
    for record in records:
        r = copy.deepcopy(record)
        rows = list(
            zip(r.source_keys, r.scores, r.source_excerpts, r.source_file_paths, strict=False)
        )
        if min_score_for_shared_source is not None:
            rows = [row for row in rows if row[1] >= min_score_for_shared_source]
        if max_top_n_keys_per_tag is not None and max_top_n_keys_per_tag > 0:
            top = sorted(rows, key=lambda row: (-row[1], row[0]))[:max_top_n_keys_per_tag]
            rows = [row for row in rows if row in top]
        r.source_keys = [row[0] for row in rows]
        r.scores = [row[1] for row in rows]
        r.source_excerpts = [row[2] for row in rows]
        r.source_file_paths = [row[3] for row in rows]
        r.verified_tag = "[REF|" + "|".join(r.source_keys) + "]" if r.source_keys else ""
        out.append(r)
    return out


def seed_rewrite(
    text: str, raw: list[ClaimSourceSimilarity], *, min_score: float, max_keys_per_tag: int
) -> str:
    """Keep, per tag, the keys scoring ≥ ``min_score``, at most ``max_keys_per_tag`` of them."""
    by_tag: dict[int, list[tuple[float, str]]] = {}
    starts: dict[int, int] = {}
    for index, (start, _e, _r) in enumerate(citation_tag_spans(text)):
        starts[start] = index
        by_tag[index] = []
    for record in raw:
        if record.tag_start is None or record.tag_start not in starts:
            continue
        for key, score in zip(record.source_keys, record.scores, strict=False):
            if score >= min_score:
                by_tag[starts[record.tag_start]].append((score, key))
    keep = {
        i: [k for _s, k in sorted(rows, key=lambda r: (-r[0], r[1]))[: max(0, max_keys_per_tag)]]
        for i, rows in by_tag.items()
    }
    return filter_tag_keys(text, keep)


async def verify_citations(
    text: str,
    store: Any,
    *,
    claim_context_chars: int = 720,
    source_max_chars: int = 96_000,
    source_chunk_chars: int = 1_200,
    source_chunk_stride: int = 600,
    source_max_chunks: int = 400,
    min_score: float = 0.3,
    max_keys_per_tag: int = 2,
    config: VerificationConfig | None = None,
    models: StageModels | None = None,
    entailment_judge: Any = None,
) -> CitationVerificationReport:
    """Seed entry point (async; the CPU work runs in a thread, off the event loop).

    Unresolvable keys are removed; with ``config=None`` the rest follows the
    seed rule (see module docs); with a ``config`` the full engine's verdict
    policy rewrites the text. ``entailment_judge`` (an ``EntailmentJudge`` or
    an ``entailment_agent``) runs the seed's Step 3, which the seed announced
    but never ran: each scored key gets an :class:`EntailmentRecord` in
    ``entailment_records``; without a ``config`` the text is still rewritten
    by the TF-IDF rule.
    """
    resolver = as_resolver(store)
    cfg = config or _seed_config(
        claim_context_chars,
        source_max_chars,
        source_chunk_chars,
        source_chunk_stride,
        source_max_chunks,
    )
    if entailment_judge is not None:
        cfg = cfg.model_copy(update={"llm_judge": True})
        models = replace(models or StageModels(), judge_agent=entailment_judge)
    report = await asyncio.to_thread(verify_text, text, resolver, cfg, models=models)
    raw = records_from_report(report, text)
    refined = refine_claim_source_similarities(
        raw, max_top_n_keys_per_tag=max_keys_per_tag, min_score_for_shared_source=min_score
    )
    if config is None:
        rewritten = seed_rewrite(text, raw, min_score=min_score, max_keys_per_tag=max_keys_per_tag)
    else:
        rewritten = report.text_with_verified_citations
    return CitationVerificationReport(
        original_text=text,
        text_with_verified_citations=rewritten,
        claim_source_similarities=raw,
        refined_claim_source_similarities=refined,
        report=report,
        entailment_records=entailment_records_from_report(report),
    )
