"""NLI stage plumbing with a tiny random-weight BERT cross-encoder built in tmp_path.

These tests prove PLUMBING ONLY — label mapping from a permuted ``id2label``,
token windows covering long premises, one batched ``predict`` per report,
evidence offsets — never quality: the weights are random, so the
probabilities mean nothing.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from provgraph.verification import (
    MappingSourceResolver,
    StageModels,
    VerificationConfig,
    verify_text,
)
from provgraph.verification.evidence import token_windows
from provgraph.verification.nli import NliScorer, label_index

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

WORDS = [
    "the",
    "company",
    "was",
    "founded",
    "in",
    "city",
    "river",
    "bank",
    "grew",
    "revenue",
    "and",
    "a",
    "of",
    "to",
    "it",
    "traded",
    "spices",
    "year",
    "many",
    "people",
]
ID2LABEL = {0: "contradiction", 1: "entailment", 2: "neutral"}  # permuted on purpose


@pytest.fixture(scope="module")
def tiny_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from transformers import (  # type: ignore[attr-defined]
        BertConfig,
        BertForSequenceClassification,
        BertTokenizerFast,
    )

    folder = tmp_path_factory.mktemp("tiny_nli")
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", ".", ",", *WORDS]
    (folder / "vocab.txt").write_text("\n".join(vocab) + "\n")
    tokenizer = BertTokenizerFast(vocab_file=str(folder / "vocab.txt"), do_lower_case=True)
    tokenizer.save_pretrained(folder)
    torch.manual_seed(0)
    config = BertConfig(  # type: ignore[call-arg]
        vocab_size=len(vocab),
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=512,
        num_labels=3,
        id2label=ID2LABEL,
        label2id={v: k for k, v in ID2LABEL.items()},
    )
    BertForSequenceClassification(config).save_pretrained(folder)
    return folder


class CountingModel:
    """Wraps the runtime model and records every predict call."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.labels = inner.labels
        self.tokenizer = inner.tokenizer
        self.max_len = inner.max_len
        self.calls: list[list[tuple[str, str]]] = []

    def predict(self, pairs: list[tuple[str, str]], batch_size: int = 32) -> np.ndarray:
        self.calls.append(list(pairs))
        return np.asarray(self.inner.predict(pairs, batch_size=batch_size))


@pytest.fixture(scope="module")
def tiny(tiny_model_dir: Path) -> CountingModel:
    from provgraph.nli.runtime import load_nli_model

    return CountingModel(load_nli_model(str(tiny_model_dir), threads=1))


def test_label_mapping_reads_id2label(tiny: CountingModel) -> None:
    assert tiny.labels == ("contradiction", "entailment", "neutral")
    li = label_index(tiny.labels)
    assert (li.entailment, li.contradiction, li.neutral) == (1, 0, 2)
    scorer = NliScorer(tiny)
    premise, claim = "the company was founded in the city.", "the company grew."
    (match,) = scorer.score([(claim, premise)])
    assert match is not None
    probs = tiny.inner.predict([(premise, claim)])[0]
    assert match.entailment == pytest.approx(float(probs[1]), abs=1e-5)
    assert match.contradiction == pytest.approx(float(probs[0]), abs=1e-5)
    assert match.neutral == pytest.approx(float(probs[2]), abs=1e-5)


def test_long_premise_windows_cover_everything(tiny: CountingModel) -> None:
    rng = np.random.default_rng(0)
    premise = " ".join(rng.choice(WORDS, size=1500).tolist()) + " spices"
    spans = token_windows(tiny.tokenizer, premise, window_tokens=100, stride_tokens=70)
    assert len(spans) > 5
    assert spans[0][0] == 0 and spans[-1][1] == len(premise)
    for (_s1, e1), (s2, _e2) in itertools.pairwise(spans):
        assert s2 < e1  # overlapping: no gap
    for s, e in spans:
        assert len(tiny.tokenizer(premise[s:e], add_special_tokens=False)["input_ids"]) <= 100
    scorer = NliScorer(tiny, window_tokens=224, max_windows=1000)
    budget = scorer.window_budget("the company traded spices")
    assert budget + 5 + 3 <= tiny.max_len  # window + claim + specials fit the model
    (match,) = scorer.score([("the company traded spices", premise)])
    assert match is not None and match.windows_scored == match.windows_total > 1


