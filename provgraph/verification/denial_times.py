"""The times a denial may be limited to: "does not stop at the island *in winter*" denies
nothing of the summer, "skipped its dividend in 2020" nothing of 2023.

Years, and the names of days, months and seasons. Capitalised day and month names only
("may" is a verb); "fall" is left out (a verb too). Split from :mod:`.negation`
(session 32), which reads them for both the claim's and the source's denials.
"""

from __future__ import annotations

import re

from provgraph.verification.wordsets import CALENDAR_NAMES, YEAR_RE

_TIME_NAME = re.compile(
    r"\b(?:(?:"
    + "|".join(sorted(name.capitalize() for name in CALENDAR_NAMES))
    + r")s?|[Ss]pring|[Ss]ummer|[Aa]utumn|[Ww]inter)\b"
)


def times_named(text: str) -> set[str]:
    """The years and day, month and season names of ``text``, lower case."""
    return set(YEAR_RE.findall(text)) | {m.group(0).lower() for m in _TIME_NAME.finditer(text)}


def other_times(claim_times: set[str], their_times: set[str]) -> bool:
    """Do both sides name times and share none ("in 2020" / "in 2023", "in winter" / "in
    summer")? A denial at one time says nothing of another (session 31 added days, months
    and seasons to the years)."""
    return bool(claim_times and their_times and not claim_times & their_times)
