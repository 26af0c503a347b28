"""The verification engine: text + sources → :class:`VerificationReport`.

Pipeline: parse tags → resolve keys (existence; unresolvable keys are
reported and removed) → claims → scoring stages (TF-IDF, embeddings, NLI,
LLM judge, consistency; see :mod:`provgraph.verification.scoring`) → fused
scores and verdicts → relative check → coverage → deterministic rewrite.
Synchronous and free of I/O except through the resolver, so the worker calls
:func:`verify_text` / :func:`verify_output` directly.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import numpy as np

from provgraph.citations import citation_tag_spans
from provgraph.errors import NotFoundError, ValidationError
from provgraph.verification.claims import Claim, extract_claims
from provgraph.verification.config import StageModels, VerificationConfig
from provgraph.verification.coverage import candidate_pairs, select_findings, uncited_sentences
from provgraph.verification.embeddings import embedding_scores
from provgraph.verification.provenance import report_models
from provgraph.verification.relative import relative_check, relative_embedding_table
from provgraph.verification.report import (
    CitationCheck,
    ClaimInfo,
    CoverageFinding,
    RelativeInfo,
    SourceInfo,
    TagResult,
    VerificationReport,
)
from provgraph.verification.sanitize import filter_tag_keys
from provgraph.verification.scoring import score_pairs
from provgraph.verification.sources import GraphSourceResolver, ResolvedSource, SourceResolver
from provgraph.verification.stages import STAGE_ORDER, Stages, load_stages
from provgraph.verification.verdicts import Verdict, decide, ramp

if TYPE_CHECKING:
    from provgraph.graph import ProvenanceNode
    from provgraph.store.port import GraphStore


def _claim_info(claim: Claim, mode: str) -> ClaimInfo:
    return ClaimInfo(
        text=claim.text,
        start=claim.start,
        end=claim.end,
        mode=mode,
        checked_text=claim.checked_text,
    )


def _relative(
    stages: Stages, claims: list[str], cited: list[str], sources: list[ResolvedSource]
) -> list[RelativeInfo | None]:
    """Score each claim against every session source with the cheapest stage that ran."""
    cfg = stages.config
    usable = [s for s in sources if s.text.strip()]
    if len(usable) < 2 or not claims:
        return [None] * len(claims)
    t0 = time.perf_counter()
    unique = list(dict.fromkeys(claims))
    if stages.encoder is not None:
        stage = "embeddings"
        table = relative_embedding_table(
            stages.encoder,
            unique,
            [(s.key, s.text[: cfg.source_max_chars]) for s in usable],
            window_chars=cfg.embedding_window_chars,
            max_windows=cfg.relative_max_windows,
        )
    elif stages.tfidf:
        stage = "tfidf"
        table = {c: {s.key: stages.index(s).best(c).score for s in usable} for c in unique}
    else:
        return [None] * len(claims)
    out: list[RelativeInfo | None] = []
    min_other = cfg.fusion.embedding_low if stage == "embeddings" else cfg.fusion.tfidf_low
    for claim, key in zip(claims, cited, strict=True):
        if key not in table[claim]:
            out.append(None)
            continue
        r = relative_check(
            stage,
            key,
            table[claim],
            margin=cfg.relative_margin,
            min_other_score=max(0.3, min_other),
        )
        out.append(RelativeInfo(**r.__dict__))
    stages.add_time("relative", time.perf_counter() - t0)
    return out


def _coverage(
    stages: Stages, text: str, claims: list[Claim], sources: list[ResolvedSource]
) -> list[CoverageFinding]:
    cfg = stages.config
    usable = [s for s in sources if s.text.strip()]
    sentences = uncited_sentences(
        text, claims, min_words=cfg.coverage_min_words, limit=cfg.coverage_max_sentences
    )
    if not usable or not sentences or not (stages.tfidf or stages.encoder is not None):
        return []
    t0 = time.perf_counter()
    pre = np.zeros((len(sentences), len(usable)))
    if stages.tfidf:
        for j, src in enumerate(usable):
            index = stages.index(src)
            for i, sent in enumerate(sentences):
                pre[i, j] = ramp(
                    index.best(sent.text).score, cfg.fusion.tfidf_low, cfg.fusion.tfidf_high
                )
    if stages.encoder is not None:
        items = [(s.text, src.text) for s in sentences for src in usable]
        matches = embedding_scores(
            stages.encoder,
            items,
            window_chars=cfg.embedding_window_chars,
            max_windows=cfg.embedding_max_windows,
            max_source_chars=cfg.source_max_chars,
        )
        emb = np.array(
            [ramp(m.cosine, cfg.fusion.embedding_low, cfg.fusion.embedding_high) for m in matches]
        ).reshape(len(sentences), len(usable))
        pre = np.maximum(pre, emb)
    pairs = candidate_pairs(pre, cfg.coverage_top_k)
    scored = score_pairs(
        stages, [(sentences[i].text, usable[j]) for i, j in pairs], use_judge=False
    )
    strongest = next(n for n in ("nli", "embeddings", "tfidf") if stages.ran(n))
    findings: list[CoverageFinding] = []
    supports = [s.support for s in scored]
    for i, j, score in select_findings(pairs, supports, cfg.thresholds.supported):
        sc = scored[pairs.index((i, j))]
        findings.append(
            CoverageFinding(
                sentence=sentences[i].text,
                start=sentences[i].start,
                end=sentences[i].end,
                candidate_source_key=usable[j].key,
                support_score=score,
                stage=strongest,
                evidence=sc.evidence,
            )
        )
    stages.add_time("coverage", time.perf_counter() - t0)
    return findings


def verify_text(
    text: str,
    resolver: SourceResolver,
    config: VerificationConfig | None = None,
    *,
    models: StageModels | None = None,
) -> VerificationReport:
    """Verify every citation tag of ``text`` against the sources ``resolver`` names."""
    started = time.perf_counter()
    cfg = config or VerificationConfig()
    spans = citation_tag_spans(text)
    claims = extract_claims(
        text,
        mode=cfg.claim_mode,
        max_chars=cfg.claim_context_chars,
        max_sentences=cfg.claim_max_sentences,
    )
    cache: dict[str, ResolvedSource | None] = {}
    pending: list[tuple[int, str, ResolvedSource]] = []
    unresolved: dict[int, list[str]] = {}
    for index, (_s, _e, ref) in enumerate(spans):
        for key in dict.fromkeys(ref.refs):
            if key not in cache:
                cache[key] = resolver.resolve(key)
            source = cache[key]
            if source is None:
                unresolved.setdefault(index, []).append(key)
            else:
                pending.append((index, key, source))
    stages = load_stages(cfg, models)
    scored = score_pairs(stages, [(claims[i].scored_text, src) for i, _k, src in pending])
    need_sources = (cfg.relative or cfg.coverage) and (spans or cfg.coverage)
    session_sources = resolver.all_sources() if need_sources else []
    relative: list[RelativeInfo | None] = [None] * len(pending)
    if cfg.relative:
        live = [n for n, sc in enumerate(scored) if sc.support is not None]
        found = _relative(
            stages,
            [claims[pending[n][0]].scored_text for n in live],
            [pending[n][1] for n in live],
            session_sources,
        )
        for n, r in zip(live, found, strict=True):
            relative[n] = r
    checks: list[CitationCheck] = []
    for (index, key, src), sc, rel in zip(pending, scored, relative, strict=True):
        verdict, confidence = decide(
            sc.support,
            sc.contradiction,
            cfg.thresholds,
            has_text=bool(src.text.strip()) and bool(claims[index].text.strip()),
            signals=sc.signals,
        )
        checks.append(
            CitationCheck(
                tag_index=index,
                key=key,
                claim=_claim_info(claims[index], cfg.claim_mode.value),
                source=SourceInfo(
                    key=key,
                    node_id=src.node_id,
                    node_type=src.node_type,
                    label=src.label,
                    chars=len(src.text),
                ),
                scores=sc.scores,
                evidence=sc.evidence,
                support_score=sc.support,
                contradiction_score=sc.contradiction,
                verdict=verdict,
                confidence=confidence,
                relative=rel,
                kept_in_text=verdict not in cfg.drop_verdicts,
            )
        )
    keep: dict[int, list[str]] = {i: [] for i in range(len(spans))}
    ranked = sorted(checks, key=lambda c: (-(c.support_score or 0.0), c.key))
    for check in ranked:
        if not check.kept_in_text:
            continue
        if cfg.max_keys_per_tag is not None and len(keep[check.tag_index]) >= cfg.max_keys_per_tag:
            check.kept_in_text = False
            continue
        keep[check.tag_index].append(check.key)
    rewritten = filter_tag_keys(text, keep)
    tags = [
        TagResult(
            tag_index=i,
            raw_tag=ref.raw,
            start=s,
            end=e,
            keys=list(ref.refs),
            unresolvable_keys=unresolved.get(i, []),
            verified_tag=filter_tag_keys(ref.raw, {0: keep[i]}),
            claim=_claim_info(claims[i], cfg.claim_mode.value),
        )
        for i, (s, e, ref) in enumerate(spans)
    ]
    coverage = _coverage(stages, text, claims, session_sources) if cfg.coverage else []
    totals = {v.value: 0 for v in Verdict}
    for check in checks:
        totals[check.verdict.value] += 1
    checked = sum(1 for c in checks if c.verdict != Verdict.UNVERIFIABLE)
    return VerificationReport(
        text_with_verified_citations=rewritten,
        tags=tags,
        checks=checks,
        unresolvable_keys=list(dict.fromkeys(k for ks in unresolved.values() for k in ks)),
        totals=totals,
        citations_checked=checked,
        support_rate=(totals[Verdict.SUPPORTED.value] / checked) if checked else None,
        coverage=coverage,
        stages=[stages.statuses[n] for n in STAGE_ORDER],
        thresholds=cfg.thresholds,
        fusion=cfg.fusion,
        config=cfg.model_dump(mode="json"),
        config_hash=cfg.config_hash(),
        models=report_models(stages),
        seconds=time.perf_counter() - started,
    )


def output_text(content: str | None, data: dict[str, object]) -> str:
    """The text of an output node: ``content``, else ``data["output"]`` / ``["text"]``."""
    if content:
        return content
    for name in ("output", "text", "content", "result"):
        value = data.get(name)
        if value is not None:
            return str(value)
    return ""


def verify_output(
    store: GraphStore,
    project: str,
    output_id: str,
    config: VerificationConfig | None = None,
    *,
    models: StageModels | None = None,
) -> VerificationReport:
    """Verify a stored output node against the sources of its session (through the port)."""
    node = store.get_node(project, output_id)
    if node is None:
        raise NotFoundError(f"output node {output_id!r} does not exist in project {project!r}")
    return verify_node(store, project, node, config, models=models)


def verify_node(
    store: GraphStore,
    project: str,
    node: ProvenanceNode,
    config: VerificationConfig | None = None,
    *,
    models: StageModels | None = None,
) -> VerificationReport:
    """:func:`verify_output` for an output node the caller already read.

    A verification job reads the node anyway (it needs the session id for the
    stored report), so it passes it here rather than paying a second read.
    """
    cfg = config or VerificationConfig()
    if node.session_id is None:
        raise ValidationError("the output node has no session_id", path="output_id")
    resolver = GraphSourceResolver(
        store,
        project,
        node.session_id,
        include_cited_sources_for_agents=cfg.include_cited_sources_for_agents,
    )
    return verify_text(output_text(node.content, node.data), resolver, cfg, models=models)
