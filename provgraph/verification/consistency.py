"""Consistency stage: numbers, years and negation that embeddings and NLI miss.

Cosine similarity rates "founded in 1457" against "established in 1603" as
close. This check extracts from the claim its numbers (years separately) and
whether it is negated, and compares them with the evidence window:

* a claim number (or year) is a *mismatch* when it occurs nowhere in the whole
  source while the evidence window has numbers of the same kind (so the source
  talks about that quantity but gives another value);
* an *anchored* mismatch is one where the word before the number is the same
  (up to synonyms) in claim and window — "founded in 1457" vs "established
  in 1603": the same fact with another value, a strong contradiction signal;
* a *negation mismatch* is a claim negated while the window is not, or the
  reverse, when the two share most content words (a weak signal: weighted low).

It is cheap (regular expressions), deterministic and explainable: the report
lists the mismatching values.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_NUMBER_RE = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?![\w])")
_NEGATION_RE = re.compile(
    r"\b(?:not|no|never|none|neither|nor|without|cannot|n't|denied|denies|false|fails?|failed)\b"
    r"|n't\b",
    re.IGNORECASE,
)
_WORD_RE = re.compile(r"[a-z]{3,}")
_STOP = frozenset(
    {
        "the",
        "and",
        "for",
        "with",
        "that",
        "this",
        "from",
        "was",
        "were",
        "are",
        "has",
        "had",
        "have",
        "its",
        "his",
        "her",
        "their",
        "not",
        "but",
        "also",
        "into",
        "than",
        "then",
        "which",
        "who",
        "whom",
        "whose",
        "been",
        "being",
    }
)


def _numbers(text: str) -> tuple[set[str], set[str]]:
    """(years, other numbers) normalised: ``1,200`` → ``1200``, ``3.50`` → ``3.5``."""
    years: set[str] = set()
    others: set[str] = set()
    for m in _NUMBER_RE.finditer(text):
        whole = m.group(1).replace(",", "")
        frac = (m.group(2) or "").rstrip("0")
        value = f"{int(whole)}.{frac}" if frac else str(int(whole))
        if not frac and len(whole) == 4 and 1000 <= int(whole) <= 2100:
            years.add(value)
        else:
            others.add(value)
    return years, others


_ANCHOR_WORD_RE = re.compile(r"[a-z]+")
_CANONICAL = {
    "established": "founded",
    "formed": "founded",
    "created": "founded",
    "incorporated": "founded",
    "launched": "founded",
    "started": "founded",
    "constructed": "built",
    "erected": "built",
    "completed": "built",
    "passed": "died",
    "born": "born",
}


def _anchors(text: str) -> list[tuple[str, bool, frozenset[str]]]:
    """Each number as ``(value, is_year, anchors)``: the up-to-3 content words before it.

    Anchors are canonicalised ("established" → "founded") so that "founded in
    1457" and "established in 1603" are recognised as values of the same fact.
    """
    out: list[tuple[str, bool, frozenset[str]]] = []
    for m in _NUMBER_RE.finditer(text):
        years, others = _numbers(m.group(0))
        value = next(iter(years or others), None)
        if value is None:
            continue
        before = _ANCHOR_WORD_RE.findall(text[max(0, m.start() - 60) : m.start()].lower())
        words = [w for w in before if len(w) > 2 and w not in _STOP][-3:]
        out.append((value, bool(years), frozenset(_CANONICAL.get(w, w) for w in words)))
    return out


def _anchored_mismatches(claim: str, window: str, mismatched: set[str]) -> tuple[str, ...]:
    """Mismatched claim values whose anchor word sits before another value in the window."""
    window_anchors = _anchors(window)
    found: list[str] = []
    for value, is_year, anchors in _anchors(claim):
        if value not in mismatched or not anchors:
            continue
        if any(y == is_year and v != value and anchors & a for v, y, a in window_anchors):
            found.append(value)
    return tuple(sorted(set(found)))


def _negated(text: str) -> bool:
    return bool(_NEGATION_RE.search(text))


def _content_words(text: str) -> set[str]:
    return {w for w in _WORD_RE.findall(text.lower()) if w not in _STOP}


@dataclass(frozen=True)
class ConsistencyResult:
    """What disagreed; ``penalty`` in [0, 1] (0 = nothing disagrees)."""

    year_mismatches: tuple[str, ...] = ()
    number_mismatches: tuple[str, ...] = ()
    negation_mismatch: bool = False
    anchored_mismatches: tuple[str, ...] = ()
    checked: bool = False
    details: dict[str, str] = field(default_factory=dict)

    @property
    def penalty(self) -> float:
        """0.8 for a year or number mismatch, +0.2 for a negation mismatch, capped at 1."""
        value = 0.8 if (self.year_mismatches or self.number_mismatches) else 0.0
        if self.negation_mismatch:
            value += 0.2
        return min(1.0, value)


def check_consistency(claim: str, window: str, source: str) -> ConsistencyResult:
    """Compare ``claim`` with its evidence ``window`` (and the whole ``source`` for presence)."""
    if not claim.strip() or not window.strip():
        return ConsistencyResult()
    c_years, c_nums = _numbers(claim)
    w_years, w_nums = _numbers(window)
    s_years, s_nums = _numbers(source)
    s_all = s_years | s_nums
    year_mm = tuple(sorted(y for y in c_years if w_years and y not in s_all))
    num_mm = tuple(sorted(n for n in c_nums if w_nums and n not in s_all))
    c_words, w_words = _content_words(claim), _content_words(window)
    overlap = len(c_words & w_words) / len(c_words) if c_words else 0.0
    neg_mm = overlap >= 0.6 and _negated(claim) != _negated(window)
    details: dict[str, str] = {}
    if year_mm:
        details["years_in_window"] = ", ".join(sorted(w_years)[:10])
    if num_mm:
        details["numbers_in_window"] = ", ".join(sorted(w_nums)[:10])
    anchored = _anchored_mismatches(claim, window, set(year_mm) | set(num_mm))
    return ConsistencyResult(year_mm, num_mm, neg_mm, anchored, True, details)
