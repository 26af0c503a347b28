"""Amounts written with a currency's ISO code: "EUR 3.96bn", "USD 12 million", "GBP 40,000".

quantulum3 reads the code as no unit and the amount as a count, so "about 4 billion euros"
was never compared with "EUR 3.96bn" (session 29). Only codes of currencies the quantity
reader already names are listed (the names are the ones its symbols map to: "$" and "USD"
are both "dollar").
"""

from __future__ import annotations

import re

_CODED = re.compile(
    r"\b(?P<code>USD|EUR|GBP|JPY|CHF)\s?(?P<num>\d[\d,]*(?:\.\d+)?)"
    r"(?:\s?(?P<scale>bn|b|mn|m|k|tn|trn)\b|\s+(?P<word>thousand|million|billion|trillion)\b)?"
)
_CODES = {
    "USD": "dollar",
    "EUR": "euro",
    "GBP": "pound sterling",
    "JPY": "yen",
    "CHF": "swiss franc",
}
_SCALES = {"k": 1e3, "m": 1e6, "mn": 1e6, "b": 1e9, "bn": 1e9, "tn": 1e12, "trn": 1e12}
_SCALES |= {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}


def coded_amounts(text: str) -> list[tuple[float, str, int, int]]:
    """``(value, currency unit, start, end)`` of each amount written after an ISO code."""
    out = []
    for m in _CODED.finditer(text):
        value = float(m.group("num").replace(",", ""))
        scale = m.group("scale") or m.group("word")
        if scale:
            value *= _SCALES[scale.lower()]
        out.append((value, _CODES[m.group("code")], m.start(), m.end()))
    return out
