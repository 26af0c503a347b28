"""Fractions written in words as percentages: "half", "a third", "two-thirds", "three quarters".

Shared by the proportion reader ("a third of the voters") and the change reader
("fell by a third"), so both read the same words as the same value.
"""

from __future__ import annotations

_FRACTIONS = {"half": 50.0, "third": 100 / 3, "quarter": 25.0, "fifth": 20.0, "tenth": 10.0}
_FRACTIONS.update({"thirds": 100 / 3, "quarters": 25.0, "fifths": 20.0, "tenths": 10.0})
_NUMERATORS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "nine": 9}

#: The rounding a fraction in words stands for, in percentage points: "a third" is
#: read as about 33 % (31.3–35.3), since a writer rounds a share to the nearest fraction.
FRACTION_BAND = 2.0


def fraction_percent(words: str) -> float | None:
    """Percent of "a third", "two-thirds", "three quarters", "half" (None: not a fraction)."""
    parts = words.lower().replace("-", " ").split()
    if len(parts) == 1:
        return _FRACTIONS["half"] if parts[0] == "half" else None
    numerator, unit = _NUMERATORS.get(parts[0]), _FRACTIONS.get(parts[1])
    if numerator is None or unit is None:
        return None
    if numerator > 1 and not parts[1].endswith("s") and parts[1] != "half":
        return None  # "two quarter": not English
    if parts[1] == "half" and numerator != 1:
        return None
    value = numerator * unit
    return value if value <= 100.0 else None
