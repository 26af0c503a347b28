"""A one-way relation between two named people (or firms) stated the other way round: "Anna is
Clara's mother." against "Clara is Anna's mother."; "Google is a subsidiary of Alphabet"
against "Alphabet is a subsidiary of Google" (session 25: the "of" form, and the relations
of a firm to its owner).

The NLI model reads such pairs as entailment (0.97): every word of the claim is in the
source. The rule reads "<name> is/was <name>'s <relation>" and "<name> is/was a/the
<relation> of <name>" on both sides, for relations that run one way (a mother is not her
child's mother; a teacher not the pupil's; a subsidiary not its owner's), and
reports a conflict when a source sentence states the claim's relation with the two names
exchanged and none states it the claim's way. A name is matched by any of its words
("Anna" is "Anna Berg"). Relations that may hold both ways ("brother", "friend",
"colleague", "partner") are never read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from provgraph.verification.sentences import split_sentences

#: Relations that run one way between two people.
ONE_WAY = frozenset((
    "mother", "father", "parent", "son", "daughter", "child", "grandmother", "grandfather",
    "grandson", "granddaughter", "aunt", "uncle", "niece", "nephew", "teacher", "student",
    "pupil", "mentor", "protege", "boss", "employer", "employee", "successor", "predecessor",
    "deputy", "assistant", "stepmother", "stepfather", "stepson", "stepdaughter",
    "subsidiary", "division", "owner",
))  # fmt: skip
_NAME = r"[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2}"
_RELATION = re.compile(
    rf"(?P<a>{_NAME})\s+(?:is|was|became|remains)\s+(?P<b>{_NAME})['\u2019]s\s+"
    r"(?:(?:former|late|eldest|youngest|only|elder|younger|adoptive|biological)\s+)?"
    r"(?P<relation>[a-z]+)\b"
)
#: The same relation with "of": "Google is a subsidiary of Alphabet", "the mother of Clara".
_OF_RELATION = re.compile(
    rf"(?P<a>{_NAME})\s+(?:is|was|became|remains)\s+(?:a|an|the)\s+"
    r"(?:(?:former|late|eldest|youngest|only|elder|younger|adoptive|biological|"
    r"wholly[- ]owned|majority[- ]owned)\s+)?"
    rf"(?P<relation>[a-z]+)\s+(?:company\s+)?of\s+(?P<b>{_NAME})"
)


@dataclass(frozen=True)
class PossessiveSwap:
    """The relation and the two names as the claim states them."""

    relation: str
    holder: str
    other: str


def _relations(text: str) -> list[tuple[str, frozenset[str], frozenset[str]]]:
    """``(relation, the holder's name words, the other's)`` of ``text``."""
    out = []
    for m in (*_RELATION.finditer(text), *_OF_RELATION.finditer(text)):
        relation = m.group("relation")
        if relation in ONE_WAY:
            a = frozenset(w.lower() for w in m.group("a").split())
            b = frozenset(w.lower() for w in m.group("b").split())
            out.append((relation, a, b))
    return out


def possessive_swap(claim: str, window: str) -> PossessiveSwap | None:
    """The claim's one-way relation stated with its two names exchanged in ``window``."""
    claimed = _relations(claim)
    if not claimed:
        return None
    stated = [r for s in split_sentences(window) for r in _relations(s.text)]
    for relation, holder, other in claimed:
        same = [(a, b) for rel, a, b in stated if rel == relation]
        if any(a & holder and b & other for a, b in same):
            continue  # the source states it the claim's way too
        if any(a & other and b & holder for a, b in same):
            return PossessiveSwap(relation, " ".join(sorted(holder)), " ".join(sorted(other)))
    return None
