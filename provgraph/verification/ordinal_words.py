"""Ordinal words "first" … "twentieth" and their numbers: shared by the date readers
(days of a month, "the first of August"; centuries, "the nineteenth century")."""

from __future__ import annotations

ORDINAL_WORDS: tuple[str, ...] = (
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
)
#: "first" → 1 … "twentieth" → 20
ORDINAL_NUMBERS: dict[str, int] = {w: i + 1 for i, w in enumerate(ORDINAL_WORDS)}
