"""Comparatives and hedges around a value: "more than 80", "up to 5", "nearly half".

One place for the words that turn a written value into an interval, shared by
numbers with units (:mod:`~provgraph.verification.quantities`) and proportion
words (:mod:`~provgraph.verification.proportions`), so that "over a third" and
"over 33%" read the same way:

* a lower bound ("more than", "at least", "over", "… or more") → ``[v, ∞)``;
* an upper bound ("less than", "under", "up to", "… or fewer") → ``(−∞, v]``
  (closed both: "more than 80" vs "80" is a rounding question, not a conflict);
* "nearly" / "almost" / "close to" → just below: ``[v − 10%, v]``, its lower end
  widened by the value's own rounding (a claim may round 48% to "nearly half"), its
  upper end not ("almost 200" is never 210, which the rounding of "200" would reach);
* "about" / "around" / "roughly" → ``v ± 10%``.
"""

from __future__ import annotations

import math
import re

INF = math.inf

ABOVE = re.compile(
    r"(?:more than|over|above|greater than|exceeding|in excess of|upwards of|beyond|"
    r"at least|no less than|not less than|no fewer than|a minimum of|minimum of|"
    r"just over|well over|just above)\s*\$?$"
)
BELOW = re.compile(
    r"(?:less than|under|below|fewer than|lower than|at most|up to|no more than|"
    r"not more than|a maximum of|maximum of|just under|well under|as few as)\s*\$?$"
)
#: A denied lower bound is an upper bound, checked before :data:`ABOVE` (which its last
#: words would match): "no more than 50" is at most 50.
NOT_ABOVE = re.compile(r"\b(?:no|not)\s+(?:more|greater|higher|larger)\s+than\s*\$?$")
JUST_BELOW = re.compile(r"(?:nearly|almost|close to|approaching|not quite)\s*\$?$")
APPROX = re.compile(
    r"(?:about|around|approximately|roughly|some|an estimated|estimated|circa|approx\.?|"
    r"~)\s*\$?$"
)
ABOVE_AFTER = re.compile(
    r"^\s*(?:or more|or higher|or above|and above|and over|or over|and older|or older|and up|"
    r"plus\b|\+)"
)
BELOW_AFTER = re.compile(
    r"^\s*(?:or less|or fewer|or lower|or below|and below|and under|and younger|or younger)"
)


def bounded(text: str, start: int, end: int, value: float, tol: float) -> tuple[float, float]:
    """The interval ``text[start:end]`` (read as ``value`` ± ``tol``) states, given its context.

    ``tol`` is the value's own rounding tolerance (half its last written digit,
    or a proportion word's band).
    """
    before = text[max(0, start - 30) : start].lower().rstrip()
    after = text[end : end + 15].lower()
    if NOT_ABOVE.search(before):  # "no more than 50" ends with "more than 50"
        return -INF, value
    if ABOVE.search(before) or ABOVE_AFTER.search(after):
        return value, INF
    if BELOW.search(before) or BELOW_AFTER.search(after):
        return -INF, value
    if JUST_BELOW.search(before):
        band = max(abs(value) * 0.1, tol)
        return value - band, value
    if APPROX.search(before):
        band = max(abs(value) * 0.1, tol)
        return value - band, value + band
    return value - tol, value + tol
