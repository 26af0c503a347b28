"""The NLI stage's reading of a "not … until" claim: its assertive form instead.

The model takes the claim's *not* literally ("The bridge was not opened until 1932."
against "The bridge finally opened to traffic in 1932": contradiction 0.83), so the
claim's :func:`~provgraph.verification.delayed_events.assertive_form` ("The bridge was
opened in 1932.") read against the best window and the most contradicting one
(:func:`~provgraph.verification.polarity.reading_windows`) *replaces* the reading of the
claim as written: entailment and contradiction at the best window, the larger
contradiction of the two as the maximum; the value-free reading, which opened the claim
as written ("The factory was not closed."), is dropped. It runs after every other reading
of the claim. Claims without such a form are left as they are.
"""

from __future__ import annotations

from typing import Any

from provgraph.verification.delayed_events import assertive_form
from provgraph.verification.focus import PairScorer
from provgraph.verification.polarity import Item, reading_windows
from provgraph.verification.report import StageScore


def reread_delayed(
    scorer: PairScorer, items: list[Item]
) -> list[tuple[StageScore, dict[str, Any]] | None]:
    """For each ``(claim, source text, nli score, signals)``: the NLI score and signals of
    the claim's :func:`assertive_form`, or None (no such form, no evidence, or a model
    without a contradiction column). One batched ``predict_pairs`` for the whole report."""
    plans: list[tuple[str, list[str]] | None] = []
    for claim, source, nli, _signals in items:
        form = assertive_form(claim) if nli.evidence is not None else None
        plans.append((form, reading_windows(source, nli)) if form else None)
    jobs = [(window, plan[0]) for plan in plans if plan for window in plan[1]]
    scores = dict(zip(jobs, scorer.predict_pairs(jobs), strict=True)) if jobs else {}
    out: list[tuple[StageScore, dict[str, Any]] | None] = []
    for plan, (_claim, _source, nli, _signals) in zip(plans, items, strict=True):
        read = [] if plan is None else [scores[(window, plan[0])] for window in plan[1]]
        contradictions = [c for _e, c in read if c is not None]
        if plan is None or len(contradictions) < len(read):
            out.append(None)
            continue
        entailment = read[0][0]
        updated = {
            "nli_entailment": entailment,
            "nli_contradiction": contradictions[0],
            "nli_max_contradiction": max(contradictions),
            # the value-free form was of the claim as written ("was not closed")
            "nli_value_free_contradiction": None,
            "nli_value_free_max_contradiction": None,
        }
        raw = {**nli.raw, "assertive_form": plan[0], "assertive_entailment": entailment}
        out.append((nli.model_copy(update={"score": entailment, "raw": raw}), updated))
    return out
