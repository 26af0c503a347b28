"""Calendar dates in text as intervals: years, decades, centuries, quarters, halves, months, days.

"March 2024" vs "May 2024", "Q3" vs "Q4", "1st" vs "21st" and "1995" vs "1987"
are different dates; "2024" vs "March 2024", "Q1 2024" vs "February 2024",
"Q3 2024" vs "July–September 2024", "early 2024" vs "February 2024", "mid-March"
vs "15 March", "the spring of 2015" vs "April 2015" (seasons of the northern
hemisphere: a southern source's "spring" is September to November, a known limit)
and "the first of August" vs "1 August" are not (one is less
specific, or the same written otherwise). Regular expressions find the date phrases; the
day/month/year phrase itself is read by ``dateutil`` (ordinals, abbreviations,
"Sept.", day-month or month-day order) and validated (no 31 February).

Every date becomes a :class:`~provgraph.verification.slots.Mention` of kind
``date`` whose interval is in days since 0001-01-01; a date without a year (a
month, a quarter, a day of a month) has kind ``date-in-year`` and an interval
in days of a leap year, compared only with other dates' day-of-year intervals. A date
after "before", "after" or "since" is a bound (:mod:`.date_bounds`).
"""

from __future__ import annotations

import calendar
import re
from datetime import date, datetime

from dateutil import parser as dateutil_parser

from provgraph.verification.centuries import century_spans
from provgraph.verification.date_bounds import bounded
from provgraph.verification.ordinal_words import ORDINAL_WORDS
from provgraph.verification.relative_dates import relative_years
from provgraph.verification.slots import Mention
from provgraph.verification.wordsets import STOPWORDS, near_stems

