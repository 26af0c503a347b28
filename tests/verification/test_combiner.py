"""The learned fusion: feature extraction, variant choice, loading, fitting, shipped file."""

from __future__ import annotations

import importlib.util
import json
import math
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from provgraph.errors import ConfigurationError
from provgraph.verification.combiner import (
    GROUPS,
    Combiner,
    Variant,
    features_of,
    groups_of,
    load_combiner,
)
from provgraph.verification.verdicts import FusionWeights, Signals, Thresholds, fuse

REPO = Path(__file__).resolve().parents[2]
FULL = Signals(
    tfidf=0.4,
    recall=0.8,
    embedding=0.6,
    nli_entailment=0.7,
    nli_contradiction=0.1,
    nli_max_contradiction=0.3,
    consistency_penalty=0.0,
)


def _fit_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "fit_combiner", REPO / "bench" / "fit_combiner.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["fit_combiner"] = module
    spec.loader.exec_module(module)
    module.all_groupings = sys.modules["fusion_fit"].all_groupings
    return module


def test_features_are_present_only_for_complete_groups() -> None:
    feats = features_of(FULL)
    assert feats["nli_entailment"] == pytest.approx(math.log(0.7 / 0.3) / 10)
    assert feats["nli_contradiction"] == pytest.approx(math.log(0.3 / 0.7) / 10)  # window max
    assert feats["consistency_anchored"] == 0.0
    assert groups_of(feats) == tuple(GROUPS)
    partial = features_of(Signals(tfidf=0.4, recall=None, embedding=0.5))
    assert "tfidf" not in partial and groups_of(partial) == ("embedding",)


def test_nli_log_odds_stay_finite_at_certainty() -> None:
    feats = features_of(Signals(nli_entailment=1.0, nli_contradiction=0.0))
    assert feats["nli_entailment"] == pytest.approx(math.log(9999) / 10, rel=1e-3)
    assert feats["nli_contradiction"] == pytest.approx(-math.log(9999) / 10, rel=1e-3)


def test_a_variant_must_list_exactly_its_groups_features() -> None:
    with pytest.raises(ValueError, match="do not match"):
        Variant(groups=("lexical",), features=("tfidf",), coef=(1.0,), intercept=0.0)


def test_the_variant_matching_the_stages_that_ran_is_used() -> None:
    lexical = Variant(
        groups=("lexical",), features=("tfidf", "recall"), coef=(4.0, 0.0), intercept=-2.0
    )
    combiner = Combiner(version="t", variants=(lexical,))
    assert combiner.support(Signals(tfidf=0.5, recall=0.1)) == pytest.approx(0.5)
    assert combiner.support(Signals(tfidf=1.0, recall=0.1)) == pytest.approx(0.8808, abs=1e-4)
    assert combiner.support(FULL) is None  # no variant for all four groups


def test_missing_file_is_none_and_a_malformed_one_is_named(tmp_path: Path) -> None:
    assert load_combiner(str(tmp_path / "absent.json")) is None
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"version": "x", "variants": [{"groups": ["lexical"]}]}))
    with pytest.raises(ConfigurationError, match=r"bad\.json"):
        load_combiner(str(bad))


def test_the_shipped_combiner_covers_every_grouping_with_sensible_signs() -> None:
    combiner = load_combiner()
    assert combiner is not None, "provgraph/verification/combiner.json is not shipped"
    fit = _fit_module()
    assert {v.groups for v in combiner.variants} == set(fit.all_groupings())
    full = combiner.variant_for(tuple(GROUPS))
    assert full is not None
    coef = dict(zip(full.features, full.coef, strict=True))
    signs = sys.modules["fusion_fit"].SUPPORT_SIGNS
    assert coef["nli_entailment"] > 0
    assert all(c * signs[n] >= 0 for n, c in coef.items())  # monotone: no sign flips
    assert combiner.fitted["files"] and combiner.fitted["held_out_by_family"]


def test_fuse_uses_the_combiner_unless_weighted_or_a_judge_scored() -> None:
    combiner = load_combiner()
    assert combiner is not None
    learned, _ = fuse(FULL, FusionWeights())
    assert learned == pytest.approx(combiner.support(FULL))
    weighted, _ = fuse(FULL, FusionWeights(method="weighted"))
    assert weighted != pytest.approx(learned)
    judged = Signals(**{**FULL.__dict__, "llm": 0.9})
    assert fuse(judged, FusionWeights())[0] == pytest.approx(
        fuse(judged, FusionWeights(method="weighted"))[0]
    )


def test_fitting_finds_the_separating_signal_and_is_deterministic() -> None:
    fit = _fit_module()
    rng = random.Random(7)
    rows = []
    for i in range(200):
        supported = i % 2 == 0
        signals = {
            "tfidf": rng.random(),
            "recall": rng.random(),
            "embedding": rng.random(),
            "nli_entailment": (0.6 + 0.4 * rng.random()) if supported else 0.5 * rng.random(),
            "nli_contradiction": 0.0,
            "nli_max_contradiction": 0.0,
            "consistency_penalty": 0.0,
            "consistency_anchored": False,
            "llm": None,
        }
        rows.append(
            {
                "file": f"fam{i % 3}_x.jsonl",
                "label": "supported" if supported else "unsupported",
                "candidates": [signals],
            }
        )
    first = fit.fit_support(rows, "t1", 0.0)
    again = fit.fit_support(rows, "t1", 0.0)
    assert first == again
    nli_only = first.variant_for(("nli",))
    lexical = first.variant_for(("lexical",))
    assert nli_only is not None and lexical is not None
    assert nli_only.coef[0] > 3.0 > max(abs(c) for c in lexical.coef)
    scores = fit.leave_family_out(rows)
    measured = fit.measure(rows, scores, Thresholds())
    assert all(res["learned"] > 0.95 for res in measured.values())


def test_only_files_whose_every_claim_has_one_source_are_fitted() -> None:
    fit = _fit_module()
    one = {"tfidf": 0.1}
    rows = [
        {"file": "a_x.jsonl", "candidates": [one]},
        {"file": "a_x.jsonl", "candidates": [one]},
        {"file": "b_chunks.jsonl", "candidates": [one]},  # single chunk, but its file has more
        {"file": "b_chunks.jsonl", "candidates": [one, one]},
    ]
    assert [r["file"] for r in fit.single_source_rows(rows)] == ["a_x.jsonl", "a_x.jsonl"]


def test_combiner_version_is_a_short_content_hash(tmp_path: Path) -> None:
    from provgraph.verification.combiner import SHIPPED_COMBINER, combiner_version

    shipped = combiner_version()
    assert shipped is not None and shipped.startswith("sha256:") and len(shipped) == 19
    copy = tmp_path / "same.json"
    copy.write_bytes(SHIPPED_COMBINER.read_bytes())
    assert combiner_version(str(copy)) == shipped
    changed = tmp_path / "changed.json"
    changed.write_bytes(SHIPPED_COMBINER.read_bytes() + b" ")
    assert combiner_version(str(changed)) != shipped
    assert combiner_version(str(tmp_path / "absent.json")) is None
