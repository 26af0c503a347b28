"""A comparison the source makes with two values: "The bus is cheaper than the train."
against "A bus ticket costs $12, while the train fare is $30."; "twice as much power
as the old one" against "800 MW, compared with 400 MW for the old plant".

The NLI model cannot do the arithmetic, and the value checks compare a claim value
with a source value, not a claim comparison with two source values. Read here:

* the claim's comparisons (:func:`.directions.comparisons`: two sides, a dimension,
  a direction) and its ratios ("twice as much … as", "three times as many … as",
  "half as much as", "N times more / larger … than");
* a source sentence with exactly two values of one kind (a change's "62,000, up
  from 45,000 at the old ground" too), each attributed to one side: the words
  around a value (from the previous value, or the sentence start, to it; after it
  for the last one — else, read the other way, from it to the next value) that the
  other value's do not share must meet that side's words and not the other side's.

The comparison agrees when the values go its way (a ratio: within 10 % of the
stated factor) and is a mismatch otherwise. "Faster" / "slower" / "quicker" are judged by
the values' kind (session 31): the higher speed, or the shorter time taken. Other
dimensions whose direction depends on the unit ("older": a larger age but an earlier
year) are not judged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from provgraph.verification.ages import AGE_KIND
from provgraph.verification.dates import extract_dates
from provgraph.verification.directions import comparisons, letter_names
from provgraph.verification.quantities import read_quantities
from provgraph.verification.sentences import split_sentences
from provgraph.verification.slots import Mention
from provgraph.verification.stated import years_of
from provgraph.verification.wordsets import SMALL_NUMBERS, content_stems

#: Adjectives whose "more" is the smaller value ("cheaper": the lower price).
_DOWNWARD = frozenset((
    "cheap", "light", "small", "low", "short", "narrow", "few", "little", "thin",
    "poor", "cold", "shallow", "weak", "quiet", "near", "close",
))  # fmt: skip
#: Dimensions whose direction depends on the unit or is not a value's size.
_UNJUDGED = frozenset(["efficient"])
#: Dimensions of time, judged by two dates (session 37): "older" / "earlier" is the
#: earlier date, "newer" / "younger" / "later" / "more recent" the later one; "older" and
#: "younger" also by two ages, the other way round. The value of "up" is the later date.
_TIME_DIMENSIONS = dict.fromkeys(("old", "early"), False) | dict.fromkeys(
    ("young", "new", "late", "recent"), True
)
#: Dimensions judged only against values of their kind: "deeper" compares depths, not
#: counts of fish species ("currency" covers every currency's kind).
_DIMENSION_KINDS = {
    **dict.fromkeys(("deep", "shallow", "tall", "wide", "narrow"), "length"),
    **dict.fromkeys(("heavy", "light"), "mass"),
    **dict.fromkeys(("hot", "cold", "warm", "cool"), "temperature"),
    **dict.fromkeys(("expensive", "cheap"), "currency"),
}
#: Judged by the values' kind: a speed, or a time taken (the direction turns).
_SPEED_WORDS = frozenset(["fast", "slow", "quick"])
_RATIO_WORDS = {"twice": 2.0, "half": 0.5, "thrice": 3.0}
_RATIO = re.compile(
    r"\b(?:(?P<word>twice|half|thrice)|(?P<n>\d+(?:\.\d+)?|two|three|four|five|ten)\s+times)\s+"
    r"(?:as\s+(?:much|many|[a-z]+)\b(?P<as_noun>(?:\s+[a-z]+){0,2}?)\s+as"
    r"|(?:more|larger|bigger|higher|greater)\b(?:\s+[a-z]+){0,2}?\s+than)\s+(?P<right>[^.;,]+)",
    re.IGNORECASE,
)
_RATIO_TOLERANCE = 0.1


#: Words for the newer and the older of two versions of a thing: "the old one" is "its
#: predecessor", "the previous model"; "the new model" is "its successor", "the latest".
_GENERATIONS = (
    ("new", re.compile(r"(?i)\b(?:new|newer|latest|current|successor)\b")),
    ("old", re.compile(r"(?i)\b(?:old|older|previous|predecessors?|former|earlier)\b")),
)


def _words(text: str) -> frozenset[str]:
    """Content stems, "new" / "old" for the words of a version's generation (:data:`_GENERATIONS`;
    "new" is a stopword that tells "the new plant" from the old), years (a value "in
    2022" against one "in 2021") and letter names ("Lake A" against "Lake B": one letter
    is no content word)."""
    generations = {name for name, words in _GENERATIONS if words.search(text)}
    return frozenset(content_stems(text)) | generations | years_of(text) | letter_names(text)


@dataclass(frozen=True)
class ClaimComparison:
    """What the claim says of two sides: their value ratio left/right lies in [low, high]."""

    left: frozenset[str]
    right: frozenset[str]
    low: float
    high: float
    surface: str
    #: where a ratio is written ("twice as much … as"): its number is this comparison's,
    #: not a value of its own (None for a comparative)
    span: tuple[int, int] | None = None
    #: judged only against values of this kind (None: any one kind)
    kind: str | None = None
    #: what is compared ("tall", "rain"; "much" of a ratio without a noun)
    dimension: str = ""


#: A side's generation as :func:`.directions.comparisons` names it ("previous" for "its
#: predecessor", "next" for "its successor") and as :func:`_words` reads a source zone.
_GENERATION_OF = {
    "new": "new", "newer": "new", "old": "old", "older": "old", "previous": "old", "next": "new"
}  # fmt: skip


def _by_generation(left: frozenset[str], right: frozenset[str]) -> tuple[frozenset[str], ...]:
    """Two versions of one thing told apart by generation only: "the new stadium … than the
    *old one*", "the new model … than *its predecessor*". The other side names the thing
    only by a pro-form, so its other words ("stadium") are both sides' and tell nothing
    (a source says "the old stadium … the new one"): each side is then its generation."""
    mine = frozenset(_GENERATION_OF[w] for w in left if w in _GENERATION_OF)
    theirs = frozenset(_GENERATION_OF[w] for w in right if w in _GENERATION_OF)
    one_named_by_generation = left <= _GENERATION_OF.keys() or right <= _GENERATION_OF.keys()
    if mine and theirs and not mine & theirs and one_named_by_generation:
        return mine, theirs
    return left, right


def _ratio_band(larger: bool) -> tuple[float, float]:
    """The left / right value ratio a comparison allows: above 1 when the left is larger."""
    return (1.0, float("inf")) if larger else (0.0, 1.0)


def claim_comparisons(claim: str) -> list[ClaimComparison]:
    """The comparisons and ratios of ``claim`` (a claim's, or a source sentence's)."""
    out: list[ClaimComparison] = []
    for c in comparisons(claim):
        left, right = _by_generation(c.left, c.right)
        surface = f"{c.dimension} comparison"
        if c.dimension in _SPEED_WORDS:
            # faster: the higher speed, or the shorter time taken (session 31)
            faster = c.up != (c.dimension == "slow")
            for kind, larger in (("speed", faster), ("time", not faster)):
                out.append(
                    ClaimComparison(
                        left, right, *_ratio_band(larger), surface, kind=kind, dimension=c.dimension
                    )
                )
            continue
        if c.dimension in _TIME_DIMENSIONS:
            later = c.up == _TIME_DIMENSIONS[c.dimension]
            out.append(
                ClaimComparison(
                    left, right, *_ratio_band(later), surface, kind="date", dimension=c.dimension
                )
            )
            if c.dimension in ("old", "young"):  # an age: the older, the larger
                out.append(
                    ClaimComparison(
                        left,
                        right,
                        *_ratio_band(not later),
                        surface,
                        kind=AGE_KIND,
                        dimension=c.dimension,
                    )
                )
            continue
        if c.dimension in _UNJUDGED:
            continue
        larger = c.up != (c.dimension in _DOWNWARD)
        wanted = _DIMENSION_KINDS.get(c.dimension)
        out.append(
            ClaimComparison(
                left, right, *_ratio_band(larger), surface, kind=wanted, dimension=c.dimension
            )
        )
    for m in _RATIO.finditer(claim):
        word, n = m.group("word"), m.group("n")
        factor = _RATIO_WORDS[word.lower()] if word else float(SMALL_NUMBERS.get(n.lower(), 0))
        if not word:
            factor = factor or float(n)
        left, right = _words(claim[: m.start()]), _words(m.group("right"))
        left, right = left - right, right - left
        if left and right and factor > 0:
            band = factor * _RATIO_TOLERANCE
            out.append(
                ClaimComparison(
                    left,
                    right,
                    factor - band,
                    factor + band,
                    m.group(0),
                    (m.start(), m.end()),
                    dimension=_ratio_dimension(m),
                )
            )
    return out


def _ratio_dimension(m: re.Match[str]) -> str:
    """What a ratio compares: the adjective of "twice as *tall* as", the noun of "twice as
    much *rain* as", else "much"."""
    head = re.match(r"\S+\s+(?:times\s+)?as\s+([a-z]+)", m.group(0), re.IGNORECASE)
    word = head.group(1).lower() if head else "much"
    if word in ("much", "many"):
        noun = (m.group("as_noun") or "").split()
        return noun[0].lower() if noun else word
    return word