_MONTH = (
    r"(?:Jan(?:uary|\.)?|Feb(?:ruary|\.)?|Mar(?:ch|\.)?|Apr(?:il|\.)?|May|June?|July?|"
    r"Aug(?:ust|\.)?|Sep(?:t(?:ember)?|\.)?\.?|Oct(?:ober|\.)?|Nov(?:ember|\.)?|Dec(?:ember|\.)?)"
)
_ORD_WORDS = list(ORDINAL_WORDS)
#: "first" … "thirty-first" → 1 … 31 (a day written in words: "the first of August")
ORDINAL_DAYS = {w: i + 1 for i, w in enumerate(_ORD_WORDS)}
ORDINAL_DAYS.update({f"twenty-{w}": 20 + i + 1 for i, w in enumerate(_ORD_WORDS[:9])})
ORDINAL_DAYS.update({f"twenty {w}": 20 + i + 1 for i, w in enumerate(_ORD_WORDS[:9])})
ORDINAL_DAYS.update({"thirtieth": 30, "thirty-first": 31, "thirty first": 31})
_ORD_WORD = "|".join(sorted(ORDINAL_DAYS, key=len, reverse=True))
#: a day in words only where it cannot be another ordinal: "the first of", "August first,"
_ORD_IN_WORDS = rf"(?:{_ORD_WORD})(?=\s+of\b|[\s,.;]*$|,?\s+[12]\d{{3}}\b|[,.;])"
_ORD = rf"(?:(?:[12][0-9]|3[01]|0?[1-9])(?:st|nd|rd|th)?|{_ORD_IN_WORDS})"
_YEAR = r"(?:1[0-9]{3}|20[0-9]{2})"
_DAY_MONTH_YEAR = re.compile(
    rf"\b(?:(?:the\s+)?(?P<d1>{_ORD})\s+(?:of\s+)?)?(?P<m>{_MONTH})(?![a-z])"
    rf"(?:\s+(?:the\s+)?(?P<d2>{_ORD})\b)?(?:,?\s+(?:of\s+)?(?P<y>{_YEAR})\b)?"
)
#: "of the year" after a quarter or half is part of the date, not a word anchoring it: as
#: an anchor it tied "the first half of the year" to a claim's "second half of the year"
#: more than the source's own "in the second half" (session 28).
_OF_THE_YEAR = r"\s+of\s+the\s+(?:fiscal\s+|financial\s+|calendar\s+)?year"
_QUARTER = re.compile(
    rf"\b(?:Q(?P<q>[1-4])|(?P<qw>first|second|third|fourth|1st|2nd|3rd|4th|final|last)\s+quarter)"
    rf"(?:\s*(?:of\s+)?(?:fiscal\s+|FY\s*)?(?P<y>{_YEAR})|{_OF_THE_YEAR})?\b",
    re.IGNORECASE,
)
_HALF = re.compile(
    rf"\b(?:H(?P<h>[12])|(?P<hw>first|second)\s+half)"
    rf"(?:\s*(?:of\s+)?(?P<y>{_YEAR})|{_OF_THE_YEAR})?\b",
    re.IGNORECASE,
)
#: A quarter or half named by its months: "the final three months of the year", "the
#: first six months of 2023". Only of a year: "the first three months of the trial" is
#: no date.
_MONTHS_OF_YEAR = re.compile(
    rf"\b(?P<w>first|opening|last|final|closing)\s+(?P<n>three|six|3|6)\s+months"
    rf"\s+of\s+(?:(?P<y>{_YEAR})\b|the\s+(?:fiscal\s+|financial\s+|calendar\s+)?year\b)",
    re.IGNORECASE,
)
#: The parts of a period: "early 2024", "mid-March", "the late 1990s".
_PART_WORDS = r"early|mid|middle of|late|end of|beginning of"
_PART = re.compile(rf"\b(?P<p>{_PART_WORDS})[\s-]+(?P<y>{_YEAR})\b", re.IGNORECASE)
_MONTH_RANGE = re.compile(
    rf"\b(?:(?:between|from)\s+)?(?P<m1>{_MONTH})(?![a-z])\s*(?:–|—|-|to|and|through|until|till)\s*"
    rf"(?P<m2>{_MONTH})(?![a-z])(?:,?\s+(?:of\s+)?(?P<y>{_YEAR})\b)?"
)
_PART_MONTH = re.compile(
    rf"\b(?P<p>{_PART_WORDS})[\s-]+(?P<m>{_MONTH})(?![a-z])"
    rf"(?:,?\s+(?P<y>{_YEAR})\b)?",
    re.IGNORECASE,
)
#: Days of the month of "early March" etc.: overlapping bands (loose on purpose)
_MONTH_PARTS = {"early": (1, 15), "beginning of": (1, 10), "mid": (8, 23)}
_MONTH_PARTS.update({"middle of": (8, 23), "late": (16, 31), "end of": (21, 31)})
#: A season of a year: "the spring of 2015", "summer 2019", "in the fall of 2008".
_SEASON = re.compile(
    rf"\b(?P<s>spring|summer|autumn|fall)\s+(?:of\s+)?(?P<y>{_YEAR})\b", re.IGNORECASE
)
#: Seasons of the northern hemisphere, loose: from the meteorological start (the 1st of
#: its first month) to the astronomical end (the solstice or equinox). Winter crosses a
#: year and is not read.
_SEASONS = {
    "spring": ((3, 1), (6, 21)),
    "summer": ((6, 1), (9, 22)),
    "autumn": ((9, 1), (12, 21)),
    "fall": ((9, 1), (12, 21)),
}
#: A season without a year, said as a time: "in (the) summer", "late summer", "early spring"
#: — not "summer camp" nor "the fall in prices" (a qualifier or "in" before it), and not
#: a season of a year (:data:`_SEASON`, read first).
_SEASON_IN_YEAR = re.compile(
    r"(?:\b(?P<p>early|mid|late)[\s-]+|(?<=\bin )(?:the\s+)?)(?P<s>spring|summer|autumn|fall)\b"
    r"(?!\s+(?:of\s+)?\d)",
    re.IGNORECASE,
)
#: The share of a season each qualifier covers, as fractions of its days: loose,
#: overlapping bands, as for a month's parts ("late summer" is August to the equinox).
_SEASON_PARTS = {"early": (0.0, 0.45), "mid": (0.25, 0.75), "late": (0.55, 1.0)}
_DECADE = re.compile(
    rf"\b(?:(?P<p>{_PART_WORDS})(?:\s+the)?[\s-]+)?(?:the\s+)?(?P<y>1[0-9]{{2}}0|20[0-9]0)s\b",
    re.IGNORECASE,
)
#: Years of a decade's parts ("the late 1990s": 1996–1999): loose, overlapping bands, as
#: a century's (:mod:`.centuries`), so that no convention makes a year a contradiction.
_DECADE_PARTS = {"early": (0, 4), "beginning of": (0, 2), "mid": (3, 7)}
_DECADE_PARTS.update({"middle of": (3, 7), "late": (6, 9), "end of": (8, 9)})
_ISO = re.compile(
    r"\b(?P<y>1[0-9]{3}|20[0-9]{2})-(?P<m>0[1-9]|1[0-2])-(?P<d>0[1-9]|[12][0-9]|3[01])\b"
)
_BARE_YEAR = re.compile(rf"(?<![\w$€£.,-])(?P<y>{_YEAR})(?![\w%]|[.,]\d)")
#: A span of years as one date: "from 2009 to 2015", "between 2009 and 2015", "2009–2015",
#: "2009-15" (session 18: its two years were each a date, so "in 2012" was a mismatch).
_YEAR_RANGE = re.compile(
    rf"(?<![\w$€£.,-])(?:from\s+(?P<a>{_YEAR})\s+(?:to|until|till|through)\s+(?P<b>{_YEAR})"
    rf"|between\s+(?P<c>{_YEAR})\s+and\s+(?P<d>{_YEAR})"
    rf"|(?P<e>{_YEAR})\s*[-\u2013\u2014]\s*(?P<f>{_YEAR}|\d{{2}}))(?![\w%]|[.,]\d)",
    re.IGNORECASE,
)

