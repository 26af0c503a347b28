"""A remedy the source says did not take: "fixed the battery problem" / "the battery
problem persisted".

A claim that something ended a problem — fixed, solved, resolved, cured, eliminated,
stopped or ended it — is refuted by a source sentence saying the same problem went on:
it *persisted*, *lingered*, *continued*, *recurred*, *returned*, *came back*, *reappeared*
or *remained unsolved* (not "remained" alone: "the bridge remained open" after a repair
is no problem going on). The small NLI model reads the two as agreement ("The update did
fix the battery problem." from "The battery problem persisted after the update.":
entailment 0.59), so a negated claim ("did not fix") came out *contradicted* by the
source that says it.

The problem must be the remedy's object: every content word of the object (at most five
words after the verb, to a preposition, comma or clause end) in the sentence, before the
word that says it went on, and that word not negated ("the pain did not return") nor
before the remedy ("had persisted"); a sentence that states the remedy itself is no
refutation, and a claim that denies the remedy ("did not fix") agrees with the source.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from provgraph.verification.negation import negated_just_before, negated_scopes
from provgraph.verification.sentences import split_sentences
from provgraph.verification.wordsets import content_stems

_REMEDY = re.compile(
    r"\b(?P<verb>fix(?:es|ed|ing)?|solv(?:e|es|ed|ing)|resolv(?:e|es|ed|ing)|"
    r"cur(?:e|es|ed|ing)|eliminat(?:e|es|ed|ing)|eradicat(?:e|es|ed|ing)|"
    r"end(?:s|ed|ing)?|stop(?:s|ped|ping)?|clear(?:s|ed|ing)?\s+up)\s+"
    r"(?!(?:at|in|on|to|for|by|with|from|after|before|over|up|down|short)\b)"
    r"(?P<object>(?:[\w'-]+\s+){0,4}?[\w'-]+)(?=\s+(?:in|on|at|for|by|with|after|before|"
    r"within|during|when|and|but|of)\b|\s*[,.;:!?]|\s*$)",
    re.IGNORECASE,
)
_WENT_ON = re.compile(
    r"\b(?:persist(?:s|ed|ing)?|linger(?:s|ed|ing)?|continu(?:es|ed|ing)|"
    r"recur(?:s|red|ring)?|return(?:s|ed|ing)?|came\s+back|comes\s+back|"
    r"reappear(?:s|ed|ing)?|remain(?:s|ed)?\s+(?:unsolved|unresolved|unfixed))\b",
    re.IGNORECASE,
)
_BEFORE_IT = re.compile(r"\bhad\s+(?:\w+\s+)?$", re.IGNORECASE)


@dataclass(frozen=True)
class PersistingProblem:
    """The claim's remedy and the source's word that the problem went on."""

    remedy: str
    went_on: str
    #: share of the claim's other content words the sentence holds
    share: float | None


def persisting_problem(claim: str, window: str) -> PersistingProblem | None:
    """The first remedy of ``claim`` a sentence of ``window`` says did not take, if any."""
    remedy = _REMEDY.search(claim)
    if remedy is None:
        return None
    problem = set(content_stems(remedy.group("object")))
    if not problem:
        return None
    verb = set(content_stems(remedy.group("verb")))
    if any(verb & set(scope) for _cue, scope in negated_scopes(claim)):
        return None  # "did not fix the problem": the source agrees
    rest = set(content_stems(claim)) - verb
    for sentence in split_sentences(window):
        text = sentence.text
        if any(verb & set(content_stems(m.group("verb"))) for m in _REMEDY.finditer(text)):
            continue  # "fixed the problem, which had persisted for months"
        for went_on in _WENT_ON.finditer(text):
            if negated_just_before(text[: went_on.start()]):
                continue
            if _BEFORE_IT.search(text[: went_on.start()]):
                continue  # "had persisted": before the remedy
            if not problem <= set(content_stems(text[: went_on.start()])):
                continue
            held = rest & set(content_stems(text))
            share = len(held) / len(rest) if rest else None
            return PersistingProblem(remedy.group(0), went_on.group(0), share)
    return None