def _zones(sentence: str, values: list[Mention]) -> list[frozenset[str]]:
    """Each value's words: from the previous value (or the start) to it; the last one's
    also after it ("A bus ticket costs $12, while the train fare is $30")."""
    zones: list[frozenset[str]] = []
    previous = 0
    for i, value in enumerate(values):
        words = _words(sentence[previous : value.start])
        if i == len(values) - 1:
            words |= _words(sentence[value.end :])
        zones.append(words)
        previous = value.end
    return zones


def _zones_after(sentence: str, values: list[Mention]) -> list[frozenset[str]]:
    """Each value's words read the other way: from it to the next value (or the end);
    the first one's also before it ("in 31 patients in the treatment group and 58 in
    the placebo group")."""
    zones: list[frozenset[str]] = []
    for i, value in enumerate(values):
        end = values[i + 1].start if i + 1 < len(values) else len(sentence)
        words = _words(sentence[value.end : end])
        if i == 0:
            words |= _words(sentence[: value.start])
        zones.append(words)
    return zones


def _sides(
    comparison: ClaimComparison, a: frozenset[str], b: frozenset[str]
) -> tuple[int, int] | None:
    """(index of the left side's value, of the right's) among the two zones, or None."""
    a_own, b_own = a - b, b - a
    for left, right, left_own, right_own in ((0, 1, a_own, b_own), (1, 0, b_own, a_own)):
        if (
            left_own & comparison.left
            and right_own & comparison.right
            and not left_own & comparison.right
            and not right_own & comparison.left
        ):
            return left, right
    return None