_QUARTER_WORDS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3}
_QUARTER_WORDS.update({"fourth": 4, "4th": 4, "final": 4, "last": 4})
_PARTS = {"early": (1, 4), "beginning of": (1, 2), "mid": (5, 8), "middle of": (5, 8)}
_PARTS.update({"late": (9, 12), "end of": (11, 12)})
_LEAP = 2000  # day-of-year intervals use a leap year so that 29 February fits


def _span(
    y: int | None, m1: int, m2: int, d1: int | None = None, d2: int | None = None
) -> tuple[str, float, float]:
    year = y if y is not None else _LEAP
    first = date(year, m1, d1 or 1)
    last = date(year, m2, d2 or calendar.monthrange(year, m2)[1])
    if y is None:
        base = date(_LEAP, 1, 1).toordinal()
        return "date-in-year", first.toordinal() - base, last.toordinal() - base
    return "date", first.toordinal(), last.toordinal()


def _season_in_year(match: re.Match[str]) -> tuple[str, float, float]:
    """ "late summer": the season's days of the year (:data:`_SEASONS`), cut to its part."""
    (m1, d1), (m2, d2) = _SEASONS[match.group("s").lower()]
    kind, low, high = _span(None, m1, m2, d1, d2)
    first, last = _SEASON_PARTS.get((match.group("p") or "").lower(), (0.0, 1.0))
    length = high - low
    return kind, round(low + first * length), round(low + last * length)


def _month_number(word: str) -> int | None:
    try:
        parsed: datetime = dateutil_parser.parse(word.rstrip("."), default=datetime(_LEAP, 1, 1))
        return parsed.month
    except (ValueError, OverflowError):
        return None


def _month_range(match: re.Match[str]) -> tuple[str, float, float] | None:
    """ "July–September 2024", "between July and September": first to last day."""
    m1, m2 = _month_number(match.group("m1")), _month_number(match.group("m2"))
    if m1 is None or m2 is None or m2 <= m1:
        return None  # "November–February" crosses a year: left to the single months
    return _span(int(match.group("y")) if match.group("y") else None, m1, m2)


