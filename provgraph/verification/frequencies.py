"""How often: "four times a year", "quarterly", "every two weeks", "weekly" as events per year.

"The committee meets four times a year." and "The committee holds quarterly
meetings." state one frequency; "published every month" and "published weekly on
Fridays" two. The quantity reader saw "four times" as a bare count and nothing in
"quarterly"; read here as one kind, ``frequency`` (events per year), they are
compared like any value (:mod:`.slots`: same subject, interval overlap).

Forms read:

* "once / twice / N times a|per|each|every <period>", "once every N <periods>";
* "twice / N times" before an adverb of a period ("twice daily", "three times weekly");
* "every|each <period>", "every N <periods>", "every other <period>";
* adverbs after a verb ("meets monthly", "published weekly"): always;
* the same words as adjectives ("quarterly meetings", "an annual festival") only
  before a noun of recurring events: "quarterly revenue" or "annual growth" is the
  period a value covers, not how often something happens.

Calendar names ("every July", "each Monday") are left to the date reader: they
name *when*, and their frequency (yearly, weekly) would make "every July" agree
with "each September". A capitalised word inside a sentence is part of a name ("the
Guardian's Football Weekly podcast"), not a frequency.
"""

from __future__ import annotations

import re

from provgraph.verification.slots import Mention
from provgraph.verification.wordsets import SMALL_NUMBERS, near_stems

KIND = "frequency"

_PERIODS = {
    "minute": 525600.0,
    "hour": 8760.0,
    "day": 365.0,
    "night": 365.0,
    "week": 52.0,
    "fortnight": 26.0,
    "month": 12.0,
    "quarter": 4.0,
    "year": 1.0,
    "decade": 0.1,
    "century": 0.01,
}
_PERIOD = r"(?P<period>minute|hour|day|night|week|fortnight|month|quarter|year|decade|century)s?"
_ADVERBS = {
    "hourly": 8760.0,
    "daily": 365.0,
    "nightly": 365.0,
    "weekly": 52.0,
    "fortnightly": 26.0,
    "monthly": 12.0,
    "quarterly": 4.0,
    "biannually": 2.0,
    "semiannually": 2.0,
    "semi-annually": 2.0,
    "twice-yearly": 2.0,
    "annually": 1.0,
    "yearly": 1.0,
    "biennially": 0.5,
}
_ADJECTIVES = {
    **_ADVERBS,
    "annual": 1.0,
    "biannual": 2.0,
    "semiannual": 2.0,
    "semi-annual": 2.0,
    "biennial": 0.5,
    "triennial": 1 / 3,
}
_COUNTS = {"once": 1.0, "twice": 2.0, "thrice": 3.0}
_NUMBER = r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"

