"""An NLI stage score that read the claim against a whole source: the one window the
lexical rules (predicate.py, polarity.py) take their premises from."""

from __future__ import annotations

from provgraph.verification.report import Evidence, StageScore


def read_over(source: str, score: float = 0.1) -> StageScore:
    """The NLI score of a pair whose evidence window is all of ``source``."""
    evidence = Evidence(source_key="d_1", start=0, end=len(source), text=source)
    return StageScore(stage="nli", score=score, raw={}, evidence=evidence)
