"""quantulum3's reading of numbers with units, and the fixes its output needs.

quantulum3 is run without its pickled unit classifier (it does not load under
current scikit-learn, and unpickling a shipped model is a risk we do not
need: the dictionary disambiguation is deterministic). Its dictionary reading
has a few systematic slips, corrected here rather than in every caller:

* "95 minutes" / "30 seconds" are read as angles (minute/second *of arc*):
  without a degree nearby they are time;
* a trailing "at" is read as the unit ampere-turn ("3.2 kilograms at birth" →
  kilogram ampere-turn): the quantity is re-read without it;
* "from 50,000 to 40,000" is a descending range, which the library drops
  altogether, and "rose from $2 million to $6.1 million" is read as one
  range: after a verb of change, or when descending, the two ends are read as
  two values (the old and the new), returned as a pair, and an end without a
  unit takes the other end's ("from 50 to 40 dollars");
* "$3.4bn", "£3m", "€40k": scale abbreviations after a currency symbol; "100k
  subscribers" is 100,000, not 100 kelvin; "7B parameters", "7M", "1T tokens" are
  billions, millions and trillions, not bytes, metres and tesla;
* "won the cup once" / "twice" at the end of a phrase: a count of times;
* "only one", "just one", "exactly one", "only a single", a clause's "A single": a count
  of one;
* "half a million", "a quarter of a billion": a fraction of a scale word (the
  library reads "a million" alone);
* "€76.25 million" read as €76.25 and a bare "million": joined into one value;
* a range with a scale word ("between $2 million and $3 million", "$2-3 million")
  read as its first end or with mixed scales: read here as one range;
* "a crew of forty and twelve passengers" read as 52: "and" joins number words
  only after "hundred" or a scale word, so the two are read apart.
"""

from __future__ import annotations

import re
import warnings
from functools import lru_cache
from typing import Any

from provgraph.verification.money_codes import coded_amounts
from provgraph.verification.raw_quantity import Raw as Raw  # re-exported (quantities reads it)
from provgraph.verification.unit_phrases import FRACTION_VALUE, FRACTION_WORDS, unit_phrases
from provgraph.verification.word_ranges import join_ranges


def _quantulum() -> Any:
    from quantulum3 import classifier, parser

    classifier.USE_CLF = False  # dictionary disambiguation: see the module docstring
    return parser


def _library(text: str) -> list[Raw]:
    parser = _quantulum()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            found = parser.parse(text)
        except Exception:
            return []
    return [
        Raw(
            float(q.value),
            str(q.unit.name),
            str(q.unit.entity.name),
            str(q.surface),
            int(q.span[0]),
            int(q.span[1]),
            float(q.uncertainty) if q.uncertainty else None,
        )
        for q in found
    ]


