"""Quantities in text as intervals of a kind: "more than 80 countries", "$1.5 million", "7%".

Numbers, units and spelled-out values ("seven percent", "1,500 thousand
dollars", "10-20 km") are parsed by quantulum3, run without its pickled unit
classifier (which does not load under current scikit-learn, and unpickling a
shipped model is a risk we do not need: the dictionary disambiguation is
deterministic). On top of the library:

* comparatives around the value become open intervals ("more than 80" →
  [80, ∞), "up to 5" → (−∞, 5]), hedges a ±10% band ("about", "nearly");
* an exact value is widened by half a unit of its last written digit, capped at
  5% ("1.5 million" ≈ 1,450,000–1,550,000: a claim may round);
* proportions share one kind: "half of", "a third of", "one in four" and "most"
  / "the majority of" are percentages;
* units of one dimension are converted to a base unit where the factor is
  fixed (km ↔ m, kg ↔ g, hours ↔ minutes); currencies only match themselves;
* four-digit years are left to :mod:`provgraph.verification.dates`.
"""

from __future__ import annotations

import math
import re
import warnings
from functools import lru_cache
from typing import Any

from provgraph.verification.slots import Mention
from provgraph.verification.wordsets import content_stems, near_stems

_INF = math.inf

_BASE_UNITS: dict[str, tuple[str, float]] = {
    "kilometre": ("length", 1000.0),
    "metre": ("length", 1.0),
    "centimetre": ("length", 0.01),
    "millimetre": ("length", 0.001),
    "mile": ("length", 1609.344),
    "foot": ("length", 0.3048),
    "inch": ("length", 0.0254),
    "tonne": ("mass", 1e6),
    "kilogram": ("mass", 1000.0),
    "gram": ("mass", 1.0),
    "milligram": ("mass", 0.001),
    "microgram": ("mass", 1e-6),
    "pound-mass": ("mass", 453.59237),
    "second": ("time", 1.0),
    "minute": ("time", 60.0),
    "hour": ("time", 3600.0),
    "day": ("time", 86400.0),
    "week": ("time", 604800.0),
    "month": ("time", 2629800.0),
    "year": ("time", 31557600.0),
    "litre": ("volume", 1.0),
    "millilitre": ("volume", 0.001),
    "percentage": ("percent", 1.0),
    "dozen": ("count", 12.0),
}

_ABOVE = re.compile(
    r"(?:more than|over|above|greater than|exceeding|in excess of|upwards of|beyond|"
    r"at least|no less than|not less than|no fewer than|a minimum of|minimum of)\s*\$?$"
)
_BELOW = re.compile(
    r"(?:less than|under|below|fewer than|lower than|at most|up to|no more than|"
    r"not more than|a maximum of|maximum of)\s*\$?$"
)
_APPROX = re.compile(
    r"(?:about|around|approximately|roughly|some|an estimated|estimated|circa|approx\.?|"
    r"close to|nearly|almost|~)\s*\$?$"
)
_ABOVE_AFTER = re.compile(r"^\s*(?:or more|or higher|or above|and above|and up|plus\b|\+)")
_BELOW_AFTER = re.compile(r"^\s*(?:or less|or fewer|or lower|or below|and below|and under)")

