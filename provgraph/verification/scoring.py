"""Running the scoring stages over (claim, source) pairs, batched across a whole report.

Stage back-ends are loaded once per report by
:func:`~provgraph.verification.stages.load_stages` (or taken from
:class:`~provgraph.verification.config.StageModels`); a model that cannot be loaded marks
its stage ``skipped`` with the reason, never a crash and never a silent pass (a citation
no stage could score is ``unverifiable``). :func:`score_pairs` is used both for cited
pairs and for coverage candidates.

One concern, in one place on purpose: the order of the stages and what each passes to
the next. Every runner here is a few lines over its own module (``focus``,
``polarity``, ``valuefree``, ``unknown_free``, ``size_free``, ``predicate``, …); loading
the stages is :mod:`.stages`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from provgraph.verification.consistency import check_consistency
from provgraph.verification.contrapositive import reread_contrapositive
from provgraph.verification.delayed_reread import reread_delayed
from provgraph.verification.embeddings import embedding_scores
from provgraph.verification.focus import PairScorer, refocus_all
from provgraph.verification.judge_stage import judge_status, record_judgments
from provgraph.verification.llm_judge import judge_pairs_settled, run_sync
from provgraph.verification.negated_opposites import reread_negated_opposites
from provgraph.verification.nli_refine import AgreementScorer, refine_matches
from provgraph.verification.polarity import Item, reread_negated
from provgraph.verification.predicate import off_predicate
from provgraph.verification.relatives import relative_only, unnamed_relative
from provgraph.verification.report import Evidence, StageScore
from provgraph.verification.signals import Signals
from provgraph.verification.size_free import reread_without_sizes
from provgraph.verification.source_view import source_view
from provgraph.verification.sources import ResolvedSource
from provgraph.verification.stages import Stages
from provgraph.verification.topic_words import shares_a_value, topic_share
from provgraph.verification.unknown_free import reread_without_unknowns
from provgraph.verification.valuefree import Spans, reread_without_values
from provgraph.verification.verdicts import fuse

_EVIDENCE_PRIORITY = ("nli", "llm_judge", "embeddings", "tfidf")


@dataclass
class Scored:
    """Stage outputs for one pair, the best evidence, and the fused scores."""

    scores: dict[str, StageScore] = field(default_factory=dict)
    signals: Signals = field(default_factory=Signals)
    evidence: Evidence | None = None
    support: float | None = None
    contradiction: float = 0.0
    sig: dict[str, Any] = field(default_factory=dict, repr=False)
    seeds: list[tuple[int, int]] = field(default_factory=list, repr=False)
    #: NLI per window read, rank order: ``(start, end, entailment, contradiction)``.
    nli_windows: tuple[tuple[int, int, float, float], ...] = field(default=(), repr=False)
    #: agreeing values written differently (claim, source): read by the focused pass
    rewrites: tuple[tuple[str, str], ...] = field(default=(), repr=False)
    #: claim spans of quantities and of dates nothing in the source could state
    unstated: tuple[Spans, Spans] = field(default=((), ()), repr=False)


Pair = tuple[str, ResolvedSource]
StageRunner = Callable[["Stages", list[Pair], list[int], list[Scored]], None]


def _ev(source: ResolvedSource, start: int, end: int) -> Evidence:
    return Evidence(source_key=source.key, start=start, end=end, text=source.text[start:end])


def _expand(text: str, start: int, end: int, budget: int) -> tuple[int, int]:
    extra = max(0, budget - (end - start)) // 2
    return max(0, start - extra), min(len(text), end + extra)


def _run_tfidf(stages: Stages, pairs: list[Pair], live: list[int], out: list[Scored]) -> None:
    for i in live:
        claim, src = pairs[i]
        index = stages.index(src)
        m = index.best(claim)
        ev = _ev(src, m.start, m.end) if m.window_index >= 0 else None
        recall = index.claim_recall(claim)
        text = src.text[: stages.config.source_max_chars]
        topic = topic_share(claim, text)
        values_shared = topic == 0 and shares_a_value(claim, text)
        relative = unnamed_relative(claim, text)
        through = relative_only(claim, text)
        raw: dict[str, Any] = {
            "cosine": m.score,
            "claim_recall": recall,
            "topic_share": topic,
            "relative_unnamed": relative,
            "subject_only_as_relative": through,
            "windows_total": index.n_windows,
        }
        out[i].scores["tfidf"] = StageScore(stage="tfidf", score=m.score, raw=raw, evidence=ev)
        out[i].sig["tfidf"] = m.score
        out[i].sig["recall"] = recall
        out[i].sig["topic_share"] = topic
        out[i].sig["shares_a_value"] = values_shared
        out[i].sig["relative_unnamed"] = relative is not None or through is not None


def _run_embeddings(stages: Stages, pairs: list[Pair], live: list[int], out: list[Scored]) -> None:
    cfg = stages.config
    assert stages.encoder is not None
    matches = embedding_scores(
        stages.encoder,
        [(pairs[i][0], pairs[i][1].text) for i in live],
        window_chars=cfg.embedding_window_chars,
        max_windows=cfg.embedding_max_windows,
        max_source_chars=cfg.source_max_chars,
    )
    for i, em in zip(live, matches, strict=True):
        src = pairs[i][1]
        raw: dict[str, Any] = {
            "cosine": em.cosine,
            "windows_total": em.windows_total,
            "windows_scored": em.windows_scored,
        }
        out[i].scores["embeddings"] = StageScore(
            stage="embeddings",
            score=em.cosine,
            raw=raw,
            evidence=_ev(src, em.start, em.end) if em.windows_scored else None,
        )
        out[i].sig["embedding"] = em.cosine
        out[i].seeds = [(s, e) for s, e, _c in em.ranked]


#: IDF-weighted share of the claim's words one window must hold for the claim to
#: count as quoted there (see :func:`_nli_seeds`)
QUOTED_OVERLAP = 0.9


def _nli_seeds(stages: Stages, pairs: list[Pair], live: list[int], out: list[Scored]) -> None:
    """NLI evidence seeds: the embedding ranking, then the best windows by word overlap.

    A window holding nearly all of the claim's words (``QUOTED_OVERLAP``,
    IDF-weighted) goes first: where the claim is quoted is where it is
    stated. Embeddings rank by topic, and a source of many similar sentences
    ("Revenue in 2021 was …", "Revenue in 2022 was …") puts a sibling
    sentence first, which the NLI then reads as a contradiction of the quote
    (measured on ``bench/verify_speed.py``'s workload: copied claims came out
    contradicted).
    """
    cfg = stages.config
    want = 2 * cfg.nli_max_windows
    for i in live:
        claim, src = pairs[i]
        view = source_view(
            src.text[: cfg.source_max_chars], window_chars=cfg.embedding_window_chars
        )
        seeds = out[i].seeds
        ranked = view.rank_windows(claim, want if len(seeds) < want else 1)
        if ranked and float(view.overlap_scores(claim)[ranked[0]]) >= QUOTED_OVERLAP:
            quoted = view.spans[ranked[0]]
            seeds = [quoted, *(s for s in seeds if s != quoted)]
        have = set(seeds)
        extra = [view.spans[j] for j in ranked if view.spans[j] not in have]
        out[i].seeds = [*seeds, *extra][:want]


def _run_nli(stages: Stages, pairs: list[Pair], live: list[int], out: list[Scored]) -> None:
    assert stages.nli is not None
    _nli_seeds(stages, pairs, live, out)
    items = [(pairs[i][0], pairs[i][1].text) for i in live]
    nli_out = stages.nli.score(items, seeds=[out[i].seeds for i in live])
    if stages.nli_refine is not None:
        cfg = stages.config
        nli_out = refine_matches(
            items,
            nli_out,
            stages.nli_refine,
            windows=cfg.nli_refine_windows,
            entailment=cfg.nli_refine_entailment,
            contradiction_windows=cfg.nli_contradiction_windows,
            max_source_chars=cfg.source_max_chars,
        )
    for i, nm in zip(live, nli_out, strict=True):
        if nm is None:
            continue
        src = pairs[i][1]
        raw: dict[str, Any] = {
            "entailment": nm.entailment,
            "contradiction": nm.contradiction,
            "neutral": nm.neutral,
            "max_contradiction": nm.max_contradiction,
            "max_contradiction_start": nm.contradiction_start,
            "max_contradiction_end": nm.contradiction_end,
            "windows_total": nm.windows_total,
            "windows_scored": nm.windows_scored,
        }
        out[i].scores["nli"] = StageScore(
            stage="nli", score=nm.entailment, raw=raw, evidence=_ev(src, nm.start, nm.end)
        )
        out[i].nli_windows = nm.windows
        out[i].sig.update(
            nli_entailment=nm.entailment,
            nli_contradiction=nm.contradiction,
            nli_max_contradiction=nm.max_contradiction,
        )


def _run_judge(stages: Stages, pairs: list[Pair], live: list[int], out: list[Scored]) -> None:
    cfg = stages.config
    premises: list[tuple[str, str]] = []
    spans: list[tuple[int, int]] = []
    for i in live:
        claim, src = pairs[i]
        ev = out[i].evidence
        s, e = (ev.start, ev.end) if ev else (0, len(src.text))
        s, e = _expand(src.text, s, e, cfg.llm_max_premise_chars)
        premises.append((claim, src.text[s:e][: cfg.llm_max_premise_chars]))
        spans.append((s, e))
    judged = run_sync(
        judge_pairs_settled(
            stages.judge,
            premises,
            max_premise_chars=cfg.llm_max_premise_chars,
            concurrency=cfg.llm_concurrency,
        )
    )
    for i, (s, e), jd in zip(live, spans, judged, strict=True):
        out[i].scores["llm_judge"] = record_judgments(jd, _ev(pairs[i][1], s, e))
        if out[i].scores["llm_judge"].score is not None:
            out[i].sig["llm"] = out[i].scores["llm_judge"].score
    stages.statuses["llm_judge"] = judge_status(stages.statuses["llm_judge"], stages.judge, judged)


def _run_consistency(stages: Stages, pairs: list[Pair], live: list[int], out: list[Scored]) -> None:
    cfg = stages.config
    for i in live:
        claim, src = pairs[i]
        ev = out[i].evidence
        if ev is None:
            continue
        cr = check_consistency(claim, ev.text, src.text[: cfg.source_max_chars])
        raw: dict[str, Any] = {
            "year_mismatches": list(cr.year_mismatches),
            "number_mismatches": list(cr.number_mismatches),
            "negation_mismatch": cr.negation_mismatch,
            "anchored_mismatches": list(cr.anchored_mismatches),
            "agreements": list(cr.agreements),
            **cr.details,
        }
        out[i].scores["consistency"] = StageScore(
            stage="consistency", score=cr.penalty, raw=raw, evidence=ev
        )
        out[i].sig["consistency_penalty"] = cr.penalty
        out[i].sig["consistency_anchored"] = bool(cr.anchored_mismatches)
        out[i].sig["consistency_negation"] = cr.negation_mismatch
        out[i].sig["consistency_conflict_share"] = cr.conflict_share
        out[i].sig["consistency_agreement"] = cr.agreement
        out[i].sig["consistency_quantity_agreed"] = cr.quantities_agreed > 0
        out[i].sig["consistency_paraphrased"] = cr.values_paraphrased
        out[i].sig["consistency_compared"] = cr.comparison_confirmed
        out[i].sig["consistency_rewritten"] = cr.values_paraphrased and (
            bool(cr.agreed_values or cr.agreed_derived)
            or any(change.lower() not in ev.text.lower() for change in cr.agreed_changes)
        )
        out[i].sig["consistency_unknown"] = cr.unknown_clause is not None
        out[i].sig["consistency_reversed"] = cr.reversed_clause is not None
        out[i].rewrites = cr.agreed_values
        if not cr.anchored_mismatches:
            out[i].unstated = (cr.unstated_spans, cr.unstated_date_spans)


def _run_focus(stages: Stages, pairs: list[Pair], live: list[int], out: list[Scored]) -> None:
    """The focused NLI pass (focus.py) on the best evidence window; replaces the NLI signals."""
    assert stages.nli is not None
    todo = [i for i in live if "nli" in out[i].scores]
    items = [(pairs[i][0], out[i].scores["nli"], out[i].rewrites, pairs[i][1].text) for i in todo]
    _reread(out, todo, refocus_all(_pair_scorer(stages), items, stages.config.nli_decisive))


#: A re-reading pass over ``(claim, source text, nli score, signals)`` items.
Rereader = Callable[[PairScorer, list[Item]], list[tuple[StageScore, dict[str, Any]] | None]]


def _rereading(reread: Rereader) -> StageRunner:
    """The runner of a pass that re-reads every pair NLI scored and replaces its signals:
    the "not … until" reading (delayed_reread.py), the polarity reading (polarity.py), the
    contrapositive (contrapositive.py), windows
    without unknown clauses (unknown_free.py) or without unstated change sizes
    (size_free.py), windows with denied opposites asserted (negated_opposites.py)."""

    def run(stages: Stages, pairs: list[Pair], live: list[int], out: list[Scored]) -> None:
        todo = [i for i in live if "nli" in out[i].scores]
        items = [(pairs[i][0], pairs[i][1].text, out[i].scores["nli"], out[i].sig) for i in todo]
        _reread(out, todo, reread(_pair_scorer(stages), items))

    return run


def _run_value_free(stages: Stages, pairs: list[Pair], live: list[int], out: list[Scored]) -> None:
    """Contradictions re-read with unstated values left open (valuefree.py)."""
    todo = [i for i in live if "nli" in out[i].scores and any(out[i].unstated)]
    items = [
        (pairs[i][0], pairs[i][1].text, out[i].scores["nli"], out[i].sig, out[i].unstated)
        for i in todo
    ]
    _reread(out, todo, reread_without_values(_pair_scorer(stages), items))


def _run_predicate_check(
    stages: Stages, pairs: list[Pair], live: list[int], out: list[Scored]
) -> None:
    """Whether NLI read the claim only against windows silent on its predicate (predicate.py)."""
    for i in (i for i in live if "nli" in out[i].scores):
        claim, source, nli = pairs[i][0], pairs[i][1].text, out[i].scores["nli"]
        out[i].sig["nli_contradiction_off_predicate"] = off_predicate(claim, source, nli)
        out[i].sig["predicate_unspoken"] = off_predicate(claim, source, nli, times_apart=True)


def _reread(
    out: list[Scored], todo: list[int], done: list[tuple[StageScore, dict[str, Any]] | None]
) -> None:
    """Apply a re-reading pass's results: the NLI score and signals it replaces (None: kept)."""
    for i, result in zip(todo, done, strict=True):
        if result is not None:
            out[i].scores["nli"], signals = result
            out[i].sig.update(signals)