_NUM = r"[$€£¥]?\s?\d[\d,]*(?:\.\d+)?"
_FROM_TO = re.compile(rf"\bfrom\s+(?P<a>{_NUM})[^;:!?\n]{{0,25}}?\s(?P<to>to)\s+(?P<b>{_NUM})")
CHANGE_VERBS = re.compile(
    r"\b(?:rose|rise[sn]?|rising|increas\w*|grew|grow\w*|climb\w*|jump\w*|surg\w*|soar\w*|"
    r"fell|fall\w*|dropp?\w*|declin\w*|decreas\w*|shr[au]nk|shrink\w*|slump\w*|plung\w*|"
    r"went|go(?:es|ne)?|moved?|cut|reduc\w*|rais\w*|lower\w*|expand\w*|doubl\w*|tripl\w*|"
    r"halv\w*|up|down|changed?)\b[^.;!?]{0,40}$",
    re.IGNORECASE,
)
_SCALE = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
_SCALE_WORD = re.compile(r"\s*(thousand|million|billion|trillion)\b", re.IGNORECASE)
_ABBREVIATED = re.compile(
    r"(?P<sym>[$€£¥])\s?(?P<num>\d[\d,]*(?:\.\d+)?)\s?(?P<scale>bn|b|mn|m|k|tn|trn)\b"
)
#: "30C", "86F": a temperature (the library reads coulomb and farad, units no factual
#: claim glues to a number).
_GLUED_DEGREES = re.compile(r"(?<![\w.,])(?P<num>-?\d+(?:\.\d+)?)(?P<unit>[CF])\b(?![-.]?\w)")
_DEGREES = {"C": "degree Celsius", "F": "degree fahrenheit"}
#: "100k subscribers", "2.5k people": a "k" glued to a number is a thousand (the library
#: reads kelvin); a "10k race" is a distance and is left alone.
_THOUSANDS = re.compile(
    r"(?<![\w$€£¥.,])(?P<num>\d[\d,]*(?:\.\d+)?)[kK]\b(?!\s*(?:runs?|races?|walks?)\b)"
)
#: "7B parameters", "1.3B", "7M", "1T tokens": a capital scale letter glued to a number
#: (the library reads bytes, metres and tesla); "bn" and "mn" likewise.
_GLUED_SCALE = re.compile(
    r"(?<![\w$€£¥.,])(?P<num>\d[\d,]*(?:\.\d+)?)(?P<scale>B|M|T|bn|mn)\b(?![-.]?\w)"
)
_GLUED = {"B": 1e9, "bn": 1e9, "M": 1e6, "mn": 1e6, "T": 1e12}
#: "only one candidate", "a single candidate", "exactly one": a count of one (the
#: library skips "one", which is mostly a pronoun; these forms are counts).
#: A bare "a single" counts only where it starts a clause ("A single candidate applied");
#: inside one it is mostly emphasis or "one merged" ("coalescing into a single larger
#: black hole", "a single market").
_SINGLE = re.compile(
    r"(?<!\bnot )\b(?:(?:only|just|exactly)\s+(?:one|a\s+single)|one\s+single)\b(?=\s+[a-z])"
    r"|(?:^|(?<=[.;:,]\s))[Aa]\s+single\b(?=\s+[a-z])",
    re.IGNORECASE,
)
#: "has won the cup once", "won it twice": how many times, where the phrase ends.
_TIMES = re.compile(r"\b(?P<w>once|twice)(?=\s*(?:[,.;:!?)]|$))", re.IGNORECASE)
_ABBREVIATION = {"k": 1e3, "m": 1e6, "mn": 1e6, "b": 1e9, "bn": 1e9, "tn": 1e12, "trn": 1e12}
_SYMBOL = {"$": "dollar", "€": "euro", "£": "pound sterling", "¥": "yen"}
#: "half a million", "a quarter of a billion", "three quarters of a million"
_FRACTION_OF_SCALE = re.compile(
    rf"\b(?P<frac>{FRACTION_WORDS})\s+(?:of\s+)?an?\s+(?P<scale>thousand|million|billion|trillion)\b"
    # "half a million dollars" is money ("pounds" may be a weight: not read as money)
    r"(?:\s+(?P<money>dollars|euros)\b)?",
    re.IGNORECASE,
)
#: The article before an amount of money: quantulum3 reads "a $500" as "1 dollar to the
#: 500" (a power). Blanked, same length, so offsets stay those of the text.
_ARTICLE_BEFORE_MONEY = re.compile(r"\b[Aa]n?(?=\s+[$€£¥]\s?\d)")


#: A range with a scale word on either end: "between $2 million and $3 million",
#: "$2-3 million", "2 to 3 billion people" (the library reads the first end alone or
#: mixes the scales: "$2-3 million" came out as $2 to $31,000,000). "from A to B" is
#: a change (masked before this runs), so "to" here is a range.
_SCALED_RANGE = re.compile(
    r"(?P<between>\bbetween\s+)?(?P<sa>[$€£¥])?\s?(?P<a>\d[\d,]*(?:\.\d+)?)"
    r"(?:\s*(?P<scale_a>thousand|million|billion|trillion)\b)?"
    r"\s*(?P<join>-|–|\bto\b|\band\b)\s*"
    r"(?P<sb>[$€£¥])?\s?(?P<b>\d[\d,]*(?:\.\d+)?)\s*(?P<scale_b>thousand|million|billion|trillion)\b",
    re.IGNORECASE,
)


