"""A date read as a bound: "before 1492" is every day before 1492, not the year 1492.

The date reader (:mod:`.dates`) turns "1492" into that year's days. After "before",
"prior to", "after" or "since" the phrase names one end of a period instead:
"Chilis grew in the Americas *before 1492*" states the claim "… in 1490", and denies "…
in 1495"; read as the year, it was a mismatch with 1490 — a contradiction (a
Factcheck-GPT dev row, session 30). A bound keeps the date's finite end and runs to the
first or last day the calendar holds, so every comparison of intervals reads it without
an infinity. Only dates with a year are bounded ("before March" may be any year's).

A bound in the *source* neither confirms a claim date nor denies one (:func:`is_bound`,
read by :func:`~provgraph.verification.slots.compare`): "grown long before 1492" says when
growing happened, not that it stopped, and "no president has visited *since 1928*" holds
2016 without stating it. Where a bound is the window value most attached to the claim
date, the date is unverified, and NLI reads the rest. A bound in the claim
("signed before 1990") is what the claim asserts: a source date outside it is a mismatch.
"""

from __future__ import annotations

import re
from datetime import date

#: The word right before a date that makes it a bound, or before its article ("before the
#: 1990s"); a degree before the word ("long before", "shortly after") changes nothing.
_BOUND = re.compile(
    r"\b(?P<word>before|prior\s+to|after|since)\s+(?:the\s+)?$",
    re.IGNORECASE,
)
_FIRST_DAY = float(date.min.toordinal())
#: The last day a bound runs to ("since 2009"); its other end is the date's own.
LAST_DAY = float(date.max.toordinal())


def bounded(text: str, start: int, kind: str, low: float, high: float) -> tuple[float, float]:
    """``(low, high)`` of the date at ``text[start:]``, as a bound when a bound word
    precedes it: before / prior to → the days before its first; after → the days after its
    last; since → from its first. Not "until": "did not go on sale *until* early 2020"
    names when it went on sale."""
    if kind != "date":
        return low, high
    found = _BOUND.search(text[max(0, start - 20) : start])
    if found is None:
        return low, high
    word = " ".join(found.group("word").lower().split())
    if word in ("before", "prior to"):
        return _FIRST_DAY, low - 1
    if word == "after":
        return high + 1, LAST_DAY
    return low, LAST_DAY  # since


def is_bound(kind: str, low: float, high: float) -> bool:
    """Is this interval of a date a bound (one end at the calendar's first or last day)?"""
    return kind == "date" and (low == _FIRST_DAY or high == LAST_DAY)
