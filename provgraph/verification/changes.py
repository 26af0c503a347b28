"""Relative changes: "doubled", "fell by 20%", "a 10% rise" against "from A to B".

A claim's change word is a ratio new/old as an interval: "doubled" ≈ 2 (±10%),
"halved" ≈ 0.5, "tripled" ≈ 3, "rose by 20%" = 1.2 and "fell by 20%" = 0.8
(the percentage's own rounding kept), "more than doubled" ≥ 2, "nearly
halved" just above 0.5. A source's change is a pair of values of one kind,
"from 50,000 to 40,000" (:func:`~provgraph.verification.quantities.read_quantities`),
whose ratio is computed from both values' intervals.

Judged like any value (:mod:`~provgraph.verification.slots`): the claim's
change agrees with an overlapping source change, and is a mismatch only when
the source changes anchored to the same words all give another ratio ("fell by
20%" vs "dropped from 50,000 to 25,000"). Nothing is said when the source
gives no change "from A to B": the claim's percentage is then compared as a
plain value, as before.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from provgraph.verification.bounds import bounded
from provgraph.verification.fraction_words import FRACTION_BAND, fraction_percent
from provgraph.verification.slots import SAME_SUBJECT_SCORE, Mention, Outcome
from provgraph.verification.wordsets import BEFORE_PLAIN_VERB, SMALL_NUMBERS, near_stems

_MULTIPLIERS = {"doubl": 2.0, "tripl": 3.0, "trebl": 3.0, "quadrupl": 4.0, "halv": 0.5}
_UP = r"rose|rise[sn]?|increased?|grew|grown|climbed|jumped|gained|went up|up|soared|surged|raised"
_DOWN = (
    r"fell|fallen|dropped|declined|decreased|shrank|shrunk|down|cut|reduced|lowered|slumped|"
    r"plunged|went down|lost"
)
#: Verbs of a change up or down, for other modules' patterns (:mod:`.size_free`).
CHANGE_VERBS = rf"(?:{_UP}|{_DOWN})"
#: A size stated by a multiple ("doubled", "halved"): a change's size in a word.
MULTIPLIER_RE = re.compile(r"\b(?P<word>doubl|tripl|trebl|quadrupl|halv)(?:ed|es|ing|e)\b", re.I)
#: "fell by a third", "cut the risk of death by half", "grew by a quarter": a fraction
#: as the size of a change, the change verb at most five words before its "by"; an
#: approximation before the fraction ("by about a tenth") keeps its band.
BY_FRACTION_RE = re.compile(
    rf"\b(?:(?P<up>{_UP})|(?P<down>{_DOWN}))\b(?:\s+(?!by\b)[\w'-]+){{0,5}}?\s+by\s+"
    r"(?:(?:about|around|roughly|approximately|some|nearly|almost)\s+)?"
    r"(?P<frac>(?:a|one|two|three)[ -](?:half|thirds?|quarters?|fifths?|tenths?)|half)\b",
    re.IGNORECASE,
)
#: What may follow such a fraction: nothing, punctuation, or a word that starts the next
#: phrase. Anything else makes it a noun phrase's head ("by a third party", "by half
#: measures"), no size of a change.
_AFTER_FRACTION_RE = re.compile(
    r"\s*(?:$|[.,;:!?)\]]|(?:in|on|at|over|since|from|compared|and|but|to|between|after|"
    r"before|last|this|during|within|or|than|while|when|as|year|years|month|months)\b)",
    re.IGNORECASE,
)


#: "lost a quarter of its value", "gained half its value": a fraction of its own value
#: lost or gained is the size of a change, as "fell by a quarter" is (session 41).
OF_VALUE_RE = re.compile(
    r"\b(?:(?P<up>gained|added)|(?P<down>lost|shed|erased))\s+"
    r"(?:(?:about|around|roughly|approximately|some|nearly|almost)\s+)?"
    r"(?P<frac>(?:a|one|two|three)[ -](?:half|thirds?|quarters?|fifths?|tenths?)|half)\s+"
    r"(?:of\s+)?(?:its|their|the|his|her)\s+(?:(?:market|share|stock)\s+)?value\b",
    re.IGNORECASE,
)


def by_fractions(text: str) -> list[tuple[re.Match[str], float]]:
    """Every "<change verb> … by <fraction>" and "lost <fraction> of its value" of
    ``text`` and the fraction in percent, in text order."""
    out = []
    for m in BY_FRACTION_RE.finditer(text):
        pct = fraction_percent(m.group("frac"))
        if pct is not None and _AFTER_FRACTION_RE.match(text, m.end()):
            out.append((m, pct))
    for m in OF_VALUE_RE.finditer(text):
        pct = fraction_percent(m.group("frac"))
        if pct is not None:
            out.append((m, pct))
    return sorted(out, key=lambda found: found[0].start())


_PCT = r"(?P<pct>(?P<num>\d+(?:\.\d+)?)\s*(?:%|percent\b|per cent\b))"
_VERB_PCT_RE = re.compile(
    rf"\b(?:(?P<up>{_UP})|(?P<down>{_DOWN}))\s+(?:by\s+)?(?:(?:an?|some|just|well)\s+)?"
    rf"(?:(?:about|around|nearly|almost|roughly|more than|over|less than|under)\s+)?{_PCT}",
    re.IGNORECASE,
)
_PCT_NOUN_RE = re.compile(
    rf"{_PCT}\s+(?:(?P<up>increase|rise|jump|gain|growth|hike)|"
    rf"(?P<down>drop|fall|decline|decrease|cut|reduction|loss|slump))\b",
    re.IGNORECASE,
)
#: "rose by five percentage points", "fell 2.5 points", "a 3-point drop": a difference of
#: two percentages, not a ratio ("from 61% to 66%" is +5 points). Judged only against two
#: percentages (:func:`_ratio`): an index's "fell 300 points" meets no such pair.
_POINTS = (
    r"(?P<num>\d+(?:\.\d+)?|" + "|".join(sorted(SMALL_NUMBERS, key=len, reverse=True)) + r")"
    r"[\s-]*(?:(?:percentage|per\s?cent(?:age)?)[\s-]*)?points?\b"
)
_VERB_POINTS_RE = re.compile(
    rf"\b(?:(?P<up>{_UP})|(?P<down>{_DOWN}))\s+(?:by\s+)?(?:(?:an?|some|just|well)\s+)?"
    rf"(?:(?:about|around|nearly|almost|roughly|more than|over|less than|under)\s+)?{_POINTS}",
    re.IGNORECASE,
)
_POINTS_NOUN_RE = re.compile(
    rf"{_POINTS}\s+(?:(?P<up>increase|rise|jump|gain|growth)|"
    rf"(?P<down>drop|fall|decline|decrease|cut|reduction|loss))\b",
    re.IGNORECASE,
)
_MULTIPLIER_BAND = 0.1


@dataclass(frozen=True)
class Change:
    """A claim's relative change: the ratio new/old as ``[low, high]``, and where it is written.

    ``value_span``: the percentage it is written with (None for "doubled"), which
    is judged here instead of as a plain value when the source gives a change.
    """

    low: float
    high: float
    surface: str
    start: int
    end: int
    near: frozenset[str]
    clause: frozenset[str]
    value_span: tuple[int, int] | None
    #: A difference in percentage points (new − old), not a ratio new/old.
    points: bool = False


def _multiplier(text: str, m: re.Match[str]) -> tuple[float, float]:
    """The ratio of "doubled", "nearly halved", "more than tripled" as an interval.

    A decrease is bounded on its inverse ("more than halved": old/new ≥ 2).
    """
    ratio = _MULTIPLIERS[m.group("word").lower()]
    factor = ratio if ratio >= 1 else 1.0 / ratio
    low, high = bounded(text, m.start(), m.end(), factor, factor * _MULTIPLIER_BAND)
    if ratio >= 1:
        return max(1.0, low), high
    return (1.0 / high if high > 0 else 0.0), (1.0 / low if low > 0 else math.inf)


#: Words after which a multiplier's plain form is a verb ("expected *to* double", "will
#: double"): here "to" counts too, since no multiplier is a noun after it; elsewhere the
#: plain form is an adjective or a noun ("the *double* empathy problem", "a *triple* jump").
_BEFORE_PLAIN_VERB = re.compile(
    r"\b(?:to|" + "|".join(sorted(BEFORE_PLAIN_VERB)) + r")\s+$", re.IGNORECASE
)


def _is_change(text: str, m: re.Match[str]) -> bool:
    return not m.group(0).lower().endswith("e") or bool(
        _BEFORE_PLAIN_VERB.search(text, max(0, m.start() - 12), m.start())
    )


def extract_changes(text: str) -> list[Change]:
    """The relative changes ``text`` states, in text order."""
    out: list[Change] = []
    for m in MULTIPLIER_RE.finditer(text):
        if not _is_change(text, m):
            continue
        low, high = _multiplier(text, m)
        near, clause = near_stems(text, m.start(), m.end())
        out.append(Change(low, high, m.group(0), m.start(), m.end(), near, clause, None))
    for m, pct in by_fractions(text):
        span = (m.start("frac"), m.end("frac"))
        p_low, p_high = bounded(text, *span, pct, FRACTION_BAND)
        sign = 1.0 if m.group("up") else -1.0
        low, high = sorted((1.0 + sign * p_low / 100.0, 1.0 + sign * p_high / 100.0))
        near, clause = near_stems(text, m.start(), m.end())
        out.append(Change(max(0.0, low), high, m.group(0), m.start(), m.end(), near, clause, span))
    for pattern in (_VERB_PCT_RE, _PCT_NOUN_RE):
        for m in pattern.finditer(text):
            if any(c.start < m.end() and m.start() < c.end for c in out):
                continue
            num = m.group("num")
            places = len(num.split(".")[1]) if "." in num else 0
            p_low, p_high = bounded(
                text, m.start("num"), m.end("pct"), float(num), 0.5 * 10.0**-places
            )
            sign = 1.0 if m.group("up") else -1.0
            low, high = sorted((1.0 + sign * p_low / 100.0, 1.0 + sign * p_high / 100.0))
            near, clause = near_stems(text, m.start(), m.end())
            span = (m.start("pct"), m.end("pct"))
            out.append(
                Change(max(0.0, low), high, m.group(0), m.start(), m.end(), near, clause, span)
            )
    out += _point_changes(text)
    return sorted(out, key=lambda c: c.start)


def _point_changes(text: str) -> list[Change]:
    """The changes in percentage points of ``text``: their difference as ``[low, high]``."""
    out: list[Change] = []
    for pattern in (_VERB_POINTS_RE, _POINTS_NOUN_RE):
        for m in pattern.finditer(text):
            if any(c.start < m.end() and m.start() < c.end for c in out):
                continue
            num = m.group("num").lower()
            value = float(SMALL_NUMBERS.get(num, 0) if num in SMALL_NUMBERS else num)
            places = len(num.split(".")[1]) if "." in num else 0
            p_low, p_high = bounded(text, m.start("num"), m.end(), value, 0.5 * 10.0**-places)
            low, high = (p_low, p_high) if m.group("up") else (-p_high, -p_low)
            near, clause = near_stems(text, m.start(), m.end())
            span = (m.start("num"), m.end())
            out.append(Change(low, high, m.group(0), m.start(), m.end(), near, clause, span, True))
    return out


def _ratio(old: Mention, new: Mention, *, points: bool = False) -> tuple[float, float] | None:
    """new/old as an interval; with ``points``, new − old of two percentages."""
    if points:
        if old.kind != "percent" or new.kind != "percent":
            return None
        return new.low - old.high, new.high - old.low
    if old.low <= 0 or not all(math.isfinite(v) for v in (old.low, old.high, new.low, new.high)):
        return None
    # the ratio of the values as stated, not of the ends of their rounding intervals: "from
    # 10,000 to 11,000" is a 10 % rise, though each round number may be read as ±5 %, and
    # the worst ends (10,500 → 10,500 … 9,500 → 11,500) made it "0 to 21 %" — agreeing with
    # "rose by 20 percent" (session 30). Both values of one change are written alike, so
    # their rounding does not compound; a small slack remains for the claim's own rounding.
    ratio = (new.low + new.high) / (old.low + old.high)
    return ratio * (1 - _RATIO_SLACK), ratio * (1 + _RATIO_SLACK)


#: Relative slack around a stated change's ratio (see :func:`_ratio`).
_RATIO_SLACK = 0.03


def judge_change(
    change: Change, source: list[tuple[Mention, Mention]]
) -> tuple[Outcome, tuple[Mention, Mention] | None]:
    """Agree, mismatch or no signal for one claim change against the source's changes,
    and the source change (old, new) it agrees with (None unless it agrees)."""
    scored: list[tuple[int, tuple[float, float], tuple[Mention, Mention]]] = []
    for old, new in source:
        ratio = _ratio(old, new, points=change.points)
        if ratio is None:
            continue
        near = old.near | new.near
        score = 2 * len(change.near & near) + len(change.clause & (old.clause | new.clause))
        scored.append((score, ratio, (old, new)))
    if not scored:
        return Outcome.NO_SIGNAL, None
    best = max(s for s, _r, _p in scored)
    for score, (low, high), pair in scored:
        if score == best and change.low <= high and low <= change.high:
            return Outcome.AGREE, pair
    return (Outcome.MISMATCH if best >= SAME_SUBJECT_SCORE else Outcome.UNVERIFIED), None


_BY = re.compile(r"\s+by\s*$", re.IGNORECASE)


def change_rewrite(change: Change, old: Mention, new: Mention) -> tuple[str, str] | None:
    """``(claim surface, the same change in the source's values)``: "grew by 20%" →
    "grew from $50 million to $60 million", "doubled" → "doubled from 400 to 800".

    So the NLI model reads the change in the source's own wording (it reads "grew by
    20%" against "increased from $50 million to $60 million" as a contradiction). None
    for a change written as a noun ("a 20% rise"): no verb to keep.
    """
    if change.value_span is None:
        verb = change.surface
    else:
        verb = _BY.sub("", change.surface[: change.value_span[0] - change.start]).strip()
    if not re.search(r"[A-Za-z]", verb):
        return None
    return change.surface, f"{verb} from {old.surface.strip()} to {new.surface.strip()}"
