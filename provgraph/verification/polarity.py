"""The polarity reading: a negated claim also read in its positive form.

A small NLI cross-encoder reads a negated hypothesis ("The museum has *never*
charged an entrance fee") as contradicted by almost any premise about the same
subject — including one that says the same thing in positive words ("Admission
has been free since 1921"): entailment 0.06, contradiction 0.94 there (shipped
model, session 10). The model reads the *positive* form far more reliably: a
premise that says the museum charges entails "The museum has charged an
entrance fee" (0.97), one that says admission is free does not (0.17).

Logic gives a second reading of the same pair: the claim ``not P`` is
contradicted exactly when ``P`` is entailed, and supported exactly when ``P`` is
contradicted. So, for a one-sentence claim with one clausal negation (and only
then — two negations, a contrastive "rather than", or a second sentence do not
flip by rewriting one cue):

* **contradiction** = ``c(not P) × (1 − c(P))``: a premise cannot contradict
  both ``P`` and ``not P``; when the model says it does, its contradiction of the
  negated claim is the negation bias, and it is discounted by how strongly the
  positive form is contradicted too. (Requiring ``e(P)`` instead — their
  geometric mean — also removed true contradictions the model reads only in the
  negated form: "failed to qualify" against "reached the final" has
  ``e(did qualify)`` 0.18.)
* **entailment** = ``max(e(not P), agreement(e(not P), c(P)))``: a contradicted
  positive form raises the claim's entailment, but only as far as the claim's
  own reading allows — a contradiction of ``P`` is a weaker reading than an
  entailment (it also fires on a premise that names another value), so it never
  decides alone. (Their plain mean lifted unsupported negated claims above
  supported plain ones: AttributionBench dev 0.787 → 0.780; this form 0.787.)

The rewrite is a surface edit (``did not reduce`` → ``did reduce``, ``never
won`` → ``won``, ``no association`` → ``some association``, ``failed to`` →
``did``, ``ruled out`` → ``planned``, ``not all`` → ``all``), chosen to keep the
sentence grammatical without a lexicon.
"""

from __future__ import annotations

import re
from typing import Any

from provgraph.verification.antonyms import antonym_conflict
from provgraph.verification.cancelled_events import cancelled_event
from provgraph.verification.claimsplit import split_statements
from provgraph.verification.ended_states import ended_state
from provgraph.verification.endings import ends_statement
from provgraph.verification.focus import PairScorer
from provgraph.verification.held_steady import held_steady
from provgraph.verification.negation import negated_scopes, negation_conflict
from provgraph.verification.nli import agreement
from provgraph.verification.persisting_problems import persisting_problem
from provgraph.verification.report import StageScore
from provgraph.verification.sentences import split_sentences
from provgraph.verification.went_ahead import went_ahead
from provgraph.verification.wordsets import plain_apostrophes

_AUX = r"do|does|did|is|are|was|were|has|have|had|can|could|will|would|should|may|might|must"

#: First matching rewrite wins; each removes exactly one negation cue.
_REWRITES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), replacement)
    for pattern, replacement in (
        (rf"\b({_AUX})\s+not\b", r"\1"),
        (r"\b(do|does|did|is|are|was|were|has|have|had|could|would|should|must)n't\b", r"\1"),
        (r"\bcan't\b", "can"),
        (r"\bwon't\b", "will"),
        (r"\bcannot\b", "can"),
        (r"\bnot\s+(all|every|everyone|everything|everybody|always)\b", r"\1"),
        (r"\bno longer\s+", ""),
        (r"\bnever\s+", ""),
        (r"\b(?:fails|refuses|declines)\s+to\b", "does"),
        (r"\b(?:fail|refuse|decline)\s+to\b", "do"),
        (r"\b(?:failed|refused|declined)\s+to\b", "did"),
        (r"\bunable\s+to\b", "able to"),
        (r"\brules\s+out\b", "plans"),
        (r"\brule\s+out\b", "plan"),
        (r"\bruled\s+out\b", "planned"),
        (r"\bruling\s+out\b", "planning"),
        (r"\bwithout\s+any\b", "with some"),
        (r"\bwithout\b", "with"),
        (r"\bno one\b", "someone"),
        (r"\bnobody\b", "somebody"),
        (r"\bnothing\b", "something"),
        (r"\bnone\b", "some"),
        (r"\bno\b", "some"),
    )
)


def positive_form(claim: str) -> str | None:
    """``claim`` with its one clausal negation removed, or None (no negation, or several)."""
    claim = plain_apostrophes(claim)
    if len(negated_scopes(claim)) != 1 or len(split_sentences(claim)) != 1:
        return None
    for pattern, replacement in _REWRITES:
        match = pattern.search(claim)
        if match is None:
            continue
        new = match.expand(replacement)
        if match.group(0)[:1].isupper():
            new = new[:1].upper() + new[1:]  # "No one was hurt" -> "Someone was hurt"
        rewritten = claim[: match.start()] + new + claim[match.end() :]
        rewritten = re.sub(r"\s+", " ", rewritten).strip()
        return rewritten[:1].upper() + rewritten[1:]
    return None


def polarity_readings(
    entailment: float,
    contradiction: float,
    positive_contradiction: float,
) -> tuple[float, float]:
    """``(entailment, contradiction)`` of a negated claim from both of its readings.

    ``entailment`` / ``contradiction``: the model on the claim as written;
    ``positive_contradiction``: the model on :func:`positive_form` against the same premise.
    """
    return (
        max(entailment, agreement(entailment, positive_contradiction)),
        contradiction * (1.0 - positive_contradiction),
    )


Item = tuple[str, str, StageScore, dict[str, Any]]


