"""An event the claim says was called off, the source says went ahead.

The reverse of :mod:`.cancelled_events`: "The match was cancelled because of the rain."
against "The match went ahead as planned despite the rain." — the small NLI model reads
the shared words as agreement (fused support 0.82, *supported*; session 41). Three kinds
of calling off, each refuted by its own words of going on:

* cancelled, called off, scrapped, axed: the event *took place*, *went ahead*, *was held*;
* postponed, delayed, put off: it did so *as planned*, *on schedule*, *on time* (a
  postponed event takes place later, so "took place in June" alone is no refutation);
* suspended, halted: the service *continued* or *operated* / *ran normally, as usual*.

The called-off thing must be the claim's subject (at least half of its words in the
source sentence before the words of going on), the claim must not deny the calling off
("was not cancelled": the source agrees), the words of going on must not be negated
("did not go ahead"), and a sentence that also calls something off, postpones or resumes
it tells both stories and is left to the model; a year of the claim must be the
sentence's if it names one.
"""

from __future__ import annotations

import re

from provgraph.verification.negation import negated_just_before, negated_scopes
from provgraph.verification.roles import StateFinding, holder_stems
from provgraph.verification.sentences import split_sentences
from provgraph.verification.wordsets import YEAR_RE, content_stems

_ON_PLAN = r"(?:as\s+(?:planned|scheduled|usual|normal)|on\s+(?:schedule|time)|normally)"
_OCCURRED = (
    r"t(?:ook|akes?) place|(?:went|goes?) ahead|(?:was|were) (?:held|staged|played)|"
    r"proceeded|happened"
)
#: (the claim's words of calling off, the source's words of going on)
_KINDS = (
    (
        re.compile(r"\b(?:cancell?ed|called off|scrapped|axed|scrubbed)\b", re.IGNORECASE),
        re.compile(rf"\b(?:{_OCCURRED})\b", re.IGNORECASE),
    ),
    (
        re.compile(r"\b(?:postponed|delayed|put off|pushed back)\b", re.IGNORECASE),
        re.compile(rf"\b(?:{_OCCURRED}|began|started|opened)\s+{_ON_PLAN}", re.IGNORECASE),
    ),
    (
        re.compile(r"\b(?:suspended|halted)\b", re.IGNORECASE),
        re.compile(
            rf"\b(?:continued(?:\s+to\s+(?:operate|run|sail|fly|work))?|"
            rf"(?:operated|ran|sailed)\s+{_ON_PLAN})",
            re.IGNORECASE,
        ),
    ),
)
#: Any calling off, delay, pause or resumption in the source sentence: both stories told
#: ("continued after a short pause", "went ahead a week later").
_BOTH_STORIES = re.compile(
    r"\b(?:cancel|call(?:ed)? off|scrap|axed|postpon|delay|suspend|halt|resum|reschedul|"
    r"interrupt|paus|restart|later|again)\w*",
    re.IGNORECASE,
)


def went_ahead(claim: str, window: str) -> StateFinding | None:
    """The event ``claim`` says was called off that a sentence of ``window`` says went on."""
    found = next(((m, on) for off, on in _KINDS if (m := off.search(claim))), None)
    if found is None:
        return None
    cue, going_on = found
    cue_stems = set(content_stems(cue.group(0)))
    if any(cue_stems & set(scope) for _cue, scope in negated_scopes(claim)):
        return None  # "The match was not cancelled": the source agrees
    holder = holder_stems(claim)
    if not holder:
        return None
    years = set(YEAR_RE.findall(claim))
    rest = set(content_stems(claim)) - cue_stems
    for sentence in split_sentences(window):
        text = sentence.text
        if _BOTH_STORIES.search(text) or (years and not years <= set(YEAR_RE.findall(text))):
            continue
        for went in going_on.finditer(text):
            before = text[: went.start()]
            if negated_just_before(before):
                continue
            if len(holder & set(content_stems(before))) * 2 < len(holder):
                continue
            share = len(rest & set(content_stems(text))) / len(rest) if rest else None
            return StateFinding(cue.group(0).lower(), went.group(0).lower(), share)
    return None