def _pair_scorer(stages: Stages) -> PairScorer:
    """The scorer of the passes after the main NLI pass (the accurate mode's when on)."""
    assert stages.nli is not None
    if stages.nli_refine is not None and stages.config.nli_refine_entailment == "agreement":
        return AgreementScorer(stages.nli, stages.nli_refine)
    return stages.nli_refine or stages.nli


def _pick_evidence(live: list[int], out: list[Scored]) -> None:
    for i in live:
        out[i].evidence = next(
            (
                out[i].scores[n].evidence
                for n in _EVIDENCE_PRIORITY
                if n in out[i].scores and out[i].scores[n].evidence is not None
            ),
            None,
        )


def score_pairs(stages: Stages, pairs: list[Pair], *, use_judge: bool = True) -> list[Scored]:
    """Run every available stage on ``(claim, source)`` pairs (all batched), then fuse.

    Order matters: the cheap stages rank each source's windows first, and the
    NLI stage reads evidence only around their best windows.
    """
    out = [Scored() for _ in pairs]
    live = [i for i, (claim, src) in enumerate(pairs) if claim.strip() and src.text.strip()]
    if not live:
        return out
    plan: list[tuple[str, bool, StageRunner]] = [
        ("tfidf", stages.tfidf, _run_tfidf),
        ("embeddings", stages.encoder is not None, _run_embeddings),
        ("nli", stages.nli is not None, _run_nli),
    ]
    for name, enabled, run in plan:
        if enabled:
            t0 = time.perf_counter()
            run(stages, pairs, live, out)
            stages.add_time(name, time.perf_counter() - t0)
    _pick_evidence(live, out)
    polarity = stages.config.nli_polarity
    late: list[tuple[str, bool, StageRunner]] = [
        ("llm_judge", use_judge and stages.judge is not None, _run_judge),
        ("consistency", stages.config.consistency, _run_consistency),
        ("nli", stages.nli is not None and stages.config.nli_focus, _run_focus),
        ("nli", stages.nli is not None and polarity, _rereading(reread_negated)),
        ("nli", stages.nli is not None and polarity, _rereading(reread_contrapositive)),
        ("nli", stages.nli is not None, _rereading(reread_without_unknowns)),
        ("nli", stages.nli is not None, _rereading(reread_without_sizes)),
        ("nli", stages.nli is not None, _rereading(reread_negated_opposites)),
        ("nli", stages.nli is not None and stages.config.nli_value_free, _run_value_free),
        # last: the assertive form's reading replaces every reading of the claim as written
        ("nli", stages.nli is not None and polarity, _rereading(reread_delayed)),
        ("nli", stages.nli is not None, _run_predicate_check),
    ]
    for name, enabled, run in late:
        if enabled:
            t0 = time.perf_counter()
            run(stages, pairs, live, out)
            stages.add_time(name, time.perf_counter() - t0)
    for i in live:
        out[i].signals = Signals(**out[i].sig)
        out[i].support, out[i].contradiction = fuse(out[i].signals, stages.config.fusion)
    return out
