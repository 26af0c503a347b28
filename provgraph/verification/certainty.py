"""A claim of proof against a source that says the matter is not proven: "Coffee has been
proven to prevent type 2 diabetes." / "Studies have linked coffee with a lower risk of type
2 diabetes, although a causal effect has not been established."

A claim that something is unknown is *unsupported* by a source that says so
(:mod:`.unknowns`). A claim that it is *proven* says more: that the question is settled;
a source saying it is not settled denies exactly that, and the claim is *contradicted*.
The small NLI model leans that way (contradiction 0.71) but the shared words carry
support over the threshold, and health writing is full of such pairs (an association
reported as a cure).

The rule (session 32), narrow on purpose:

* the claim asserts certainty (:data:`_CLAIM_CERTAINTY`: "has been proven / shown /
  demonstrated / confirmed to", "is proven to", "proof that", "conclusively",
  "definitively", "scientifically proven") and is neither negated nor hedged;
* a sentence of the evidence that speaks of the claim — two of its content words and
  three quarters of them, the certainty words aside (half let "It is unclear whether
  exercise improves *sleep*" deny "Exercise has been shown to improve *mood*") — holds
  a cue that the matter is not settled: the unknown cues ("has not been established",
  "remains unclear", "insufficient evidence"), "not proven / unproven / no proof / no
  conclusive evidence" or "could not establish / did not show";
* no sentence of the evidence that speaks of the claim states certainty itself
  without such a cue ("trials have shown that it prevents …": the source settles it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from provgraph.verification.sentences import split_sentences
from provgraph.verification.unknowns import UNKNOWN_CUE
from provgraph.verification.wordsets import content_stems

_CERTAIN_VERBS = r"(?:proven|proved|shown|demonstrated|confirmed|established)"
_CLAIM_CERTAINTY = re.compile(
    rf"\b(?:(?:has|have|had)\s+been|is|are|was|were)\s+(?:\w+ly\s+)?{_CERTAIN_VERBS}\s+to\b"
    rf"|\b(?:scientifically|clinically)\s+{_CERTAIN_VERBS}\b"
    r"|\bproven\s+(?:to|cure|treatment|remedy|therapy|method)\b"
    r"|\bproof\s+that\b|\bconclusively\b|\bdefinitively\b|\bbeyond\s+(?:any\s+)?doubt\b",
    re.IGNORECASE,
)
_NOT_SETTLED = re.compile(
    rf"\b(?:not|never)\s+(?:yet\s+)?(?:been\s+)?{_CERTAIN_VERBS}\b|\bunproven\b"
    r"|\bno\s+(?:\w+\s+)?(?:proof|evidence)\b|\blacks?\s+(?:\w+\s+)?(?:proof|evidence)\b"
    r"|\b(?:could|can|did|does|do)\s*(?:not|n't)\s+(?:yet\s+)?"
    r"(?:establish|prove|confirm|show|demonstrate)\b|\bcannot\s+(?:establish|prove|confirm)\b",
    re.IGNORECASE,
)
#: A source's own certainty: "trials have shown that …", "was confirmed to …".
_SOURCE_CERTAINTY = re.compile(
    rf"\b(?:has|have|had|was|were|is|are)\s+(?:\w+ly\s+)?(?:been\s+)?{_CERTAIN_VERBS}\s+"
    r"(?:to|that)\b",
    re.IGNORECASE,
)
_CLAIM_DOUBT = re.compile(r"\b(?:not|never|no|may|might|could|possibly|perhaps)\b", re.I)
_CERTAINTY_WORDS = frozenset(
    content_stems(
        "proven proved shown demonstrated confirmed established proof conclusively "
        "definitively scientifically clinically beyond doubt"
    )
)
_MIN_SHARED = 2
_MIN_SHARE = 0.75


@dataclass(frozen=True)
class CertaintyConflict:
    """The claim's certainty and the evidence's words that the matter is not settled."""

    claim: str
    source: str
    share: float


def _share(own: set[str], sentence: str) -> float:
    words = set(content_stems(sentence))
    shared = len(own & words)
    return shared / len(own) if shared >= _MIN_SHARED else 0.0


def certainty_conflict(claim: str, window: str) -> CertaintyConflict | None:
    """The claim's "proven" against an evidence sentence saying it is not, else None."""
    certain = _CLAIM_CERTAINTY.search(claim)
    if certain is None or _CLAIM_DOUBT.search(claim):
        return None
    own = set(content_stems(claim)) - _CERTAINTY_WORDS
    if len(own) < _MIN_SHARED:
        return None
    found: CertaintyConflict | None = None
    for sentence in split_sentences(window):
        share = _share(own, sentence.text)
        if share < _MIN_SHARE:
            continue
        doubt = _NOT_SETTLED.search(sentence.text) or UNKNOWN_CUE.search(sentence.text)
        if doubt is None:
            if _SOURCE_CERTAINTY.search(sentence.text):
                return None  # the source settles it itself
            continue
        if found is None:
            found = CertaintyConflict(certain.group(0), doubt.group(0), share)
    return found