def _two_dates(sentence: str) -> list[Mention] | None:
    """The sentence's two dates of a calendar ("1650", "March 1820"), as ordinal days, or
    None: "dates from 1650, while the east wing was added in 1820"."""
    dates = [d for d in extract_dates(sentence) if d.kind == "date"]
    return dates if len(dates) == 2 else None


def _two_values(sentence: str) -> list[Mention] | None:
    """The sentence's two values of one kind, or None. A change's two values count:
    "seats 62,000, up from 45,000 at the old ground" gives the new and the old
    stadium's; whether a claim's sides are the change's is :func:`_sides`' test."""
    read = read_quantities(sentence)
    if len(read.mentions) != 2:
        return None
    values = _unit_carried(sentence, *read.mentions)
    if len({m.kind for m in values}) != 1 or values[0].kind.startswith("id:"):
        return None
    return values


_BARE_NUMBER = re.compile(r"^\d{1,3}(?:,\d{3})*(?:\.\d+)?$|^\d+(?:\.\d+)?$")
_SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
_SCALE = r"(?:\s+(?P<scale>thousand|million|billion|trillion)\b)?"
_LEADING_NUMBER = re.compile(rf"^(?P<n>\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|\d+(?:\.\d+)?){_SCALE}")
#: A number alone, in digits or words, with a scale word: "1 million", "forty".
_NUMBER_ALONE = re.compile(r"^(?:\d[\d,]*(?:\.\d+)?|[A-Za-z]+(?:-[A-Za-z]+)?)" + _SCALE + "$")
_LEADING_WORDS = re.compile(r"^[A-Za-z]+(?:[- ][A-Za-z]+)?")


def _word_number(words: str) -> float | None:
    """The number ``words`` write out in full ("two", "forty", "twenty-five"), or None."""
    if words.lower() in SMALL_NUMBERS:
        return float(SMALL_NUMBERS[words.lower()])
    read = read_quantities(words).mentions
    if len(read) != 1 or read[0].kind != "count" or read[0].surface != words:
        return None
    return (read[0].low + read[0].high) / 2


