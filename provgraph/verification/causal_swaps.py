"""A cause and its effect exchanged: "Poor sleep causes depression." / "Depression often
causes poor sleep."

The two sentences share every word, so the lexical and embedding stages score the pair
as a paraphrase and the small NLI model entails it (0.97, session 33). The source states
the other direction; it neither states the claim's nor denies it (both may hold), so the
claim is *unsupported* by it — not *contradicted*, which is why this is not one of the
role swaps of :mod:`.roles` ("Spain beat Italy" / "Italy beat Spain": one excludes the
other). The noun-role reader (:mod:`.noun_roles`) needs determiners; causes are mostly
bare noun phrases ("poor sleep", "high blood pressure"), read here around a causal verb:

* active: "A causes / caused / leads to / led to / triggers / results in / gives rise to /
  contributes to / induces B";
* passive: "B is / was / can be caused / triggered / induced by A".

A and B are the content words of the clause on each side of the verb (at most
:data:`_MAX_WORDS` each, modals and frequency adverbs left out: "often", "can"), read as
stem sets. A claim relation is reversed when a source sentence states one whose cause
holds the claim's effect words and whose effect holds the claim's cause words (each at
least half, one word at least), and no source sentence states it the claim's way. A
negated relation ("does not cause") is not read.
"""

from __future__ import annotations

import re

from provgraph.verification.sentences import split_sentences
from provgraph.verification.wordsets import content_stems

_ACTIVE = re.compile(
    r"\b(?:causes|caused|cause|causing|leads\s+to|led\s+to|lead\s+to|leading\s+to|"
    r"triggers|triggered|trigger|results\s+in|resulted\s+in|result\s+in|"
    r"gives\s+rise\s+to|gave\s+rise\s+to|give\s+rise\s+to|contributes\s+to|"
    r"contributed\s+to|contribute\s+to|induces|induced|induce)\b",
    re.IGNORECASE,
)
_PASSIVE = re.compile(
    r"\b(?:is|are|was|were|be|been|being)\s+(?:[a-z]+\s+)?(?:caused|triggered|induced)\s+by\b",
    re.IGNORECASE,
)
#: A clause ends (its noun phrases end) at these.
_BOUNDARY = re.compile(r"[,;:()]|\b(?:and|but|while|whereas|which|that|because|when|if)\b", re.I)
#: The effect ends before a preposition that starts an adjunct ("… smoking *in* most cases").
_ADJUNCT = re.compile(r"\b(?:in|among|for|during|at|on|with|after|before|from|over|per)\b", re.I)
_BY = re.compile(r"\s*by\b", re.IGNORECASE)
_NEGATION = re.compile(r"\b(?:not|no|never|neither|nor|doesn't|don't|didn't|cannot)\b", re.I)
#: Words beside the verb that are no part of either side.
_ASIDE = frozenset(
    content_stems(
        "often frequently usually commonly sometimes rarely typically generally also directly "
        "indirectly ultimately eventually probably possibly likely significantly actually "
        "can could may might will would does did do"
    )
)
_MAX_WORDS = 4
_MIN_SHARE = 0.5

#: ``(cause stems, effect stems, the sentence that states it)``
Relation = tuple[frozenset[str], frozenset[str], str]


def _side(text: str, *, before: bool) -> frozenset[str]:
    pieces = _BOUNDARY.split(text)
    piece = pieces[-1] if before else _ADJUNCT.split(pieces[0])[0]
    stems = [s for s in content_stems(piece) if s not in _ASIDE]
    return frozenset(stems[-_MAX_WORDS:] if before else stems[:_MAX_WORDS])


def causal_relations(text: str) -> list[Relation]:
    """Every causal relation the text states (:data:`Relation`)."""
    out: list[Relation] = []
    for sentence in split_sentences(text):
        s = sentence.text
        for pattern, passive in ((_PASSIVE, True), (_ACTIVE, False)):
            for m in pattern.finditer(s):
                left, right = s[: m.start()], s[m.end() :]
                if not passive and _BY.match(right):
                    continue  # a passive the passive pattern did not read
                if _NEGATION.search(_BOUNDARY.split(left)[-1]):
                    continue
                first, second = _side(left, before=True), _side(right, before=False)
                if first and second:
                    out.append((second, first, s) if passive else (first, second, s))
            if out and passive:
                break  # "is caused by" also matches the active "caused"
    return out


def _holds(words: frozenset[str], other: frozenset[str]) -> bool:
    shared = len(words & other)
    return shared > 0 and shared >= _MIN_SHARE * min(len(words), len(other))


def reversed_cause(claim: str, window: str) -> str | None:
    """The window sentence that states the claim's causal relation the other way round,
    or None (see the module docstring)."""
    claimed = causal_relations(claim)
    if not claimed:
        return None
    stated = causal_relations(window)
    for cause, effect, _ in claimed:
        if any(_holds(cause, c) and _holds(effect, e) for c, e, _ in stated):
            return None  # stated the claim's way somewhere
    for cause, effect, _ in claimed:
        for c, e, sentence in stated:
            if _holds(effect, c) and _holds(cause, e) and not _holds(cause, c):
                return sentence
    return None
