"""Re-reading NLI's windows with something set aside that cannot bear on the claim.

Shared by the unknown-free reading (:mod:`.unknown_free`: clauses that say something else
is unknown) and the size-free reading (:mod:`.size_free`: the size of a change the claim
does not state). Both rest on one argument: the rewritten window ``W'`` is implied by the
window ``W`` and the part set aside states nothing the claim does, so

* **entailment** = the larger of the two readings: whatever ``W'`` entails, ``W`` does;
* **contradiction** = the smaller: what contradicts the claim survives the removal of a
  part the claim does not speak of.

Only pairs with an NLI contradiction worth discounting
(:func:`~provgraph.verification.valuefree.worth_reading`) are read again; each window NLI
read (the best and the most contradicting:
:func:`~provgraph.verification.polarity.reading_windows`) is rewritten, and the pair is
read again only when a rewrite changed one. One batched ``predict_pairs`` per report.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from provgraph.verification.focus import PairScorer
from provgraph.verification.polarity import reading_windows
from provgraph.verification.report import StageScore
from provgraph.verification.valuefree import worth_reading

#: (claim, source text, its NLI score, the pair's signals so far)
Item = tuple[str, str, StageScore, dict[str, Any]]
#: ``rewrite(claim, window)``: the window with the part set aside, or None (nothing to set
#: aside, or nothing would be left).
Rewrite = Callable[[str, str], str | None]


def reread_windows(
    scorer: PairScorer, items: list[Item], rewrite: Rewrite, name: str
) -> list[tuple[StageScore, dict[str, Any]] | None]:
    """For each :data:`Item`: the NLI score and signals after the reading, or None (no
    window rewritten, or no contradiction worth discounting). ``name`` prefixes the raw
    fields that record the reading (``<name>_window``, ``<name>_entailment``)."""
    plans: list[list[tuple[str, str]] | None] = []
    for claim, source, nli, signals in items:
        plan = None
        if worth_reading(nli, signals):
            windows = reading_windows(source, nli)
            rewritten = [(w, rewrite(claim, w)) for w in windows]
            if any(r is not None for _w, r in rewritten):
                plan = [(r or w, claim) for w, r in rewritten]
        plans.append(plan)
    jobs = sorted({job for plan in plans if plan for job in plan})
    scores = dict(zip(jobs, scorer.predict_pairs(jobs), strict=True)) if jobs else {}
    out: list[tuple[StageScore, dict[str, Any]] | None] = []
    for plan, (_claim, _source, nli, signals) in zip(plans, items, strict=True):
        if plan is None:
            out.append(None)
            continue
        read = [scores[job] for job in plan]
        if any(c is None for _e, c in read):
            out.append(None)  # a model without a contradiction column
            continue
        best_e, best_c = read[0]
        worst_c = read[-1][1]
        updated = {
            "nli_entailment": _larger(signals.get("nli_entailment"), best_e),
            "nli_contradiction": _smaller(signals.get("nli_contradiction"), best_c),
            "nli_max_contradiction": _smaller(signals.get("nli_max_contradiction"), worst_c),
        }
        raw = {**nli.raw, f"{name}_window": plan[0][0], f"{name}_entailment": best_e}
        score = updated["nli_entailment"]
        update: dict[str, Any] = {"raw": raw}
        if isinstance(score, float):
            update["score"] = score
        out.append((nli.model_copy(update=update), updated))
    return out


def _larger(value: Any, reading: float) -> float:
    return max(value, reading) if isinstance(value, float) else reading


def _smaller(value: Any, reading: float | None) -> float | None:
    if reading is None:
        return value if isinstance(value, float) else None
    return min(value, reading) if isinstance(value, float) else reading
