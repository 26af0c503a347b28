"""Two events in the wrong order: "The minister resigned after the report was published."
against "The minister resigned in June; the report was published in September."

The NLI model reads such pairs as entailment (every word is shared; the dates are
the only evidence of order), and the date checks compare a claim date with a source
date, not an order. The rule: a one-sentence claim "A after B" or "A before B"
whose B names no date of its own ("after 2010" is the date checks'), and a source
sentence with a dated clause for each side — the clause sharing most of that
side's content words, more than it shares of the other side's — the two clauses
different and their dates of one scale (both dated, or both within a year).
Disjoint dates in the order the claim denies conflict; overlapping dates ("in
2019" and "in March 2019") say nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from provgraph.verification.dates import extract_dates
from provgraph.verification.sentences import split_sentences
from provgraph.verification.slots import Mention
from provgraph.verification.wordsets import clauses, content_stems

_ORDER = re.compile(r"^(?P<a>.+?)\s+(?P<rel>after|before)\s+(?P<b>[^,;]+?)[.!?]?$", re.IGNORECASE)
_DIGIT = re.compile(r"\d")
_MIN_SIDE_WORDS = 1


@dataclass(frozen=True)
class OrderConflict:
    """The claim's order and the source's two dates."""

    relation: str
    first: str
    second: str


#: A clause dated by the one before it: "two months later", "a year earlier", "later that
#: year" (session 28: "The CEO resigned in January; two months later the company announced
#: the merger" gives the announcement no date of its own); "the following year", "the
#: previous month" (session 32).
_RELATIVE_TO_PREVIOUS = re.compile(
    r"\b(?:(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|several|a few|\d+)\s+"
    r"(?:days?|weeks?|months?|years?|decades?)\s+(?P<dir>later|earlier)"
    r"|(?P<that>later)\s+that\s+(?:day|week|month|year)"
    r"|the\s+(?:(?P<next>following|next|subsequent)|previous|preceding)\s+"
    r"(?:day|week|month|year|season|spring|summer|autumn|winter))\b",
    re.IGNORECASE,
)
_ANY_LATER = 36_600.0  # days: an open end that stays finite for the interval tests


def _dated_clauses(window: str) -> list[list[tuple[frozenset[str], Mention]]]:
    """Per sentence of ``window``: each clause's content stems and its first date (a clause
    dated only relative to the previous dated one gets the days after or before it)."""
    out = []
    for sentence in split_sentences(window):
        dated: list[tuple[frozenset[str], Mention]] = []
        for clause in clauses(sentence.text):
            dates = extract_dates(clause.text)
            words = frozenset(content_stems(clause.text))
            if dates:
                dated.append((words, dates[0]))
            elif dated and (rel := _RELATIVE_TO_PREVIOUS.search(clause.text)):
                prev = dated[-1][1]
                said = (rel.group("dir") or rel.group("that") or "").lower()
                later = said == "later" or rel.group("next") is not None
                low, high = (
                    (prev.high + 1, prev.high + _ANY_LATER)
                    if later
                    else (prev.low - _ANY_LATER, prev.low - 1)
                )
                dated.append((words, replace(prev, low=low, high=high, surface=rel.group(0))))
        out.append(dated)
    return out


def _side_date(
    side: set[str], other: set[str], dated: list[tuple[frozenset[str], Mention]]
) -> tuple[int, Mention] | None:
    """The clause sharing most of ``side``'s words (more than of ``other``'s) and its date."""
    scored = [
        (len(side & words), i, date)
        for i, (words, date) in enumerate(dated)
        if len(side & words) > len(other & words)
    ]
    if not scored:
        return None
    best, i, date = max(scored, key=lambda s: s[0])
    return (i, date) if best >= _MIN_SIDE_WORDS else None


def order_conflict(claim: str, window: str) -> OrderConflict | None:
    """The claim's "A after/before B" against two dated clauses of a ``window`` sentence."""
    m = _ORDER.match(claim.strip())
    if m is None or _DIGIT.search(m.group("b")) or extract_dates(m.group("b")):
        return None
    a, b = set(content_stems(m.group("a"))), set(content_stems(m.group("b")))
    a, b = a - b, b - a
    if not a or not b:
        return None
    relation = m.group("rel").lower()
    for dated in _dated_clauses(window):
        first, second = _side_date(a, b, dated), _side_date(b, a, dated)
        if first is None or second is None or first[0] == second[0]:
            continue
        x, y = first[1], second[1]
        if x.kind != y.kind:
            continue
        a_before_b = x.high < y.low
        a_after_b = x.low > y.high
        if (relation == "after" and a_before_b) or (relation == "before" and a_after_b):
            return OrderConflict(relation, x.surface, y.surface)
    return None
