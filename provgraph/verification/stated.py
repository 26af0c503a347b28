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


def years_of(text: str) -> frozenset[str]:
    """The four-digit years written in ``text``."""
    return frozenset(YEAR_RE.findall(text))


def _occurrences(written: str, source: str) -> list[re.Match[str]]:
    """Where ``written`` (a number as the claim writes it) stands as a whole in ``source``."""
    pattern = rf"(?<![\w.]){re.escape(written)}(?![\w])"
    return list(re.finditer(pattern, source, flags=re.IGNORECASE))


def _counted_after(source: str, end: int) -> frozenset[str] | None:
    """Content stems of the word right after a number ending at ``end`` ("5,000 *cars*");
    None when no word follows it directly."""
    counted = _COUNTED_RE.match(source, end)
    return frozenset(content_stems(counted.group(1))) if counted else None


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
    an occurrence in a sentence anchored to other years than the claim's
    (``years``): "2,890 tonnes in 2021" does not state "2,890 tonnes in 2016".
    """
    numbers = [m.group(0) for m in WRITTEN_NUMBER_RE.finditer(value.surface)]
    if not numbers:
        return False
    written = value.surface if whole else numbers[0]
    for m in _occurrences(written, source)[:_MAX_OCCURRENCES]:
        around = set(content_stems(source[max(0, m.start() - 80) : m.end() + 80]))
        if 2 * len(value.near & around) + len(value.clause & around) < SAME_SUBJECT_SCORE:
            continue
        if different_measures(value.near, _near_occurrence(source, m.start(), m.end())):
            continue
        counted = _counted_after(source, m.end())
        if value.noun and counted is not None and not value.noun & counted:
            continue  # "sold 5,000 cars" does not state "employs 5,000 people"
        sentence = sentence_around(source, m.start(), m.end())
        there = years_of(sentence)
        if years and there and not years & there:
            continue  # the figure of another year
        if not whole and _in_another_unit(value, source, m.start()):
            continue  # "40 degrees Fahrenheit" does not state "40 degrees Celsius"
        return True
    return False


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
