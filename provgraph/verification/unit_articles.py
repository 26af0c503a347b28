"""An article before a unit as the number one: "under a kilogram", "lasted an hour".

quantulum3 reads no value in "a kilogram", so "The parcel weighs under a kilogram." had
no claim value to compare with "2.3 kg" (session 36). The article is replaced by the
digit 1, padded to its length, so every offset stays the text's; the value's surface then
reads "1 kilogram", which the rounding and unit readers need.
"""

from __future__ import annotations

import re

#: "a kilogram", "an hour": one unit (quantulum3 reads no value in the article). Not a
#: rate or a frequency ("per hour", "twice a year": no such units here) nor a fraction's
#: whole ("half an hour", "a quarter of a mile": ``quantities._FRACTION_OF_ONE``), nor a mixed
#: value ("an hour and a half", which quantulum3 reads whole).
_ONE_UNIT = re.compile(
    r"(?<!\bper )(?<!\bhalf )(?<!\bof )(?<!\bonce )(?<!\btwice )(?<!\btimes )"
    r"\b(?P<article>an?)(?=\s+(?:kilo(?:gram|metre|meter)s?|kg|km|gram|tonne|ton|pound|ounce|"
    r"metre|meter|mile|foot|inch|yard|litre|liter|gallon|hour|minute)\b"
    r"(?!\s+and\s+an?\s+(?:half|quarter|third)))",
    re.IGNORECASE,
)


def _as_one(m: re.Match[str]) -> str:
    """The article as the digit 1, padded to its length (offsets stay the text's; the
    value's surface reads "1 kilogram", which the rounding and unit readers need)."""
    return "1".ljust(len(m.group("article")))


def articles_as_one(text: str) -> str:
    """``text`` with each article of :data:`_ONE_UNIT` as "1" (same length)."""
    return _ONE_UNIT.sub(_as_one, text)
