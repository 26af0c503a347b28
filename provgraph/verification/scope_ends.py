"""Where a negated scope ends, and what in it is no part of the predicate denied.

:mod:`.negation` reads the words after a cue ("not", "refused to", "without") as what it
denies, up to a few words. Some of those words belong to something else: a comparison's
baseline ("did not reduce infection *compared with placebo*"), a concession ("refused to
resign *despite mounting pressure*"), the event a "when" clause names ("Nobody was injured
*when the bus left the road*"), an adjunct clause of time or reason ("no longer flies to
Lisbon *after cutting the route*"), an adjunct after "without"'s noun phrase ("landed without
its landing gear *after a hydraulic failure*"), and the measure research writing puts
before an outcome ("*the rate of* infection"). Split from :mod:`.negation` in session 29.
"""

from __future__ import annotations

import re

#: How research writing quantifies an outcome: "did not reduce *the rate of* infection"
#: denies what "reduced *the risk of* infection" asserts. The measure is not the
#: predicate; the scope is read without it (session 18).
_MEASURE_OF = re.compile(
    r"\b(?:the\s+|a\s+|its\s+|their\s+)?(?:rates?|risks?|incidence|odds|likelihood|chances?|"
    r"frequency|occurrence|prevalence|levels?|numbers?)\s+of\b",
    re.IGNORECASE,
)
#: A comparison's baseline ends the negated scope: "did not reduce infection *compared
#: with placebo*" denies the reduction, whatever the claim says of the baseline.
_BASELINE = re.compile(
    r"\b(?:compared\s+(?:with|to)|relative\s+to|versus|vs\.?|than|in\s+comparison\s+(?:with|to))\b",
    re.IGNORECASE,
)


#: A concession ends the negated scope too: "refused to resign *despite mounting pressure*"
#: denies the resignation; the pressure is no part of what is denied.
_CONCESSION = re.compile(
    r"\b(?:despite|in\s+spite\s+of|amid|notwithstanding|regardless\s+of|even\s+(?:though|as))\b",
    re.IGNORECASE,
)


#: So does the event a "when" clause names: "Nobody was injured *when the bus left the
#: road*" denies injuries; the bus leaving the road is stated, not denied.
_EVENT_TIME = re.compile(r"\b(?:when|whenever)\b", re.IGNORECASE)


#: So does an adjunct clause of time or reason: "no longer flies to Lisbon *after cutting
#: the route*", "did not attend *because* she was ill". The cut route and the illness are
#: stated, not denied. Time words open a clause only before a gerund ("after cutting"):
#: "did not eat *after midnight*" keeps its time in the predicate (session 30).
_ADJUNCT_CLAUSE = re.compile(
    r"\b(?:after|before|since|while|until|upon)\s+[a-z]+ing\b|"
    r"\b(?:because|as\s+a\s+result\s+of)\b",
    re.IGNORECASE,
)


#: "without" denies a noun phrase, which ends at an adjunct or a conjunction: "landed
#: without its landing gear *after a hydraulic failure*" denies the landing gear, not the
#: failure.
_NOUN_PHRASE_END = re.compile(
    r"\b(?:after|before|during|since|following|because|due\s+to|in|on|at|and|or|but)\b",
    re.IGNORECASE,
)
#: The cues that deny a noun phrase: "without", "lacks" ("The village *lacks a doctor*
#: and residents travel 40 km": the residents' travel is stated, not denied; a second
#: conjunct, "lacks a doctor and a pharmacy", is denied with the first, so ending the
#: scope at "and" keeps the first conjunct's denial — session 30).
_NOUN_CUE = re.compile(r"without|lack(?:s|ed|ing)?", re.IGNORECASE)


def scope_text(after_cue: str, cue: str) -> str:
    """The text a cue's scope is read from: up to a comparison's baseline, a concession, a
    "when" clause or an adjunct clause of time or reason (after "without" or "lacks", up to
    its noun phrase's end), measures blanked."""
    if _NOUN_CUE.fullmatch(cue):
        after_cue = _NOUN_PHRASE_END.split(after_cue, maxsplit=1)[0]
    for end in (_BASELINE, _CONCESSION, _EVENT_TIME, _ADJUNCT_CLAUSE):
        found = end.search(after_cue)
        if found is not None:
            after_cue = after_cue[: found.start()]
    return _MEASURE_OF.sub(" ", after_cue)
