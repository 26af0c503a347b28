"""Plumbing tests of provgraph.nli.runtime with tiny random-weight models."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from provgraph.errors import ModelUnavailableError
from provgraph.nli import runtime
from provgraph.nli.data import encode
from provgraph.nli.precision import cpu_has_native_bf16, default_threads
from provgraph.nli.runtime import load_nli_model

PAIRS = [
    ("the bridge is closed", "the bridge is open"),
    ("the city was founded in 1457", "it was established in 1603"),
    ("the cat sat on the mat", "a cat sat"),
]


def test_predict_shape_and_probabilities(tiny_model: Path) -> None:
    nli = load_nli_model(str(tiny_model))
    probs = nli.predict(PAIRS, batch_size=2)
    assert probs.shape == (3, 3)
    assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-5)
    assert nli.labels == ("entailment", "neutral", "contradiction")
    assert nli.predict([]).shape == (0, 3)


def test_label_order_comes_from_id2label(
    tmp_path: Path, make_tiny_model: Callable[..., Path]
) -> None:
    """A model with permuted id2label (and matching head rows) gives permuted columns."""
    base = make_tiny_model(tmp_path / "a", seed=3)
    perm = [2, 0, 1]
    labels = ("entailment", "neutral", "contradiction")
    permuted_labels = tuple(labels[i] for i in perm)
    other = make_tiny_model(tmp_path / "b", labels=permuted_labels, seed=3, perm=perm)
    a, b = load_nli_model(str(base)), load_nli_model(str(other))
    assert b.labels == permuted_labels
    pa, pb = a.predict(PAIRS), b.predict(PAIRS)
    for name in labels:
        np.testing.assert_allclose(
            pa[:, a.labels.index(name)], pb[:, b.labels.index(name)], atol=1e-6
        )
    assert not np.allclose(pa, pb)  # the raw columns really are in another order


def test_long_premise_is_truncated_never_the_hypothesis(tiny_model: Path) -> None:
    nli = load_nli_model(str(tiny_model), max_len=32)
    premise = "the council met on tuesday to discuss the budget for next year " * 40
    hypothesis = "the bridge over the river was not closed in 1457"
    enc = encode(nli.tokenizer, [premise], [hypothesis], 32)
    ids = enc["input_ids"][0].tolist()
    types = enc["token_type_ids"][0].tolist()
    assert len(ids) == 32
    second = [i for i, t in zip(ids, types, strict=True) if t == 1]
    assert nli.tokenizer.decode(second[:-1]) == hypothesis
    assert nli.predict([(premise, hypothesis)]).shape == (1, 3)


def test_hypothesis_longer_than_window_does_not_fail(tiny_model: Path) -> None:
    nli = load_nli_model(str(tiny_model), max_len=16)
    probs = nli.predict([("the cat sat", "the very long claim " * 20)])
    assert probs.shape == (1, 3)


def test_missing_folder_raises_clear_error(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-model"
    missing.mkdir()
    with pytest.raises(ModelUnavailableError, match=r"config\.json"):
        load_nli_model(str(missing))


def test_unknown_hf_id_raises_without_network() -> None:
    with pytest.raises(ModelUnavailableError) as err:
        load_nli_model("provgraph-test/definitely-not-cached-nli-model")
    message = str(err.value)
    assert "definitely-not-cached-nli-model" in message
    assert "never downloads" in message


def test_missing_shipped_model_raises(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runtime, "SHIPPED_MODEL_DIR", tmp_path / "model")
    with pytest.raises(ModelUnavailableError, match=r"shipped NLI model is missing.*export"):
        load_nli_model()


@pytest.mark.ml
@pytest.mark.skipif(
    not (runtime.SHIPPED_MODEL_DIR / "config.json").is_file(), reason="no shipped model yet"
)
def test_shipped_model_loads_offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    nli = load_nli_model()
    assert sorted(nli.labels) == ["contradiction", "entailment", "neutral"]
    probs = nli.predict(PAIRS[:2])
    assert probs.shape == (2, 3)
    assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-4)


@pytest.mark.parametrize("precision", ["fp32", "bf16", "int8"])
def test_every_precision_gives_probabilities_close_to_fp32(
    tiny_model: Path, precision: str
) -> None:
    reference = load_nli_model(str(tiny_model), precision="fp32", threads=1).predict(PAIRS)
    nli = load_nli_model(str(tiny_model), precision=precision, threads=1)  # type: ignore[arg-type]
    assert nli.precision == precision
    probs = nli.predict(PAIRS)
    assert probs.shape == (3, 3)
    assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-5)
    assert np.abs(probs - reference).max() < 0.05


def test_auto_precision_resolves_to_a_concrete_one(tiny_model: Path) -> None:
    nli = load_nli_model(str(tiny_model))
    assert nli.precision == ("bf16" if cpu_has_native_bf16() else "fp32")
    assert nli.threads == default_threads() >= 1


def test_unknown_precision_is_a_clear_model_error(tiny_model: Path) -> None:
    with pytest.raises(ModelUnavailableError, match="unknown NLI precision 'fp8'"):
        load_nli_model(str(tiny_model), precision="fp8")  # type: ignore[arg-type]
