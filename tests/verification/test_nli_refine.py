"""The accurate NLI mode: a larger model re-reads the small model's best windows."""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

from provgraph.verification.config import RefineEntailment, StageModels, VerificationConfig
from provgraph.verification.engine import verify_text
from provgraph.verification.nli import NliMatch, NliScorer
from provgraph.verification.nli_refine import AgreementScorer, refine_matches
from provgraph.verification.sources import MappingSourceResolver


class _WsTokenizer:
    """Whitespace tokens with offsets: enough for the NLI windowing."""

    def __call__(self, text: str, **_: Any) -> dict[str, Any]:
        spans = [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]
        return {"input_ids": list(range(len(spans))), "offset_mapping": spans}


class _RuleModel:
    """Probabilities (entailment, neutral, contradiction) looked up by premise word."""

    labels: tuple[str, ...] = ("entailment", "neutral", "contradiction")
    tokenizer = _WsTokenizer()
    max_len = 512

    def __init__(self, by_word: dict[str, tuple[float, float]], default: tuple[float, float]):
        self.by_word = by_word
        self.default = default
        self.pairs: list[tuple[str, str]] = []

    def predict(self, pairs: list[tuple[str, str]], batch_size: int = 32) -> np.ndarray:
        self.pairs.extend(pairs)
        rows = []
        for premise, _claim in pairs:
            ent, con = next(
                (v for w, v in self.by_word.items() if w in premise.split()), self.default
            )
            rows.append([ent, 1.0 - ent - con, con])
        return np.asarray(rows)


def _match(windows: list[tuple[int, int, float, float]]) -> NliMatch:
    best = max(range(len(windows)), key=lambda i: windows[i][2])
    return NliMatch(
        entailment=windows[best][2],
        contradiction=windows[best][3],
        neutral=0.0,
        start=windows[best][0],
        end=windows[best][1],
        max_contradiction=max(w[3] for w in windows[:2]),
        contradiction_start=0,
        contradiction_end=0,
        windows_total=len(windows),
        windows_scored=len(windows),
        windows=tuple(windows),
    )


def test_refines_the_best_entailing_windows_and_the_strongest_contradiction() -> None:
    premise = "alpha one. bravo two. charlie three. delta four."
    spans = [(0, 10), (11, 21), (22, 36), (37, 48)]
    assert [premise[s:e] for s, e in spans] == [
        "alpha one.",
        "bravo two.",
        "charlie three.",
        "delta four.",
    ]
    small = [
        (*spans[0], 0.9, 0.05),
        (*spans[1], 0.5, 0.3),
        (*spans[2], 0.1, 0.8),
        (*spans[3], 0.7, 0.02),
    ]
    large = _RuleModel(
        {"alpha": (0.2, 0.1), "bravo": (0.1, 0.85), "delta": (0.96, 0.01)}, (0.5, 0.5)
    )
    (refined,) = refine_matches(
        [("the claim", premise)],
        [_match(small)],
        NliScorer(large),
        windows=2,
        contradiction_windows=2,
        entailment="refiner",
    )
    assert refined is not None
    # read: the two most entailing by the small model (alpha, delta) and the most
    # contradicting among the two best-ranked (bravo); never charlie
    assert sorted(p for p, _ in large.pairs) == ["alpha one.", "bravo two.", "delta four."]
    assert (refined.entailment, refined.start, refined.end) == (0.96, 37, 48)
    assert refined.contradiction == 0.01
    assert refined.max_contradiction == 0.85
    assert (refined.contradiction_start, refined.contradiction_end) == spans[1]
    assert refined.windows[2] == small[2]  # not re-read: the small model's values stay
    assert refined.windows[3][2:] == (0.96, 0.01)


def test_none_matches_stay_none_and_one_predict_serves_the_batch() -> None:
    large = _RuleModel({}, (0.6, 0.1))
    premise = "only one window here."
    small = _match([(0, len(premise), 0.3, 0.2)])
    out = refine_matches(
        [("a", premise), ("b", ""), ("c", premise)], [small, None, small], NliScorer(large)
    )
    assert out[1] is None
    agreed = math.sqrt(0.3 * 0.6)  # both models' entailment at the window (the default)
    assert [m.entailment for m in out if m is not None] == [agreed, agreed]
    assert len(large.pairs) == 2 and not math.isnan(out[0].windows[0][3])  # type: ignore[union-attr]