def _part_of_month(match: re.Match[str]) -> tuple[str, float, float] | None:
    """ "early March 2024", "mid-March": a loose band of days of that month."""
    month = _month_number(match.group("m"))
    if month is None:
        return None
    year = int(match.group("y")) if match.group("y") else None
    first, last = _MONTH_PARTS[match.group("p").lower()]
    last = min(last, calendar.monthrange(year or _LEAP, month)[1])
    return _span(year, month, month, first, last)


#: A preposition of time just before a bare "May": the month, not the modal verb ("in May",
#: "until May"; "to May" and "and May" may be a name).
_MONTH_PREPOSITION = re.compile(
    r"\b(?:in|since|until|till|during|by|from|through|throughout|last|next|this)\s+$", re.I
)


def _day_month_year(match: re.Match[str]) -> tuple[str, float, float] | None:
    month_word, d1, d2, y = match.group("m"), match.group("d1"), match.group("d2"), match.group("y")
    if month_word == "May" and not (
        d1 or d2 or y or _MONTH_PREPOSITION.search(match.string, 0, match.start())
    ):
        return None  # the modal verb, most of the time; "in May" is the month
    if not (d1 or d2 or y) and match.start() > 0 and month_word[0].islower():
        return None
    day = d1 or d2
    default = datetime(_LEAP, 1, 1)
    phrase = match.group(0).replace("the ", " ")
    for word in (d for d in (d1, d2) if d and d.lower() in ORDINAL_DAYS):
        phrase = phrase.replace(word, str(ORDINAL_DAYS[word.lower()]))
    try:
        parsed = dateutil_parser.parse(phrase, default=default)
    except (ValueError, OverflowError):
        return None
    year = int(y) if y else None
    if day:
        return _span(year, parsed.month, parsed.month, parsed.day, parsed.day)
    return _span(year, parsed.month, parsed.month)


#: A year between a determiner or possessive and the noun it labels: "the 2020
#: festival", "its 2023 annual report", "Europe's 2022 summer". The next word must
#: be a content word ("the 2020 and 2021 seasons", "the 2020 to 2022 period" are
#: not labels of one thing).
_EDITION = re.compile(
    rf"(?:\b(?:the|a|an|its|their|his|her|our|this|that|whose|each|every)|'s)\s+"
    rf"(?P<y>{_YEAR})\s+(?P<next>[A-Za-z][A-Za-z-]*)",
    re.IGNORECASE,
)


def _edition_years(text: str) -> set[int]:
    """Start offsets of the years of ``text`` that name an edition of a thing."""
    return {
        m.start("y")
        for m in _EDITION.finditer(text)
        if m.group("next").lower() not in STOPWORDS and len(m.group("next")) > 2
    }


def _months_of_year(match: re.Match[str]) -> tuple[str, float, float] | None:
    """The months a :data:`_MONTHS_OF_YEAR` match names: the year's first or last three
    or six."""
    months = 3 if match.group("n").lower() in ("three", "3") else 6
    first = match.group("w").lower() in ("first", "opening")
    year = int(match.group("y")) if match.group("y") else None
    return _span(year, 1, months) if first else _span(year, 13 - months, 12)


def _year_range(match: re.Match[str]) -> tuple[str, float, float] | None:
    """The years a :data:`_YEAR_RANGE` match spans, both ends inclusive (None: not a range)."""
    first = match.group("a") or match.group("c") or match.group("e")
    last = match.group("b") or match.group("d") or match.group("f")
    start = int(first)
    end = int(first[:2] + last) if len(last) == 2 else int(last)
    if end <= start:
        return None
    return "date", date(start, 1, 1).toordinal(), date(end, 12, 31).toordinal()


_WEEKDAY_BEFORE = re.compile(
    r"\b(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday),?\s+$"
)


