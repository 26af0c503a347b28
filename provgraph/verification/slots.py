"""Comparing values that speak of the same thing: the rule both quantity and date checks use.

A claim value is compared only with source values of the same *kind* (a
dimension such as a currency, a percentage, a mass, or a calendar date) that
are attached to the same words ("founded in 1987" / "established in 1995":
``founded`` on both sides). Values are intervals, so "more than 80" is
satisfied by 95 and "about 1.5 million" by 1,503,000. The outcome for one
claim value is:

Source values that name another measure ("long" / "high", "budget" / "cost",
"opened" / "closed": :mod:`~provgraph.verification.measures`) are not about the
same thing and are set aside first.

* ``agree``: a same-subject source value overlaps it;
* ``mismatch``: the best-anchored same-subject source values are all disjoint
  from it — the source gives that fact another value (a contradiction signal);
* ``unverified``: the source has values of this kind but none about the same
  subject (a weak "not supported" signal, never a contradiction);
* nothing: the source has no value of this kind (no signal at all).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from enum import StrEnum

from provgraph.verification.ambiguous_units import base_kind, sizes_in
from provgraph.verification.antonym_lexicon import LEXICON
from provgraph.verification.date_bounds import is_bound
from provgraph.verification.measures import different_measures, same_counted_noun
from provgraph.verification.wordsets import stem

#: Minimum anchor score (2 × shared near words + shared clause words) for two
#: values to be about the same thing: one shared neighbouring word, or two
#: shared words of the clause.
SAME_SUBJECT_SCORE = 2


#: Days in a year, for the first and last year of a span of years (ordinal dates).
_YEAR_DAYS = 365


@dataclass(frozen=True)
class Mention:
    """A value in a text: an interval of a kind, where it is, and the words around it."""

    kind: str
    low: float
    high: float
    surface: str
    start: int
    end: int
    near: frozenset[str]
    clause: frozenset[str]
    #: For counts: the counted noun's stems ("42 *people*"); counts of different
    #: things are never compared.
    noun: frozenset[str] = frozenset()
    #: Derived from other values (a share stated as two counts): it agrees with a
    #: claim value only where anchored to the same words, never by overlap alone.
    derived: bool = False
    #: A bare year that names an edition of a thing ("the *2020* festival", "its
    #: *2023* report"), not when something happened: compared only with another
    #: such year ("The 2020 Olympics were held in 2021" holds both).
    edition: bool = False
    #: A stated span of years ("from 2009 to 2015"): it states both of its ends, so two
    #: spans agree only end for end; against a single date it is the period it covers.
    span: bool = False

    def overlaps(self, other: Mention) -> bool:
        """Whether the two values can be the same number.

        ``self`` is the claim's value (:func:`compare`). Two stated spans are the same
        only with the same ends ("ran from 2010 to 2015" is not "from 2010 to 2018"); a
        claim's span agrees with one date only at its first or last year; a claim's date
        agrees with a source's span it falls in ("in 2012" / "from 2009 to 2015").

        A written value stands for the half-open interval its rounding covers:
        "four" is [3.5, 4.5), "five" [4.5, 5.5), so intervals that only touch
        ("four" / "five", "1.5" / "1.6") are different values; a point (an exact
        identifier, a value read without rounding) overlaps what contains it.
        """
        if self.span and other.span:
            return (self.low, self.high) == (other.low, other.high)
        if self.span:
            # the claim's span against one source date: the date must state one of its
            # ends ("served from 2017 to 2021" is not confirmed by "in 2019")
            first, last = (self.low, self.low + _YEAR_DAYS), (self.high - _YEAR_DAYS, self.high)
            return any(lo <= other.high and other.low <= hi for lo, hi in (first, last))
        if self.low == self.high or other.low == other.high:
            return self.low <= other.high and other.low <= self.high
        return self.low < other.high and other.low < self.high


class Outcome(StrEnum):
    AGREE = "agree"
    MISMATCH = "mismatch"
    UNVERIFIED = "unverified"
    NO_SIGNAL = "no_signal"


def anchor_score(a: Mention, b: Mention) -> int:
    """How strongly two values are attached to the same words."""
    return 2 * len(a.near & b.near) + len(a.clause & b.clause)


def _counted_alike(claim_value: Mention, source_value: Mention) -> int:
    """2 (one shared neighbour's worth) when two counts count the same things in other
    words ("100 *people*" / "300 *residents*", "2 million *books*" / "600,000 *volumes*").

    The counted noun is a count's strongest anchor, and a synonym shares no stem, so
    without this a count of the same attendance in other words was *unverified* on a
    single shared clause word ("the meeting"). Only beside such a word: two counts of
    people with nothing else in common ("The factory employs 3,000 workers." / "The
    museum attracts 2,000 visitors a day.") are about different things, and read as
    the same fact they made an unrelated source *contradicted* (session 32).
    """
    a, b = claim_value.noun, source_value.noun
    if not (a and b) or a & b or not same_counted_noun(b, a):
        return 0
    return 2 if anchor_score(claim_value, source_value) > 0 else 0


def comparable(
    claim_value: Mention, source_values: list[Mention], *, by_dimension: bool = False
) -> list[Mention]:
    """The source values that could state ``claim_value``: same kind, not of another
    measure ("long" / "high"), and for counts the same counted noun (a source count
    without one counts what its neighbouring words name).

    ``by_dimension``: a kind's dimension is enough ("mass:ton", a ton of unknown
    kind, and "mass"): the looser test, for "could the source be stating it at all".
    """

    def kind(m: Mention) -> str:
        return m.kind.split(":", 1)[0] if by_dimension else m.kind

    out = [
        v
        for v in source_values
        if kind(v) == kind(claim_value)
        and not different_measures(claim_value.near, v.near, kind=claim_value.kind)
    ]
    if claim_value.noun:
        # a count that ends its phrase ("a workforce of about 6,500") counts what its
        # own words name: they stand for its counted noun; a capacity counts whatever
        # its place holds ("seats 50,000 fans" / "a capacity of 35,000", session 39)
        out = [
            v
            for v in out
            if same_counted_noun(v.noun or v.near, claim_value.noun)
            or claim_value.near & (v.noun or v.near) >= _CAPACITY
        ]
    return out


_CAPACITY = frozenset({stem("capacity")})


def _opposed(claim_value: Mention, source_value: Mention) -> int:
    """2 (a shared neighbour's worth) when a word next to the source value is the opposite
    of one next to the claim's: "Exports *fell* in the third quarter … but rebounded in the
    fourth" — the third quarter is another statement's than "Exports *increased* in the
    fourth quarter", though it shares "exports" (session 28)."""
    opposite = any(LEXICON.get(word, frozenset()) & source_value.near for word in claim_value.near)
    return 2 if opposite else 0


def _in_kind(value: Mention, kind: str) -> Mention | None:
    """``value`` as the interval of every size its unit has in ``kind`` (a gallon, a ton:
    :mod:`.ambiguous_units`), or None."""
    sizes = sizes_in(value.kind, kind)
    if sizes is None:
        return None
    return replace(value, kind=kind, low=value.low * sizes[0], high=value.high * sizes[1])


def compare(claim_value: Mention, source_values: list[Mention]) -> tuple[Outcome, Mention | None]:
    """The outcome for one claim value and the source value that decided it. A gallon or a
    ton is read against the dimension's base unit as every size it has
    (:mod:`.ambiguous_units`)."""
    source_values = [_in_kind(v, claim_value.kind) or v for v in source_values]
    same_kind = [v for v in source_values if v.kind == claim_value.kind]
    base = base_kind(claim_value.kind)
    if not same_kind and base and any(v.kind == base for v in source_values):
        # "662 tons" against tonnes: an interval this wide meets any open bound ("over 300
        # metric tons when submerged"), so only the source's stated values are read
        claim_value = _in_kind(claim_value, base) or claim_value
        same_kind = [
            v
            for v in source_values
            if v.kind == claim_value.kind and v.low > 0 and math.isfinite(v.high)
        ]
    if not same_kind:
        return Outcome.NO_SIGNAL, None
    same_kind = comparable(claim_value, same_kind)
    if not same_kind:
        return Outcome.UNVERIFIED, None  # values of this kind, all of other measures or things
    scored = [
        (
            anchor_score(claim_value, v)
            + _counted_alike(claim_value, v)
            - _opposed(claim_value, v),
            v,
        )
        for v in same_kind
    ]
    best = max(s for s, _ in scored)
    if best < SAME_SUBJECT_SCORE:
        overlapping = [v for v in same_kind if claim_value.overlaps(v) and not v.derived]
        if overlapping:
            return _agreeing(claim_value, overlapping[0])
        return Outcome.UNVERIFIED, None
    top = [v for s, v in scored if s == best]
    for v in top:
        if claim_value.overlaps(v):
            return _agreeing(claim_value, v)
    # an equally plausible value elsewhere in the same clause family may still agree
    for s, v in scored:
        if s >= SAME_SUBJECT_SCORE and claim_value.overlaps(v) and s >= best - 1:
            return _agreeing(claim_value, v)
    if is_bound(top[0].kind, top[0].low, top[0].high):
        # "grown long before 1492" says when it happened, not that it stopped: a source's
        # date bound never denies a claim's date (:mod:`.date_bounds`)
        return Outcome.UNVERIFIED, None
    return Outcome.MISMATCH, top[0]


def _agreeing(claim_value: Mention, source_value: Mention) -> tuple[Outcome, Mention | None]:
    """An overlapping source value agrees, unless both are bounds the same way and the
    source's is the looser: "up to 12 passengers" does not state "at most 8 people", nor
    "more than 50" "more than 80" (session 28: such pairs overlap, and read as support).
    Then the value is unverified: the source says less than the claim, not the opposite."""
    if is_bound(source_value.kind, source_value.low, source_value.high) and not is_bound(
        claim_value.kind, claim_value.low, claim_value.high
    ):
        # "since 1928" holds 2016 but does not state it (:mod:`.date_bounds`)
        return Outcome.UNVERIFIED, None
    upper = claim_value.low == -math.inf and source_value.low == -math.inf
    lower = claim_value.high == math.inf and source_value.high == math.inf
    if (upper and source_value.high > claim_value.high) or (
        lower and source_value.low < claim_value.low
    ):
        return Outcome.UNVERIFIED, None
    return Outcome.AGREE, source_value