_FRACTION_WORDS = {
    "half": 50.0,
    "a half": 50.0,
    "one half": 50.0,
    "a third": 100 / 3,
    "one third": 100 / 3,
    "one-third": 100 / 3,
    "two thirds": 200 / 3,
    "two-thirds": 200 / 3,
    "a quarter": 25.0,
    "one quarter": 25.0,
    "one-quarter": 25.0,
    "three quarters": 75.0,
    "three-quarters": 75.0,
    "a fifth": 20.0,
    "one fifth": 20.0,
    "a tenth": 10.0,
    "one tenth": 10.0,
}
_SMALL_NUMBERS = {
    w: i
    for i, w in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
        ]
    )
}
_PROPORTION_RE = re.compile(
    r"\b(?P<frac>(?:a|one|two|three)[ -](?:half|third|thirds|quarter|quarters|fifth|tenth)|half)"
    r"\s+(?:of\b)"
    r"|\b(?P<num>\w+)\s+(?:in|out of)\s+(?P<den>\w+)\b"
    r"|\b(?P<vague>the vast majority of|the majority of|a majority of|most|nearly all|almost all|"
    r"a minority of|the minority of)\b",
    re.IGNORECASE,
)
_VAGUE = {
    "the vast majority of": (75.0, 100.0),
    "the majority of": (50.0, 100.0),
    "a majority of": (50.0, 100.0),
    "most": (50.0, 100.0),
    "nearly all": (85.0, 100.0),
    "almost all": (85.0, 100.0),
    "a minority of": (0.0, 50.0),
    "the minority of": (0.0, 50.0),
}
_MONEY_CONTEXT = re.compile(
    r"£|\b(?:sterling|raised|paid|pay|cost|costs|price|priced|spent|spend|budget|fund|funds|"
    r"funding|donated|revenue|profit|salary|worth|sold for|fine|fined)\b",
    re.IGNORECASE,
)
_CURRENCY_SYMBOLS = {"£": "pound sterling", "€": "euro", "¥": "yen"}
_DIGITS_RE = re.compile(r"\d[\d,]*(?:\.\d+)?")
_YEAR_SURFACE_RE = re.compile(r"^(?:1[0-9]{3}|20[0-9]{2}|2100)$")


def _quantulum() -> Any:
    from quantulum3 import classifier, parser

    classifier.USE_CLF = False  # dictionary disambiguation: see the module docstring
    return parser


@lru_cache(maxsize=8192)
def _parse(text: str) -> tuple[tuple[float, str, str, str, int, int, float | None], ...]:
    """quantulum3's quantities of ``text`` as plain tuples (cached: sources repeat)."""
    parser = _quantulum()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            found = parser.parse(text)
        except Exception:
            return ()
    out = []
    for q in found:
        out.append(
            (
                float(q.value),
                str(q.unit.name),
                str(q.unit.entity.name),
                str(q.surface),
                int(q.span[0]),
                int(q.span[1]),
                float(q.uncertainty) if q.uncertainty else None,
            )
        )
    return tuple(out)


_NUMERIC_HINT = re.compile(
    r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|"
    r"forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|trillion|"
    r"dozen|half|third|quarter|percent)\b",
    re.IGNORECASE,
)
_PIECE_RE = re.compile(r"(?:[^.;!?\n]|[.,](?=\d))+")


def _parsed(text: str) -> list[tuple[float, str, str, str, int, int, float | None]]:
    """quantulum3's quantities of ``text``, parsed piece by piece (sentence-sized, cached).

    Pieces without a digit or a number word are skipped: most of a source has no
    quantity, and the library's parse is the costly part of this stage.
    """
    out: list[tuple[float, str, str, str, int, int, float | None]] = []
    for piece in _PIECE_RE.finditer(text):
        if not _NUMERIC_HINT.search(piece.group(0)):
            continue
        offset = piece.start()
        for value, unit, entity, surface, start, end, unc in _parse(piece.group(0)):
            out.append((value, unit, entity, surface, start + offset, end + offset, unc))
    return out


def _rounding(surface: str, value: float) -> float:
    """Half a unit of the last written significant digit, capped at 5% of the value."""
    digits = _DIGITS_RE.search(surface)
    if digits is None or value == 0:
        return 0.5 if float(value).is_integer() else abs(value) * 0.05
    written = digits.group(0).replace(",", "")
    try:
        number = float(written)
    except ValueError:
        return 0.0
    if "." in written:
        place = 10.0 ** -len(written.split(".")[1])
    else:
        stripped = written.rstrip("0")
        place = 10.0 ** (len(written) - len(stripped)) if stripped else 1.0
    scale = abs(value / number) if number else 1.0
    return min(0.5 * place * scale, 0.05 * abs(value))


def _interval(
    text: str, start: int, end: int, value: float, surface: str, unc: float | None
) -> tuple[float, float]:
    before = text[max(0, start - 30) : start].lower().rstrip()
    after = text[end : end + 15].lower()
    if unc:
        return value - unc, value + unc
    if _ABOVE.search(before) or _ABOVE_AFTER.search(after):
        return value, _INF
    if _BELOW.search(before) or _BELOW_AFTER.search(after):
        return -_INF, value
    if _APPROX.search(before):
        band = max(abs(value) * 0.1, _rounding(surface, value))
        return value - band, value + band
    tol = _rounding(surface, value)
    return value - tol, value + tol


