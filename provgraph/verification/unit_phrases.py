"""Durations and measures said in words that quantulum3 reads apart or not at all.

* a fraction of one unit: "half an hour", "a quarter of a century", "three quarters of a
  mile" (the library reads "half" and "an hour", or "a quarter" and "a century", apart);
* one unit named by its article: "lasted a decade", "for a century" (not read at all;
  not "a decade-long" nor "a century-old", which qualify a noun);
* a number and its unit with a word between: "three full days", "two whole weeks" (the
  library reads "three" alone, a bare count);
* water's freezing point after a bound word: "below freezing" is below 0 °C;
* an area in hectares written out ("5,000 hectares"; the library reads only "ha");
* one unit and a half: "an hour and a half" (the library reads "a half" alone).

Each is ``(value, unit, entity, start, end)``, the unit one of
:data:`provgraph.verification.base_units.BASE_UNITS`' names (session 23).
"""

from __future__ import annotations

import re

from provgraph.verification.wordsets import SMALL_NUMBERS

#: A fraction word's value ("half", "a quarter", "three quarters", "two thirds": the last word).
FRACTION_VALUE = {"half": 0.5, "quarter": 0.25, "quarters": 0.75, "third": 1 / 3, "thirds": 2 / 3}
_UNITS = (
    r"hour|day|week|month|year|decade|century|mile|kilometre|kilometer|metre|meter|litre|"
    r"liter|kilogram|pound|ton|tonne"
)
#: The fraction words before "a/an <unit>" or "a <scale>" ("half a million": quantulum_reader).
FRACTION_WORDS = (
    r"half|a half|one half|a quarter|one quarter|three quarters|a third|one third|two thirds"
)
_FRACTION_OF_UNIT = re.compile(
    rf"\b(?P<frac>{FRACTION_WORDS})\s+(?:of\s+)?an?\s+(?P<unit>{_UNITS})\b", re.IGNORECASE
)
_ONE_UNIT = re.compile(r"\b(?:a|one)\s+(?P<unit>decade|century)\b(?![-\w])", re.IGNORECASE)
_QUALIFIED = re.compile(
    r"\b(?P<num>\d+|[a-z]+)\s+(?:full|whole|entire|long|straight)\s+"
    r"(?P<unit>hours|days|weeks|months|years|decades)\b",
    re.IGNORECASE,
)
#: Unit words: the unit's name (base_units.BASE_UNITS' key) and its dimension.
_UNIT_OF_WORD = {
    **{w: (w, "time") for w in ("hour", "day", "week", "month", "year", "decade", "century")},
    **{w: (w, "length") for w in ("mile", "kilometre", "metre")},
    "kilometer": ("kilometre", "length"),
    "meter": ("metre", "length"),
    "litre": ("litre", "volume"),
    "liter": ("litre", "volume"),
    "kilogram": ("kilogram", "mass"),
    "pound": ("pound-mass", "mass"),
    "ton": ("tonne", "mass"),
    "tonne": ("tonne", "mass"),
}


#: "an hour and a half", "a mile and a half": one unit and half of it (the library reads
#: "a half" alone, a share; session 29).
_AND_A_HALF = re.compile(rf"\b(?:an?|one)\s+(?P<unit>{_UNITS})\s+and\s+a\s+half\b", re.IGNORECASE)
#: "5,000 hectares": the library reads "ha" but not the word (a bare count; session 29).
_HECTARES = re.compile(r"\b(?P<num>\d[\d,]*(?:\.\d+)?)\s+hectares?\b", re.IGNORECASE)


#: Water's freezing point as a temperature bound: "fell below freezing" is below 0 °C. Only
#: after a bound word ("freezing rain", "a freezing morning" name no value).
_FREEZING = re.compile(
    r"\b(?:below|above|under|over)\s+(?P<point>freezing(?:\s+point)?)\b", re.IGNORECASE
)


def unit_phrases(text: str) -> list[tuple[float, str, str, int, int]]:
    """Every phrase of :mod:`this module <.unit_phrases>`'s kinds in ``text``."""
    out: list[tuple[float, str, str, int, int]] = [
        (0.0, "degree Celsius", "temperature", m.start("point"), m.end("point"))
        for m in _FREEZING.finditer(text)
    ]
    for m in _AND_A_HALF.finditer(text):
        unit, entity = _UNIT_OF_WORD[m.group("unit").lower()]
        out.append((1.5, unit, entity, m.start(), m.end()))
    for m in _HECTARES.finditer(text):
        value = float(m.group("num").replace(",", ""))
        out.append((value, "hectare", "area", m.start(), m.end()))
    for m in _FRACTION_OF_UNIT.finditer(text):
        value = FRACTION_VALUE[m.group("frac").lower().split()[-1]]
        unit, entity = _UNIT_OF_WORD[m.group("unit").lower()]
        out.append((value, unit, entity, m.start(), m.end()))
    for m in _ONE_UNIT.finditer(text):
        if any(s <= m.start() < e for _v, _u, _e, s, e in out):
            continue  # "a quarter of a century": the fraction's unit
        years = 10.0 if m.group("unit").lower() == "decade" else 100.0
        out.append((years, "year", "time", m.start(), m.end()))  # ±half a year, as "ten years"
    for m in _QUALIFIED.finditer(text):
        number = m.group("num").lower()
        count = int(number) if number.isdigit() else SMALL_NUMBERS.get(number)
        if count is None:
            continue
        unit, entity = _UNIT_OF_WORD[m.group("unit").lower().removesuffix("s")]
        out.append((float(count), unit, entity, m.start(), m.end()))
    return out
