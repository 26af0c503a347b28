"""How many times as much: "three times higher", "a threefold risk", "twice as likely".

"Smokers had a threefold higher risk." states the claim "The risk was three times
higher among smokers." and denies "… ten times higher …"; the quantity reader sees
no value in "threefold" and none of a multiplier in "three times" (session 32: the
wrong factor was *weak*, the right one unconfirmed). Read here as one kind,
``multiple`` (the factor), they are compared like any value (:mod:`.slots`: same
subject, interval overlap).

Forms read, each an increase (a factor above one):

* "N-fold", "Nfold", "twofold" … "tenfold" (a fold is always a factor);
* "twice / thrice / N times" before a comparative word ("higher", "more", "greater",
  "larger", "as likely as"): not "three times a week" (a frequency) nor "three
  times in a row" (a count of events);
* "double / triple the …" ("double the risk").

"N times lower / smaller" is left out: writers mean 1/N or 1 − N × something, and a
wrong reading would call a paraphrase a contradiction. A written factor stands for
what its rounding covers ("three times" is [2.5, 3.5), "3.2-fold" [3.15, 3.25)).
"""

from __future__ import annotations

import re

from provgraph.verification.slots import Mention
from provgraph.verification.wordsets import SMALL_NUMBERS, near_stems

KIND = "multiple"

_WORD_FACTORS = {"twice": 2.0, "thrice": 3.0, "double": 2.0, "triple": 3.0, "quadruple": 4.0}
_NUMBER = r"(?:\d+(?:\.\d+)?|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_COMPARATIVE = (
    r"(?:higher|more|greater|larger|bigger|faster|longer|stronger|heavier|as\s+(?:\w+\s+)?as|"
    r"as\s+(?:likely|much|many|high|large|big|fast|long|often|common|frequent)\b)"
)
_FOLD = re.compile(rf"\b(?:(?P<n>{_NUMBER})[\s-]?fold)\b", re.IGNORECASE)
_TIMES = re.compile(
    rf"\b(?:(?P<word>twice|thrice)|(?P<n>{_NUMBER})\s+times)\s+(?={_COMPARATIVE})",
    re.IGNORECASE,
)
_DOUBLE_THE = re.compile(r"\b(?P<word>double|triple|quadruple)\s+the\b", re.IGNORECASE)


def _factor(written: str) -> tuple[float, float, float] | None:
    """``(value, low, high)`` of a written factor, by its rounding."""
    word = written.lower()
    if word in _WORD_FACTORS or word in SMALL_NUMBERS:
        value = _WORD_FACTORS.get(word) or float(SMALL_NUMBERS[word])
        return value, value - 0.5, value + 0.5
    try:
        value = float(word)
    except ValueError:
        return None
    decimals = len(word.split(".", 1)[1]) if "." in word else 0
    half = 0.5 * 10.0**-decimals
    return value, value - half, value + half


def extract_multipliers(text: str) -> list[Mention]:
    """Every factor of ``text`` as a ``multiple`` :class:`Mention` (factors above one only)."""
    out: list[Mention] = []
    matches = [*_FOLD.finditer(text), *_TIMES.finditer(text), *_DOUBLE_THE.finditer(text)]
    for m in sorted(matches, key=lambda m: m.start()):
        if any(o.start < m.end() and m.start() < o.end for o in out):
            continue
        groups = m.groupdict()
        read = _factor(groups.get("word") or groups.get("n") or "")
        if read is None or read[0] <= 1.0:
            continue
        surface = m.group(0).strip()
        end = m.start() + len(surface)
        near, clause = near_stems(text, m.start(), end)
        out.append(Mention(KIND, read[1], read[2], surface, m.start(), end, near, clause))
    return out
