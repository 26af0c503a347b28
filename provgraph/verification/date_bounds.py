"""A date read as a bound: "before 1492" is every day before 1492, not the year 1492.

The date reader (:mod:`.dates`) turns "1492" into that year's days. After "before",
"prior to", "after" or "since" the phrase names one end of a period instead:
"Chilis grew in the Americas *before 1492*" states the claim "… in 1490", and denies "…
in 1495"; read as the year, it was a mismatch with 1490 — a contradiction (a
Factcheck-GPT dev row, session 30). A bound keeps the date's finite end and runs to the
first or last day the calendar holds, so every comparison of intervals reads it without
an infinity. Only dates with a year are bounded ("before March" may be any year's).
A duration before the word makes the phrase a date ("two years after the 2018
election" is 2020), and an event of the year may stand between ("after the election of
2018"). A negated bound is the other side of its date ("has not released an album since 2010":
the last one in 2010 or before; session 38): "released her latest album in 2019" is a
mismatch, "in 2008" agrees — read as a bound, the two were the other way round.

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
    r"\b(?P<word>before|prior\s+to|after|since)\s+(?:the\s+)?"
    # an event of the year ("after the election of 2018"), not a part of it ("before the
    # end of 2020" is no bound before 2020)
    r"(?:(?!(?:start|end|beginning|middle|close|turn)\b)[a-z]+\s+of\s+(?:the\s+)?)?$",
    re.IGNORECASE,
)
_BOUND_REACH = 40
#: A duration right before the bound word: "*two years* after the 2018 election" is 2020,
#: a date, not a bound (session 38).
_OFFSET = re.compile(
    r"\b(?P<n>\d{1,2}|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
    r"\s+(?P<unit>years?|decades?)\s+$",
    re.IGNORECASE,
)
_COUNTS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip
#: A negation of the bound's clause before its word ("has *not* released an album since
#: 2010", "*no* president has visited since 1928"): up to a clause's end.
_NEGATED = re.compile(r"(?:\b(?:not|never|no|none|nobody|nothing)\b|n't\b)[^,;:.]*$", re.IGNORECASE)
_NEGATION_REACH = 80
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
    found = _BOUND.search(text[max(0, start - _BOUND_REACH) : start])
    if found is None:
        return low, high
    word = " ".join(found.group("word").lower().split())
    at = max(0, start - _BOUND_REACH) + found.start()
    offset = _OFFSET.search(text[max(0, at - 30) : at])
    if offset is not None and word in ("before", "after"):
        years = _COUNTS.get(offset.group("n").lower()) or int(offset.group("n"))
        years *= 10 if offset.group("unit").lower().startswith("decade") else 1
        return _shifted(low, years if word == "after" else -years), _shifted(
            high, years if word == "after" else -years
        )
    if _NEGATED.search(text[max(0, at - _NEGATION_REACH) : at]):
        # "has not released an album since 2010": none in the bound, so the last one in
        # or before 2010; "was not approved before 2015": in or after 2015
        return (low, LAST_DAY) if word in ("before", "prior to") else (_FIRST_DAY, high)
    if word in ("before", "prior to"):
        return _FIRST_DAY, low - 1
    if word == "after":
        return high + 1, LAST_DAY
    return low, LAST_DAY  # since


def _shifted(day: float, years: int) -> float:
    """The ordinal ``day`` moved by ``years`` calendar years (29 February to the 28th)."""
    d = date.fromordinal(int(day))
    try:
        return float(d.replace(year=d.year + years).toordinal())
    except ValueError:
        return float(d.replace(year=d.year + years, day=28).toordinal())


def is_bound(kind: str, low: float, high: float) -> bool:
    """Is this interval of a date a bound (one end at the calendar's first or last day)?"""
    return kind == "date" and (low == _FIRST_DAY or high == LAST_DAY)
