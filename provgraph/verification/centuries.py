"""Centuries as date intervals: "the 14th century", "the late nineteenth century", "the 1900s".

A century is read inclusively of both counting conventions — "the 14th century"
is 1300–1400, so that 1300 (popular) and 1400 (strict) both belong to it — because
a date check must never call a source's year a contradiction over a convention.
Its parts are loose, overlapping thirds ("early": the first 35 years, "mid": 30–70,
"late": the last 35). "The 1900s" (a decade-style name ending in 00) is read as the
century it also names, which contains the decade, for the same reason. The
adjectival form ("a 14th-century church") describes a thing, not when something
happened, and is not read; nor is a century "BC".
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date

from provgraph.verification.ordinal_words import ORDINAL_NUMBERS

#: "first" … "twenty-first" → 1 … 21
ORDINAL_WORDS = ORDINAL_NUMBERS | {"twenty-first": 21, "twenty first": 21}
_WORD = "|".join(sorted(ORDINAL_WORDS, key=len, reverse=True))
_ORDINAL = rf"(?:(?P<d>[1-9]|1[0-9]|2[01])(?:st|nd|rd|th)|(?P<w>{_WORD}))"
_CENTURY = re.compile(
    rf"\b(?:(?P<p>early|mid|middle of the|late|end of the|beginning of the)[\s-]+)?"
    rf"(?:the\s+)?{_ORDINAL}\s+century\b(?!\s*(?:BCE?|B\.C\.))",
    re.IGNORECASE,
)
_HUNDREDS = re.compile(r"\b(?:the\s+)?(?P<y>1[0-9]00|2000)s\b")
#: Years into the century of each part (loose, overlapping).
_PARTS = {
    "early": (0, 35),
    "beginning of the": (0, 20),
    "mid": (30, 70),
    "middle of the": (30, 70),
    "late": (65, 100),
    "end of the": (80, 100),
}


def _years(first: int, last: int) -> tuple[str, float, float]:
    return (
        "date",
        float(date(max(1, first), 1, 1).toordinal()),
        float(date(min(9999, last), 12, 31).toordinal()),
    )


def century_spans(text: str) -> Iterator[tuple[int, int, tuple[str, float, float]]]:
    """``(start, end, (kind, low, high))`` of every century phrase of ``text``."""
    for m in _CENTURY.finditer(text):
        n = int(m.group("d")) if m.group("d") else ORDINAL_WORDS[m.group("w").lower()]
        base = (n - 1) * 100
        lo, hi = _PARTS[m.group("p").lower()] if m.group("p") else (0, 100)
        yield m.start(), m.end(), _years(base + lo, base + hi)
    for m in _HUNDREDS.finditer(text):
        y = int(m.group("y"))
        yield m.start(), m.end(), _years(y, y + 99)
