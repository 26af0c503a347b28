"""Durations and dates the source relates by arithmetic.

**A source year that differs from the claim's by a duration the source states beside it.**

"The museum closed for renovation in 2020." against "The museum, which reopened in
2023 after a three-year renovation, …": the source's 2023 is not the claim's 2020,
but the same sentence states the three years between them, so the claim's year is
the source's arithmetic, not a contradiction (issue 14: the date checks called
such paraphrases contradictions). Which end of the duration the claim names is not
read ("opened in 1990 after three years of work" does not say when work began as
an event of its own), so such a pair is *unverified* — never a contradiction, and
never an agreement either: the NLI stages decide the support.

The test: the years' midpoints are as far apart as a duration of the source
sentence holding the source's year, within that duration's rounding ("three-year"
covers 2.5 to 3.5 years; a year's midpoint is exact to the year).

**A claim duration the source gives as two dates** ("Construction of the dam took
eight years." / "Work on the dam began in 1961 and was completed in 1969"; "lasted
three weeks" / "from 2 May to 23 May"): two dates of one source sentence whose
midpoints lie as far apart as the claim's duration (within its rounding) state it —
the NLI model cannot subtract (contradiction 0.94 on the dam). A span of two years
states its length from year to year: "reigned for four decades" / "reigned from 1910 to
1950" (session 38; the span is one date mention, its days 41 years apart).
"""

from __future__ import annotations

import re

from provgraph.verification.date_bounds import LAST_DAY, is_bound
from provgraph.verification.dates import extract_dates, in_year
from provgraph.verification.quantities import read_quantities
from provgraph.verification.sentences import split_sentences
from provgraph.verification.slots import Mention
from provgraph.verification.wordsets import sentence_around

_SECONDS_PER_DAY = 86_400.0
_DAYS_PER_YEAR = 365.25
#: A year of a stated span's surface ("from 1910 to 1950", "between 2009 and 2015").
_YEAR = re.compile(r"\b(?:1[0-9]{3}|20[0-9]{2})\b")


def bridged_by_duration(claim_date: Mention, source_date: Mention, window: str) -> bool:
    """Is ``claim_date`` ``source_date`` moved by a duration its sentence in ``window``
    states? Dates only (their bounds are day numbers); durations are "time" values
    in seconds."""
    if claim_date.kind != "date" or source_date.kind != "date" or source_date.derived:
        return False  # a relative year's own duration is how it was read (.relative_dates)
    apart = abs(_middle(claim_date) - _middle(source_date))
    sentence = sentence_around(window, source_date.start, source_date.end)
    return any(
        m.low / _SECONDS_PER_DAY <= apart <= m.high / _SECONDS_PER_DAY
        for m in read_quantities(sentence).mentions
        if m.kind == "time"
    )


def _middle(value: Mention) -> float:
    """The day a date names: its middle, or for a bound ("since 2009", "before 1492",
    :mod:`.date_bounds`) its finite end — "the first since 2009" and "2019" are a decade
    apart, though the bound runs to the calendar's last day."""
    if is_bound(value.kind, value.low, value.high):
        return value.low if value.high == LAST_DAY else value.high
    return (value.low + value.high) / 2


_DAY_KINDS = frozenset({"date", "date-in-year"})


def _comparable(first: Mention, second: Mention) -> tuple[Mention, Mention] | None:
    """Two dates on one day scale: both dated, both within a year, or the dated one's
    day of the year beside a yearless one ("from 2 May to 23 May 2019")."""
    if first.kind == second.kind:
        return first, second
    a = in_year(first) if first.kind == "date" else first
    b = in_year(second) if second.kind == "date" else second
    return None if a is None or b is None else (a, b)


def spanned_by_dates(duration: Mention, window: str) -> tuple[str, str] | None:
    """The two dates of a ``window`` sentence that are ``duration`` apart ("1961",
    "1969"), or None. ``duration``: a "time" value in seconds."""
    if duration.kind != "time":
        return None
    for sentence in split_sentences(window):
        dates = [d for d in extract_dates(sentence.text) if d.kind in _DAY_KINDS]
        for span in (d for d in dates if d.span):
            years = [int(y) for y in _YEAR.findall(span.surface)]
            apart = (years[-1] - years[0]) * _DAYS_PER_YEAR * _SECONDS_PER_DAY
            if len(years) == 2 and apart > 0 and duration.low <= apart <= duration.high:
                return str(years[0]), str(years[1])
        for i, first in enumerate(dates):
            for second in dates[i + 1 :]:
                pair = _comparable(first, second)
                if pair is None:
                    continue
                apart = abs(_middle(pair[1]) - _middle(pair[0])) * _SECONDS_PER_DAY
                if apart > 0 and duration.low <= apart <= duration.high:
                    return first.surface, second.surface
    return None