def test_one_batched_predict_per_report_and_evidence_offsets(tiny: CountingModel) -> None:
    sources = {
        "d_1": "the company was founded in the city. " * 40,
        "d_2": "revenue grew and many people traded spices. " * 3,
    }
    text = (
        "The company was founded in the city. [REF|d_1] Revenue grew. [REF|d_2|d_1] "
        "People traded spices. [REF|d_2]"
    )
    tiny.calls.clear()
    config = VerificationConfig(embeddings=False, relative=False, coverage=False)
    report = verify_text(
        text, MappingSourceResolver(sources), config, models=StageModels(nli_model=tiny)
    )
    assert report.stage("nli") is not None and report.stage("nli").status == "ran"  # type: ignore[union-attr]
    # all first windows of all citations in one predict; the cascade's rest in at most one
    # more; the focused pass (focus.py) of the whole report in at most one more
    assert 1 <= len(tiny.calls) <= 3
    read = [pair for call in tiny.calls for pair in call]
    assert len(read) == len(set(read))  # no pair twice
    assert len(report.checks) == 4
    for check in report.checks:
        nli = check.scores["nli"]
        assert nli.evidence is not None
        src = sources[check.key]
        assert src[nli.evidence.start : nli.evidence.end] == nli.evidence.text
        assert set(nli.raw) >= {"entailment", "contradiction", "max_contradiction"}


def test_missing_nli_model_is_skipped_with_reason(tmp_path: Path) -> None:
    config = VerificationConfig(embeddings=False, nli_model=str(tmp_path / "nope"))
    report = verify_text("Claim. [REF|d_1]", MappingSourceResolver({"d_1": "Claim."}), config)
    nli = report.stage("nli")
    assert nli is not None and nli.status == "skipped" and nli.reason
    assert report.checks[0].verdict.value in {"supported", "weak", "unsupported"}


def test_long_premise_read_only_around_ranked_evidence(tiny: CountingModel) -> None:
    sentences = [f"The company grew {w} and it traded spices." for w in WORDS * 6]
    premise = " ".join(sentences)
    target = premise.index(sentences[57])
    seed = (target, target + len(sentences[57]))
    far = premise.index(sentences[3])
    scorer = NliScorer(tiny, max_windows=2, evidence_tokens=40, decisive=1.0)
    tiny.calls.clear()
    (match,) = scorer.score(
        [("the company traded spices", premise)],
        seeds=[[seed, (far, far + len(sentences[3])), (target, target + 10)]],
    )
    assert match is not None
    assert match.windows_scored == 2 < match.windows_total  # two windows, not every window
    read = [p for call in tiny.calls for p, _c in call]
    assert len(read) == 2 and len(tiny.calls) == 2  # the best window first, then the rest
    for window in read:
        assert len(tiny.tokenizer(window, add_special_tokens=False)["input_ids"]) <= 40
        assert window.startswith("The company") and window.endswith(".")  # whole sentences
    assert sentences[57] in read[0] or sentences[57] in read[1]
    # a premise that fits one window is read whole, seeds or not
    short = "the company was founded in the city."
    (whole,) = scorer.score([("the company grew", short)], seeds=[[(4, 11)]])
    assert whole is not None and (whole.start, whole.end) == (0, len(short))


def test_report_names_model_and_combiner_hashes(tiny: CountingModel, tiny_model_dir: Path) -> None:
    import hashlib

    from provgraph.verification.combiner import SHIPPED_COMBINER
    from provgraph.verification.provenance import content_sha256

    config = VerificationConfig(embeddings=False, relative=False, coverage=False)
    report = verify_text(
        "The company grew. [REF|d_1]",
        MappingSourceResolver({"d_1": "the company grew."}),
        config,
        models=StageModels(nli_model=tiny),
    )
    refs = {m.stage: m for m in report.models}
    assert refs["nli"].sha256 == content_sha256(tiny_model_dir)
    assert refs["nli"].sha256 is not None and len(refs["nli"].sha256) == 64
    assert refs["fusion"].sha256 == hashlib.sha256(SHIPPED_COMBINER.read_bytes()).hexdigest()
    # another weight file under the same folder name gives another hash
    copy = tiny_model_dir.parent / "tiny_copy"
    import shutil

    shutil.copytree(tiny_model_dir, copy)
    (copy / "extra.txt").write_text("changed")
    assert content_sha256(copy) != refs["nli"].sha256
    no_nli = verify_text(
        "The company grew. [REF|d_1]",
        MappingSourceResolver({"d_1": "the company grew."}),
        VerificationConfig(embeddings=False, nli=False, relative=False, coverage=False),
    )
    assert "nli" not in {m.stage for m in no_nli.models}