def _scaled_ranges(text: str) -> list[Raw]:
    """The ranges of :data:`_SCALED_RANGE` as one value each (midpoint ± half the width).

    A scale written only on the upper end applies to the lower one when the lower
    number is not larger ("2-3 million" is 2 to 3 million; "500 to 3 million" is 500 to
    3,000,000). "and" joins a range only after "between". The unit is the currency
    symbol, or what the library reads after the upper end ("3 million dollars").
    """
    out: list[Raw] = []
    for m in _SCALED_RANGE.finditer(text):
        if m.group("join").lower() == "and" and not m.group("between"):
            continue
        a, b = (float(m.group(g).replace(",", "")) for g in ("a", "b"))
        scale_b = _SCALE[m.group("scale_b").lower()]
        scale_a = m.group("scale_a")
        if scale_a:
            a *= _SCALE[scale_a.lower()]
        elif a <= b:
            a *= scale_b
        b *= scale_b
        if a >= b:
            continue
        symbol = m.group("sb") or m.group("sa")
        if symbol:
            unit, entity = _SYMBOL[symbol], "currency"
        else:
            after = [r for r in _library(text[m.start("b") : m.end() + 30]) if r.start == 0]
            unit, entity = (after[0].unit, after[0].entity) if after else ("dimensionless",) * 2
        surface = m.group(0).lstrip()
        start = m.end() - len(surface)
        out.append(Raw((a + b) / 2, unit, entity, surface, start, m.end(), (b - a) / 2))
    return out


def _plain(text: str, match: re.Match[str], group: str) -> float:
    number = float(match.group(group).lstrip("$€£¥ ").replace(",", ""))
    scale = _SCALE_WORD.match(text, match.end(group))
    return number * _SCALE[scale.group(1).lower()] if scale else number


def _split_changes(text: str) -> tuple[str, list[tuple[int, int]]]:
    """``text`` with the "to" of each change "from A to B" masked; where A and each mask are."""
    masks: list[tuple[int, int]] = []
    out = text
    for m in _FROM_TO.finditer(text):
        descending = _plain(text, m, "a") > _plain(text, m, "b")
        if descending or CHANGE_VERBS.search(text[max(0, m.start() - 60) : m.start()]):
            start = m.start("to")
            out = out[:start] + "||" + out[start + 2 :]
            masks.append((m.start("a"), start))
    return out, masks


def _repair(text: str, raw: Raw) -> Raw | None:
    """The slips of the module docstring, corrected; None: not a quantity after all."""
    if raw.unit in ("minute of arc", "second of arc") and not re.search(
        r"degree|°|′|″|\barc\b", text[max(0, raw.start - 25) : raw.end], re.IGNORECASE
    ):
        unit = "minute" if raw.unit.startswith("minute") else "second"
        return Raw(raw.value, unit, "time", raw.surface, raw.start, raw.end, raw.uncertainty)
    if "ampere-turn" in raw.unit and re.search(r"\s+at$", raw.surface):
        trimmed = re.sub(r"\s+at$", "", raw.surface)
        again = [r for r in _library(trimmed) if r.start == 0]
        if not again:
            return None
        r = again[0]
        return Raw(r.value, r.unit, r.entity, trimmed, raw.start, raw.start + len(trimmed))
    return raw


#: "forty and twelve": two numbers in words joined by "and" that the library adds up.
#: English joins number words with "and" only after a hundred or a scale word
#: ("one hundred and twelve", "two thousand and five") or before a fraction ("one
#: and a half"), so any other "and" separates two values.
_WORD_SUM = re.compile(r"(?i)^(?P<a>[a-z][a-z -]*?)\s+and\s+(?P<b>\S.*)$")
_JOINS_BY_AND = re.compile(r"(?i)(?:hundred|thousand|million|billion|trillion)$")
#: "one and a half hours", "two and three quarters": a whole and a fraction are one value.
_FRACTION_PART = re.compile(r"(?i)(?:an?|one|two|three)\s+(?:half|third|quarter)|half\b")


