"""A cancelled event: the claim says it took place, the source says it was called off.

The model reads the shared event words as agreement (entailment 0.96 for "The marathon
was held in April 2021." against "The April 2021 marathon was called off after heavy
snow."). The cancelled thing must be the claim's subject (or, for "The band played its
farewell concert", the verb's event object), in the clause of the cancellation ("The
flights were cancelled after the accident" says nothing of whether the accident happened);
a source sentence that also says the event took place, or was postponed or rescheduled, is
left to the model. Moved out of :mod:`.roles` in session 29 (one concern per module).
"""

from __future__ import annotations

import re

from provgraph.verification.negation import negated_scopes
from provgraph.verification.roles import StateFinding, holder_stems, named_tokens
from provgraph.verification.sentences import split_sentences
from provgraph.verification.wordsets import YEAR_RE, clauses, content_stems, stem

_OCCURRED = (
    r"t(?:ook|akes?|aking) place|(?:went|goes?|going|gone) ahead|happened|occurred|premiered|"
    # a service that ran: "trains ran on Sunday" (not "ran a deficit", session 38)
    r"r(?:an|uns?)(?=\s+(?:on|at|during|every|each|as\s+(?:normal|usual|planned)))"
)
_TOOK_PLACE = re.compile(
    rf"\b(?:{_OCCURRED}|(?:was|were|is|are|been|being) (?:held|staged|played))\b", re.IGNORECASE
)
#: An active verb with an event as its object: "The band *played its farewell concert*".
_HOSTED_EVENT = re.compile(
    r"\b(?P<verb>gave|held|hosted|staged|played|performed|ran|organi[sz]ed)\s+"
    r"(?:(?:its|their|his|her|the|a|an)\s+)?(?P<event>(?:[A-Za-z-]+\s+){0,3}?"
    r"(?:concerts?|gigs?|shows?|match(?:es)?|games?|races?|festivals?|tours?|conferences?|"
    r"ceremony|ceremonies|parades?|summits?|premieres?|performances?|tournaments?|finals?|"
    r"recitals?|rall(?:y|ies)|marathons?))\b",
    re.IGNORECASE,
)
_CANCELLED = re.compile(
    r"\b(?:cancell?(?:ed|ation|s)?|cancel|call(?:ed|s|ing)? off|scrap(?:ped|s)?|scrubbed|axed)\b",
    re.IGNORECASE,
)
_NOT_FINAL = re.compile(r"\b(?:postpon|reschedul|reinstat|revers|overturn|resum)", re.IGNORECASE)
#: In the *source*, any sign the event took place after all ("cancelled and held online
#: instead"), auxiliary or not: the source then tells both stories and the model decides.
_TOOK_PLACE_AFTER_ALL = re.compile(rf"\b(?:{_OCCURRED}|held|staged|returned)\b", re.IGNORECASE)
_CAUSE_OR_TIME = re.compile(
    r"\b(?:after|because|due to|following|when|since|before|until|and|amid|over)\b",
    re.IGNORECASE,
)


def _cancellation_clause(sentence: str) -> str | None:
    """The stretch of ``sentence`` that says what was cancelled: the clause of the
    cue, cut where a cause or a time begins ("… called off *after heavy snow*")."""
    for clause in clauses(sentence):
        cue = _CANCELLED.search(clause.text)
        if cue is None:
            continue
        start, end = 0, len(clause.text)
        for cut in _CAUSE_OR_TIME.finditer(clause.text):
            if cut.end() <= cue.start():
                start = cut.end()
            elif cut.start() >= cue.end():
                end = min(end, cut.start())
        return clause.text[start:end]
    return None


def cancelled_event(claim: str, window: str) -> StateFinding | None:
    """The event the claim says took place that a source sentence says was cancelled."""
    took_place = _TOOK_PLACE.search(claim)
    hosted = None if took_place else _HOSTED_EVENT.search(claim)
    happened = took_place or hosted
    if happened is None or _CANCELLED.search(claim):
        return None
    claimed = stem(hosted.group("verb") if hosted else happened.group(0).split()[-1])
    if any(claimed in scope for _cue, scope in negated_scopes(claim)):
        return None  # "did not take place": a cancellation agrees
    # a hosted event is the verb's object, not the claim's subject
    holder = set(content_stems(hosted.group("event"))) if hosted else holder_stems(claim)
    if not holder:
        return None
    years = set(YEAR_RE.findall(claim))
    for sentence in split_sentences(window):
        text = sentence.text
        if _TOOK_PLACE_AFTER_ALL.search(text) or _NOT_FINAL.search(text):
            continue
        their_years = set(YEAR_RE.findall(text))
        if years and their_years and not years & their_years:
            continue  # "took place in 2021" / "the 2020 festival was cancelled"
        stretch = _cancellation_clause(text)
        if stretch is None or len(holder & set(content_stems(stretch))) * 2 < len(holder):
            continue
        cue = _CANCELLED.search(stretch)
        assert cue is not None
        negated = {w for _cue, scope in negated_scopes(text) for w in scope}
        if stem(cue.group(0).split()[0]) in negated:
            continue
        named = _naming_stems(claim) | holder
        share = len(named & set(content_stems(text))) / len(named)
        return StateFinding(happened.group(0).lower(), cue.group(0).lower(), share)
    return None


def _naming_stems(claim: str) -> set[str]:
    """Stems of the claim's names ("Berlin", "April"): with its subject, the words that say
    *which* event; "as planned", "on schedule" say how it went and are left out."""
    tokens, names = named_tokens(claim)
    return {s for start, end, _key in names for s in content_stems(" ".join(tokens[start:end]))}
