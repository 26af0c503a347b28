"""A change the source says did not happen: "raised interest rates" / "held rates steady".

A claim that something changed — a value raised, cut, increased or lowered by someone
("The bank raised interest rates in March."), or one that rose, fell, grew or declined
("Fares rose in 2022.") — is refuted by a source sentence saying the same thing held
still: *held / kept / left … steady, unchanged, stable, flat* or *on hold*, or
*remained / stayed / was … unchanged, steady, stable, flat*. The small NLI model reads
"The bank did raise interest rates in March." from "The central bank held interest rates
steady at its March meeting." as entailment (0.69), so the denied change "did not raise"
came out *contradicted* by the source that says it (session 41).

The changed thing must be in the sentence: every content word of the verb's object (a
transitive change) or of the claim's subject (an intransitive one), and every date word
or year of the claim ("held steady in April" says nothing of March). Never when the
claim denies the change (the rule is for the claim's positive form, read by
:mod:`.polarity`), when the still word is negated ("did not keep rates unchanged"), or
when the sentence also states a change ("raised rates in March and held them steady in
April": the still part may be another time).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from provgraph.verification.negation import negated_just_before, negated_scopes
from provgraph.verification.sentences import split_sentences
from provgraph.verification.wordsets import CALENDAR_NAMES, YEAR_RE, content_stems

_TRANSITIVE = (
    r"rais(?:e|es|ed|ing)|hik(?:e|es|ed|ing)|increas(?:e|es|ed|ing)|boost(?:s|ed|ing)?|"
    r"cut(?:s|ting)?|lower(?:s|ed|ing)?|reduc(?:e|es|ed|ing)|slash(?:es|ed|ing)?|"
    r"trim(?:s|med|ming)?|decreas(?:e|es|ed|ing)|chang(?:e|es|ed|ing)"
)
_INTRANSITIVE = (
    r"ros(?:e)|ris(?:e|es|en|ing)|f[ae]ll(?:s|en|ing)?|increas(?:e|es|ed|ing)|"
    r"decreas(?:e|es|ed|ing)|climb(?:s|ed|ing)?|jump(?:s|ed|ing)?|drop(?:s|ped|ping)?|"
    r"declin(?:e|es|ed|ing)|gr[eo]w(?:s|n|ing)?|shr[iau]nk(?:s|ing)?|soar(?:s|ed|ing)?|"
    r"plung(?:e|es|ed|ing)|chang(?:e|es|ed|ing)"
)
#: A clause end, a preposition, a number: where a transitive change's object ends.
_OBJECT_END = (
    r"(?=\s+(?:in|on|at|for|by|to|from|after|before|during|over|since|when|and|but|"
    r"amid|despite)\b|\s+\d|\s*[,.;:!?]|\s*$)"
)
_CHANGED_OBJECT = re.compile(
    rf"\b(?P<verb>{_TRANSITIVE})\s+(?!(?:by|to|from|in|on|at|for|over|\d)\b)"
    rf"(?P<thing>(?:[\w'-]+\s+){{0,4}}?[\w'-]+){_OBJECT_END}",
    re.IGNORECASE,
)
_CHANGED_SUBJECT = re.compile(
    rf"^(?P<thing>(?:[\w'-]+\s+){{0,5}}?[\w'-]+)\s+(?:have\s+|has\s+|had\s+)?"
    rf"(?P<verb>{_INTRANSITIVE})(?=\s+(?:by|to|from|in|on|at|for|over|sharply|slightly|"
    rf"steadily|\d)\b|\s+\$|\s*[,.;:!?]|\s*$)",
    re.IGNORECASE,
)
_STILL_WORD = r"(?:steady|unchanged|stable|flat|constant|on\s+hold)"
_HELD_STILL = re.compile(
    rf"\b(?:(?:held|holds|hold|holding|kept|keeps|keep|keeping|left|leaves|leave|"
    rf"leaving|maintained|maintains)\s+(?:[\w'-]+\s+){{0,5}}?{_STILL_WORD}|"
    rf"(?:remained|remains|stayed|stays|was|were|is|are|held|holds)\s+(?:\w+ly\s+)?"
    rf"{_STILL_WORD})\b",
    re.IGNORECASE,
)
_A_CHANGE = re.compile(rf"\b(?:{_TRANSITIVE}|{_INTRANSITIVE})\b", re.IGNORECASE)


@dataclass(frozen=True)
class HeldSteady:
    """The claim's change and the source's words that the changed thing held still."""

    change: str
    held: str
    #: share of the claim's other content words the sentence holds
    share: float | None


def _changed_thing(claim: str) -> tuple[str, str] | None:
    """``(the change as written, the thing changed)`` of ``claim``, else None."""
    text = claim.strip()
    subject = _CHANGED_SUBJECT.match(text)
    if subject is not None:
        return subject.group(0), subject.group("thing")
    changed = _CHANGED_OBJECT.search(text)
    if changed is not None:
        return changed.group(0), changed.group("thing")
    return None


def _times(text: str) -> set[str]:
    """The year numbers and calendar words (months, weekdays, seasons) of ``text``."""
    words = {w.lower().strip(".,;:") for w in text.split()}
    return set(YEAR_RE.findall(text)) | (words & CALENDAR_NAMES)  # its names are lower-case


def held_steady(claim: str, window: str) -> HeldSteady | None:
    """The claim's change that a sentence of ``window`` says did not happen, if any."""
    found = _changed_thing(claim)
    if found is None:
        return None
    change, thing = found
    thing_stems = set(content_stems(thing))
    verb_stems = set(content_stems(change)) - thing_stems
    said = verb_stems | thing_stems  # a scope's words are canonical: 'raise' is 'increas'
    if not thing_stems or any(said & set(s) for _cue, s in negated_scopes(claim)):
        return None
    times = _times(claim)
    rest = set(content_stems(claim)) - verb_stems
    for sentence in split_sentences(window):
        text = sentence.text
        if _A_CHANGE.search(text) or not times <= _times(text):
            continue
        stems = set(content_stems(text))
        if not thing_stems <= stems:
            continue
        for held in _HELD_STILL.finditer(text):
            if negated_just_before(text[: held.start()]):
                continue
            share = len(rest & stems) / len(rest) if rest else None
            return HeldSteady(change, held.group(0), share)
    return None