def _split_word_sum(raw: Raw) -> list[Raw] | None:
    """The two values of a surface like "forty and twelve passengers" (None: one value)."""
    m = _WORD_SUM.match(raw.surface)
    if m is None or _JOINS_BY_AND.search(m.group("a")) or _FRACTION_PART.match(m.group("b")):
        return None
    parts: list[Raw] = []
    for group in ("a", "b"):
        offset = raw.start + m.start(group)
        parts += [
            Raw(r.value, r.unit, r.entity, r.surface, offset + r.start, offset + r.end)
            for r in _library(m.group(group))
        ]
    return parts or None


def _join_scale_words(text: str, found: list[Raw]) -> list[Raw]:
    """A number and the scale word right after it read as one value.

    The library sometimes reads "€76.25 million" as €76.25 and a bare "million"
    (which context decides is not known), and sometimes drops the word altogether
    ("Some 45 thousand people" read as 45); either way the pair is one quantity.
    """
    out: list[Raw] = []
    for raw in found:
        last = out[-1] if out else None
        if last is not None and raw.start < last.end:
            continue  # the scale word already read into the number before it
        after = _SCALE_WORD.match(text, raw.end)
        if (
            after is not None
            and raw.unit == "dimensionless"
            and _SCALE_WORD.search(raw.surface) is None
            and not _SCALE.get(raw.surface.strip().lower())
        ):
            # "Some 45 thousand people": the library read "45" and dropped the word
            factor = _SCALE[after.group(1).lower()]
            raw = Raw(
                raw.value * factor,
                raw.unit,
                raw.entity,
                text[raw.start : after.end()],
                raw.start,
                after.end(),
                raw.uncertainty * factor if raw.uncertainty else None,
            )
        scale = _SCALE.get(raw.surface.strip().lower())
        if (
            last is not None
            and scale is not None
            and raw.unit == "dimensionless"
            and not text[last.end : raw.start].strip()
            and _SCALE_WORD.match(last.surface.split()[-1]) is None
        ):
            uncertainty = last.uncertainty * scale if last.uncertainty else None
            out[-1] = Raw(
                last.value * scale,
                last.unit,
                last.entity,
                text[last.start : raw.end],
                last.start,
                raw.end,
                uncertainty,
            )
            continue
        out.append(raw)
    return out


