"""The unknown-free reading: NLI re-reads a window without its clauses that say something
else was not measured.

The small NLI model reads a clause like "sleep was not measured in the study" as a
contradiction of whatever the claim says: "The diet cut cholesterol." against "The diet
cut cholesterol by 12%; sleep was not measured in the study." scores contradiction 0.87,
entailment 0.13, though the first clause states the claim. A clause that says a matter
is not known (:data:`~provgraph.verification.unknowns.UNKNOWN_CUE`) and speaks of no
statement of the claim can neither support nor refute it. So, for a pair whose NLI
contradiction is worth discounting, each window NLI read (the best, and the most
contradicting: :func:`~provgraph.verification.polarity.reading_windows`) is read again
without such clauses, and:

* **entailment** = the larger of the two readings: the window *with* the clause says all
  the window without it says, so whatever the shorter window entails, the whole does;
* **contradiction** = the smaller: the clause set aside speaks of nothing the claim
  states, so what contradicts the claim survives its removal.

A clause about the claim's own statement is the unknowns rule's (:mod:`.unknowns`: the
claim is then *unsupported*) and is never removed here, nor is a clause whose cue governs
what follows it ("It is still unclear if, deeper down, Jupiter has a solid core": cut at
its comma, the rest would assert what the source leaves open), nor one that shares two
content words with a statement of the claim. The cost is one NLI pair per
window read for the few pairs whose window holds such a clause.
"""

from __future__ import annotations

import re
from typing import Any

from provgraph.verification.claimsplit import split_statements
from provgraph.verification.focus import PairScorer
from provgraph.verification.polarity import reading_windows
from provgraph.verification.report import StageScore
from provgraph.verification.unknowns import UNKNOWN_CUE, speaks_of
from provgraph.verification.valuefree import worth_reading
from provgraph.verification.wordsets import clauses, content_stems

#: Content words a cue clause may share with a statement and still be about something else.
_TOUCHING = 2
#: (claim, source text, its NLI score, the pair's signals so far)
Item = tuple[str, str, StageScore, dict[str, Any]]


def without_unknowns(claim: str, window: str) -> str | None:
    """``window`` without its clauses that say something not of the claim is unknown, or
    None when it has none (or nothing would be left)."""
    statements = [set(content_stems(s)) for s in split_statements(claim) or [claim]]
    kept: list[str] = []
    removed = False
    for clause in clauses(window):
        text = clause.text
        cue = UNKNOWN_CUE.search(text)
        if (
            cue
            and not _governs(text[cue.end() :])
            and not any(_touches(own, text) for own in statements)
        ):
            removed = True
            continue
        kept.append(text.strip())
    rest = "; ".join(part for part in kept if part)
    return rest + "." if removed and rest else None


#: A cue followed by these governs what comes after it ("unclear *if* Jupiter has a core"):
#: without the cue the rest would assert what the source leaves open.
_GOVERNED = re.compile(r"\b(?:if|whether|that|how|why|what|when|which|who)\b", re.IGNORECASE)


def _governs(after_cue: str) -> bool:
    return _GOVERNED.search(after_cue) is not None


def _touches(own: set[str], clause: str) -> bool:
    """Does the cue clause share two content words with a statement, or speak of it by the
    unknowns rule? Only a clause that shares less is about something else: "It is still
    unclear if Jupiter has a core of solid material" stays for "Jupiter is a planet with a
    solid surface"."""
    shared = own & set(content_stems(UNKNOWN_CUE.sub(" ", clause)))
    return len(shared) >= _TOUCHING or speaks_of(own, clause)


def reread_without_unknowns(
    scorer: PairScorer, items: list[Item]
) -> list[tuple[StageScore, dict[str, Any]] | None]:
    """For each :data:`Item`: the NLI score and signals after the unknown-free reading, or
    None (no such clause in a window read, or no contradiction worth discounting). One
    batched ``predict_pairs`` per report."""
    plans: list[list[tuple[str, str]] | None] = []
    for claim, source, nli, signals in items:
        plan = None
        if worth_reading(nli, signals):
            windows = reading_windows(source, nli)
            stripped = [(w, without_unknowns(claim, w)) for w in windows]
            if any(s is not None for _w, s in stripped):
                plan = [(s or w, claim) for w, s in stripped]
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
        raw = {**nli.raw, "unknown_free_window": plan[0][0], "unknown_free_entailment": best_e}
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