def extract_dates(text: str) -> list[Mention]:
    """Every date phrase of ``text`` as a :class:`Mention`, most specific phrase first per span."""
    found: list[tuple[int, int, tuple[str, float, float]]] = []

    def add(m: re.Match[str], value: tuple[str, float, float] | None) -> None:
        if value is None or any(s < m.end() and m.start() < e for s, e, _ in found):
            return
        found.append((m.start(), m.end(), value))

    for m in _ISO.finditer(text):
        add(
            m,
            _span(
                int(m.group("y")),
                int(m.group("m")),
                int(m.group("m")),
                int(m.group("d")),
                int(m.group("d")),
            ),
        )
    for m in _MONTH_RANGE.finditer(text):
        add(m, _month_range(m))
    for m in _PART_MONTH.finditer(text):
        add(m, _part_of_month(m))
    for m in _DAY_MONTH_YEAR.finditer(text):
        add(m, _day_month_year(m))
    for m in _QUARTER.finditer(text):
        q = int(m.group("q")) if m.group("q") else _QUARTER_WORDS[m.group("qw").lower()]
        add(m, _span(int(m.group("y")) if m.group("y") else None, 3 * q - 2, 3 * q))
    for m in _MONTHS_OF_YEAR.finditer(text):
        add(m, _months_of_year(m))
    for m in _HALF.finditer(text):
        h = int(m.group("h")) if m.group("h") else (1 if m.group("hw").lower() == "first" else 2)
        add(m, _span(int(m.group("y")) if m.group("y") else None, 6 * h - 5, 6 * h))
    for m in _PART.finditer(text):
        m1, m2 = _PARTS[m.group("p").lower()]
        add(m, _span(int(m.group("y")), m1, m2))
    for m in _SEASON.finditer(text):
        (m1, d1), (m2, d2) = _SEASONS[m.group("s").lower()]
        add(m, _span(int(m.group("y")), m1, m2, d1, d2))
    for m in _SEASON_IN_YEAR.finditer(text):
        add(m, _season_in_year(m))
    for start, end, value in century_spans(text):
        if not any(s < end and start < e for s, e, _ in found):
            found.append((start, end, value))
    for m in _YEAR_RANGE.finditer(text):
        add(m, _year_range(m))
    for m in _DECADE.finditer(text):
        y = int(m.group("y"))
        first, last = _DECADE_PARTS.get((m.group("p") or "").lower(), (0, 9))
        add(m, ("date", date(y + first, 1, 1).toordinal(), date(y + last, 12, 31).toordinal()))
    for m in _BARE_YEAR.finditer(text):
        add(m, _span(int(m.group("y")), 1, 12))
    relative = set()
    for start, end, year in relative_years(text):
        if 1 <= year <= 9999 and not any(s < end and start < e for s, e, _ in found):
            found.append((start, end, _span(year, 1, 12)))
            relative.add(start)
    editions = _edition_years(text)
    spans = {m.start() for m in _YEAR_RANGE.finditer(text) if _year_range(m) is not None}
    out: list[Mention] = []
    for start, end, (kind, low, high) in sorted(found):
        low, high = bounded(text, start, kind, low, high)  # "before 1492", "since 2010"
        # a weekday before the date is its apposition: "on Saturday, 14 June" takes the
        # words before the weekday as its own (the comma would cut them off; session 39)
        weekday = _WEEKDAY_BEFORE.search(text, max(0, start - 14), start)
        near, clause = near_stems(text, weekday.start() if weekday else start, end)
        surface = text[start:end]
        edition = start in editions and surface.isdigit()
        out.append(
            Mention(
                kind,
                float(low),
                float(high),
                surface,
                start,
                end,
                near,
                clause,
                derived=start in relative,
                edition=edition,
                span=start in spans and not surface.isdigit(),
            )
        )
    return out


def in_year(mention: Mention) -> Mention | None:
    """A full date's day-of-year view (for comparing with a date without a year)."""
    if mention.kind != "date":
        return mention
    first, last = date.fromordinal(int(mention.low)), date.fromordinal(int(mention.high))
    if first.year != last.year or (first.month, first.day, last.month, last.day) == (1, 1, 12, 31):
        return None
    _kind, low, high = _span(None, first.month, last.month, first.day, last.day)
    return Mention(
        "date-in-year",
        low,
        high,
        mention.surface,
        mention.start,
        mention.end,
        mention.near,
        mention.clause,
    )
