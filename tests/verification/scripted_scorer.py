"""A scripted NLI pair scorer for the re-reading passes' tests (polarity, value-free).

It answers ``(entailment, contradiction)`` from a table keyed by (premise,
hypothesis) and records what it was asked, so a test checks which pairs a pass
reads and how it combines the answers, not a model.
"""

from __future__ import annotations


class ScriptedScorer:
    """``(entailment, contradiction)`` per (premise, hypothesis); records what it read."""

    def __init__(self, table: dict[tuple[str, str], tuple[float, float | None]]) -> None:
        self.table = table
        self.read: list[tuple[str, str]] = []

    def predict_pairs(self, pairs: list[tuple[str, str]]) -> list[tuple[float, float | None]]:
        self.read.extend(pairs)
        return [self.table[pair] for pair in pairs]
