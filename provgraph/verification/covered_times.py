"""Times a universal phrase covers: "every day" covers Mondays, "all year" covers winter.

A claim that something happens "every day" or "all year round" speaks of each day of the
week and each season and month, so a source that denies or reverses it on one of them
("does not run on Sundays in winter", "is closed on Mondays") speaks of the claim's time,
though the two share no word for it. The rules that count shared words
(:mod:`.antonyms`, :mod:`.negation`) read these stems as the claim's own words.
"""

from __future__ import annotations

import calendar
import re

from provgraph.verification.dates import extract_dates
from provgraph.verification.wordsets import content_stems

_EVERY_DAY = re.compile(
    r"\b(?:every\s+(?:single\s+)?day|daily|all\s+week|seven\s+days\s+a\s+week|each\s+day)\b",
    re.IGNORECASE,
)
_ALL_YEAR = re.compile(
    r"\b(?:all\s+year(?:\s+round)?|year[\s-]round|every\s+day\s+of\s+the\s+year"
    r"|throughout\s+the\s+year|every\s+month|in\s+every\s+season)\b",
    re.IGNORECASE,
)
_DAYS = frozenset(content_stems(" ".join(calendar.day_name) + " weekend weekends"))
_DAYS |= frozenset(content_stems(" ".join(f"{d}s" for d in calendar.day_name)))
_YEAR_PARTS = frozenset(
    content_stems(
        " ".join(m for m in calendar.month_name if m) + " spring summer autumn fall winter"
    )
)


def covered_time_stems(text: str) -> frozenset[str]:
    """The stems of the days (and, for a whole year, the months and seasons) a universal
    time phrase of ``text`` covers; empty when it has none."""
    covered: set[str] = set()
    if _ALL_YEAR.search(text):
        covered |= _YEAR_PARTS | _DAYS
    if _EVERY_DAY.search(text):
        covered |= _DAYS
    return frozenset(covered)


def universal_time_words(text: str) -> frozenset[str]:
    """The content stems of ``text``'s universal time phrases themselves ("day" of "every
    day"): the claim words a covered time stands for."""
    words: set[str] = set()
    for pattern in (_EVERY_DAY, _ALL_YEAR):
        for m in pattern.finditer(text):
            words.update(content_stems(m.group(0)))
    return frozenset(words)


def shared_time_words(claim: str, sentence: str) -> frozenset[str]:
    """The claim's stems of a time the sentence names in other words: a claim date (no
    year) the sentence's date falls in ("the fourth quarter" / "the three months to
    December"), or a universal time and a day or season it covers ("every day" / "on
    Mondays"). Like a shared number, one more word in common
    (:func:`~provgraph.verification.opposite_subjects.same_subject`), and those words of
    the claim count as held by the sentence (:mod:`.antonyms`)."""
    words: set[str] = set()
    if covered_time_stems(claim) & set(content_stems(sentence)):
        words.update(universal_time_words(claim))
    stated = [d for d in extract_dates(sentence) if d.kind == "date-in-year"]
    for mention in extract_dates(claim):
        if mention.kind == "date-in-year" and any(mention.overlaps(s) for s in stated):
            words.update(content_stems(mention.surface))
    return frozenset(words)
