"""Proportion words as percentages: "half of", "a third of", "one in four", "most".

The size of a change written as a fraction ("fell by a third", "cut by half") is a
percentage too, read where :mod:`~provgraph.verification.changes` reads the change.

"Three quarters of the members" and "75% of members" are one value;
a share stated as two counts ("102 of the 400 students", "Of the 400 students
who sat, 102 passed") is that value too (:func:`derived_shares`);
"over a third" is ``[33.3, 100]`` and "nearly half" just below 50 (the
comparatives of :mod:`~provgraph.verification.bounds`). Every proportion is
clipped to ``[0, 100]``. "At most" and "most" are told apart, and "a quarter
of a point" (a fraction of a unit, not of a population) is no proportion.
"""

from __future__ import annotations

import re

from provgraph.verification.bounds import bounded
from provgraph.verification.changes import by_fractions
from provgraph.verification.fraction_words import FRACTION_BAND, fraction_percent
from provgraph.verification.slots import Mention
from provgraph.verification.wordsets import (
    NUMBER,
    SMALL_NUMBERS,
    content_stems,
    near_stems,
    sentence_around,
)

_PROPORTION_RE = re.compile(
    r"\b(?P<frac>(?:a|one|two|three|four|nine)[ -](?:half|thirds?|quarters?|fifths?|tenths?)"
    r"|half)(?:\s+of\b|(?P<bare>(?=\s*(?:[.,;:!?)]|$))))"
    r"|\b(?P<num>\w+)\s+(?:in|out of)\s+(?P<den>\w+)\b"
    r"|(?<!\bat )(?<!\bthe )\b(?P<vague>the vast majority of|the majority of|a majority of|"
    r"most|nearly all|almost all|virtually all|a minority of|the minority of|"
    r"a small minority of|a tiny minority of|a large majority of|an overwhelming majority of|"
    r"hardly any|scarcely any|barely any|almost no|virtually no|almost none of|not all of|"
    r"not all|not every)\b",
    re.IGNORECASE,
)
#: A fraction ending its clause is a share ("Turnout was roughly two thirds."), except a
#: change's size ("fell by a third": :func:`by_fractions`), a cut ("cut in half") or a
#: mixed number ("two and a half").
_NOT_A_SHARE = re.compile(r"\b(?:by|in|and)\s*$", re.IGNORECASE)
_VAGUE = {
    "the vast majority of": (75.0, 100.0),
    "the majority of": (50.0, 100.0),
    "a majority of": (50.0, 100.0),
    "most": (50.0, 100.0),
    "nearly all": (85.0, 100.0),
    "almost all": (85.0, 100.0),
    "a minority of": (0.0, 50.0),
    "a small minority of": (0.0, 25.0),
    "a tiny minority of": (0.0, 10.0),
    "a large majority of": (60.0, 100.0),
    "an overwhelming majority of": (75.0, 100.0),
    "the minority of": (0.0, 50.0),
    "virtually all": (90.0, 100.0),
    # "hardly any respondents trusted it" / "only 6% trusted it": a small share
    "hardly any": (0.0, 15.0),
    "scarcely any": (0.0, 15.0),
    "barely any": (0.0, 15.0),
    "almost no": (0.0, 10.0),
    "virtually no": (0.0, 10.0),
    "almost none of": (0.0, 10.0),
    # "not all of the samples were contaminated" / "12 of the 40": any share short of all
    "not all of": (0.0, 99.5),
    "not all": (0.0, 99.5),
    "not every": (0.0, 99.5),
}


def extract_proportions(text: str) -> list[Mention]:
    """Every proportion word of ``text`` as a ``percent`` :class:`Mention`."""
    out: list[Mention] = []
    for m in _PROPORTION_RE.finditer(text):
        if re.match(r"\s+(?:a|an)\b", text[m.end() :], flags=re.IGNORECASE):
            continue  # "a quarter of a point": a fraction of a unit, not of a population
        if m.group("bare") is not None and _NOT_A_SHARE.search(text[: m.start()]):
            continue
        if m.group("frac"):
            pct = fraction_percent(m.group("frac"))
            if pct is None:
                continue
            low, high = bounded(text, m.start(), m.end(), pct, FRACTION_BAND)
        elif m.group("num"):
            num, den = m.group("num").lower(), m.group("den").lower()
            n = SMALL_NUMBERS.get(num, int(num) if num.isdigit() else None)
            d = SMALL_NUMBERS.get(den, int(den) if den.isdigit() else None)
            if n is None or not d or n > d or d > 1000:
                continue
            low, high = bounded(text, m.start(), m.end(), 100.0 * n / d, 1.0)
        else:
            low, high = _VAGUE[m.group("vague").lower()]
        near, clause = near_stems(text, m.start(), m.end())
        low, high = max(0.0, low), min(100.0, high)
        out.append(Mention("percent", low, high, m.group(0), m.start(), m.end(), near, clause))
    for m, pct in by_fractions(text):  # the size of a change: "fell by a third" = 33.3%
        start, end = m.span("frac")
        if any(o.start < end and start < o.end for o in out):
            continue
        low, high = bounded(text, start, end, pct, FRACTION_BAND)
        near, clause = near_stems(text, m.start(), m.end())
        out.append(
            Mention("percent", max(0.0, low), high, m.group("frac"), start, end, near, clause)
        )
    return sorted(out, key=lambda o: o.start)


