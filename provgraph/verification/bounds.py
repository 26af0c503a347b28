"""Comparatives and hedges around a value: "more than 80", "up to 5", "nearly half".

One place for the words that turn a written value into an interval, shared by
numbers with units (:mod:`~provgraph.verification.quantities`) and proportion
words (:mod:`~provgraph.verification.proportions`), so that "over a third" and
"over 33%" read the same way:

* a lower bound ("more than", "at least", "over", "… or more") → ``[v, ∞)``;
* an upper bound ("less than", "under", "up to", "… or fewer") → ``(−∞, v]``
  (closed both: "more than 80" vs "80" is a rounding question, not a conflict);
* "just over" / "slightly more than" → just above: ``[v, v + 10%]`` (or the value's
  rounding, if wider): "just over three miles" is not eight kilometres;
* "nearly" / "almost" / "close to" / "just under" → just below: ``[v − 10%, v]``, its lower end
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
    r"well over)\s*\$?$"
)
BELOW = re.compile(
    r"(?:less than|under|below|fewer than|lower than|at most|up to|no more than|"
    r"not more than|a maximum of|maximum of|well under|as few as)\s*\$?$"
)
#: A denied lower bound is an upper bound, checked before :data:`ABOVE` (which its last
#: words would match): "no more than 50" is at most 50.
NOT_ABOVE = re.compile(r"\b(?:no|not)\s+(?:more|greater|higher|larger)\s+than\s*\$?$")
JUST_BELOW = re.compile(
    r"(?:nearly|almost|close to|approaching|not quite|just under|just below|"
    r"(?:slightly|a little|a bit|marginally) "
    r"(?:under|below|less than|fewer than|lower than))\s*\$?$"
)
#: "just over three miles" is a little above three, not any length past it: checked
#: before :data:`ABOVE`, whose "over" it ends with.
JUST_ABOVE = re.compile(
    r"(?:just|slightly|a little|a bit|marginally) (?:over|above|more than|greater than|"
    r"higher than)\s*\$?$"
)
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
    band = max(abs(value) * 0.1, tol)  # a hedge's reach: 10%, or the value's own rounding
    if JUST_ABOVE.search(before):
        return value, value + band
    if JUST_BELOW.search(before):
        return value - band, value
    if ABOVE.search(before) or ABOVE_AFTER.search(after):
        return value, INF
    if BELOW.search(before) or BELOW_AFTER.search(after):
        return -INF, value
    if APPROX.search(before):
        return value - band, value + band
    return value - tol, value + tol