def _written_number(surface: str, *, whole: bool, scaled: bool = False) -> float | None:
    """The number a value is written with, in digits or in words ("twenty minutes",
    "about forty"); ``whole``: the surface is that number alone; ``scaled``: with its
    scale word ("2 million tonnes" is 2,000,000 against a bare "1 million", but 2 against
    a bare "3", which elides the scale with the unit)."""
    if whole and _BARE_NUMBER.match(surface):
        return float(surface.replace(",", ""))
    if not whole and (digits := _LEADING_NUMBER.match(surface)):
        scale = _SCALES[digits.group("scale")] if scaled and digits.group("scale") else 1.0
        return float(digits.group("n").replace(",", "")) * scale
    if whole:  # "1 million", "forty": not "30 floors", which counts floors
        return _word_number(surface) if _NUMBER_ALONE.match(surface) else None
    words = _LEADING_WORDS.match(surface)
    if words is None:
        return None
    # "twenty-five minutes": the longest leading phrase that is a number
    return _word_number(words.group(0)) or _word_number(re.split(r"[- ]", words.group(0))[0])


#: What may follow a number whose unit is elided: the end of its clause or a preposition
#: ("200 for the old one"), not a noun ("30 floors" counts floors).
_CLAUSE_END = re.compile(
    r"^\s*(?:$|[.,;:)]|(?:and|but|while|whereas|against|compared|for|in|at|on|by)\b)"
)


def _unit_carried(sentence: str, first: Mention, second: Mention) -> list[Mention]:
    """Two values where one is a bare number after a value with a unit ("runs 140
    kilometres, while the northern route covers only 95"): the bare one is read in the
    other's unit, as a writer who elides a repeated unit means it. Otherwise unchanged."""
    values = [first, second]
    for bare, measured in ((1, 0), (0, 1)):
        b, m = values[bare], values[measured]
        if b.kind != "count" or m.kind == "count":
            continue
        if _written_number(b.surface, whole=True) is None:
            continue
        if not _CLAUSE_END.match(sentence[b.end :]):
            continue
        scaled = any(word in _SCALES for word in b.surface.lower().split())
        if not (written := _written_number(m.surface, whole=False, scaled=scaled)):
            continue
        scale = (m.low + m.high) / 2 / written
        values[bare] = replace(b, kind=m.kind, low=b.low * scale, high=b.high * scale)
    return values


@dataclass(frozen=True)
class ComparisonJudgement:
    """Comparisons the source values contradict or confirm, and the claim spans judged."""

    mismatched: list[str]
    agreed: list[str]
    #: spans of judged ratios: their numbers are not compared as plain values
    judged_spans: list[tuple[int, int]]


def _of_kind(kind: str, wanted: str | None) -> bool:
    """A value of ``kind`` is of the ``wanted`` kind (None: any; "currency": any currency)."""
    return wanted is None or kind == wanted or kind.startswith(f"{wanted}:")


def judge_value_comparisons(claim: str, window: str) -> ComparisonJudgement:
    """The claim's comparisons against two source values (one verdict per comparison:
    the first sentence that decides it)."""
    mismatched: list[str] = []
    agreed: list[str] = []
    spans: list[tuple[int, int]] = []
    claimed = claim_comparisons(claim)
    if not claimed:
        return ComparisonJudgement(mismatched, agreed, spans)
    sentences = split_sentences(window)
    readings = [(s.text, values) for s in sentences if (values := _two_values(s.text))]
    if any(c.kind == "date" for c in claimed):
        readings += [(s.text, dates) for s in sentences if (dates := _two_dates(s.text))]
    for comparison in claimed:
        for text, values in readings:
            if (values[0].kind == "date") != (comparison.kind == "date"):
                continue  # a date is no size: only a comparison in time reads dates
            if not _of_kind(values[0].kind, comparison.kind):
                continue
            sides = next(
                (
                    found
                    for zones in (_zones(text, values), _zones_after(text, values))
                    if (found := _sides(comparison, zones[0], zones[1])) is not None
                ),
                None,
            )
            if sides is None:
                continue
            left, right = values[sides[0]], values[sides[1]]
            if right.low <= 0 or left.low < 0:
                continue
            low, high = left.low / right.high, left.high / right.low
            # strict: values whose rounding only touches ("120 metres" / "130") differ
            overlaps = low < comparison.high and comparison.low < high
            (agreed if overlaps else mismatched).append(comparison.surface)
            if comparison.span is not None:
                spans.append(comparison.span)
            break
    return ComparisonJudgement(mismatched, agreed, spans)
