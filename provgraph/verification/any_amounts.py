"""A denial of "any" against an amount: "has not raised any outside funding" / "raised $4
million from investors".

The scoped negation rule (:mod:`.negation`) wants two thirds of the denied predicate in
the source sentence, and a source names what was raised otherwise ("from investors" for
"outside funding"): the NLI model read the pair as support (0.50, session 38). "Any"
denies every amount of the verb's object, so the verb asserted with an amount right
after it (a number, or a number word with a scale) is the claim's predicate asserted,
whatever its noun. Without an amount ("paid its staff" for "has not paid any tax") the
two-thirds rule stands.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_ANY = re.compile(r"\bany\b", re.IGNORECASE)
_TOKEN = re.compile(r"[A-Za-z]+")
#: An amount within a few words after the verb: "$4 million", "12 new stores", "a billion".
_AMOUNT = re.compile(
    r"^\W*(?:\S+\s+){0,2}?(?:[$€£]?\d|(?:a|one|two|three|four|five|six|seven|eight|nine|ten)"
    r"\s+(?:hundred|thousand|million|billion)\b)",
    re.IGNORECASE,
)


def any_amount_asserted(
    claim: str, verb: str, sentence: str, key_of: Callable[[str], str | None]
) -> bool:
    """Does ``sentence`` assert the claim's denied ``verb`` (a scope's first key) with an
    amount right after it, the claim denying "any" of its object? ``key_of``: a word's
    key as the negation rule reads it (its stem, an effect's direction, a synonym's)."""
    if not _ANY.search(claim):
        return False
    for m in _TOKEN.finditer(sentence):
        if key_of(m.group(0)) == verb and _AMOUNT.match(sentence[m.end() :]):
            return True
    return False