_TIMES_PER = re.compile(
    rf"\b(?:(?P<word>once|twice|thrice)|(?P<n>{_NUMBER})\s+times)\s+"
    rf"(?:a|an|per|each|every)\s+{_PERIOD}\b",
    re.IGNORECASE,
)
_ONCE_EVERY = re.compile(
    rf"\b(?:(?P<word>once|twice)\s+)?(?:every|each)\s+(?:(?P<other>other)\s+|(?P<n>{_NUMBER})\s+)?"
    rf"{_PERIOD}\b",
    re.IGNORECASE,
)
_EVENT_NOUNS = (
    r"meetings?|reports?|reviews?|inspections?|festivals?|events?|visits?|issues?|updates?|"
    r"payments?|sessions?|conferences?|checks?|tests?|surveys?|elections?|dividends?|"
    r"editions?|newsletters?|releases?|audits?|check-ups?|services?|flights?|departures?|"
    r"screenings?|summits?|gatherings?|fairs?|races?|exams?|examinations?|publications?|"
    r"magazines?|journals?|newspapers?|bulletins?|podcasts?|shows?|broadcasts?|episodes?|"
    r"installments?|instalments?|rounds?|cycles?|rotations?|deliveries|collections?"
)
#: A count of an adverb's period: "twice daily", "three times weekly" (session 32: "0.5 g
#: twice daily" read as once a day contradicted "500 mg twice a day").
_TIMES_ADVERB = re.compile(
    rf"\b(?:(?P<word>once|twice|thrice)|(?P<n>{_NUMBER})\s+times)\s+"
    r"(?P<adverb>hourly|daily|nightly|weekly|fortnightly|monthly|quarterly|annually|yearly)\b",
    re.IGNORECASE,
)
_WORDS = re.compile(
    r"\b(?P<word>" + "|".join(sorted(map(re.escape, _ADJECTIVES), key=len, reverse=True)) + r")\b"
    rf"(?P<event>\s+(?:{_EVENT_NOUNS})\b)?",
    re.IGNORECASE,
)
#: Words after which "weekly", "monthly" … end a verb phrase as its adverb ("published
#: weekly on Fridays"); any other word makes them an adjective ("a weekly column").
_AFTER_ADVERB = frozenset(
    [
        "on",
        "in",
        "at",
        "by",
        "for",
        "from",
        "to",
        "and",
        "or",
        "but",
        "since",
        "until",
        "during",
        "throughout",
        "with",
        "without",
        "via",
        "through",
        "except",
        "when",
        "while",
        "as",
        "after",
        "before",
        "instead",
        "rather",
    ]
)
#: Read as exact, up to this relative tolerance ("every month" 12 = "monthly" 12).
_TOLERANCE = 0.05


def _number(text: str | None) -> float:
    if not text:
        return 1.0
    return float(text) if text.isdigit() else SMALL_NUMBERS[text.lower()]


def _times(m: re.Match[str]) -> float:
    """How many times of a "once / twice / N times" match."""
    return _COUNTS[m.group("word").lower()] if m.group("word") else _number(m.group("n"))


def _spans(text: str) -> list[tuple[int, int, float, str]]:
    """``(start, end, events per year, surface)`` of every frequency form, no overlaps."""
    found: list[tuple[int, int, float, str]] = []

    def add(start: int, end: int, rate: float) -> None:
        if rate > 0 and not any(s < end and start < e for s, e, _r, _t in found):
            found.append((start, end, rate, text[start:end]))

    for m in _TIMES_PER.finditer(text):
        add(m.start(), m.end(), _times(m) * _PERIODS[m.group("period").lower()])
    for m in _TIMES_ADVERB.finditer(text):
        add(m.start(), m.end(), _times(m) * _ADVERBS[m.group("adverb").lower()])
    for m in _ONCE_EVERY.finditer(text):
        per = _PERIODS[m.group("period").lower()]
        count = _COUNTS[m.group("word").lower()] if m.group("word") else 1.0
        every = 2.0 if m.group("other") else _number(m.group("n"))
        add(m.start(), m.end(), count * per / every)
    for m in _WORDS.finditer(text):
        if m.group("word")[:1].isupper() and m.start() > 0:
            continue  # a name: "the Guardian's Football Weekly podcast", "Monthly Review"
        word = m.group("word").lower()
        nxt = re.match(r"\s*([A-Za-z-]+)", text[m.end() :])
        is_adverb = word in _ADVERBS and (nxt is None or nxt.group(1).lower() in _AFTER_ADVERB)
        if m.group("event") or is_adverb:
            add(m.start(), m.end("word"), _ADJECTIVES[word])
    return found


def extract_frequencies(text: str) -> list[Mention]:
    """Every frequency of ``text`` as a ``frequency`` :class:`Mention` (events per year)."""
    out: list[Mention] = []
    for start, end, rate, surface in sorted(_spans(text)):
        near, clause = near_stems(text, start, end)
        low, high = rate * (1 - _TOLERANCE), rate * (1 + _TOLERANCE)
        out.append(Mention(KIND, low, high, surface, start, end, near, clause))
    return out
