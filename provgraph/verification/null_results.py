"""A null result about what a claim asserts: "no association", "not linked", "no benefit".

The scoped negation rule (:func:`~provgraph.verification.negation.negation_conflict`)
needs the denied predicate's own words in the claim. Research writing denies an
*association* or an *effect* in words the claim does not repeat: "Vitamin D appears
to increase COVID-19 mortality rates." against "In Europe, there were no
correlations for both recovery and mortality rate" — the shipped NLI model reads
such pairs near chance (HealthVer's contradictions, issue 14).

The rule: a window clause whose negated scope names a result (:data:`RESULT_WORDS`:
association, link, correlation, difference, effect, evidence, benefit, role …)
contradicts a claim that asserts something when the clause speaks of the claim: it
shares at least two of the claim's content words and a quarter of them, and — when
the claim has a predicate to tell (:func:`~provgraph.verification.predicate.predicate_words`)
— a word of that predicate ("Green tea lowers cholesterol." is not denied by "no
association between green tea and stomach cancer"). Never when the claim is itself
negated or hedged, states sameness or safety ("similar outcomes", "is safe": what a
null result confirms), asserts a small degree the denial of a large one allows, or
when another clause of that sentence states, without negation, every predicate word
the null clause names ("The therapy improved outcomes in children, although it showed
no benefit on outcomes in children under two"; but "blood pressure fell in the walking
group, compared with no change in the control group" denies "Blood pressure also fell in
the control group"). The thresholds were chosen before measuring (session 18).
"""

from __future__ import annotations

import re

from provgraph.verification.negation import (
    DEGREE_WORDS,
    DIMINISHERS,
    NegationFinding,
    hedged,
    negated_scopes,
    unconditional,
)
from provgraph.verification.predicate import predicate_words
from provgraph.verification.sentences import split_sentences
from provgraph.verification.wordsets import clauses, content_stems, stem

RESULT_WORDS = frozenset(
    s
    for w in (
        "associated", "association", "linked", "link", "correlated", "correlation",
        "relationship", "related", "difference", "differences", "effect", "effects",
        "evidence", "benefit", "impact", "role", "change", "protective",
    )
    for s in (stem(w), *content_stems(w))
)  # fmt: skip
_SAMENESS = re.compile(
    r"\b(?:similar|same|comparable|equivalent|equal(?:ly)?|unchanged|safe|as \w+ as)\b",
    re.IGNORECASE,
)
_MIN_SHARED = 2
_MIN_SHARE = 0.25
#: "Plaque levels *were unchanged*" is a null result as "did not change" is (session 28).
_UNCHANGED = re.compile(
    r"\b(?:was|were|is|are|remained|remains|stayed|stays)\s+(?:\w+ly\s+)?unchanged\b",
    re.IGNORECASE,
)


def _speaks_of_claim(claim_words: set[str], predicate: set[str] | None, text: str) -> float:
    """The share of the claim's words in ``text`` when it speaks of the claim, else 0."""
    words = set(content_stems(text))
    shared = len(claim_words & words)
    share = shared / len(claim_words)
    if shared < _MIN_SHARED or share < _MIN_SHARE:
        return 0.0
    if predicate is not None and not predicate & words:
        return 0.0
    return share


def null_result_conflict(claim: str, window: str) -> NegationFinding | None:
    """The first window clause stating a null result about what ``claim`` asserts."""
    if negated_scopes(claim) or _SAMENESS.search(claim):
        return None
    claim_words = set(content_stems(claim))
    if len(claim_words) < _MIN_SHARED:
        return None
    said = predicate_words(claim)
    predicate = {s for w in said for s in content_stems(w)} if said else None
    small_degree = bool(DIMINISHERS & claim_words)
    for sentence in split_sentences(_UNCHANGED.sub("did not change", window)):
        found: NegationFinding | None = None
        denied: set[str] = set()  # the claim's predicate words the null clause names
        plain: list[set[str]] = []  # the words of each un-negated clause
        for clause in clauses(unconditional(sentence.text)):
            words = set(content_stems(clause.text))
            scopes = negated_scopes(clause.text)
            if not scopes:
                plain.append(words)
                continue
            for cue, scope in scopes:
                if found or hedged(cue) or not RESULT_WORDS & set(scope):
                    continue
                if small_degree and DEGREE_WORDS & words:
                    continue
                share = _speaks_of_claim(claim_words, predicate, clause.text)
                if share > 0:
                    found = NegationFinding("source", cue, scope, share)
                    denied = predicate & words if predicate is not None else set()
        if found is not None and not any(denied and denied <= words for words in plain):
            return found
    return None
