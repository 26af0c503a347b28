"""The value-free reading: is an NLI contradiction about a value the source never states?

A small NLI cross-encoder reads a claim with a number as contradicted by almost
any premise about the same subject that gives *other* numbers: "The library
holds 2 million books." against "The library opened in 1911 and is visited by
300,000 readers every year." scores contradiction 0.70 (shipped model, session
11), "The bridge is 300 metres long." against "The bridge is 45 metres high …"
0.86. Neither source says anything about the claim's value, so neither can
refute it: the claim is *unsupported*, and the policy promises that a source
not stating a fact never makes it *contradicted*.

Logic gives a second reading. A claim with a value implies the same claim with
the value left open ("holds 2 million books" → "holds books", "300 metres long"
→ "some metres long", "founded in 1990" → "founded"), so a premise that
contradicts the claim *because of something other than the value* also
contradicts the value-free form. Hence, for the quantities and dates nothing in
the source could be stating (``ConsistencyResult.unstated_spans`` /
``unstated_date_spans``, :mod:`.unstated`):

* **contradiction** = ``min(c(claim), c(value-free claim))`` per window
  (``Signals.contradiction_reading``; the fused contradiction reads it): what
  survives is the part that does not rest on the unstated value. "The drug cut
  deaths by 30%." against "The drug had no effect on deaths." keeps 0.68 ("cut
  deaths by some percent"); the library falls to 0.06.
* **support is not touched**: the value-free form is a weaker claim, so its
  entailment says nothing about the value ("holds books" is entailed 0.93 by a
  sentence about readers), and a discounted contradiction must not lift the
  support of a claim whose one fact is unconfirmed (the consistency penalty
  already weighs on support).

A value the source states differently (an anchored mismatch: "300,000 books")
is not unstated, so its contradiction stands; a quantity of zero is not opened
("0 deaths" does not imply "some deaths"); a date without a preposition is not
dropped. The cost is one NLI pair (two when the most contradicting window is not
the best one) for claims that have an unstated value *and* a contradiction
worth discounting.
"""

from __future__ import annotations

import re
from typing import Any

from provgraph.verification.consistency import check_consistency
from provgraph.verification.focus import PairScorer
from provgraph.verification.polarity import reading_windows
from provgraph.verification.report import StageScore

#: Below this NLI contradiction (best and worst window) there is nothing to discount.
MIN_CONTRADICTION = 0.3

_SCALE = r"(?:\s*(?:thousand|million|billion|trillion|bn|mn|[kmb])\b)?"
_DIGITS = r"\d[\d,]*(?:\.\d+)?"
_WORDS = (
    r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|"
    r"thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|a hundred|dozens?|a dozen)"
    r"(?:[\s-]+(?:one|two|three|four|five|six|seven|eight|nine|hundred|thousand|million|"
    r"billion))*"
)
#: Money first (the amount becomes "some money"), then percentages, then counts.
_MONEY = re.compile(
    rf"(?:[$€£¥]\s?{_DIGITS}{_SCALE}|{_DIGITS}{_SCALE}\s*(?:dollars|euros|pounds|usd|eur|gbp)\b)",
    re.IGNORECASE,
)
_PERCENT = re.compile(rf"(?:{_DIGITS}|{_WORDS})\s*(?:%|per\s?cent\b|percentage points?\b)", re.I)
_NUMBER = re.compile(rf"\b(?:{_DIGITS}|{_WORDS}){_SCALE}(?!\w)", re.IGNORECASE)


def _open_value(surface: str) -> str | None:
    """``surface`` with its number left open, or None when it holds none this can rewrite."""
    for pattern, replacement in (
        (_MONEY, "some money"),
        (_PERCENT, "some percent"),
        (_NUMBER, "some"),
    ):
        rewritten, n = pattern.subn(replacement, surface, count=1)
        if n:
            return rewritten
    return None


#: A bare count followed by the thing it counts: the number is dropped rather than
#: opened ("some new stores" reads as weaker than "new stores" to the model: against
#: "opened no new stores" contradiction 0.49 vs 0.78, session 11).
_COUNTED_NEXT = re.compile(
    r"\s+(?!(?:in|of|on|at|by|to|for|and|or|per|from|than|a|an|the|each|every)\b)[A-Za-z]"
)

#: The preposition that attaches a date to its clause ("founded *in* 1990", "*since*
#: March 2020", "*in the late* 1990s"): removed with the date, so the clause reads whole.
_DATE_LEAD = re.compile(
    r"\b(?:in|on|since|by|from|to|until|till|before|after|during|around|circa|of)\s+"
    r"(?:the\s+)?(?:(?:early|mid|late)[\s-]+)?$",
    re.IGNORECASE,
)


def _edit(claim: str, start: int, end: int, *, date: bool) -> tuple[int, int, str] | None:
    """The replacement of one span: ``(start, end, text)``, or None when none is safe.

    A quantity keeps its words with the number left open ("300 metres" → "some
    metres"); a date goes with its preposition ("in March 2024" → nothing), since
    a clause without its date is implied by the clause with it.
    """
    surface = claim[start:end]
    if not date:
        if re.fullmatch(r"\D*0+(?:\.0+)?\D*", surface):
            return None  # "0 deaths" does not imply "some deaths"
        opened = _open_value(surface)
        if opened == "some" and _COUNTED_NEXT.match(claim, end):
            opened = ""  # a bare count goes: "opened 30 new stores" -> "opened new stores"
        return None if opened is None else (start, end, opened)
    lead = _DATE_LEAD.search(claim, 0, start)
    if lead is None:
        return None  # a date that is the subject ("2020 was …") cannot be dropped
    after = end + 1 if claim[end : end + 1] == "," and lead.start() == 0 else end
    return lead.start(), after, ""