def reading_windows(source: str, nli: StageScore) -> list[str]:
    """The premises a rewritten claim is read against: the best window, and the most
    contradicting one when it is another (shared with :mod:`.valuefree`)."""
    assert nli.evidence is not None
    best = (nli.evidence.start, nli.evidence.end)
    worst = (nli.raw.get("max_contradiction_start"), nli.raw.get("max_contradiction_end"))
    out = [nli.evidence.text]
    if isinstance(worst[0], int) and isinstance(worst[1], int) and worst != best:
        out.append(source[worst[0] : worst[1]])
    return out


#: The positive form's contradiction where a window sentence ends what it asserts
#: (:mod:`.endings`; a current state, :mod:`.ended_states`: "The mine is no longer in
#: operation." against "The mine closed in 2015"), states its opposite (:mod:`.antonyms`:
#: "The contract was legal." against "found the contract illegal") or denies it
#: (:mod:`.negation`: "ruled out job cuts"): what the model gives a clear contradiction.
ENDED_CONTRADICTION = 0.9


def _denied_by(window: str, positive: str) -> bool:
    """Does a negation of ``window`` deny what ``positive`` asserts ("ruled out job cuts"
    against "said the company would cut jobs"): the scoped negation rule's finding on
    the source's side."""
    finding = negation_conflict(positive, window)
    return finding is not None and finding.side == "source"


def _read(
    scores: dict[tuple[str, str], tuple[float, float | None]], window: str, positive: str
) -> tuple[float, float | None, bool]:
    """The model's reading of ``positive`` against ``window``, its contradiction raised
    to :data:`ENDED_CONTRADICTION` where the window ends what it asserts or states its
    opposite, and whether a rule raised it."""
    entailment, contradiction = scores[(window, positive)]
    ended = contradiction is not None and (
        ended_state(positive, window) is not None
        or went_ahead(positive, window) is not None  # "was cancelled" / "went ahead"
    )
    if contradiction is not None and (
        ended
        or ends_statement(positive, window)
        or antonym_conflict(positive, window) is not None
        or cancelled_event(positive, window) is not None  # "Trains ran" / "were cancelled"
        or persisting_problem(positive, window) is not None  # "did fix" / "persisted"
        or held_steady(positive, window) is not None  # "did raise rates" / "held steady"
        or _denied_by(window, positive)
    ):
        contradiction = max(contradiction, ENDED_CONTRADICTION)
    return entailment, contradiction, ended


def ruled_entailment(claim: str) -> float:
    """A negated claim's entailment when the window ends the current state its positive
    form asserts (:mod:`.ended_states`: "The mine is no longer in operation." against "The
    mine closed in 2015"; or went ahead when the positive form calls it off,
    :mod:`.went_ahead`: "The parade was not cancelled." against "The parade went ahead as
    planned"): the rule's own confidence, :data:`ENDED_CONTRADICTION`, for a
    claim of one statement (0 for more: the rule speaks of the negated part only). Not
    the geometric mean of :func:`polarity_readings`, which guards a *model's* reading of
    the positive form: the model reads "The bakery is open." against "The bakery shut its
    doors for good" as entailment (0.97), the failure the rule exists for. The other rules
    that raise the positive form's contradiction (an ending verb's object, opposites, a
    denial) judge a part of the claim's words, not the state of its subject: on the dev
    files they raised unsupported claims ("No, I Do Not Regret Anything", a song title
    with a negation; "They cannot focus …, so they move closer") and are not used here."""
    return ENDED_CONTRADICTION if len(split_statements(claim)) == 1 else 0.0


def reread_negated(
    scorer: PairScorer, items: list[Item]
) -> list[tuple[StageScore, dict[str, Any]] | None]:
    """For each ``(claim, source text, nli score, signals)``: the NLI score and signals
    after the polarity reading, or None (no single negation, no evidence, no contradiction
    column). One batched ``predict_pairs`` for the whole report."""
    plans: list[tuple[str, list[str]] | None] = []
    for claim, source, nli, signals in items:
        positive = positive_form(claim)
        usable = nli.evidence is not None and isinstance(signals.get("nli_entailment"), float)
        plans.append((positive, reading_windows(source, nli)) if positive and usable else None)
    jobs = [(window, plan[0]) for plan in plans if plan for window in plan[1]]
    scores = dict(zip(jobs, scorer.predict_pairs(jobs), strict=True)) if jobs else {}
    out: list[tuple[StageScore, dict[str, Any]] | None] = []
    for plan, (claim, _source, nli, signals) in zip(plans, items, strict=True):
        read = [] if plan is None else [_read(scores, window, plan[0]) for window in plan[1]]
        contradictions = [c for _e, c, _r in read if c is not None]
        if plan is None or len(contradictions) < len(read):
            out.append(None)  # nothing to reread, or a model without a contradiction column
            continue
        positive = plan[0]
        best_e, best_c = read[0][0], contradictions[0]
        entailment, contradiction = polarity_readings(
            signals["nli_entailment"],
            signals.get("nli_contradiction") or 0.0,
            best_c,
        )
        if read[0][2]:
            entailment = max(entailment, ruled_entailment(claim))
        worst = signals.get("nli_max_contradiction")
        # the worst window's contradiction, discounted by its own reading of the positive form
        max_c = None if worst is None else worst * (1.0 - contradictions[-1])
        raw = {
            **nli.raw,
            "positive_form": positive,
            "positive_entailment": best_e,
            "positive_contradiction": best_c,
        }
        updated = {
            "nli_entailment": entailment,
            "nli_contradiction": contradiction,
            "nli_max_contradiction": max_c,
        }
        out.append((nli.model_copy(update={"score": entailment, "raw": raw}), updated))
    return out
