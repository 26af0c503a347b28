"""A decision the source says is still pending: "The vaccine was approved in Brazil."
against "Health Canada approved the vaccine; regulators in Brazil are still reviewing it."

The NLI model reads the pair as entailment (0.62): every claim word is in the window. A
body that is still reviewing something, a request under review or awaiting approval,
has not decided it, so a claim that the decision was made is contradicted. The rule
needs:

* a claim statement stating a decision as made: a decision verb in a past or passive
  form ("was approved", "ratified", "has been granted"), not under a modal ("will be
  approved") nor negated;
* a source statement (a clause, or one statement of a clause: "approved in Japan and is
  pending approval in Korea" is two) saying that a decision is pending ("is still
  reviewing", "under review", "awaiting approval", "has yet to rule") naming every name of
  the claim statement (capitalised words: "Brazil"), so the approval in Canada is not read
  against a review in Brazil; its sentence sharing a word of what was decided ("vaccine")
  and the statement naming it or pointing back at it ("it"), so "the merger was approved;
  the appeal is still pending" is no conflict;
* no source statement stating the decision as made for the same names.

A claim of two decisions ("approved in Canada and Brazil") is read statement by statement
by the caller (:func:`~provgraph.verification.claimsplit.split_statements`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from provgraph.verification.claimsplit import split_statements
from provgraph.verification.negation import negated_scopes
from provgraph.verification.sentences import split_sentences
from provgraph.verification.wordsets import clauses, content_stems, stem

_DECIDED = re.compile(
    r"\b(?P<verb>approved|authori[sz]ed|ratified|granted|licensed|certified|adopted|signed|passed|"
    r"rejected|finali[sz]ed|upheld|overturned|dismissed)\b",
    re.IGNORECASE,
)
#: A decision only expected or possible states none: "will be approved", "could be granted".
_MODAL = re.compile(
    r"\b(?:will|would|could|may|might|should|must|can|expected\s+to|likely\s+to|set\s+to|"
    r"due\s+to|to)\s+(?:be\s+|have\s+been\s+)?$",
    re.IGNORECASE,
)
_PENDING = re.compile(
    r"\b(?:(?:is|are|was|were|remains?|remained)\s+(?:still\s+)?(?:under\s+(?:review|"
    r"consideration|evaluation|assessment)|pending|awaiting)|still\s+(?:reviewing|"
    r"considering|weighing|evaluating|assessing|examining|deciding|debating|studying)|"
    r"(?:has|have|had)\s+(?:yet|still)\s+to\s+(?:approve|decide|rule|vote|ratify|grant|"
    r"authori[sz]e|clear)|awaits?\s+(?:approval|a\s+decision|ratification|a\s+ruling)|"
    r"pending\s+(?:approval|review|a\s+decision|ratification|a\s+ruling))\b",
    re.IGNORECASE,
)
#: A pending clause that does not name what was decided must point back at it.
_PRONOUN = re.compile(r"\b(?:it|them|the\s+(?:request|application|decision|proposal))\b", re.I)
_NAME = re.compile(r"(?<!^)(?<![.!?]\s)\b[A-Z][a-zA-Z'-]+")


@dataclass(frozen=True)
class PendingDecision:
    """The claim's decision and the source clause that says it is still pending."""

    decision: str
    pending: str


def _decision(statement: str) -> str | None:
    """The decision verb ``statement`` states as made, if any."""
    for found in _DECIDED.finditer(statement):
        if _MODAL.search(statement[: found.start()]):
            continue
        verb = stem(found.group("verb").lower())
        if any(verb in scope for _cue, scope in negated_scopes(statement)):
            continue
        return found.group("verb").lower()
    return None


def pending_decision(statement: str, window: str) -> PendingDecision | None:
    """The statement's decision, said by a clause of ``window`` to be still pending."""
    decision = _decision(statement)
    if decision is None:
        return None
    names = set(content_stems(" ".join(_NAME.findall(statement.strip()))))
    decided = set(content_stems(statement)) - names - {stem(decision)}
    if not decided:
        return None
    found: PendingDecision | None = None
    for sentence in split_sentences(window):
        if not decided & set(content_stems(sentence.text)):
            continue
        for part in _parts(sentence.text):
            words = set(content_stems(part))
            if not names <= words:
                continue
            if _decision(part) == decision and decided & words:
                return None  # the source also says it was decided
            refers = decided & words or _PRONOUN.search(part)
            if found is None and refers and _PENDING.search(part):
                found = PendingDecision(decision, " ".join(part.split()))
    return found


def _parts(sentence: str) -> list[str]:
    """The statements of each clause of ``sentence``: "approved in Japan and is pending
    approval in Korea" is two, each with its own place."""
    return [part for c in clauses(sentence) for part in (split_statements(c.text) or [c.text])]