def value_free_form(
    claim: str,
    spans: tuple[tuple[int, int], ...],
    date_spans: tuple[tuple[int, int], ...] = (),
) -> str | None:
    """``claim`` with every unstated value left open, or None when there is none or one
    cannot be opened safely.

    ``spans``: claim character offsets of quantities (the number becomes "some", a
    bare count before its noun is dropped);
    ``date_spans``: of dates (dropped with their preposition). A zero quantity, a
    date with no preposition, or overlapping spans leave it None.
    """
    marked = sorted([(s, e, False) for s, e in spans] + [(s, e, True) for s, e in date_spans])
    if not marked:
        return None
    out, last = [], 0
    for start, end, date in marked:
        if start < last or end > len(claim):
            return None  # overlapping or stale spans: read nothing rather than a garbled claim
        edit = _edit(claim, start, end, date=date)
        if edit is None or edit[0] < last:
            return None
        out += [claim[last : edit[0]], edit[2]]
        last = edit[1]
    out.append(claim[last:])
    rewritten = re.sub(r"\s+", " ", "".join(out)).strip()
    rewritten = re.sub(r"\s+([.,;:])", r"\1", rewritten)
    rewritten = re.sub(r"\ba some\b", "some", rewritten, flags=re.IGNORECASE)
    return rewritten[:1].upper() + rewritten[1:]


Spans = tuple[tuple[int, int], ...]
#: ``(claim, source text, nli score, signals, (quantity spans, date spans))``: the spans
#: are the consistency stage's unstated values on the evidence window
Item = tuple[str, str, StageScore, dict[str, Any], tuple[Spans, Spans]]


def unstated_in_windows(
    claim: str, source: str, nli: StageScore, unstated: tuple[Spans, Spans]
) -> tuple[Spans, Spans]:
    """The claim's unstated quantities and dates (the consistency stage's, read on the
    evidence window) that the most contradicting window does not state either, when that
    is another window: a value it states is not unstated there."""
    start, end = nli.raw.get("max_contradiction_start"), nli.raw.get("max_contradiction_end")
    evidence = nli.evidence
    if not isinstance(start, int) or not isinstance(end, int) or evidence is None:
        return unstated
    if (start, end) == (evidence.start, evidence.end):
        return unstated
    worst = check_consistency(claim, source[start:end], source)
    if worst.anchored_mismatches:
        return (), ()
    return (
        tuple(s for s in unstated[0] if s in worst.unstated_spans),
        tuple(s for s in unstated[1] if s in worst.unstated_date_spans),
    )


def worth_reading(nli: StageScore, signals: dict[str, Any]) -> bool:
    """Has the pair an NLI contradiction (best or most contradicting window) worth a second
    reading (at least :data:`MIN_CONTRADICTION`)? Shared with :mod:`.unknown_free`."""
    contradictions = [signals.get(k) for k in ("nli_contradiction", "nli_max_contradiction")]
    return nli.evidence is not None and any(
        isinstance(c, float) and c >= MIN_CONTRADICTION for c in contradictions
    )


def reread_without_values(
    scorer: PairScorer, items: list[Item]
) -> list[tuple[StageScore, dict[str, Any]] | None]:
    """For each :data:`Item`: the NLI score and signals after the value-free reading, or
    None (nothing unstated to open, no contradiction worth discounting). One batched
    ``predict_pairs`` per report."""
    plans: list[tuple[str, list[str]] | None] = []
    for claim, source, nli, signals, unstated in items:
        opened = None
        if worth_reading(nli, signals):
            opened = value_free_form(claim, *unstated_in_windows(claim, source, nli, unstated))
        plans.append((opened, reading_windows(source, nli)) if opened else None)
    jobs = [(window, plan[0]) for plan in plans if plan for window in plan[1]]
    scores = dict(zip(jobs, scorer.predict_pairs(jobs), strict=True)) if jobs else {}
    out: list[tuple[StageScore, dict[str, Any]] | None] = []
    for plan, (_claim, _source, nli, *_rest) in zip(plans, items, strict=True):
        read = [] if plan is None else [scores[(window, plan[0])][1] for window in plan[1]]
        contradictions = [c for c in read if c is not None]
        if plan is None or len(contradictions) < len(read):
            out.append(None)  # nothing to reread, or a model without a contradiction column
            continue
        updated = {
            "nli_value_free_contradiction": read[0],
            "nli_value_free_max_contradiction": contradictions[-1],
        }
        raw = {**nli.raw, "value_free_form": plan[0], "value_free_contradiction": read[0]}
        out.append((nli.model_copy(update={"raw": raw}), updated))
    return out


#: Any value :func:`value_free_form` can open: money, a percentage or a count.
QUANTITY_RE = re.compile(rf"{_MONEY.pattern}|{_PERCENT.pattern}|{_NUMBER.pattern}", re.IGNORECASE)