def _kind(unit: str, entity: str) -> tuple[str, float] | None:
    if unit in _BASE_UNITS:
        return _BASE_UNITS[unit]
    if entity == "currency":
        return f"currency:{unit}", 1.0
    if entity == "dimensionless" and unit == "dimensionless":
        return "count", 1.0
    if entity in ("unknown",):
        return None
    return f"{entity}:{unit}", 1.0


def _proportions(text: str) -> list[Mention]:
    out: list[Mention] = []
    for m in _PROPORTION_RE.finditer(text):
        if re.match(r"\s+(?:a|an)\b", text[m.end() :], flags=re.IGNORECASE):
            continue  # "a quarter of a point": a fraction of a unit, not of a population
        if m.group("frac"):
            pct = _FRACTION_WORDS.get(m.group("frac").lower().replace("-", " "))
            if pct is None:
                pct = _FRACTION_WORDS.get(m.group("frac").lower())
            if pct is None:
                continue
            low, high = pct - 2.0, pct + 2.0
        elif m.group("num"):
            num, den = m.group("num").lower(), m.group("den").lower()
            n = _SMALL_NUMBERS.get(num, int(num) if num.isdigit() else None)
            d = _SMALL_NUMBERS.get(den, int(den) if den.isdigit() else None)
            if n is None or not d or n > d or d > 1000:
                continue
            pct = 100.0 * n / d
            low, high = pct - 1.0, pct + 1.0
        else:
            low, high = _VAGUE[m.group("vague").lower()]
        near, clause = near_stems(text, m.start(), m.end())
        out.append(Mention("percent", low, high, m.group(0), m.start(), m.end(), near, clause))
    return out


def extract_quantities(text: str, exclude: list[tuple[int, int]] | None = None) -> list[Mention]:
    """Every quantity of ``text`` as a :class:`Mention`, in text order.

    Years and anything overlapping an ``exclude`` span (the date phrases: "15"
    of "15 February", "quarter" of "first quarter") are left out.
    """
    taken = list(exclude or [])
    out = [m for m in _proportions(text) if not any(s < m.end and m.start < e for s, e in taken)]
    taken += [(m.start, m.end) for m in out]
    for value, unit, entity, surface, start, end, unc in _parsed(text):
        if any(s < end and start < e for s, e in taken):
            continue
        if (
            entity == "dimensionless"
            and unit == "dimensionless"
            and _YEAR_SURFACE_RE.match(surface)
        ):
            continue  # a year: dates.py
        article = re.match(r"(?i)an?\s+", surface)
        if article and not _NUMERIC_HINT.search(surface[article.end() :]):
            continue  # "a percentage point": the article is not a number
        kind = _kind(unit, entity)
        symbol = _CURRENCY_SYMBOLS.get(surface[:1])
        if symbol is not None:  # "£40,000 at": quantulum reads "at" as ampere-turns
            kind = f"currency:{symbol}", 1.0
            written = _DIGITS_RE.search(surface)
            if written is not None and written.start() == 1:
                surface, end = surface[: written.end()], start + written.end()
        if kind is None:
            continue
        name, factor = kind
        if unit == "pound-mass" and _MONEY_CONTEXT.search(text):
            name, factor = "currency:pound sterling", 1.0  # "raised forty thousand pounds"
        if (
            entity == "dimensionless"
            and 0 < value < 1
            and text[end : end + 4].lower() == " of "
            and not re.match(r"(?i) of an?\b", text[end : end + 7])
        ):
            name, value, factor = "percent", value * 100.0, 1.0
        low, high = _interval(text, start, end, value, surface, unc)
        near, clause = near_stems(text, start, end)
        noun = (
            frozenset(content_stems(text[end : end + 40])[:2]) if name == "count" else frozenset()
        )
        out.append(
            Mention(name, low * factor, high * factor, surface, start, end, near, clause, noun)
        )
    return sorted(out, key=lambda m: m.start)
