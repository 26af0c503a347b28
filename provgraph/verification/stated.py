"""Is a claim's number stated elsewhere in the source, next to the claim value's own words?

The consistency stage compares a claim value with the values of its evidence
window; the window the scorer picked may not be the passage that states the
fact. Before a mismatch is reported, the whole source is scanned (cheaply: no
parse of the whole source) for the claim's written number next to the claim
value's words — about the same thing (:func:`stated_elsewhere`); and an
unconfirmed count is set aside as another thing's when every occurrence of its
number counts another noun (:func:`counts_other_things`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from provgraph.verification.measures import different_measures, same_counted_noun
from provgraph.verification.quantities import read_quantities
from provgraph.verification.slots import SAME_SUBJECT_SCORE, Mention
from provgraph.verification.wordsets import (
    NUMBER,
    YEAR_RE,
    content_stems,
    near_stems,
    sentence_around,
)

#: A number as written (digits, thousands separators, decimals), as a whole word.
WRITTEN_NUMBER_RE = re.compile(rf"(?<![\w.])({NUMBER})(?:\.(\d+))?(?![\w])")
#: The word right after a number, when nothing separates them ("5,000 *cars*").
_COUNTED_RE = re.compile(r"[ \t]+([A-Za-z][A-Za-z-]*)")
#: Occurrences of a claim's number looked at by the scan: a bound on its cost for a
#: long claim of many values against a source repeating them.
_MAX_OCCURRENCES = 32


#: A scale word right after a number ("12 *million*").
_SCALE_AFTER = re.compile(r"\s*(thousand|million|billion|trillion)\b", re.IGNORECASE)


def plain_numbers(text: str) -> set[str]:
    """Written numbers normalised (``1,200`` → ``1200``, ``3.50`` → ``3.5``): a presence test."""
    out: set[str] = set()
    for m in WRITTEN_NUMBER_RE.finditer(text):
        whole = m.group(1).replace(",", "")
        frac = (m.group(2) or "").rstrip("0")
        written = f"{int(whole)}.{frac}" if frac else str(int(whole))
        scale = _SCALE_AFTER.match(text, m.end())
        # "12 million" is not the number 12
        out.add(f"{written}e{scale.group(1).lower()}" if scale else written)
    return out


def years_of(text: str) -> frozenset[str]:
    """The four-digit years written in ``text``."""
    return frozenset(YEAR_RE.findall(text))


#: Where a sentence turns to another period's figure: "rose 8% in 2021*, while*
#: 2022 saw a 2% fall", "$5M in 2023*, up from* $4M in 2022", "*; *in 2020 …".
_PERIOD_CLAUSE_STOPS = (
    ". ",
    "! ",
    "? ",
    "; ",
    ", while ",
    ", whereas ",
    ", but ",
    ", compared with ",
    ", compared to ",
    ", up from ",
    ", down from ",
    ", against ",
)


def years_around(text: str, start: int, end: int) -> frozenset[str]:
    """The years of the clause of ``text`` holding ``[start, end)``, the figure's period.

    A sentence may give two periods' figures; each belongs to the clause that
    names its year, split where the sentence turns to the other period
    (``_PERIOD_CLAUSE_STOPS``). A clause naming no year has its sentence's years
    ("In 2021 revenue grew 8%, while costs fell 2%": both are 2021's).
    """
    clause = years_of(sentence_around(text, start, end, stops=_PERIOD_CLAUSE_STOPS))
    return clause or years_of(sentence_around(text, start, end))


def _occurrences(written: str, source: str) -> list[re.Match[str]]:
    """Where ``written`` (a number as the claim writes it) stands as a whole in ``source``."""
    pattern = rf"(?<![\w.]){re.escape(written)}(?![\w])"
    return list(re.finditer(pattern, source, flags=re.IGNORECASE))


def _counted_after(source: str, end: int) -> frozenset[str] | None:
    """Content stems of the word right after a number ending at ``end`` ("5,000 *cars*");
    None when no word follows it directly."""
    counted = _COUNTED_RE.match(source, end)
    return frozenset(content_stems(counted.group(1))) if counted else None


def of_claim_years(window: str, mentions: list[Mention], years: frozenset[str]) -> list[Mention]:
    """The window's quantities a claim anchored to ``years`` may be compared with.

    A window of several sentences ("In 2021 … 2,710 tonnes. In 2022 … 2,890
    tonnes.") holds the figures of several years; a claim about 2016 is about the
    sentence that names 2016. When some sentence of the window names one of the
    claim's years, quantities in sentences naming only other years are dropped;
    otherwise (no year in common, or the claim has none) all are kept.
    """
    if not years:
        return mentions
    anchored = [(m, years_around(window, m.start, m.end)) for m in mentions]
    if not any(there & years for _, there in anchored):
        return mentions
    return [m for m, there in anchored if not there or there & years]


def stated_elsewhere(
    value: Mention, source: str, *, whole: bool, years: frozenset[str] = frozenset()
) -> bool:
    """Is the claim's written number in ``source`` next to the claim value's own words?

    The window the scorer picked may not be the passage that states the fact; a
    mismatch is only reported when the source does not also give the claim's
    number in the same words (a cheap scan: no parse of the whole source) —
    about the same thing: an occurrence whose own neighbours name another
    measure (:mod:`.measures`), or a count directly followed by another noun
    ("sold 5,000 cars" for "employs 5,000 people"), does not state it. Nor does
    an occurrence in a clause anchored to other years than the claim's
    (``years``): "2,890 tonnes in 2021" does not state "2,890 tonnes in 2016".
    """
    return any(
        not years or not there or bool(years & there)
        for there, _sentence in _periods_stating(value, source, whole=whole)
    )


def stated_for_other_years(value: Mention, source: str, years: frozenset[str]) -> bool:
    """Does ``source`` give the claim's figure as another year's, in a sentence that
    gives the claim's own year another figure?

    "Rent rose 8% in 2022" against "Rent rose 8% in 2021, while 2022 saw a 2%
    fall": the 8% is 2021's, and the same sentence speaks of 2022, so the claim
    pairs the figure with the wrong period. Every occurrence stating the same
    thing (as :func:`stated_elsewhere` reads them) must sit in a clause naming
    only other years, in a sentence naming one of the claim's. A sentence naming
    no claim year says nothing of the pairing: "Revenue increased to $4.5 billion
    from $4.0 billion in 2022, an increase of 12.5%" gives 2023's growth from a
    2022 baseline, the report's year named elsewhere.
    """
    if not years:
        return False
    periods = list(_periods_stating(value, source, whole=False))
    return bool(periods) and all(
        there and not years & there and years & sentence for there, sentence in periods
    )


def _periods_stating(
    value: Mention, source: str, *, whole: bool
) -> Iterator[tuple[frozenset[str], frozenset[str]]]:
    """``(years of its clause, years of its sentence)`` for every occurrence of
    ``value``'s number in ``source`` that states the same thing (the claim value's
    words around it, the same measure, counted noun and unit)."""
    numbers = [m.group(0) for m in WRITTEN_NUMBER_RE.finditer(value.surface)]
    if not numbers:
        return
    written = value.surface if whole else numbers[0]
    for m in _occurrences(written, source)[:_MAX_OCCURRENCES]:
        around = set(content_stems(source[max(0, m.start() - 80) : m.end() + 80]))
        if 2 * len(value.near & around) + len(value.clause & around) < SAME_SUBJECT_SCORE:
            continue
        if different_measures(
            value.near, _near_occurrence(source, m.start(), m.end()), kind=value.kind
        ):
            continue
        counted = _counted_after(source, m.end())
        if value.noun and counted is not None and not value.noun & counted:
            continue  # "sold 5,000 cars" does not state "employs 5,000 people"
        if not whole and _in_another_unit(value, source, m.start()):
            continue  # "40 degrees Fahrenheit" does not state "40 degrees Celsius"
        sentence = years_of(sentence_around(source, m.start(), m.end()))
        yield years_around(source, m.start(), m.end()), sentence


def _near_occurrence(source: str, start: int, end: int) -> frozenset[str]:
    """The neighbouring content words of ``source[start:end]`` (:func:`near_stems`), read
    in 200 characters on each side: the clause split of a whole long source per
    occurrence made a claim of many values quadratic in the source."""
    left = max(0, start - 200)
    return near_stems(source[left : end + 200], start - left, end - left)[0]


def _in_another_unit(value: Mention, source: str, at: int) -> bool:
    """Is the number at ``at`` of ``source`` read as a quantity that cannot be ``value``
    (another unit of the same dimension, or a value outside its interval once scaled)?"""
    read = _read_at(source, at)
    if read is None:
        return False
    return read.kind.split(":", 1)[0] == value.kind.split(":", 1)[0] and not (
        read.kind == value.kind and read.overlaps(value)
    )


@lru_cache(maxsize=4096)
def _read_at(source: str, at: int) -> Mention | None:
    """The quantity read around offset ``at`` of ``source`` (100 characters of context).

    Cached: every claim value with the same digits asks about the same occurrences.
    """
    start = max(0, at - 40)
    for mention in read_quantities(source[start : at + 60]).mentions:
        if mention.start <= at - start < mention.end:
            return mention
    return None


def counts_other_things(value: Mention, source: str) -> bool:
    """Does ``source`` use the claim's count only for other things?

    "sold 3,000 cars" does not state "employs 3,000 people": every occurrence of the
    written number is directly followed by a counted noun that is not the claim's
    (people and groups of people count as one, :func:`.measures.same_counted_noun`).
    """
    numbers = [m.group(0) for m in WRITTEN_NUMBER_RE.finditer(value.surface)]
    if not value.noun or not numbers:
        return False
    seen = False
    for m in _occurrences(numbers[0], source):
        counted = _counted_after(source, m.end())
        if not counted or same_counted_noun(counted, value.noun):
            return False
        seen = True
    return seen
