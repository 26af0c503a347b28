"""Fixtures for the NLI tests: a tiny random-weight BERT cross-encoder built in tmp_path.

The tiny model keeps the plumbing tests fast (well under a second per model) and
independent of the shipped weights.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

WORDS = [
    "the",
    "a",
    "bridge",
    "over",
    "is",
    "was",
    "closed",
    "open",
    "river",
    "city",
    "founded",
    "in",
    "1457",
    "1603",
    "established",
    "council",
    "met",
    "on",
    "tuesday",
    "to",
    "discuss",
    "budget",
    "for",
    "next",
    "year",
    "cat",
    "dog",
    "sat",
    "mat",
    "not",
    "and",
    "of",
    "it",
    "by",
    "who",
    "what",
    "claim",
    "premise",
    "long",
    "very",
]
LABELS = ("entailment", "neutral", "contradiction")


def build_tiny_model(
    folder: Path, labels: tuple[str, ...] = LABELS, seed: int = 0, perm: list[int] | None = None
) -> Path:
    """Save a tiny BERT sequence classifier + tokenizer to ``folder``.

    ``perm`` permutes the classifier rows (and ``labels`` must be permuted the same
    way by the caller) to build a model with another label order but the same
    function.
    """
    import torch
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizer

    folder.mkdir(parents=True, exist_ok=True)
    tokens = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *WORDS]
    (folder / "vocab.txt").write_text("\n".join(tokens) + "\n")
    tokenizer = BertTokenizer(vocab={t: i for i, t in enumerate(tokens)})
    config = BertConfig(
        vocab_size=5 + len(WORDS),
        hidden_size=16,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=512,
        num_labels=len(labels),
        id2label=dict(enumerate(labels)),
        label2id={n: i for i, n in enumerate(labels)},
    )
    torch.manual_seed(seed)
    model = BertForSequenceClassification(config)
    if perm is not None:
        with torch.no_grad():
            model.classifier.weight.copy_(model.classifier.weight[perm])
            model.classifier.bias.copy_(model.classifier.bias[perm])
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


@pytest.fixture
def tiny_model(tmp_path: Path) -> Path:
    """Folder of a tiny 3-way cross-encoder with the standard label order."""
    return build_tiny_model(tmp_path / "tiny")


@pytest.fixture
def make_tiny_model() -> Callable[..., Path]:
    """Factory for tiny models with custom labels/permutations."""
    return build_tiny_model
