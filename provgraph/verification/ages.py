"""Ages as a kind of their own: "at the age of 84", "aged 65", "84 years old", "the 84-year-old".

Why: without it an age is a bare count or a duration. A bare count is compared
with the other counts of its clause, so "participants over the age of 65" against
"participants received two doses" was a number conflict about participants; a
duration is compared with durations, so "the 84-year-old actor" against "a career
of 60 years" was one too. An age is compared only with another age, in years.

An age in apposition to a name ("Maria Lind, 52, was appointed", "Maria Lind (52)") is
one too: a whole number up to 120 between a capitalised name and a comma or bracket.

Constraints: ages in years only ("18-month-old" stays a duration); the bound words
before the age phrase apply to it ("under the age of five" is at most five, "over
the age of 65" at least 65), and so do "and over" / "or older" after it.
"""

from __future__ import annotations

import math
import re

from provgraph.verification.bounds import bounded
from provgraph.verification.slots import Mention
from provgraph.verification.wordsets import CALENDAR_NAMES, near_stems

AGE_KIND = "age"

#: The age phrase before a number: "(at) the age of", "aged", "age", "ages".
_BEFORE = re.compile(
    r"(?i)\b(?:(?:the\s+)?ages?\s+(?:of\s+)?|aged\s+)"
    r"(?:(?:between|about|around|approximately|roughly|nearly|almost|over|under|"
    r"just over|just under)\s+)?$"
)
#: An age in apposition to a name: "Maria Lind, 52, was appointed", "Maria Lind (52)", or
#: to "the <role>": "The mayor, 47, was elected", "police said the suspect, 34, …" (session
#: 28; a whole number up to 120 between commas only, see :func:`age_interval`).
_NAME_BEFORE = re.compile(
    r"(?:\b[A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+)*|\b[Tt]he\s+[a-z-]+(?:\s+[a-z-]+)?)(?:,\s*|\s+\()$"
)
_APPOSITION_END = re.compile(r"^\s*[,)]")
#: Capitalised words before a number that are dates, not people: "In March, 12 …"
#: (the standard library's English month and weekday names; it runs in the C locale).
_NOT_NAMES = CALENDAR_NAMES
_WHOLE_YEARS = re.compile(r"^\d{1,3}$")
#: After a number in years: "84 years old", "84-year-old", "84 years of age".
_AFTER_YEARS = re.compile(r"(?i)^(?:[\s-]+old\b|\s+of\s+age\b|-olds?\b)")


def age_interval(
    text: str,
    start: int,
    end: int,
    unit: str,
    interval: tuple[float, float],
    tolerance: float,
) -> tuple[float, float] | None:
    """``interval`` as an age in years when the number at ``text[start:end]`` is one, else None.

    ``unit`` is the number's unit as read ("dimensionless" or "year"); ``interval`` what
    the number states on its own (its rounding, a range, a bound right before it),
    in that unit; ``tolerance`` its own rounding.
    """
    phrase = _BEFORE.search(text[max(0, start - 24) : start])
    if unit == "dimensionless" and phrase is not None:
        low, high = interval
        if math.isfinite(low) and math.isfinite(high):
            # a bound before the whole phrase: "under the age of five"
            centre = (low + high) / 2.0
            phrase_start = max(0, start - 24) + phrase.start()
            outer = bounded(text, phrase_start, end, centre, tolerance)
            if not (math.isfinite(outer[0]) and math.isfinite(outer[1])):
                return outer
        return interval
    if unit == "year" and _AFTER_YEARS.match(text[end : end + 12]):
        return interval
    if (
        unit == "dimensionless"
        and _WHOLE_YEARS.match(text[start:end])
        and 0 < int(text[start:end]) <= 120
        and _APPOSITION_END.match(text[end : end + 3])
        and _named(text[max(0, start - 60) : start])
    ):
        return interval
    return None


def _named(before: str) -> bool:
    """Does ``before`` end with a capitalised name and the apposition's comma or bracket?"""
    name = _NAME_BEFORE.search(before)
    return name is not None and name.group(0).split()[-1].strip(",(").lower() not in _NOT_NAMES


_DECADES = {
    "twenties": 20, "thirties": 30, "forties": 40, "fifties": 50,
    "sixties": 60, "seventies": 70, "eighties": 80, "nineties": 90,
}  # fmt: skip
#: A person's decade of life: "in her fifties", "in his early forties" (session 28).
_DECADE_AGE = re.compile(
    r"\bin\s+(?:his|her|their|my|your|our)\s+(?:(?P<part>early|mid|late)[\s-]+)?"
    r"(?P<decade>" + "|".join(_DECADES) + r")\b",
    re.IGNORECASE,
)
#: Years of a decade's parts, loose and overlapping (as :mod:`.dates` reads "the late 1990s").
_PARTS = {"early": (0, 4), "mid": (3, 7), "late": (6, 9)}


def extract_decade_ages(text: str) -> list[Mention]:
    """Each "in her fifties" of ``text`` as an age interval ([50, 60): ages 50 to 59)."""
    out = []
    for m in _DECADE_AGE.finditer(text):
        base = _DECADES[m.group("decade").lower()]
        first, last = _PARTS.get((m.group("part") or "").lower(), (0, 9))
        near, clause = near_stems(text, m.start(), m.end())
        low, high = float(base + first), float(base + last + 1) - 1e-9
        out.append(Mention(AGE_KIND, low, high, m.group(0), m.start(), m.end(), near, clause))
    return out
