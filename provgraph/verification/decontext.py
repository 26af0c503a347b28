"""Decontextualising a claim: the subject a pronoun stands for, from the sentence before.

"Northwind opened 14 centres. It now employs 23,400 people. [REF|d_1]" — the
claim the tag supports is the second sentence, and "It" means nothing to the
source. When a claim opens with a subject pronoun ("It", "They", "He", "She",
"This company"…; a bare "This" usually means an event and is left alone) or
a possessive ("Its", "Their"…), the subject of the preceding sentence is put
in its place for scoring; the report keeps the claim as written and shows the
text that was checked (``claim.checked_text``).

The subject is the sentence's leading noun phrase: a run of capitalised words
("Northwind Traders", "The European Central Bank"), or a determiner and up to
three words before the first verb-like word ("The new policy"). No parser is
used: a wrong guess only makes the checked claim say what the preceding
sentence's subject did, which the author wrote anyway; when no subject is
found the claim is left unchanged.
"""

from __future__ import annotations

import re

_SUBJECT_PRONOUN = re.compile(
    r"^(?:(?:It|They|He|She)|(?:This|That|These|Those)\s+(?:company|firm|group|study|"
    r"report|drug|trial|policy|organisation|organization|agency|bank|city|country))\b",
)
_POSSESSIVE = re.compile(r"^(?P<p>Its|Their|His|Her)\b")
_VERBISH = re.compile(
    r"^(?:is|are|was|were|has|have|had|will|would|can|could|may|might|must|shall|should|did|"
    r"does|do|said|says|became|remains|took|made|went|grew|rose|fell|won|lost|began|saw|got|"
    r"gave|held|led|left|paid|sold|built|ran|set|told|found|kept|brought|bought|came|"
    r"in|on|at|for|to|by|with|from|as|that|which|who|\w+ed|\w+s)$"
)
_DETERMINER = re.compile(r"^(?:The|A|An|Our|This)$")
_WORD = re.compile(r"[A-Za-z][\w'&.-]*")
_CONNECTORS = frozenset({"of", "and", "&", "for", "de", "van", "von"})


def leading_subject(sentence: str) -> str | None:
    """The leading noun phrase of ``sentence``, or None when it does not open with one."""
    words = _WORD.findall(sentence)
    if not words:
        return None
    out: list[str] = []
    if _DETERMINER.match(words[0]) and len(words) > 1 and not words[1][0].isupper():
        out.append(words[0])
        for w in words[1:4]:
            if _VERBISH.match(w):
                break
            out.append(w)
        return " ".join(out) if len(out) > 1 else None
    for i, w in enumerate(words[:8]):
        if w[0].isupper() or (i and w in _CONNECTORS and out):
            out.append(w)
        else:
            break
    while out and out[-1] in _CONNECTORS:
        out.pop()
    if not out or out[0] in ("It", "They", "He", "She", "In", "On", "At", "After", "For"):
        return None
    return " ".join(out)


def needs_context(claim: str) -> bool:
    """Does ``claim`` open with a pronoun :func:`decontextualise` would replace?

    Cheap, so callers find the previous sentence (a sentence split) only when
    it can change the claim.
    """
    return bool(_SUBJECT_PRONOUN.match(claim) or _POSSESSIVE.match(claim))


def decontextualise(claim: str, previous: str | None) -> str | None:
    """``claim`` with an opening pronoun replaced by ``previous``'s subject (None: no change)."""
    if not previous or not claim:
        return None
    subject = leading_subject(previous.strip())
    if subject is None:
        return None
    pronoun = _SUBJECT_PRONOUN.match(claim)
    if pronoun is not None:
        return subject + claim[pronoun.end() :]
    possessive = _POSSESSIVE.match(claim)
    if possessive is not None:
        owner = subject + ("'" if subject.endswith("s") else "'s")
        return owner + claim[possessive.end() :]
    return None