def test_agreement_a_window_only_the_larger_model_finds_entailing_does_not_win() -> None:
    """The WiCE failure of the larger model alone: an entailing-looking window the
    small model does not share (0.35 vs 0.97) loses to one both read as entailing."""
    premise = "alpha one. bravo two."
    spans = [(0, 10), (11, 21)]
    small = [(*spans[0], 0.35, 0.05), (*spans[1], 0.6, 0.05)]
    large = _RuleModel({"alpha": (0.97, 0.01), "bravo": (0.9, 0.03)}, (0.5, 0.5))
    alone, agreed = (
        refine_matches([("c", premise)], [_match(small)], NliScorer(large), entailment=mode)[0]
        for mode in ("refiner", "agreement")
    )
    assert alone is not None and agreed is not None
    assert (alone.entailment, alone.start) == (0.97, 0)
    assert agreed.entailment == math.sqrt(0.6 * 0.9) and agreed.start == 11
    assert agreed.contradiction == 0.03  # contradiction stays the larger model's
    assert agreed.windows[0][2:] == (math.sqrt(0.35 * 0.97), 0.01)


def test_the_focused_pass_scores_pairs_by_the_same_agreement() -> None:
    small = _RuleModel({"alpha": (0.36, 0.2)}, (0.5, 0.1))
    large = _RuleModel({"alpha": (0.81, 0.05)}, (0.5, 0.3))
    scorer = AgreementScorer(NliScorer(small), NliScorer(large))
    (alpha, other) = scorer.predict_pairs([("alpha one.", "c"), ("bravo two.", "c")])
    assert alpha == (math.sqrt(0.36 * 0.81), 0.05)  # contradiction: the larger model's
    assert other == (0.5, 0.3)


def test_in_the_accurate_mode_a_support_only_the_larger_model_reads_is_damped() -> None:
    """The whole pipeline (main and focused passes): the small model reads no support
    (0.05) where the large one reads it (0.94). Under "refiner" the stage's entailment
    is the large model's; under "agreement" (the default) it is √(0.05 · 0.94) ≈ 0.22,
    and the fused support falls with it."""
    small = _RuleModel({}, (0.05, 0.02))
    large = _RuleModel({}, (0.94, 0.02))
    alone, agreed = (
        _verify(StageModels(nli_model=small, nli_refiner=large), refine=True, entailment=mode)
        for mode in ("refiner", "agreement")
    )
    assert alone.checks[0].scores["nli"].score == 0.94
    assert abs(agreed.checks[0].scores["nli"].score - math.sqrt(0.05 * 0.94)) < 1e-9
    assert (agreed.checks[0].support_score or 0.0) < (alone.checks[0].support_score or 0.0)


def _verify(models: StageModels, refine: bool, entailment: RefineEntailment = "refiner") -> Any:
    sources = {"d_1": "Buyers mostly choose suppliers for delivery speed, not price."}
    text = "Most buyers choose a supplier for delivery speed rather than price. [REF|d_1]"
    config = VerificationConfig(
        embeddings=False,
        relative=False,
        coverage=False,
        consistency=False,
        nli_refine_model="accurate-model" if refine else None,
        nli_refine_entailment=entailment,
    )
    return verify_text(text, MappingSourceResolver(sources), config, models=models)


def test_the_refiner_decides_the_verdict_and_is_named_in_the_report() -> None:
    # the small model calls the paraphrased negation a contradiction; the large one does not
    small = _RuleModel({}, (0.05, 0.93))
    large = _RuleModel({}, (0.94, 0.02))
    plain = _verify(StageModels(nli_model=small), refine=False)
    assert plain.checks[0].verdict.value == "contradicted"
    accurate = _verify(StageModels(nli_model=small, nli_refiner=large), refine=True)
    assert accurate.checks[0].verdict.value == "supported"
    status = accurate.stage("nli")
    assert status is not None and status.status == "ran" and "refined by" in str(status.model)
    assert [m.stage for m in accurate.models].count("nli-refine") == 1
    assert large.pairs, "the refiner read the evidence"


def test_a_preloaded_refiner_is_unused_unless_the_config_names_one() -> None:
    small = _RuleModel({}, (0.05, 0.93))
    large = _RuleModel({}, (0.94, 0.02))
    report = _verify(StageModels(nli_model=small, nli_refiner=large), refine=False)
    assert report.checks[0].verdict.value == "contradicted"
    assert not large.pairs
    assert "nli-refine" not in [m.stage for m in report.models]


def test_a_configured_refiner_that_cannot_load_skips_the_stage_with_the_reason() -> None:
    small = _RuleModel({}, (0.9, 0.02))
    config = VerificationConfig(
        embeddings=False, relative=False, coverage=False, nli_refine_model="/no/such/model"
    )
    report = verify_text(
        "Revenue grew. [REF|d_1]",
        MappingSourceResolver({"d_1": "Revenue grew."}),
        config,
        models=StageModels(nli_model=small),
    )
    status = report.stage("nli")
    assert status is not None and status.status == "skipped"
    assert "nli_refine_model '/no/such/model'" in str(status.reason)
    assert not small.pairs
