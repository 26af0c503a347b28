"""Years a text gives relative to another: "in 2010 … two years later", "the following year".

"The original film came out in 2010, and the sequel followed two years later." dates
the sequel to 2012, which the NLI model cannot work out (it read both "released in
2012" and "released in 2014" as contradictions, 0.97) and the value checks did not see:
the phrase holds no year. Read here: "N years / decades later / afterwards / after
that" and "N years earlier / before that", "the following / next / previous year",
each counted from the last year written before it (within :data:`_REACH` characters —
the year the narrative has reached: "Born in 1950, she moved in 1975 and two years
later …" is 1977). N is a digit or a number word up to twelve ("a" is one). After
"from", "than", "with", "over", "versus" or "against" the phrase is a comparison's
baseline ("revenue rose 6% from a year earlier"), not a date.

The year read is a *derived* value (:class:`~provgraph.verification.slots.Mention`):
it agrees or conflicts only when attached to the claim's words, and a duration
beside it does not turn a mismatch into arithmetic (:mod:`.bridged_dates`: its own
"two years" is how it was computed).
"""

from __future__ import annotations

import re

from provgraph.verification.wordsets import SMALL_NUMBERS, YEAR_RE

_RELATIVE = re.compile(
    r"\b(?:(?P<n>an?|\d{1,2}|" + "|".join(SMALL_NUMBERS) + r")\s+(?P<unit>years?|decades?)\s+"
    r"(?P<dir>later|afterwards?|after that|on|earlier|before that|previously)"
    r"|the\s+(?P<next>following|next|previous|preceding)\s+year)\b",
    re.IGNORECASE,
)
#: Words before a relative phrase that make it a comparison's baseline ("rose 6% *from* a
#: year earlier", "higher *than* a decade before").
_BASELINE = re.compile(r"\b(?:from|than|with|over|versus|vs\.?|against)\s+$", re.IGNORECASE)
_BACKWARD = frozenset(["earlier", "before that", "previously", "previous", "preceding"])
#: How far back the base year may be written.
_REACH = 250


def _count(word: str) -> int:
    lower = word.lower()
    if lower in ("a", "an"):
        return 1
    return int(lower) if lower.isdigit() else SMALL_NUMBERS[lower]


def relative_years(text: str) -> list[tuple[int, int, int]]:
    """``(start, end, year)`` of each relative year phrase of ``text`` with a base year."""
    out: list[tuple[int, int, int]] = []
    for m in _RELATIVE.finditer(text):
        if _BASELINE.search(text, max(0, m.start() - 16), m.start()):
            continue  # "rose 6% from a year earlier": a comparison's baseline, no event
        bases = list(YEAR_RE.finditer(text, max(0, m.start() - _REACH), m.start()))
        if not bases:
            continue
        base = int(bases[-1].group(1))
        if m.group("next"):
            step, direction = 1, m.group("next").lower()
        else:
            step = _count(m.group("n")) * (
                10 if m.group("unit").lower().startswith("decade") else 1
            )
            direction = m.group("dir").lower()
        out.append((m.start(), m.end(), base - step if direction in _BACKWARD else base + step))
    return out