@lru_cache(maxsize=8192)
def read_piece(text: str) -> tuple[tuple[Raw, ...], tuple[tuple[int, int], ...]]:
    """The quantities of one sentence-sized ``text`` and the index pairs (old, new) of changes.

    Cached: sources repeat across claims.
    """
    masked, masks = _split_changes(text)
    found: list[Raw] = _scaled_ranges(masked)
    for m in _FRACTION_OF_SCALE.finditer(masked):
        value = FRACTION_VALUE[m.group("frac").lower().split()[-1]]
        value *= _SCALE[m.group("scale").lower()]
        money = m.group("money")
        unit, entity = (money.lower()[:-1], "currency") if money else ("dimensionless",) * 2
        # a round figure in words: ±5%, like a written "500,000" (quantities._rounding)
        found.append(Raw(value, unit, entity, m.group(0), m.start(), m.end(), 0.05 * value))
    for value, unit, entity, start, end in unit_phrases(masked):
        if not any(f.start < end and start < f.end for f in found):
            found.append(Raw(value, unit, entity, masked[start:end], start, end))
    for value, unit, start, end in coded_amounts(masked):
        if not any(f.start < end and start < f.end for f in found):
            found.append(Raw(value, unit, "currency", masked[start:end], start, end))
    for m in _ABBREVIATED.finditer(masked):
        if any(f.start < m.end() and m.start() < f.end for f in found):
            continue
        value = float(m.group("num").replace(",", "")) * _ABBREVIATION[m.group("scale").lower()]
        unit = _SYMBOL[m.group("sym")]
        found.append(Raw(value, unit, "currency", m.group(0), m.start(), m.end()))
    for m in _GLUED_SCALE.finditer(masked):
        if any(f.start < m.end() and m.start() < f.end for f in found):
            continue
        value = float(m.group("num").replace(",", "")) * _GLUED[m.group("scale")]
        found.append(Raw(value, "dimensionless", "dimensionless", m.group(0), m.start(), m.end()))
    for m in _SINGLE.finditer(masked):
        found.append(Raw(1.0, "dimensionless", "dimensionless", m.group(0), m.start(), m.end()))
    for m in _TIMES.finditer(masked):
        times = 1.0 if m.group("w").lower() == "once" else 2.0
        found.append(Raw(times, "dimensionless", "dimensionless", m.group(0), m.start(), m.end()))
    for m in _THOUSANDS.finditer(masked):
        value = float(m.group("num").replace(",", "")) * 1e3
        found.append(Raw(value, "dimensionless", "dimensionless", m.group(0), m.start(), m.end()))
    for m in _GLUED_DEGREES.finditer(masked):
        value, unit = float(m.group("num")), _DEGREES[m.group("unit")]
        found.append(Raw(value, unit, "temperature", m.group(0), m.start(), m.end()))
    for read in _library(_ARTICLE_BEFORE_MONEY.sub(lambda a: " " * len(a.group(0)), masked)):
        if any(f.start < read.end and read.start < f.end for f in found):
            continue
        for raw in _split_word_sum(read) or [read]:
            fixed = _repair(masked, raw)
            if fixed is not None:
                found.append(fixed)
    found = _join_scale_words(masked, sorted(found, key=lambda r: r.start))
    found = join_ranges(masked, found)
    pairs: list[tuple[int, int]] = []
    for a_start, mask in masks:
        # A is the value written after "from" ("from 12,000 in 2015 to 24,500": not 2015)
        left = [i for i, r in enumerate(found) if a_start <= r.start and r.end <= mask]
        right = [i for i, r in enumerate(found) if r.start >= mask + 2]
        if not left or not right:
            continue
        left = left[:1]
        a, b = found[left[-1]], found[right[0]]
        if a.entity == "dimensionless" and b.entity not in ("dimensionless", "unknown"):
            found[left[-1]] = Raw(a.value, b.unit, b.entity, a.surface, a.start, a.end)
        pairs.append((left[-1], right[0]))
    pairs += _up_from_pairs(masked, found)
    return tuple(found), tuple(pairs)


#: "48,000 visitors, up from 41,000": the new value first, the old after "up / down from".
_UP_FROM = re.compile(r"\b(?:up|down)\s+from\s+", re.IGNORECASE)
_YEAR = re.compile(r"(?:1[89]|20)\d\d")
#: How far before "up from" the new value may end ("48,000 visitors last season, up from").
_UP_FROM_REACH = 40


def _up_from_pairs(text: str, found: list[Raw]) -> list[tuple[int, int]]:
    """Index pairs (old, new) of the changes "B …, up / down from A" of ``text``: B the
    last value of the clause before the phrase, A the value right after it."""
    pairs: list[tuple[int, int]] = []
    for m in _UP_FROM.finditer(text):
        before = [
            i
            for i, r in enumerate(found)
            if r.end <= m.start()
            and m.start() - r.end <= _UP_FROM_REACH
            and not re.search(r"[.;:!?]", text[r.end : m.start()])
            and not _YEAR.fullmatch(r.surface.strip())  # "5,200 in 2023, down from"
        ]
        after = [i for i, r in enumerate(found) if 0 <= r.start - m.end() <= 2]
        if before and after and found[before[-1]].entity == found[after[0]].entity:
            pairs.append((after[0], before[-1]))
    return pairs