#: "102 of the 400 students", "312 of its 3,050 applicants", "81 of 120 patients",
#: "6,500 of the forest's 10,000 hectares" (a possessive before the whole)
#: A count in digits or, two to twelve, in words ("four of the six stolen paintings"); not
#: "one of the 250 delegates" (a member, as in "every one of").
_COUNT = rf"(?:{NUMBER}|\b(?:{'|'.join(w for w in SMALL_NUMBERS if w not in ('zero', 'one'))})\b)"
_PART_OF_WHOLE = re.compile(
    rf"(?<![\d,.])(?P<part>{_COUNT})\s+of\s+(?:the|its|their|his|her|our|all)?\s*"
    r"(?:(?:the\s+)?[A-Za-z][\w-]*(?:'s|s')\s+)?"
    rf"(?P<whole>{_COUNT})(?![\d,.%])(?!\s*(?:%|percent|per cent))",
    re.IGNORECASE,
)
#: "Of the 400 students who sat the exam, 102 passed", "Of its 400 employees, 310 work from
#: home": the part is the first number after the clause's comma (at most six words on).
_OF_WHOLE_PART = re.compile(
    rf"\bof\s+(?:(?:the|its|their|his|her|our)\s+)?(?P<whole>{NUMBER})\b[^.,;:!?\d]{{1,80}},\s+(?:\w+\s+){{0,5}}?"
    rf"(?P<part>{NUMBER})(?![\d,.%])",
    re.IGNORECASE,
)


#: "$3.1 billion of the $9.4 billion budget", "€40m of its €250m fund": money (or any
#: amount with a scale) of a whole in the same scale words (session 28).
_AMOUNT = (
    r"(?:[$€£]|(?:EUR|USD|GBP|CHF|JPY)\s)?\s?(?P<{0}>\d+(?:\.\d+)?)"
    r"\s*(?P<{0}_scale>million|billion|thousand|bn|m)\b"
)
_AMOUNT_OF_WHOLE = re.compile(
    _AMOUNT.format("part")
    + r"\s+of\s+(?:(?:the|its|their|his|her|our|a|an)\s+)?(?:total\s+)?"
    + _AMOUNT.format("whole"),
    re.IGNORECASE,
)
_SCALES = {"thousand": 1e3, "million": 1e6, "m": 1e6, "billion": 1e9, "bn": 1e9}


def _amount_shares(text: str) -> list[Mention]:
    """Shares stated as two amounts with scale words, each exact to half a unit of its
    last written digit."""
    out: list[Mention] = []
    for m in _AMOUNT_OF_WHOLE.finditer(text):
        values = []
        for side in ("part", "whole"):
            written = m.group(side)
            scale = _SCALES[m.group(f"{side}_scale").lower()]
            decimals = len(written.partition(".")[2])
            values.append((float(written) * scale, 0.5 * 10**-decimals * scale))
        (part, part_tol), (whole, _tol) = values
        if not whole or part > whole:
            continue
        low, high = 100.0 * (part - part_tol) / whole, 100.0 * (part + part_tol) / whole
        words = _share_words(text, m.start(), m.end(), m.end("whole_scale"))
        surface = f"{m.group('part')} of {m.group('whole')}"
        out.append(
            Mention("percent", low, high, surface, m.start(), m.end(), words, words, derived=True)
        )
    return out


def derived_shares(text: str) -> list[Mention]:
    """Shares stated as two counts, as ``percent`` mentions ("102 of the 400" → 25.5).

    The counts themselves stay counts (these mentions are read beside them, not
    instead of them). A part larger than its whole, or a whole of 0, is no share;
    the value is exact to half a unit of the part.
    """
    out: list[Mention] = []
    for pattern in (_PART_OF_WHOLE, _OF_WHOLE_PART):
        for m in pattern.finditer(text):
            part, whole = _count(m.group("part")), _count(m.group("whole"))
            if not whole or part > whole:
                continue
            low = 100.0 * max(0.0, part - 0.5) / whole
            high = 100.0 * min(float(whole), part + 0.5) / whole
            words = _share_words(text, m.start(), m.end(), m.end("whole"))
            surface = f"{m.group('part')} of {m.group('whole')}"
            out.append(
                Mention(
                    "percent", low, high, surface, m.start(), m.end(), words, words, derived=True
                )
            )
    return out + _amount_shares(text)


def _count(written: str) -> int:
    """A count of :data:`_COUNT` as an integer ("3,050" → 3050, "six" → 6)."""
    word = written.lower()
    return SMALL_NUMBERS[word] if word in SMALL_NUMBERS else int(written.replace(",", ""))


def _share_words(text: str, start: int, end: int, whole_end: int) -> frozenset[str]:
    """What a share is *of*: its sentence's content stems, less the population counted
    ("students" of "400 students") — so that "a quarter of the staff work remotely" is
    not anchored to "102 of the 400 staff are based in Leeds" by "staff" alone."""
    sentence = sentence_around(text, start, end, stops=(". ", "! ", "? ", "; "))
    population = set(content_stems(text[whole_end : whole_end + 30])[:1])
    return frozenset(w for w in content_stems(sentence) if w not in population)