def test_cascade_stops_after_the_first_window_when_it_entails(tiny: CountingModel) -> None:
    sentences = [f"The company grew {w} and it traded spices." for w in WORDS * 6]
    premise = " ".join(sentences)
    seeds = [(premise.index(x), premise.index(x) + len(x)) for x in sentences[10:14]]
    claim = "the company traded spices"
    eager = NliScorer(tiny, max_windows=4, evidence_tokens=40, decisive=0.0)
    tiny.calls.clear()
    (match,) = eager.score([(claim, premise)], seeds=[seeds])
    assert match is not None and match.windows_scored == 1 and len(tiny.calls) == 1
    thorough = NliScorer(tiny, max_windows=4, evidence_tokens=40, decisive=1.0)
    tiny.calls.clear()
    (full,) = thorough.score([(claim, premise)], seeds=[seeds])
    assert full is not None and full.windows_scored > 1 and len(tiny.calls) == 2
    assert full.entailment >= match.entailment  # the max over more windows


def test_every_window_read_is_kept_in_rank_order(tiny: CountingModel) -> None:
    """``NliMatch.windows``: the per-window probabilities the summary scores come from."""
    premise = " ".join(f"The company grew {w} and it traded spices." for w in WORDS * 6)
    scorer = NliScorer(tiny, max_windows=3, evidence_tokens=40, decisive=1.0)
    (match,) = scorer.score(
        [("the company grew", premise)], seeds=[[(0, 40), (900, 940), (2000, 2040)]]
    )
    assert match is not None and len(match.windows) == match.windows_scored == 3
    assert all(premise[s:e] for s, e, _e, _c in match.windows)
    assert max(w[2] for w in match.windows) == pytest.approx(match.entailment)
    # the maximum contradiction is read from the two best-ranked windows only
    assert max(w[3] for w in match.windows[:2]) == pytest.approx(match.max_contradiction)


def test_weighted_fusion_is_named_by_a_hash_of_its_parameters(tiny: CountingModel) -> None:
    from provgraph.verification.verdicts import FusionWeights

    def fusion_ref(weights: FusionWeights) -> Any:
        config = VerificationConfig(
            embeddings=False, relative=False, coverage=False, fusion=weights
        )
        report = verify_text(
            "The company grew. [REF|d_1]",
            MappingSourceResolver({"d_1": "the company grew."}),
            config,
            models=StageModels(nli_model=tiny),
        )
        return {m.stage: m for m in report.models}["fusion"]

    weighted = fusion_ref(FusionWeights(method="weighted"))
    assert weighted.name == "weighted-mean" and len(weighted.sha256) == 64
    assert fusion_ref(FusionWeights(method="weighted")).sha256 == weighted.sha256
    assert fusion_ref(FusionWeights(method="weighted", nli=2.0)).sha256 != weighted.sha256
    assert fusion_ref(FusionWeights(method="learned")).name.endswith("combiner.json")


class _FourSpecialsTokenizer:
    """A pair encoding with four special tokens (``<s> a </s></s> b </s>``, MPNet/RoBERTa)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.inner(*args, **kwargs)

    def num_special_tokens_to_add(self, pair: bool = False) -> int:
        return 4 if pair else 2


def test_window_budget_counts_the_tokenizers_own_pair_specials(tiny: CountingModel) -> None:
    claim = "the company traded spices"
    claim_len = len(tiny.tokenizer(claim, add_special_tokens=False)["input_ids"])
    bert = NliScorer(tiny, window_tokens=10_000)
    assert bert.window_budget(claim) == tiny.max_len - claim_len - 3
    mpnet_like_model = CountingModel(tiny.inner)
    mpnet_like_model.tokenizer = _FourSpecialsTokenizer(tiny.inner.tokenizer)
    mpnet_like = NliScorer(mpnet_like_model, window_tokens=10_000)
    assert mpnet_like.window_budget(claim) == tiny.max_len - claim_len - 4
